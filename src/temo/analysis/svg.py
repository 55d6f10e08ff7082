"""Small dependency-free SVG charts for the report: grouped bars (with error bars), lines, heatmaps.

Every function returns a complete ``<svg>`` element as text, sized in pixels, with a ``<title>``
per mark so values show on hover, and works in any browser or paper pipeline (no JavaScript).
"""
from __future__ import annotations

from html import escape
from typing import Optional, Sequence

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac")
FONT = 'font-family="system-ui,Segoe UI,Helvetica,Arial,sans-serif"'


def _fmt(v: Optional[float], percent: bool) -> str:
    if v is None:
        return "n/a"
    return f"{100 * v:.1f}%" if percent else f"{v:.2f}"


def _legend(names: Sequence[str], x: float, y: float) -> str:
    out = []
    for i, name in enumerate(names):
        yy = y + i * 16
        out.append(f'<rect x="{x:.1f}" y="{yy - 9:.1f}" width="10" height="10" fill="{PALETTE[i % len(PALETTE)]}"/>'
                   f'<text x="{x + 14:.1f}" y="{yy:.1f}" font-size="11" {FONT}>{escape(name)}</text>')
    return "".join(out)


def _legend_width(names: Sequence[str]) -> int:
    return 30 + int(6.2 * max((len(n) for n in names), default=10))



def _frame(title: str, width: int, height: int, left: int, pw: float, y, lo: float, hi: float,
           percent: bool) -> list[str]:
    """The opening of a chart: the svg element, its title, and five horizontal grid lines with labels."""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">',
             f'<title>{escape(title)}</title>',
             f'<text x="{left}" y="16" font-size="13" font-weight="600" {FONT}>{escape(title)}</text>']
    for k in range(5):
        v = lo + (hi - lo) * k / 4
        parts.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#e5e5e5"/>'
                     f'<text x="{left - 4}" y="{y(v) + 4:.1f}" font-size="10" text-anchor="end" {FONT}>{_fmt(v, percent)}</text>')
    return parts

def bar_chart(groups: Sequence[str], series: dict[str, Sequence[Optional[float]]], title: str, *,
              errors: Optional[dict[str, Sequence[Optional[Sequence[float]]]]] = None, percent: bool = True,
              y_min: Optional[float] = None, y_max: Optional[float] = None, width: int = 720, height: int = 300,
              empty_note: str = "no data") -> str:
    """Grouped vertical bars: one group per label, one bar per series; values may be negative."""
    names = list(series)
    vals = [v for s in series.values() for v in s if v is not None]
    for errs in (errors or {}).values():
        vals += [b for e in errs if e for b in e]
    lo = min([0.0, *vals]) if y_min is None else y_min
    hi = max([0.0, *vals]) if y_max is None else y_max
    if hi - lo < 1e-9:
        hi = lo + 1.0
    first = len(groups[0]) if groups else 0
    left, right, top, bottom = 48 + max(0, int(5.2 * first) - 50), _legend_width(names), 28, 90
    width = max(width, left + right + 60 * max(1, len(groups)))
    height = max(height, 300)
    pw, ph = width - left - right, height - top - bottom
    y = lambda v: top + ph * (hi - v) / (hi - lo)  # noqa: E731
    parts = _frame(title, width, height, left, pw, y, lo, hi, percent)
    parts.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#888"/>')
    if not any(v is not None for s_ in series.values() for v in s_):
        parts.append(f'<text class="no-data" x="{left + pw / 2:.1f}" y="{top + ph / 2:.1f}" font-size="12" text-anchor="middle" '
                     f'fill="#888" {FONT}>{escape(empty_note)}</text>')
    n = max(1, len(groups))
    gw = pw / n
    bw = max(2.0, min(28.0, gw * 0.8 / max(1, len(names))))
    for gi, g in enumerate(groups):
        x0 = left + gi * gw + (gw - bw * len(names)) / 2
        for si, name in enumerate(names):
            v = series[name][gi] if gi < len(series[name]) else None
            x = x0 + si * bw
            if v is not None:
                y1, y2 = sorted((y(v), y(0)))
                parts.append(f'<rect class="bar" x="{x:.1f}" y="{y1:.1f}" width="{bw - 1:.1f}" height="{max(0.5, y2 - y1):.1f}" '
                             f'fill="{PALETTE[si % len(PALETTE)]}"><title>{escape(name)} · {escape(g)}: {_fmt(v, percent)}</title></rect>')
            err = (errors or {}).get(name)
            e = err[gi] if err and gi < len(err) else None
            if e:
                cx = x + (bw - 1) / 2
                parts.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(e[0]):.1f}" y2="{y(e[1]):.1f}" stroke="#333"/>'
                             f'<line x1="{cx - 3:.1f}" x2="{cx + 3:.1f}" y1="{y(e[0]):.1f}" y2="{y(e[0]):.1f}" stroke="#333"/>'
                             f'<line x1="{cx - 3:.1f}" x2="{cx + 3:.1f}" y1="{y(e[1]):.1f}" y2="{y(e[1]):.1f}" stroke="#333"/>')
        lx = left + gi * gw + gw / 2
        parts.append(f'<text x="{lx:.1f}" y="{top + ph + 14}" font-size="10" text-anchor="end" transform="rotate(-30 {lx:.1f} {top + ph + 14})" {FONT}>{escape(g)}</text>')
    parts.append(_legend(names, left + pw + 12, top + 10))
    parts.append("</svg>")
    return "".join(parts)


