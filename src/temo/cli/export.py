"""`temo export`: training data from a collection (`sft`), and a run's cells as a table (`cells`)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .common import fail, print_json

app = typer.Typer(no_args_is_help=True, add_completion=False)


@app.command("sft")
def export_sft(
    collection: Path = typer.Argument(..., help="A collection directory (from `temo collect --out DIR`; any run directory works).", show_default=False),
    out: Path = typer.Option(..., "--out", "-o", help="File to write: .jsonl or .parquet.", show_default=False),
    fmt: Optional[str] = typer.Option(None, "--format", help="jsonl or parquet (default: from --out's suffix)."),
    rule: Optional[str] = typer.Option(None, "--select", help="Selection rule: interaction-aware (default) or state-only (default: the collection's)."),
    preset: Optional[str] = typer.Option(None, "--preset", help="tracer-high or tracer-low: restrict the rows to the preset's domains (and its cap)."),
    cap: Optional[int] = typer.Option(None, "--cap", min=0, help="At most N trajectories per domain (0: no cap; default: the collection's, 250)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the per-domain sample under the cap (default: the collection's)."),
    inline_reasoning: bool = typer.Option(False, "--inline-reasoning", help="Write reasoning into the content as <think>...</think> instead of reasoning_content."),
    json_out: bool = typer.Option(False, "--json", help="Print what was written as JSON."),
) -> None:
    """Selected trajectories as rows of TRL's conversational format (messages + tools), with a
    dataset card beside the data (FILE.card.md, FILE.card.json).

    \b
    Examples:
      temo export sft runs/collect --out data/tracer.jsonl
      temo export sft runs/collect --out data/tracer-high.parquet --preset tracer-high
    """
    from ..training.card import write_card
    from ..training.collect import CollectionError, load_collection
    from ..training.export import FORMATS, ExportError, build_rows, write_rows
    from ..training.select import select

    if fmt is not None and fmt not in FORMATS:
        fail(f"--format {fmt}: expected one of {', '.join(FORMATS)}")
    if out.exists() and out.is_dir():
        fail(f"--out {out}: is a directory")
    try:
        col = load_collection(collection)
    except CollectionError as e:
        fail(str(e))
    settings = col.settings
    rule = rule or settings.rule
    cap_used = settings.cap if cap is None else (cap or None)
    seed = settings.seed if seed is None else seed
    preset = preset or settings.preset
    try:
        selection = select(col.records, rule, cap_used, seed, preset)
    except ValueError as e:
        fail(str(e))
    rows = build_rows(selection.rows(), rule, run=str(collection), inline_reasoning=inline_reasoning)
    if not rows:
        fail(f"nothing to export: no trajectory of {collection} is kept by the {rule} rule"
             + (f" in preset {preset}" if preset else ""))
    try:
        used = write_rows(rows, out, fmt)
    except ExportError as e:
        fail(str(e))
    cfg = col.config
    source = {"collection": str(collection), **selection.describe(),
              "agent": cfg.agent.model or cfg.agent.kind, "user": cfg.user.model or cfg.user.kind,
              "task_set_hash": cfg.task_set_hash}
    md, js = write_card(rows, out, source)
    summary = {"out": str(out), "format": used, "rows": len(rows), "card": [str(md), str(js) if js else None], **selection.describe()}
    if json_out:
        print_json(summary)
    else:
        typer.echo(f"wrote {len(rows)} row(s) to {out} ({used}); dataset card {md}")


@app.command("cells")
def export_cells(
    run: Path = typer.Argument(..., help="Run directory written by `temo run`.", show_default=False),
    out: Path = typer.Option(..., "--out", "-o", help="File to write.", show_default=False),
    fmt: str = typer.Option("", "--format", help="jsonl, csv or parquet (parquet needs pyarrow); default: from --out's suffix."),
    judge: bool = typer.Option(True, "--judge/--no-judge", help="Run the offline judge first, so every failed cell has its verdict."),
) -> None:
    """One row per cell: task, domain, arm, trial, emotion condition, reward, success, state match,
    violations, tool calls, turns, tokens, and the judge's critical fault, its category and turn.

    \b
    Examples:
      temo export cells runs/qwen3-8b --out cells.jsonl
      temo export cells runs/qwen3-8b --out cells.parquet     # pip install pyarrow
      python -c "import pandas as pd; print(pd.read_json('cells.jsonl', lines=True).groupby('domain').success.mean())"
    """
    import csv
    import json

    from ..analysis.cells import RunReadError, load_run
    from ..analysis.export import COLUMNS, cell_rows
    from ..analysis.judging import judge_offline

    fmt = (fmt or out.suffix.lstrip(".")).lower()
    if fmt not in ("jsonl", "csv", "parquet"):
        fail(f"--format {fmt or '(none)'}: expected jsonl, csv or parquet")
    if out.exists() and out.is_dir():
        fail(f"--out {out}: is a directory")
    try:
        loaded = load_run(run)
    except RunReadError as e:
        fail(str(e))
    if judge:
        judge_offline(loaded)
    rows = cell_rows(loaded)
    out.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "jsonl":
        with out.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    elif fmt == "csv":
        with out.open("w", encoding="utf-8", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(COLUMNS))
            w.writeheader()
            w.writerows(rows)
    else:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            fail("--format parquet needs pyarrow: pip install pyarrow (or use --format jsonl)")
        pq.write_table(pa.Table.from_pylist(rows), out)
    typer.echo(f"wrote {len(rows)} row(s) to {out}")
