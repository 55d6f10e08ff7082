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


def domains_command(
    names: str = typer.Option(None, "--domains", help="Comma-separated domains (default: all)."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON (tools, entity counts, graph, task counts)."),
) -> None:
    """List the domains: tools (read/write), database entities, tool graph and task counts.

    Example: temo domains --json
    """
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
