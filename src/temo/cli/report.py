"""`temo report`: one self-contained HTML report (metrics, plots, faults, analyses, trajectories)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .common import fail, print_json


def report_command(
    runs: list[Path] = typer.Argument(..., help="One or more run directories (shown side by side).", show_default=False),
    out: Path = typer.Option(Path("report.html"), "--out", "-o", help="The HTML file to write."),
    figures: Optional[Path] = typer.Option(None, "--figures", help="Folder for the plots as SVG files (default: OUT_figures/ beside OUT)."),
    viewer_cells: int = typer.Option(1000, "--viewer-cells", min=0, help="At most this many cells in the trajectory viewer (failed cells first)."),
    json_out: bool = typer.Option(False, "--json", help="Print what was written as JSON."),
) -> None:
    """Write one self-contained HTML report of one or more runs, with plots and a trajectory viewer.

    The file opens offline (no CDN): the Table 3-style metrics of every run side by side, Pass^k curves, emotion-minus-neutral deltas with bootstrap intervals, family x domain
    heatmaps, fault shares of the offline judge (and of an earlier `temo judge --judge-model` run),
    the behaviour analyses, and a trajectory viewer.

    \b
    The viewer lists the cells; filter by run, domain, family, emotion, arm, reward and fault, or
    search; click a cell (or j/k to move) to read the conversation with its tool calls and results,
    the reasoning (collapsed), the user's emotion instruction, the verdict and the replay diff
    (which records differ from the reference state, field by field). Each cell has a link
    (REPORT.html#cell=RUN/CELL). The plots are also written as SVG files for papers.

    \b
    Examples:
      temo report runs/qwen3-8b --out qwen3-8b.html
      temo report runs/base runs/tracer-high --out compare.html     # model A against model B
    """
    from ..analysis.cells import RunReadError
    from ..analysis.report import build_report

    if out.exists() and out.is_dir():
        fail(f"--out {out}: is a directory; give a file name such as report.html")
    try:
        written = build_report(list(runs), out, viewer_limit=viewer_cells, figures_dir=figures)
    except RunReadError as e:
        fail(str(e))
    except OSError as e:
        fail(f"cannot write the report: {e}")
    if json_out:
        print_json(written)
    else:
        typer.echo(f"wrote {written['out']} ({written['bytes'] / 1e6:.1f} MB, {written['viewer_cells']} cells in the viewer); "
                   f"figures in {Path(written['figures'][0]).parent if written['figures'] else '-'}")
