"""Grading by replay, so stored runs can be re-graded without re-running conversations.

The agent's recorded tool calls are replayed on a fresh store and the final state hash is compared
with the hash after replaying the reference actions. Required outputs must appear in what the
agent said. The episode *succeeds* when the state matches and every required output was said.

The reward follows one of two rules (`REWARD_RULES`), recorded in the run's config.json:

- ``paper`` (the default): reward 1 only if the episode succeeded **and** the user did not end
  with ###UNSATISFIED###; any ###UNSATISFIED### ending scores -1, even when the state already
  matched (the paper's Appendix A.3, "the final database state matches the reference and the user
  did not end the conversation with ###UNSATISFIED###", and the authors' harness); otherwise 0.
- ``goal-first``: as ``paper``, except that a user who quits after the state already matched the
  goal keeps reward 1 (temo's earlier rule; runs with no recorded rule were graded so).

Either way the record keeps `user_quit` and `quit_after_goal`, so one rule can be turned into the
other without a replay (`apply_rule`, `temo regrade --reward-rule`).
"""
from __future__ import annotations

import re
from typing import Iterable, Optional

from ..core import Message, RewardInfo, Task, Termination, ToolCallRecord
from ..env.domain import Domain
from ..env.environment import Environment

REWARD_RULES: dict[str, str] = {
    "paper": "reward 1 needs the goal state (and outputs) and no ###UNSATISFIED### ending; "
             "any ###UNSATISFIED### ending scores -1 (the paper's rule)",
    "goal-first": "as paper, but a user who quits with ###UNSATISFIED### after the goal state was "
                  "reached keeps reward 1",
}
DEFAULT_REWARD_RULE = "paper"
# Runs whose config.json records no rule were made before rules were recorded: they were graded so.
LEGACY_REWARD_RULE = "goal-first"


def check_rule(rule: str) -> str:
    if rule not in REWARD_RULES:
        raise ValueError(f"unknown reward rule {rule!r}; choose one of: {', '.join(REWARD_RULES)}")
    return rule


def score(success: bool, user_quit: bool, rule: str = DEFAULT_REWARD_RULE) -> int:
    """The reward of an episode from its outcome: 1, 0 or -1 under ``rule``."""
    check_rule(rule)
    if user_quit:
        return 1 if (success and rule == "goal-first") else -1
    return 1 if success else 0


def apply_rule(info: RewardInfo, rule: str) -> RewardInfo:
    """The same grading under another rule (no replay needed: the outcome flags are kept)."""
    success = info.state_match and info.outputs_ok
    return info.model_copy(update={"reward": score(success, info.user_quit, rule), "rule": rule})


def replay(domain: Domain, split: str, calls: Iterable[tuple[str, object]]) -> tuple[str, int]:
    """Replay (name, arguments) pairs on a fresh store; returns (hash, number of failed calls)."""
    store = domain.store(split)
    env = Environment(domain.tools, store)
    errors = 0
    for name, arguments in calls:
        tool = domain.tools.get(name)
        if tool is not None and tool.kind == "read":
            continue  # reads cannot change the state
        if not env.execute(name, arguments).ok:
            errors += 1
    return store.hash(), errors


def gold_hash(domain: Domain, task: Task) -> str:
    """Hash after replaying the reference actions (cached per domain, split and task)."""
    key = (task.split, task.id)
    cached = domain.gold_hashes.get(key)
    if cached is None:
        cached, errors = replay(domain, task.split, ((a.name, a.arguments) for a in task.actions))
        if errors:
            raise ValueError(f"task {task.id}: {errors} reference action(s) fail on replay; the task is invalid")
        domain.gold_hashes[key] = cached
    return cached


_NUM = re.compile(r"(?<=\d),(?=\d{3})")


def _norm(text: str) -> str:
    return _NUM.sub("", text.lower())


def missing_outputs(task: Task, messages: list[Message]) -> list[str]:
    said = _norm(" ".join(m.content or "" for m in messages if m.role == "assistant"))
    return [o for o in task.outputs if _norm(o) not in said]


def grade(
    domain: Domain,
    task: Task,
    tool_calls: list[ToolCallRecord],
    messages: list[Message],
    termination: Termination,
    rule: str = DEFAULT_REWARD_RULE,
) -> Optional[RewardInfo]:
    """Score one episode under ``rule``; None for infrastructure errors (they are not graded)."""
    check_rule(rule)
    if termination == "infra_error":
        return None
    goal = gold_hash(domain, task)
    calls = ((c.name, c.arguments if c.arguments is not None else c.raw_arguments) for c in tool_calls)
    agent_hash, replay_errors = replay(domain, task.split, calls)
    state_match = agent_hash == goal
    missing = missing_outputs(task, messages)
    success = state_match and not missing
    quit_ = termination == "user_unsatisfied"
    return RewardInfo(
        reward=score(success, quit_, rule),
        rule=rule,
        state_match=state_match,
        outputs_ok=not missing,
        missing_outputs=missing,
        user_quit=quit_,
        quit_after_goal=quit_ and success,
        agent_hash=agent_hash,
        gold_hash=goal,
        replay_errors=replay_errors,
    )
