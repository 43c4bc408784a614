#!/usr/bin/env python3
"""Draws a tether-bench JSON report as an SVG chart (python3 standard library only).

Usage: python3 Benchmarks/Scripts/chart.py REPORT.json [OUT.svg]   (default: chart.svg beside REPORT.json)

Top: every row that has a reference, one line each: the paired ratio (log scale) of every implementation
to the row's reference, Tether and each contender the report has (OpenCombine, Observation, ...), the goal
as a mark, the figure and the goal written at the right. Below: the scaling rows (those whose measurements
carry a `scale`) as lines against N (log x, log y): ns per unit (per subscriber, per operator) and, where
measured, bytes per live subscription; a goal is marked at its size as the ceiling it puts on the median
(the goal's factor times the median of the size it is relative to; check-goals judges the paired ratio).

Every figure comes from the report; nothing is typed in here.
"""

import html
import json
import math
import os
import re
import sys

WIDTH = 1100
ROW_HEIGHT = 20
LABEL_WIDTH = 330
VALUE_WIDTH = 250
FONT = "font-family='DejaVu Sans, Helvetica, Arial, sans-serif'"
COLORS = {"Tether": "#1f5fbf", "OpenCombine": "#e07b00", "Observation": "#2a9d3a", "closures": "#555555"}
OTHER_COLOR = "#999999"
MISSED_COLOR = "#c0282d"
MET_COLOR = "#2a9d3a"


def family(implementation):
    for name in ("Tether", "OpenCombine", "Observation"):
        if implementation.startswith(name):
            return name
    return "other"


def color(implementation):
    return COLORS.get(family(implementation), OTHER_COLOR)


def esc(text):
    return html.escape(str(text), quote=True)


def bound(part, unit):
    """'≤ 1.5×' -> 1.5 for unit '×'; '≤ 1,600 B' -> 1600 for unit 'B'; None otherwise."""
    match = re.fullmatch(r"≤\s*([0-9.,]+)\s*" + re.escape(unit), part.strip())
    return float(match.group(1).replace(",", "")) if match else None


def ratio_of(m):
    return m.get("pairedRatio") if m.get("pairedRatio") is not None else m.get("ratio")


def verdicts(m):
    """[(text, met)] for each goal part of a measurement that can be judged from it alone."""
    result = []
    for part in (m.get("goal") or "").split(","):
        part = part.strip()
        limit = bound(part, "×")
        if limit is not None and ratio_of(m) is not None:
            result.append((f"{ratio_of(m):.2f}× ({part})", ratio_of(m) <= limit))
        limit = bound(part, "B")
        if limit is not None and m.get("bytesPerLiveSubscription") is not None:
            result.append((f"{m['bytesPerLiveSubscription']:.0f} B ({part})", m["bytesPerLiveSubscription"] <= limit))
    return result


def fmt_number(value):
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 1:
        return f"{value:g}"
    return f"{value:g}"


class Svg:
    def __init__(self):
        self.parts = []

    def add(self, text):
        self.parts.append(text)

    def text(self, x, y, content, size=11, anchor="start", fill="#222", weight="normal"):
        self.add(
            f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size}' text-anchor='{anchor}' fill='{fill}' "
            f"font-weight='{weight}' {FONT}>{esc(content)}</text>"
        )

    def line(self, x1, y1, x2, y2, stroke="#ccc", width=1, dash=None):
        dash_attr = f" stroke-dasharray='{dash}'" if dash else ""
        self.add(
            f"<line x1='{x1:.1f}' y1='{y1:.1f}' x2='{x2:.1f}' y2='{y2:.1f}' stroke='{stroke}' "
            f"stroke-width='{width}'{dash_attr}/>"
        )


def log_range(values, pad_low=1, pad_high=1):
    values = [v for v in values if v and v > 0]
    if not values:
        return 0.1, 10.0
    low = 10 ** math.floor(math.log10(min(values)))
    high = 10 ** math.ceil(math.log10(max(values)))
    if low == high:
        high = low * 10
    return low, high


