"""`temo regrade`: re-score a stored run by replay, without re-running conversations."""
from __future__ import annotations

from pathlib import Path

import typer

from .common import load_run, print_json


def regrade_command(
    run: Path = typer.Argument(..., help="Run directory written by `temo run`."),
    json_out: bool = typer.Option(False, "--json", help="Print a JSON summary of what changed."),
) -> None:
    """Re-grade every cell of a run from its recorded tool calls and messages.

    Useful after fixing a task's reference actions or the grader: the conversations stay as they
    were, only the rewards are recomputed. Records are rewritten atomically.

    Example: temo regrade runs/20261129-101500-oracle-scripted
    """
    from ..domains import get_domain
    from ..harness.grader import grade
    from ..harness.runner import tasks_by_id

    store, config, records = load_run(run)
    tasks = tasks_by_id(config.domains, config.split)
    changed, graded, skipped = [], 0, 0
    for rec in records:
        task = tasks.get(rec.task_id)
        if task is None:
            skipped += 1
            continue
        new = grade(get_domain(rec.domain), task, rec.tool_calls, rec.messages, rec.termination)
        graded += 1
        old_reward = rec.reward.reward if rec.reward else None
        new_reward = new.reward if new else None
        if old_reward != new_reward:
            changed.append({"cell": rec.cell_id, "old": old_reward, "new": new_reward})
        if (rec.reward.model_dump() if rec.reward else None) != (new.model_dump() if new else None):
            store.write(rec.model_copy(update={"reward": new}))
    summary = {"graded": graded, "changed": changed, "skipped_unknown_tasks": skipped}
    if json_out:
        print_json(summary)
    else:
        typer.echo(f"regraded {graded} cells; {len(changed)} rewards changed; {skipped} skipped (task no longer exists)")
        for c in changed[:20]:
            typer.echo(f"  {c['cell']}: {c['old']} -> {c['new']}")
