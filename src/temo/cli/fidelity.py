"""`temo fidelity`: does the simulated user express the emotion condition it was given?"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from .common import fail, print_json

DIMS = ("family", "emotion", "politeness", "urgency", "trust")


def _load_config(path: Path) -> Any:
    from ..harness.runstore import RunStore, RunStoreError

    if not path.exists():
        fail(f"{path}: no such run directory")
    if path.is_file():
        fail(f"{path}: is a file, not a run directory written by `temo run`")
    try:
        return RunStore(path).load_config()
    except RunStoreError as e:
        fail(" ".join(str(e).split()))


def _progress(label: str):
    """A rich progress bar on a terminal's stderr; nothing when stderr is not a terminal."""
    if not sys.stderr.isatty():
        return None, None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task(label, total=None)
    return bar, (lambda done, total: bar.update(task, completed=done, total=total))


def fidelity_command(
    runs: list[Path] = typer.Argument(..., metavar="RUN...", help="Run directories written by `temo run`.",
                                      show_default=False),
    json_out: bool = typer.Option(False, "--json", help="Print the report(s) as JSON."),
    seed: int = typer.Option(0, "--seed", help="Seed of the shuffles and of the bootstrap."),
    n_shuffles: int = typer.Option(100, "--shuffles", min=1, help="Shuffles of the conditions for the chance baseline."),
    n_boot: int = typer.Option(1000, "--bootstrap", min=10, help="Bootstrap resamples (over tasks) for the 95% CIs."),
    save: bool = typer.Option(True, "--save/--no-save", help="Store each run's report as RUN/fidelity.json."),
) -> None:
    """Measure whether the simulated user sounds like its emotion condition.

    Each completed cell's user turns (termination tokens stripped) are mapped
    by the emotion model (`temo emotion map`), each turn and the whole
    conversation, and compared with the task's condition: family, fine
    emotion, politeness, urgency, trust.

    \b
    Read every number against its chance baseline:
      agreement  emotion-arm conversations mapped to the task's label
      turns      per cell, the share of its turns mapped to the label
      chance     the same with the conditions shuffled among the cells of
                 each domain (--shuffles seeded permutations); a user that
                 ignores its condition scores here, whatever the model's bias
      neutral    the neutral arm (same tasks, no emotion), same conditions:
                 what the task content alone gives away
      95% CI     bootstrap over tasks (--bootstrap resamples)
    With two or more runs the first is compared with each other one: the
    difference in agreement, with a CI paired over the tasks they share.

    \b
    Examples:
      temo fidelity runs/scripted           # tables; stores RUN/fidelity.json
      temo fidelity runs/scripted runs/llm  # side by side, with differences
      temo fidelity runs/scripted --json

    \b
    JSON, one run: {"agreement": {DIM: x}, "baseline": {DIM: x},
      "ci": {DIM: (lo, hi)}, "turn": {"agreement", "baseline"},
      "neutral": {...} or null, "by_domain", "by_family", "confusion",
      "family_mix", "cells", "tasks", "turns", "run", "user", "settings"}
    DIM: family, emotion, politeness, urgency, trust; x in 0..1 (emotion arm,
    all domains, conversation level). Several runs: {"runs": [...],
    "comparisons": [{"a", "b", "paired_tasks", "difference": {DIM: {"value",
    "ci"}}}]}. RUN/fidelity.json: the same plus "cell_predictions".
    More: docs/fidelity.md.
    """
    from ..emotion import get_mapper
    from ..metrics.fidelity import NothingToMeasure, compare, run_fidelity, save_report

    loaded = [(path, _load_config(path)) for path in runs]
    mapper = get_mapper()
    reports, mapped = [], []
    for path, config in loaded:
        bar, progress = _progress(f"mapping user turns of {path.name}")
        try:
            if bar:
                bar.start()
            report, arms = run_fidelity(path, mapper, n_shuffles, n_boot, seed, progress)
        except NothingToMeasure as e:
            fail(f"{path}: {e} (arms in this run: {', '.join(config.arms)})")
        except ValueError as e:  # an unreadable cell file: the message names it
            fail(str(e))
        finally:
            if bar:
                bar.stop()
        report = {"run": str(path), "user": _role(config.user), **report}
        if save:
            try:
                save_report(path, report)
            except OSError as e:
                typer.echo(f"warning: {path}: could not store fidelity.json ({e})", err=True)
        reports.append({k: v for k, v in report.items() if k != "cell_predictions"})
        mapped.append(arms)
    comparisons = [{"a": reports[0]["run"], "b": reports[i]["run"], **compare(mapped[0], mapped[i], n_boot, seed)}
                   for i in range(1, len(reports))]
    if json_out:
        print_json(reports[0] if len(reports) == 1 else {"runs": reports, "comparisons": comparisons})
        return
    from rich.console import Console

    console = Console()
    if len(reports) == 1:
        print_one(reports[0], console)
    else:
        print_side_by_side(reports, comparisons, console)


