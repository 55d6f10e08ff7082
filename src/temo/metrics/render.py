"""Rich tables for a metrics report (the view of `temo metrics` without --json)."""
from __future__ import annotations

from typing import Any, Optional

from rich.console import Console
from rich.table import Table


def pct(value: Optional[float]) -> str:
    """0.4567 -> '45.7'; None -> '–'."""
    return "–" if value is None else f"{100 * value:.1f}"


def pts(value: Optional[float]) -> str:
    """A difference of rates in percentage points, signed."""
    return "–" if value is None else f"{100 * value:+.1f} pts"


def _violations(rate: Optional[float]) -> str:
    return f"[red]{pct(rate)}[/]" if rate else pct(rate)


def main_table(report: dict[str, Any], title: str = "Results") -> Table:
    """One row per domain plus the average: Avg@k, Pass^1..k, unsatisfied %, policy-violation %,
    missing cells (like Table 3, plus the violation rate: a probe that skips confirmations must not look
    perfect). Sources without violation data show '–'."""
    k = int(report.get("trials") or 1)
    table = Table(title=title, title_justify="left", pad_edge=False)
    table.add_column("Domain", style="bold", no_wrap=True, min_width=7)
    table.add_column("Tasks", justify="right")
    table.add_column(f"Avg@{k}", justify="right")
    for i in range(1, k + 1):
        table.add_column(f"Pass^{i}", justify="right")
    table.add_column("Unsat. %", justify="right")
    table.add_column("Viol. %", justify="right")
    table.add_column("Missing", justify="right", no_wrap=True, min_width=7)

    def row(name: str, block: dict[str, Any], style: Optional[str] = None) -> None:
        hats = block.get("pass_hat") or {}
        missing = block.get("missing_cells") or 0
        table.add_row(
            name,
            str(block.get("tasks", 0)),
            pct(block.get("avg")),
            *[pct(hats.get(str(i))) for i in range(1, k + 1)],
            pct(block.get("unsatisfied_rate")),
            _violations(block.get("violation_rate")),
            f"[yellow]{missing}[/]" if missing else "0",
            style=style,
        )

    domains = report.get("domains") or {}
    for name, block in domains.items():
        row(name, block)
    if domains:
        table.add_section()
        row("Average", report.get("average") or {}, style="bold")
    return table


def family_table(report: dict[str, Any]) -> Optional[Table]:
    """Avg per emotion family (emotion arm) for each domain and on average; None when no family data."""
    domains = report.get("domains") or {}
    average = report.get("average") or {}
    families = list((average.get("by_family") or {}).keys())
    if not families:
        return None
    show_domains = len(domains) > 1
    table = Table(title="By emotion family (emotion arm, Avg %)", title_justify="left")
    table.add_column("Family", style="bold")
    if show_domains:
        for name in domains:
            table.add_column(name, justify="right")
    table.add_column("Average" if show_domains else "Avg", justify="right", style="bold")
    table.add_column("Cells", justify="right")
    table.add_column("Unsat. %", justify="right")
    has_neutral = any((b or {}).get("emotion_minus_neutral") is not None for b in average["by_family"].values())
    if has_neutral:
        table.add_column("Δ vs neutral", justify="right")
    for fam in families:
        avg_block = average["by_family"][fam]
        cells = [pct(((d.get("by_family") or {}).get(fam) or {}).get("avg")) for d in domains.values()] if show_domains else []
        extra = [pts(avg_block.get("emotion_minus_neutral"))] if has_neutral else []
        table.add_row(
            fam, *cells, pct(avg_block.get("avg")), str(avg_block.get("cells", 0)),
            pct(avg_block.get("unsatisfied_rate")), *extra,
        )
    return table


def arm_lines(report: dict[str, Any]) -> list[str]:
    """One line per domain (and the average) with each arm's Avg and Pass^k and the paired delta."""
    lines: list[str] = []
    k = int(report.get("trials") or 1)
    domains = report.get("domains") or {}
    blocks = list(domains.items())
    if len(domains) > 1:
        blocks.append(("Average", report.get("average") or {}))
    if not any(len(b.get("by_arm") or {}) > 1 for _, b in blocks):
        return lines
    for name, block in blocks:
        by_arm = block.get("by_arm") or {}
        if not by_arm:
            continue
        parts = []
        for arm, ab in by_arm.items():
            parts.append(f"{arm} Avg {pct(ab.get('avg'))}% Pass^{k} {pct((ab.get('pass_hat') or {}).get(str(k)))}%")
        delta = block.get("emotion_minus_neutral")
        line = f"[bold]{name}[/]: " + " · ".join(parts)
        if delta is not None:
            line += f" · emotion − neutral {pts(delta)} ({block.get('paired_tasks', 0)} paired task(s))"
        lines.append(line)
    return lines


def print_report(report: dict[str, Any], console: Optional[Console] = None, title: str = "Results") -> None:
    """Print the tables and per-arm lines to ``console`` (stdout by default); warnings are not printed here."""
    console = console or Console()
    console.print(main_table(report, title=title))
    ft = family_table(report)
    if ft is not None:
        console.print(ft)
    lines = arm_lines(report)
    if lines:
        console.print("[bold]By arm[/] (Avg and Pass^k in %, paired delta in points)")
        for line in lines:
            console.print("  " + line)


def describe_reward(reward: Any, termination: str = "") -> str:
    """One readable line for a cell's reward (a RewardInfo or its dict), e.g.
    'reward -1: the user quit (###UNSATISFIED###) after the goal state was reached · rule paper'."""
    if reward is None:
        return f"reward – (not graded: {termination or 'no grade'})"
    r = reward if isinstance(reward, dict) else reward.model_dump()
    parts = ["goal state reached" if r.get("state_match") else "final state differs from the goal"]
    missing = r.get("missing_outputs") or []
    if missing:
        parts.append(f"{plural(len(missing), 'required output')} not said: " + "; ".join(missing))
    elif r.get("outputs_ok", True) and r.get("state_match"):
        parts.append("every required output said")
    if r.get("user_quit"):
        parts.append("the user quit (###UNSATISFIED###)" + (" after the goal was reached" if r.get("quit_after_goal") else ""))
    if r.get("replay_errors"):
        parts.append(f"{plural(r['replay_errors'], 'write')} failed on replay")
    rule = r.get("rule")
    return f"reward {r.get('reward')}: " + ", ".join(parts) + (f" · rule {rule}" if rule else " · rule not recorded")


def plural(n: int, noun: str, many: Optional[str] = None) -> str:
    """'1 intent', '2 intents' ('1 policy', '2 policies' with many='policies')."""
    return f"{n} {noun if n == 1 else (many or noun + 's')}"
