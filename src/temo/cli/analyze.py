"""`temo analyze`: the paper's behaviour analyses of a run."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from .common import fail, print_json


def analyze_command(
    run: Path = typer.Argument(..., help="Run directory written by `temo run`.", show_default=False),
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap resampling."),
    json_out: bool = typer.Option(False, "--json", help="Print every analysis as JSON (rates are fractions)."),
) -> None:
    """Behaviour analyses of a run (the paper's §4.3 and §5).

    \b
    policy          unconfirmed writes, writes before authentication, unnecessary transfers
                    to a human, per 100 episodes (per domain and emotion family)
    emotion effect  paired emotion-minus-neutral success per domain and family, with a 95%
                    bootstrap interval over tasks (needs --arms emotion,neutral in the run);
                    success by urgency, politeness and trust level
    hallucination   user turns stating a fact (email, number, id, date, amount) the user was
                    never given nor told: flagged for review, rate in failed cells
    interaction     tool calls vs follow-up questions per episode: share of episodes with more
                    tool calls / as many / more follow-ups, and the success rate of each (Figure 8)

    \b
    Examples:
      temo analyze runs/qwen3-8b
      temo analyze runs/qwen3-8b --json | jq .emotion_effect.by_family
    """
    from ..analysis.analyses import analyze
    from ..analysis.cells import RunReadError, load_run

    try:
        loaded = load_run(run)
    except RunReadError as e:
        fail(str(e))
    result = analyze(loaded, seed=seed)
    if json_out:
        print_json(result)
        return
    print_analyses(result)


def _pct(x: Optional[float], signed: bool = False) -> str:
    if x is None:
        return "–"
    return f"{100 * x:+.1f}" if signed else f"{100 * x:.1f}"


def _num(x: Optional[float]) -> str:
    return "–" if x is None else f"{x:.1f}"


def print_analyses(r: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"[bold]{r['run']}[/]: {r['cells']} complete cell(s)", highlight=False)

    t = Table(title="Policy adherence (per 100 episodes)")
    for col in ("Group", "Episodes", "Unconfirmed writes", "Writes before auth", "Unneeded transfers"):
        t.add_column(col, justify="left" if col == "Group" else "right")
    pol = r["policy"]
    for name, b in [("all", pol["all"]), *pol["by_domain"].items(), *((f"family {k}", v) for k, v in pol["by_family"].items())]:
        t.add_row(name, str(b["episodes"]), _num(b["unconfirmed_writes_per_100"]), _num(b["writes_before_auth_per_100"]),
                  _num(b["unnecessary_transfers_per_100"]))
    console.print(t)

    eff = r["emotion_effect"]
    t = Table(title="Emotion effect: emotion − neutral success (points), paired by task")
    for col in ("Group", "Tasks", "Emotion %", "Neutral %", "Δ", "95% CI"):
        t.add_column(col, justify="left" if col == "Group" else "right")
    for name, b in [("all", eff["all"]), *eff["by_domain"].items(), *((f"family {k}", v) for k, v in eff["by_family"].items())]:
        ci = b["ci95"]
        t.add_row(name, str(b["paired_tasks"]), _pct(b["emotion_avg"]), _pct(b["neutral_avg"]), _pct(b["delta"], True),
                  f"[{_pct(ci[0], True)}, {_pct(ci[1], True)}]" if ci else "–")
    console.print(t)
    if not eff["all"]["paired_tasks"]:
        console.print("[yellow]no paired tasks: run with --arms emotion,neutral to measure the emotion effect[/]")
    t = Table(title="Success by behavioural dimension (emotion arm)")
    for col in ("Dimension", "Level", "Cells", "Success %", "Δ vs neutral"):
        t.add_column(col, justify="left" if col in ("Dimension", "Level") else "right")
    for dim, levels in eff["by_level"].items():
        for level, b in levels.items():
            t.add_row(dim, level, str(b["cells"]), _pct(b["success_rate"]), _pct(b["paired"]["delta"], True))
    console.print(t)

    hal = r["user_hallucination"]
    a = hal["all"]
    console.print(f"User hallucination: {a['flagged_turns']} user turn(s) flagged for review; "
                  f"{a['failed_with_flag']} of {a['failed_cells']} failed cell(s) have one "
                  f"({_pct(a['rate_in_failed'])}%)", highlight=False)
    for item in hal["flagged"][:5]:
        console.print(f"  {item['cell']} turn {item['turn']}: {', '.join(item['tokens'])}", highlight=False)

    it = r["interaction"]
    t = Table(title="Interaction pattern: tool calls vs follow-up questions per episode (Figure 8)")
    for col in ("Group", "Episodes", "Tools", "Follow-ups", ">tools %", "= %", ">follow %", "Succ. >tools %", "Succ. >follow %"):
        t.add_column(col, justify="left" if col == "Group" else "right")
    for name, b in [("all", it["all"]), *it["by_domain"].items(), *((f"family {k}", v) for k, v in it["by_family"].items())]:
        t.add_row(name, str(b["episodes"]), _num(b["mean_tool_calls"]), _num(b["mean_follow_ups"]),
                  _pct(b["more_tool_calls"]["share"]), _pct(b["equal"]["share"]), _pct(b["more_follow_ups"]["share"]),
                  _pct(b["more_tool_calls"]["success_rate"]), _pct(b["more_follow_ups"]["success_rate"]))
    console.print(t)
    err = Console(stderr=True)
    for w in r.get("warnings", []):
        err.print(f"[yellow]warning:[/] {w}", highlight=False)
