"""`temo show`: read the conversations of a run."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from .common import fail, load_run, print_json


def show_command(
    run: Path = typer.Argument(..., help="Run directory written by `temo run`."),
    cell: Optional[str] = typer.Argument(None, help="A cell id (TASK__ARM__TRIAL) or a task id (first trial of the first arm)."),
    failed: bool = typer.Option(False, "--failed", help="List only cells whose reward is not 1."),
    json_out: bool = typer.Option(False, "--json", help="Print the cell record as JSON."),
) -> None:
    """List a run's cells, or print one cell's conversation with its tool calls and reward.

    Examples:

      temo show runs/my-run --failed

      temo show runs/my-run retail-test-004__emotion__0
    """
    _, _, records = load_run(run)
    if cell is None:
        rows = [r for r in records if not failed or not (r.reward and r.reward.reward == 1)]
        if json_out:
            print_json([{"cell": r.cell_id, "reward": r.reward.reward if r.reward else None,
                         "termination": r.termination, "violations": [v.rule for v in r.violations]} for r in rows])
            return
        for r in rows:
            reward = r.reward.reward if r.reward else "-"
            viol = ",".join(v.rule for v in r.violations)
            typer.echo(f"{r.cell_id}\treward {reward}\t{r.termination}\t{viol}")
        from ..metrics.errors import error_lines, error_reasons

        for line in error_lines(error_reasons(records)):  # why cells ended in errors, grouped
            typer.echo(line, err=True)
        return
    match = [r for r in records if r.cell_id == cell] or sorted((r for r in records if r.task_id == cell), key=lambda r: (r.arm, r.trial))
    if not match:
        fail(f"no cell {cell!r} in {run}; list them with `temo show {run}`")
    rec = match[0]
    if json_out:
        print_json(json.loads(rec.model_dump_json()))
        return
    from rich.console import Console

    from ..metrics.render import describe_reward

    c = Console()
    c.print(f"[bold]{rec.cell_id}[/] · {rec.domain} · emotion {rec.emotion.id} · {rec.termination}", highlight=False)
    if rec.error:
        from rich.markup import escape

        from ..metrics.errors import error_reason

        c.print(f"[red]{rec.termination}:[/] {escape(error_reason(rec.termination, rec.error))}", highlight=False)
    c.print(describe_reward(rec.reward, rec.termination), highlight=False)
    colors = {"assistant": "cyan", "user": "green", "tool": "yellow"}
    for m in rec.messages[1:]:
        if m.reasoning:
            c.print(f"[dim]  (reasoning) {m.reasoning[:400]}[/]", highlight=False)
        if m.content:
            c.print(f"[{colors.get(m.role, 'white')}]{m.role:>9}[/] {m.content[:1200]}", highlight=False)
        for tc in m.tool_calls or []:
            c.print(f"[magenta]     call[/] {tc.function.name}({tc.function.arguments[:400]})", highlight=False)
    for v in rec.violations:
        c.print(f"[red]violation[/] {v.rule} at turn {v.turn}: {v.detail}")
