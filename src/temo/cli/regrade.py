"""`temo regrade`: re-score a stored run by replay, without re-running conversations."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..core.models import UNGRADED
from .common import fail, load_run, print_json


def regrade_command(
    run: Path = typer.Argument(..., help="Run directory written by `temo run`."),
    json_out: bool = typer.Option(False, "--json", help="Print a JSON summary of what changed."),
    reward_rule: Optional[str] = typer.Option(
        None, "--reward-rule", metavar="paper|goal-first", show_default=False,
        help="Re-score under this rule and record it in config.json (default: the run's own rule; a run "
             "with none recorded was made under goal-first). paper: any ###UNSATISFIED### ending scores -1; "
             "goal-first: a quit after the goal state keeps 1."),
    accept_task_changes: bool = typer.Option(
        False, "--accept-task-changes",
        help="Grade against the installed tasks even though they changed since the run (by default that is "
             "refused), and record their hashes in config.json, so that a later --resume or regrade takes "
             "the run as made against them."),
) -> None:
    """Re-grade every cell of a run from its recorded tool calls and messages.

    Useful after fixing a task's reference actions or the grader: the conversations stay as they
    were, only the rewards are recomputed. Records are rewritten atomically.

    \b
    Examples:
      temo regrade runs/20261129-101500-oracle-scripted
      temo regrade runs/old-run --reward-rule paper     # re-score an old run under the paper's rule
    """
    from ..domains import get_domain
    from ..harness.grader import REWARD_RULES, grade
    from ..harness.runner import tasks_by_id

    if reward_rule is not None and reward_rule not in REWARD_RULES:
        fail(f"--reward-rule: expected one of {', '.join(REWARD_RULES)}, got {reward_rule!r}")
    store, config, records = load_run(run)
    from ..harness.runner import changed_tasks

    try:
        changed_ids = changed_tasks(config)
    except (KeyError, ValueError) as e:
        fail(f"{store.config_path}: cannot load the run's tasks ({' '.join(str(e).split())})")
    if changed_ids and not accept_task_changes:
        shown = ", ".join(changed_ids[:8]) + (f" and {len(changed_ids) - 8} more" if len(changed_ids) > 8 else "")
        fail(f"the frozen tasks changed since {run} was run ({shown}); its conversations were held against the old "
             "tasks: pass --accept-task-changes to grade them against the new ones anyway")
    rule = reward_rule or config.effective_reward_rule
    if reward_rule is not None:
        rule_note = f"reward rule: {rule}" + (" (was " + config.effective_reward_rule + ")" if rule != config.effective_reward_rule else "")
    elif config.reward_rule is None:
        rule_note = f"reward rule: {rule} (not recorded in config.json; the rule runs were made under before temo recorded it)"
    else:
        rule_note = f"reward rule: {rule} (as recorded)"
    tasks = tasks_by_id(config.domains, config.split)
    changed, graded, skipped = [], 0, 0
    for rec in records:
        task = tasks.get(rec.task_id)
        if rec.termination in UNGRADED:
            continue
        if task is None:
            skipped += 1
            continue
        new = grade(get_domain(rec.domain), task, rec.tool_calls, rec.messages, rec.termination, rule=rule)
        graded += 1
        old_reward = rec.reward.reward if rec.reward else None
        new_reward = new.reward if new else None
        if old_reward != new_reward:
            changed.append({"cell": rec.cell_id, "old": old_reward, "new": new_reward})
        if (rec.reward.model_dump() if rec.reward else None) != (new.model_dump() if new else None):
            store.write(rec.model_copy(update={"reward": new}))
    update: dict = {"reward_rule": rule} if config.reward_rule != rule else {}
    if changed_ids:  # accepted: the rewards now belong to the installed tasks, and config.json says so
        from ..harness.runner import installed_tasks, task_hashes, task_set_hash

        present = installed_tasks(config, tasks)
        update.update(task_set_hash=task_set_hash(present), task_hashes=task_hashes(present))
    if update:
        store.save_config(config.model_copy(update=update))
    summary = {"graded": graded, "changed": changed, "skipped_unknown_tasks": skipped, "reward_rule": rule,
               "reward_rule_recorded": config.reward_rule, "accepted_task_changes": changed_ids}
    if json_out:
        print_json(summary)
    else:
        typer.echo(rule_note)
        from ..metrics.render import plural

        if changed_ids:
            typer.echo(f"accepted {plural(len(changed_ids), 'changed task')}; config.json now records the installed "
                       "tasks' hashes")
        typer.echo(f"regraded {plural(graded, 'cell')}; {plural(len(changed), 'reward')} changed; "
                   f"{skipped} skipped (task no longer exists)")
        for c in changed[:20]:
            typer.echo(f"  {c['cell']}: {c['old']} -> {c['new']}")
