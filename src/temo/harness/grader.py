"""Grading by replay, so stored runs can be re-graded without re-running conversations.

The agent's recorded tool calls are replayed on a fresh store and the final state hash is compared
with the hash after replaying the reference actions. Required outputs must appear in what the
agent said. The reward (`reward`):

- 1: the state matches the goal and every required output was said;
- 0: otherwise;
- -1: the user ended with ###UNSATISFIED### and the goal was NOT reached.

A user who quits with ###UNSATISFIED### after the state already matched the goal gets 1, with
`user_quit` and `quit_after_goal` set: the paper gives -1 only to an UNSATISFIED "before
successful task completion", so the completed goal counts (documented and tested choice).
"""
from __future__ import annotations

import re
from typing import Iterable, Optional

from ..core import Message, RewardInfo, Task, Termination, ToolCallRecord
from ..env.domain import Domain
from ..env.environment import Environment


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
) -> Optional[RewardInfo]:
    """Score one episode; None for infrastructure errors (they are not graded)."""
    if termination == "infra_error":
        return None
    goal = gold_hash(domain, task)
    calls = ((c.name, c.arguments if c.arguments is not None else c.raw_arguments) for c in tool_calls)
    agent_hash, replay_errors = replay(domain, task.split, calls)
    state_match = agent_hash == goal
    missing = missing_outputs(task, messages)
    success = state_match and not missing
    quit_ = termination == "user_unsatisfied"
    if quit_:
        reward = 1 if success else -1
    else:
        reward = 1 if success else 0
    return RewardInfo(
        reward=reward,
        state_match=state_match,
        outputs_ok=not missing,
        missing_outputs=missing,
        user_quit=quit_,
        quit_after_goal=quit_ and success,
        agent_hash=agent_hash,
        gold_hash=goal,
        replay_errors=replay_errors,
    )