def ratio_panel(svg, report, top):
    """The per-row ratio chart; returns the y where it ends."""
    rows = []
    for m in report["measurements"]:
        if m.get("scale") is not None:
            continue
        if not rows or rows[-1][0] != m["row"]:
            rows.append((m["row"], []))
        rows[-1][1].append(m)
    rows = [(label, ms) for label, ms in rows if any(ratio_of(m) is not None and m["implementation"] != m["reference"] for m in ms)]
    if not rows:
        return top
    values = []
    for _, ms in rows:
        for m in ms:
            if m["implementation"] != m["reference"] and ratio_of(m):
                values.append(ratio_of(m))
            for part in (m.get("goal") or "").split(","):
                limit = bound(part, "×")
                if limit:
                    values.append(limit)
    low, high = log_range(values)
    low = max(low, 0.01)
    plot_left = LABEL_WIDTH
    plot_right = WIDTH - VALUE_WIDTH

    def x_of(value):
        value = min(max(value, low), high)
        return plot_left + (math.log10(value) - math.log10(low)) / (math.log10(high) - math.log10(low)) * (plot_right - plot_left)

    svg.text(20, top + 16, "Ratio to the hand-written reference in the same run (paired, log scale)", 14, weight="bold")
    legend_x = 20
    legend_y = top + 36
    for name in ("Tether", "OpenCombine", "Observation"):
        if any(family(m["implementation"]) == name for _, ms in rows for m in ms):
            svg.add(f"<circle cx='{legend_x + 5}' cy='{legend_y - 4}' r='5' fill='{COLORS[name]}'/>")
            svg.text(legend_x + 14, legend_y, name)
            legend_x += 110
    svg.add(f"<circle cx='{legend_x + 5}' cy='{legend_y - 4}' r='4' fill='white' stroke='{OTHER_COLOR}' stroke-width='2'/>")
    svg.text(legend_x + 14, legend_y, "other contender (fused closures, …)")
    legend_x += 240
    svg.add(f"<rect x='{legend_x}' y='{legend_y - 11}' width='3' height='14' fill='#222'/>")
    svg.text(legend_x + 10, legend_y, "goal (right: Tether's figure against it; red = missed)")
    y0 = top + 56
    plot_bottom = y0 + ROW_HEIGHT * len(rows)
    decade = low
    while decade <= high * 1.0001:
        x = x_of(decade)
        svg.line(x, y0 - 4, x, plot_bottom, "#888" if abs(decade - 1) < 1e-9 else "#ddd", 1.5 if abs(decade - 1) < 1e-9 else 1)
        svg.text(x, plot_bottom + 14, f"{fmt_number(decade)}×", 10, "middle", "#555")
        decade *= 10
    for index, (label, ms) in enumerate(rows):
        y = y0 + ROW_HEIGHT * index + ROW_HEIGHT / 2
        if index % 2 == 0:
            svg.add(f"<rect x='10' y='{y - ROW_HEIGHT / 2:.1f}' width='{WIDTH - 20}' height='{ROW_HEIGHT}' fill='#f5f5f5'/>")
        svg.text(plot_left - 8, y + 4, label, 11, "end")
        judged = []
        for m in ms:  # the goal marks first, so the figures are drawn over them
            for part in (m.get("goal") or "").split(","):
                limit = bound(part, "×")
                if limit is not None:
                    gx = x_of(limit)
                    svg.add(
                        f"<rect x='{gx - 1.5:.1f}' y='{y - 8:.1f}' width='3' height='16' fill='#222'>"
                        f"<title>{esc(m['implementation'] + ' goal ' + part.strip())}</title></rect>"
                    )
            judged += verdicts(m)
        for m in ms:
            if m["implementation"] == m["reference"]:
                continue
            ratio = ratio_of(m)
            if ratio is None:
                continue
            x = x_of(ratio)
            fam = family(m["implementation"])
            title = f"{m['implementation']}: {ratio:.2f}× {m['reference']} ({m['medianNs']:.1f} ns per {m['unit']})"
            hollow = fam == "other"
            stroke = color(m["implementation"])
            fill = "white" if hollow else stroke
            if ratio < low:  # off the axis: a triangle pointing left at its edge
                svg.add(
                    f"<path d='M{x - 6:.1f},{y:.1f} L{x + 3:.1f},{y - 5:.1f} L{x + 3:.1f},{y + 5:.1f} Z' fill='{fill}' "
                    f"stroke='{stroke}' stroke-width='1.5'><title>{esc(title)}</title></path>"
                )
                continue
            svg.add(
                f"<circle cx='{x:.1f}' cy='{y:.1f}' r='{4 if hollow else 5}' fill='{fill}' stroke='{stroke}' "
                f"stroke-width='2'><title>{esc(title)}</title></circle>"
            )
        text_x = plot_right + 12
        for text, met in judged:
            svg.text(text_x, y + 4, text, 10.5, fill=MET_COLOR if met else MISSED_COLOR)
            text_x += 6.3 * len(text) + 10
    return plot_bottom + 30


