"""Stage 1: the tool graph. Checks a domain's graph against the paper's rules and draws it as SVG."""
from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from ..env import Domain, ToolGraph

DENSITY = (0.25, 0.43)
BIDIRECTIONAL = (0.34, 0.57)
# The paper names read tools by prefix (get_, list_, search_, check_, find_), but its own sources have
# read tools outside that rule (telecom troubleshoot_device, movie price_preview): kinds come from the tools.


def bidirectional_share(graph: ToolGraph) -> float:
    """Share of connected unordered pairs that are connected in both directions."""
    edges = set(map(tuple, graph.edges))
    pairs = {frozenset(e) for e in edges}
    both = sum(1 for p in pairs if len(p) == 2 and tuple(p) in edges and tuple(reversed(tuple(p))) in edges)
    return both / len(pairs) if pairs else 0.0


def stats(graph: ToolGraph) -> dict[str, Any]:
    return {"nodes": len(graph.nodes), "edges": len(graph.edges), "roots": len(graph.roots),
            "density": round(graph.density, 4), "bidirectional": round(bidirectional_share(graph), 4)}


def validate(domain: Domain, want: dict[str, int] | None = None) -> list[str]:
    """Problems with the domain's graph: sizes (against ``want`` = paper's tools/edges), density,
    bidirectional share, roots, and that every node is a tool of the domain."""
    g = domain.graph
    out: list[str] = []
    s = stats(g)
    if want:
        if s["nodes"] != want.get("tools"):
            out.append(f"{s['nodes']} nodes, the paper has {want.get('tools')}")
        if s["edges"] != want.get("edges"):
            out.append(f"{s['edges']} edges, the paper has {want.get('edges')}")
    # the paper quotes both ranges to two decimals (the authors' airline graph has density 0.4306)
    if not DENSITY[0] <= round(s["density"], 2) <= DENSITY[1]:
        out.append(f"density {s['density']} outside {DENSITY[0]}-{DENSITY[1]}")
    if not BIDIRECTIONAL[0] <= round(s["bidirectional"], 2) <= BIDIRECTIONAL[1]:
        out.append(f"bidirectional share {s['bidirectional']} outside {BIDIRECTIONAL[0]}-{BIDIRECTIONAL[1]}")
    for n in g.nodes:
        if n not in domain.tools:
            out.append(f"node {n} is not a tool of {domain.name}")
    if not g.roots:
        out.append("no root-eligible tools")
    return out


def to_svg(domain: Domain) -> str:
    """Read tools in the left column, write tools in the right; roots drawn with a thick border."""
    g = domain.graph
    reads = [n for n in g.nodes if domain.tools[n].kind == "read"]
    writes = [n for n in g.nodes if domain.tools[n].kind != "read"]
    box_w, box_h, gap, left, right, top = 250, 30, 16, 40, 520, 60
    pos: dict[str, tuple[int, int]] = {}
    for col, names in ((left, reads), (right, writes)):
        for i, n in enumerate(names):
            pos[n] = (col, top + i * (box_h + gap))
    height = top + max(len(reads), len(writes), 1) * (box_h + gap) + 40
    roots = set(g.roots)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{right + box_w + 40}" height="{height}" font-family="sans-serif" font-size="12">',
        '<defs><marker id="a" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#667"/></marker></defs>',
        f'<text x="{left}" y="30" font-size="15" font-weight="bold">{html.escape(domain.name)}: read tools</text>',
        f'<text x="{right}" y="30" font-size="15" font-weight="bold">write tools</text>',
        f'<text x="{left}" y="{height - 12}" fill="#555">{len(g.nodes)} tools, {len(g.edges)} edges; thick border = root-eligible</text>',
    ]
    for a, b in g.edges:
        (x1, y1), (x2, y2) = pos[a], pos[b]
        sx = x1 + box_w if x2 >= x1 + box_w or x1 == x2 else x1
        ex = x2 if x2 > x1 else x2 + box_w
        if x1 == x2:  # same column: bow out to the side
            ex = sx
            mid = sx + 40 + abs(y2 - y1) // 6
            path = f"M{sx},{y1 + box_h // 2} C{mid},{y1 + box_h // 2} {mid},{y2 + box_h // 2} {ex},{y2 + box_h // 2}"
        else:
            path = f"M{sx},{y1 + box_h // 2} L{ex},{y2 + box_h // 2}"
        parts.append(f'<path d="{path}" stroke="#889" stroke-width="1" fill="none" marker-end="url(#a)" opacity="0.7"/>')
    for n, (x, y) in pos.items():
        fill = "#e8f0fe" if domain.tools[n].kind == "read" else "#fde8e8"
        width = 3 if n in roots else 1
        parts.append(f'<rect x="{x}" y="{y}" width="{box_w}" height="{box_h}" rx="5" fill="{fill}" stroke="#333" stroke-width="{width}"/>')
        parts.append(f'<text x="{x + 8}" y="{y + 19}">{html.escape(n)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def write_picture(domain: Domain, out: Path) -> Path:
    svg = to_svg(domain)
    if out.suffix.lower() == ".png":
        import shutil
        import subprocess
        import tempfile

        conv = shutil.which("rsvg-convert") or shutil.which("convert")
        if conv is None:
            raise RuntimeError("writing PNG needs rsvg-convert or ImageMagick's convert; write .svg instead")
        with tempfile.NamedTemporaryFile("w", suffix=".svg", delete=False) as fh:
            fh.write(svg)
        cmd = [conv, fh.name, "-o", str(out)] if conv.endswith("rsvg-convert") else [conv, fh.name, str(out)]
        subprocess.run(cmd, check=True, capture_output=True)
    else:
        out.write_text(svg, encoding="utf-8")
    return out


def graph_json(domain: Domain) -> dict[str, Any]:
    g = domain.graph
    s = stats(g)
    return {"nodes": list(g.nodes), "edges": [list(e) for e in g.edges], "roots": list(g.roots),
            "density": s["density"], "bidirectional": s["bidirectional"]}


def dumps(domain: Domain) -> str:
    return json.dumps(graph_json(domain), indent=1)
