#!/usr/bin/env python3
"""Screenshots a web page with headless Chromium once it has settled (for the docs' trace screenshot).

Usage: screenshot.py URL OUT.png [--wait SECONDS] [--size 1600x900] [--mouse X,Y] [--keys KEYS] [--click X,Y]

Drives Chromium through the DevTools protocol (needs the `websocket-client` package): loads URL, waits
(Perfetto UI compiles WebAssembly and loads the trace in real time, which `chromium --screenshot` does not
wait for), optionally moves the mouse and presses keys (`w` zooms in Perfetto around the mouse), clicks (to select a
slice), waits again, and saves a PNG.
"""
import base64, json, subprocess, sys, time, urllib.request

import websocket

url, out = sys.argv[1], sys.argv[2]
options = dict(zip(sys.argv[3::2], sys.argv[4::2]))
wait = float(options.get("--wait", "15"))
width, height = options.get("--size", "1600x900").split("x")
keys = options.get("--keys", "")
port = 9223
browser = subprocess.Popen(
    ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
     f"--remote-debugging-port={port}", f"--window-size={width},{height}", "about:blank"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(100):
        try:
            targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json"))
            page = next(t for t in targets if t["type"] == "page")
            break
        except Exception:
            time.sleep(0.2)
    ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=120)
    counter = 0

    def call(method, **params):
        global counter
        counter += 1
        ws.send(json.dumps({"id": counter, "method": method, "params": params}))
        while True:
            message = json.loads(ws.recv())
            if message.get("id") == counter:
                return message.get("result", {})

    call("Emulation.setDeviceMetricsOverride", width=int(width), height=int(height), deviceScaleFactor=1, mobile=False)
    call("Page.navigate", url=url)
    time.sleep(wait)
    if "--mouse" in options:
        x, y = (int(v) for v in options["--mouse"].split(","))
        call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
    for key in keys:
        for kind in ("keyDown", "keyUp"):
            call("Input.dispatchKeyEvent", type=kind, key=key, text=key if kind == "keyDown" else "", code=f"Key{key.upper()}")
        time.sleep(0.15)
    if keys:
        time.sleep(3)
    if "--click" in options:
        x, y = (int(v) for v in options["--click"].split(","))
        for kind in ("mousePressed", "mouseReleased"):
            call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
        time.sleep(2)
    shot = call("Page.captureScreenshot", format="png")
    with open(out, "wb") as file:
        file.write(base64.b64decode(shot["data"]))
finally:
    browser.terminate()
    browser.wait()