def scaling_panels(svg, report, top):
    """One small plot per scaling row (ns per unit against N), and one of bytes where measured."""
    rows = {}
    for m in report["measurements"]:
        if m.get("scale") is None:
            continue
        rows.setdefault(m["row"], []).append(m)
    panels = []
    for label, ms in rows.items():
        unit = ms[0]["unit"]
        panels.append((label, f"ns per {unit} (median)", ms, "medianNs"))
    for label, ms in rows.items():
        if any(m.get("bytesPerLiveSubscription") is not None for m in ms):
            panels.append((label.split(",")[0].replace("scaling", "memory"), "bytes per live subscription", ms, "bytesPerLiveSubscription"))
    if not panels:
        return top
    svg.text(20, top + 16, "Scaling rows: cost against N (log x, log y); goal marks at their size", 14, weight="bold")
    columns = 3
    panel_width = (WIDTH - 40) / columns
    panel_height = 250
    y_top = top + 30
    for index, (label, axis, ms, key) in enumerate(panels):
        px = 20 + (index % columns) * panel_width
        py = y_top + (index // columns) * (panel_height + 20)
        draw_scaling(svg, px, py, panel_width - 20, panel_height, label, axis, ms, key)
    rows_used = (len(panels) + columns - 1) // columns
    return y_top + rows_used * (panel_height + 20) + 10


def draw_scaling(svg, px, py, width, height, label, axis, ms, key):
    ms = [m for m in ms if m.get(key) is not None]
    left, right, top, bottom = px + 55, px + width - 10, py + 34, py + height - 34
    svg.add(f"<rect x='{px:.1f}' y='{py:.1f}' width='{width:.1f}' height='{height}' fill='white' stroke='#ddd'/>")
    svg.text(px + 8, py + 16, label, 11.5, weight="bold")
    svg.text(px + 8, py + 29, axis, 10, fill="#555")
    if not ms:
        svg.text(px + width / 2, py + height / 2, "not measured in this report", 10, "middle", "#888")
        return
    by_name = {m["implementation"]: m for m in ms}
    ceilings = []  # (scale, ceiling, met)
    for m in ms:
        for part in (m.get("goal") or "").split(","):
            if key == "medianNs":
                limit = bound(part, "×")
                reference = by_name.get(m["reference"])
                if limit is not None and reference is not None:
                    met = ratio_of(m) is not None and ratio_of(m) <= limit
                    ceilings.append((m["scale"], limit * reference["medianNs"], met, f"{m['implementation']}: {part.strip()} {m['reference']}"))
            else:
                limit = bound(part, "B")
                if limit is not None:
                    ceilings.append((m["scale"], limit, m[key] <= limit, f"{m['implementation']}: {part.strip()}"))
    xs = [m["scale"] for m in ms]
    ys = [m[key] for m in ms] + [c[1] for c in ceilings]
    x_low, x_high = log_range(xs)
    y_low, y_high = log_range(ys)

    def x_of(value):
        if x_high == x_low:
            return (left + right) / 2
        return left + (math.log10(value) - math.log10(x_low)) / (math.log10(x_high) - math.log10(x_low)) * (right - left)

    def y_of(value):
        return bottom - (math.log10(value) - math.log10(y_low)) / (math.log10(y_high) - math.log10(y_low)) * (bottom - top)

    decade = x_low
    while decade <= x_high * 1.0001:
        svg.line(x_of(decade), top, x_of(decade), bottom, "#eee")
        svg.text(x_of(decade), bottom + 13, fmt_number(decade), 9.5, "middle", "#555")
        decade *= 10
    decade = y_low
    while decade <= y_high * 1.0001:
        svg.line(left, y_of(decade), right, y_of(decade), "#eee")
        svg.text(left - 5, y_of(decade) + 3, fmt_number(decade), 9.5, "end", "#555")
        decade *= 10
    svg.text((left + right) / 2, bottom + 27, "N", 10, "middle", "#555")
    series = {}
    for m in ms:
        series.setdefault(m.get("series") or m["implementation"], []).append(m)
    legend_y = top + 10
    for name, points in series.items():
        points.sort(key=lambda m: m["scale"])
        stroke = COLORS.get(name, COLORS.get(family(name), OTHER_COLOR))
        path = " ".join(f"{'M' if i == 0 else 'L'}{x_of(m['scale']):.1f},{y_of(m[key]):.1f}" for i, m in enumerate(points))
        svg.add(f"<path d='{path}' fill='none' stroke='{stroke}' stroke-width='2'/>")
        for m in points:
            value = f"{m[key]:.1f} ns" if key == "medianNs" else f"{m[key]:.0f} B"
            svg.add(
                f"<circle cx='{x_of(m['scale']):.1f}' cy='{y_of(m[key]):.1f}' r='3.5' fill='{stroke}'>"
                f"<title>{esc(m['implementation'] + ': ' + value)}</title></circle>"
            )
        svg.add(f"<line x1='{right - 95}' y1='{legend_y - 4}' x2='{right - 80}' y2='{legend_y - 4}' stroke='{stroke}' stroke-width='2'/>")
        svg.text(right - 76, legend_y, name, 10)
        legend_y += 13
    for scale, ceiling, met, title in ceilings:
        x, y = x_of(scale), y_of(ceiling)
        mark = MET_COLOR if met else MISSED_COLOR
        svg.add(
            f"<path d='M{x - 9:.1f},{y:.1f} L{x + 9:.1f},{y:.1f} M{x:.1f},{y:.1f} L{x:.1f},{y + 5:.1f}' stroke='{mark}' "
            f"stroke-width='2.5'><title>{esc(title + (' (met)' if met else ' (missed)'))}</title></path>"
        )


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(64)
    source = sys.argv[1]
    target = sys.argv[2] if len(sys.argv) == 3 else os.path.join(os.path.dirname(os.path.abspath(source)), "chart.svg")
    with open(source, encoding="utf-8") as file:
        report = json.load(file)
    svg = Svg()
    quick = " — QUICK run: indicative only" if report.get("quick") else ""
    svg.text(20, 24, f"tether-bench, {report['date'][:10]}: {report['machine']}, {report['cores']} cores, "
             f"Swift {report['swift']}, {report['repetitions']} repetitions{quick}", 14, weight="bold")
    bottom = ratio_panel(svg, report, 34)
    bottom = scaling_panels(svg, report, bottom)
    if report.get("checksumMismatches"):
        svg.text(20, bottom + 14, f"{len(report['checksumMismatches'])} checksum mismatch(es): figures suspect", 12, fill=MISSED_COLOR)
        bottom += 24
    height = bottom + 10
    with open(target, "w", encoding="utf-8") as file:
        file.write(
            f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{height:.0f}' "
            f"viewBox='0 0 {WIDTH} {height:.0f}'>\n<rect width='100%' height='100%' fill='white'/>\n"
        )
        file.write("\n".join(svg.parts))
        file.write("\n</svg>\n")
    print(f"chart: wrote {target}")


if __name__ == "__main__":
    main()