def line_chart(xs: Sequence[float], series: dict[str, Sequence[Optional[float]]], title: str, *, x_label: str = "",
               percent: bool = True, y_min: float = 0.0, y_max: float = 1.0, width: int = 520, height: int = 280) -> str:
    names = list(series)
    left, right, top, bottom = 48, _legend_width(names), 28, 42
    width = max(width, left + right + 320)
    pw, ph = width - left - right, height - top - bottom
    x_lo, x_hi = (min(xs), max(xs)) if xs else (0, 1)
    if x_hi == x_lo:
        x_hi = x_lo + 1
    X = lambda v: left + pw * (v - x_lo) / (x_hi - x_lo)  # noqa: E731
    Y = lambda v: top + ph * (y_max - v) / (y_max - y_min)  # noqa: E731
    parts = _frame(title, width, height, left, pw, Y, y_min, y_max, percent)
    for v in xs:
        parts.append(f'<text x="{X(v):.1f}" y="{top + ph + 14}" font-size="10" text-anchor="middle" {FONT}>{v:g}</text>')
    parts.append(f'<text x="{left + pw / 2:.1f}" y="{height - 6}" font-size="11" text-anchor="middle" {FONT}>{escape(x_label)}</text>')
    for si, name in enumerate(names):
        pts = [(X(x), Y(v)) for x, v in zip(xs, series[name]) if v is not None]
        color = PALETTE[si % len(PALETTE)]
        if len(pts) > 1:
            parts.append(f'<polyline class="line" fill="none" stroke="{color}" stroke-width="2" points="{" ".join(f"{a:.1f},{b:.1f}" for a, b in pts)}"/>')
        for (a, b), (x, v) in zip(pts, [(x, v) for x, v in zip(xs, series[name]) if v is not None]):
            parts.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3" fill="{color}"><title>{escape(name)} k={x:g}: {_fmt(v, percent)}</title></circle>')
    parts.append(_legend(names, left + pw + 12, top + 10))
    parts.append("</svg>")
    return "".join(parts)


def _heat(v: Optional[float]) -> str:
    if v is None:
        return "#f3f3f3"
    v = max(0.0, min(1.0, v))
    r = int(247 + (33 - 247) * v)
    g = int(251 + (102 - 251) * v)
    b = int(255 + (172 - 255) * v)
    return f"rgb({r},{g},{b})"


def heatmap(rows: Sequence[str], cols: Sequence[str], values: Sequence[Sequence[Optional[float]]], title: str,
            cell: int = 54) -> str:
    left, top = 90, 44
    width, height = max(left + cell * len(cols) + 20, int(7 * len(title)) + 10), top + cell * len(rows) + 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">',
             f'<title>{escape(title)}</title>',
             f'<text x="4" y="16" font-size="13" font-weight="600" {FONT}>{escape(title)}</text>']
    for j, c in enumerate(cols):
        parts.append(f'<text x="{left + j * cell + cell / 2:.1f}" y="{top - 6}" font-size="10" text-anchor="middle" {FONT}>{escape(c[:10])}</text>')
    for i, r in enumerate(rows):
        parts.append(f'<text x="{left - 6}" y="{top + i * cell + cell / 2 + 4:.1f}" font-size="11" text-anchor="end" {FONT}>{escape(r)}</text>')
        for j, c in enumerate(cols):
            v = values[i][j]
            dark = v is not None and v > 0.55
            parts.append(f'<rect class="cell" x="{left + j * cell}" y="{top + i * cell}" width="{cell - 2}" height="{cell - 2}" fill="{_heat(v)}">'
                         f'<title>{escape(r)} × {escape(c)}: {_fmt(v, True)}</title></rect>'
                         f'<text x="{left + j * cell + cell / 2 - 1:.1f}" y="{top + i * cell + cell / 2 + 3:.1f}" font-size="10" '
                         f'text-anchor="middle" fill="{"#fff" if dark else "#222"}" {FONT}>{"" if v is None else f"{100 * v:.0f}"}</text>')
    parts.append("</svg>")
    return "".join(parts)