def _role(role: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": role.kind}
    if role.model:
        out["model"] = role.model
    return out


def _f(x: Any) -> str:
    return "–" if x is None else f"{x:.2f}"


def _pair(block: dict[str, Any], d: str) -> str:
    return f"{_f(block['agreement'][d])}[dim]/{_f(block['baseline'][d])}[/]"


def _table(title: str):
    from rich import box
    from rich.table import Table

    return Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True, title_justify="left")


def _user_name(report: dict[str, Any]) -> str:
    return report["user"].get("model") or report["user"]["kind"]


def print_one(r: dict[str, Any], console: Any) -> None:
    n = r["neutral"]
    t = _table(f"Simulator fidelity — {Path(r['run']).name} (user {_user_name(r)}): "
                    f"{r['cells']} emotion-arm conversations, {r['turns']} turns")
    for col in ("", "agree", "95% CI", "chance", "turns", "chance", "neutral", "chance"):
        t.add_column(col, justify="left" if not col else "right")
    for d in DIMS:
        ci = r["ci"][d]
        t.add_row(d, _f(r["agreement"][d]), f"{ci[0]:.2f}-{ci[1]:.2f}", _f(r["baseline"][d]),
                  _f(r["turn"]["agreement"][d]), _f(r["turn"]["baseline"][d]),
                  _f(n["agreement"][d]) if n else "–", _f(n["baseline"][d]) if n else "–")
    console.print(t)
    for key, what in (("by_family", "family"), ("by_domain", "domain")):
        bt = _table(f"By {what}: agreement/chance")
        bt.add_column(what)
        bt.add_column("cells", justify="right")
        for d in DIMS:
            bt.add_column(d, justify="right")
        for name, block in r[key].items():
            bt.add_row(name, str(block["cells"]), *(_pair(block, d) for d in DIMS))
        console.print(bt)
    c = r["confusion"]
    ct = _table("Family confusion (rows: the condition; columns: what the user sounded like)")
    ct.add_column("")
    for lab in c["labels"]:
        ct.add_column(lab, justify="right")
    ct.add_column("chance", justify="right")
    for lab, row, chance in zip(c["labels"], c["matrix"], c["chance_diagonal"]):
        ct.add_row(lab, *(str(x) for x in row), f"{chance:.1f}")
    console.print(ct)
    mix = ", ".join(f"{k} {v:.2f}" for k, v in r["family_mix"].items())
    console.print(f"emotion arm sounds like: {mix}", highlight=False)
    if n:
        console.print("neutral arm sounds like: " + ", ".join(f"{k} {v:.2f}" for k, v in n["family_mix"].items()),
                      highlight=False)


def print_side_by_side(reports: list[dict[str, Any]], comparisons: list[dict[str, Any]], console: Any) -> None:
    letters = [chr(ord("A") + i) if i < 26 else str(i + 1) for i in range(len(reports))]
    for letter, r in zip(letters, reports):
        console.print(f"{letter} = {r['run']} (user {_user_name(r)}): {r['cells']} emotion-arm conversations",
                      highlight=False)
    shared = ", ".join(f"A−{x}: {c['paired_tasks']}" for x, c in zip(letters[1:], comparisons))
    t = _table(f"Side by side: agreement/chance, 95% CIs (tasks shared, paired: {shared})")
    t.add_column("", no_wrap=True, min_width=10)
    for letter in letters:
        t.add_column(letter, justify="right", no_wrap=True)
        t.add_column("CI", justify="right", no_wrap=True)
    for letter in letters[1:]:
        t.add_column(f"A−{letter}", justify="right", no_wrap=True)
        t.add_column("CI", justify="right", no_wrap=True)
    for d in DIMS:
        cells = []
        for r in reports:
            cells += [_pair(r, d), f"{r['ci'][d][0]:.2f}-{r['ci'][d][1]:.2f}"]
        for cmp in comparisons:
            diff = cmp["difference"][d]
            cells += [f"{diff['value']:+.2f}", f"{diff['ci'][0]:+.2f} {diff['ci'][1]:+.2f}"]
        t.add_row(d, *cells)
    console.print(t)
    ft = _table("By family: agreement/chance")
    ft.add_column("family")
    for letter in letters:
        ft.add_column(letter, justify="right")
    families = list(dict.fromkeys(f for r in reports for f in r["by_family"]))
    for fam in families:
        ft.add_row(fam, *(_pair(r["by_family"][fam], "family") if fam in r["by_family"] else "–" for r in reports))
    console.print(ft)
