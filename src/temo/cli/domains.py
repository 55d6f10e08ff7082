"""`temo domains`: what each domain offers."""
from __future__ import annotations

import typer

from .common import fail, print_json, split_csv


def describe(name: str) -> dict:
    from ..domains import get_domain

    dom = get_domain(name)
    graph = dom.graph
    return {
        "name": name,
        "tools": [{"name": t.name, "kind": t.kind} for t in dom.tools.values()],
        "entities": dom.database("test").counts(),
        "graph": {"nodes": graph.nodes, "edges": [list(e) for e in graph.edges], "roots": graph.roots,
                  "density": round(graph.density, 3)},
        "tasks": {split: len(dom.tasks(split)) for split in ("test", "train")},
        "separate_train_db": dom.database("train") is not dom.database("test"),
    }


app = typer.Typer(invoke_without_command=True, help="The domains: tools, databases, tool graphs, task counts.")


@app.callback()
def domains_command(
    ctx: typer.Context,
    names: str = typer.Option(None, "--domains", help="Comma-separated domains (default: all)."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON (tools, entity counts, graph, task counts)."),
) -> None:
    """List the domains: tools (read/write), database entities, tool graph and task counts.

    Examples: temo domains --json;  temo domains graph retail --out retail.svg
    """
    if ctx.invoked_subcommand is not None:
        return
    from ..domains import available

    chosen = split_csv(names) or available()
    unknown = [d for d in chosen if d not in available()]
    if unknown:
        fail(f"--domains: unknown domain(s) {', '.join(unknown)}; available: {', '.join(available())}")
    info = [describe(d) for d in chosen]
    if json_out:
        print_json({"domains": info})
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="temo domains")
    for col in ("domain", "read", "write", "entities", "graph (nodes/edges/roots)", "tasks test/train"):
        table.add_column(col)
    for d in info:
        kinds = [t["kind"] for t in d["tools"]]
        ents = ", ".join(f"{v} {k}" for k, v in d["entities"].items())
        g = d["graph"]
        table.add_row(d["name"], str(kinds.count("read")), str(kinds.count("write")), ents,
                      f"{len(g['nodes'])}/{len(g['edges'])}/{len(g['roots'])}", f"{d['tasks']['test']}/{d['tasks']['train']}")
    Console().print(table)


@app.command("graph")
def graph_command(
    name: str = typer.Argument(..., help="Domain name, e.g. retail."),
    out: str = typer.Option(None, "--out", help="Write a picture: FILE.svg (or FILE.png with rsvg-convert/ImageMagick)."),
    json_out: bool = typer.Option(False, "--json", help="Print nodes, edges, roots, density and bidirectional share."),
) -> None:
    """Draw or describe a domain's tool graph (read tools left, write tools right, roots in bold) and check it
    against the paper's rules (sizes of Figure 14, density 0.25-0.43, 34-57% bidirectional pairs)."""
    import json as _json
    from pathlib import Path

    from ..domains import available, get_domain
    from ..tracer.graph import graph_json, validate, write_picture

    if name not in available():
        fail(f"NAME: unknown domain {name!r}; available: {', '.join(available())}")
    dom = get_domain(name)
    facts_path = Path(__file__).resolve().parents[3].parent / "shared" / "paper_facts.json"
    want = None
    if facts_path.exists():
        want = _json.loads(facts_path.read_text()).get("domains", {}).get(name, {}).get("graph")
    problems = validate(dom, want)
    if out:
        if not out.lower().endswith((".svg", ".png")):
            fail("--out: give a file ending in .svg or .png")
        try:
            write_picture(dom, Path(out))
        except RuntimeError as e:
            fail(f"--out: {e}")
    info = {**graph_json(dom), "problems": problems}
    if json_out:
        print_json(info)
    else:
        typer.echo(f"{name}: {len(info['nodes'])} tools, {len(info['edges'])} edges, {len(info['roots'])} roots, "
                   f"density {info['density']}, bidirectional {info['bidirectional']}")
        for p in problems:
            typer.echo(f"  problem: {p}")
        if out:
            typer.echo(f"wrote {out}")
