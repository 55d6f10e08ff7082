"""Which records differ between the agent's final state and the reference state, field by field.

Both the agent's recorded calls and the task's reference actions are replayed on fresh stores
(as the grader does); the records either replay touched are compared, and every differing leaf
field is listed with both values.
"""
from __future__ import annotations

from typing import Any, Iterable

from ..core import EpisodeRecord, Task
from ..env.environment import Environment

MAX_DIFFS = 60
_GOLD: dict[tuple[str, str, str], Any] = {}  # reference replays, one per task (read only after)
_MISSING = "<absent>"


def _replay(domain: Any, split: str, calls: Iterable[tuple[str, Any]]):
    store = domain.store(split)
    env = Environment(domain.tools, store)
    for name, arguments in calls:
        tool = domain.tools.get(name)
        if tool is not None and tool.kind == "read":
            continue
        env.execute(name, arguments)
    return store


def _leaves(value: Any, prefix: str, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        if not value:
            out[prefix] = {}
        for k, v in value.items():
            _leaves(v, f"{prefix}.{k}" if prefix else str(k), out)
    elif isinstance(value, list) and value and all(isinstance(v, (dict, list)) for v in value):
        for i, v in enumerate(value):
            _leaves(v, f"{prefix}[{i}]", out)
    else:
        out[prefix] = value


def _short(value: Any) -> Any:
    text = repr(value) if not isinstance(value, (str, int, float, bool, type(None))) else value
    if isinstance(text, str) and len(text) > 160:
        return text[:157] + "..."
    return text


def record_diff(table: str, key: str, agent: Any, gold: Any) -> list[dict[str, Any]]:
    if agent is None or gold is None:
        return [{"table": table, "key": key, "field": "", "agent": _short(agent) if agent is not None else _MISSING,
                 "reference": _short(gold) if gold is not None else _MISSING,
                 "change": "created only by the agent" if gold is None else "missing in the agent's state"}]
    a: dict[str, Any] = {}
    g: dict[str, Any] = {}
    _leaves(agent, "", a)
    _leaves(gold, "", g)
    out = []
    for field in sorted(set(a) | set(g)):
        av, gv = a.get(field, _MISSING), g.get(field, _MISSING)
        if av != gv:
            out.append({"table": table, "key": key, "field": field, "agent": _short(av), "reference": _short(gv),
                        "change": "differs"})
    return out


def state_diff(domain: Any, task: Task, record: EpisodeRecord) -> list[dict[str, Any]]:
    """Field-by-field differences between the agent's replayed state and the reference state."""
    calls = ((c.name, c.arguments if c.arguments is not None else c.raw_arguments) for c in record.tool_calls)
    agent = _replay(domain, task.split, calls)
    key = (domain.name, task.split, task.id)
    gold = _GOLD.get(key)
    if gold is None:
        if len(_GOLD) > 4096:
            _GOLD.clear()
        gold = _GOLD[key] = _replay(domain, task.split, ((a.name, a.arguments) for a in task.actions))
    touched: set[tuple[str, str]] = set()
    for store in (agent, gold):
        for table, keys in store.changed().items():
            touched.update((table, k) for k in keys)
    out: list[dict[str, Any]] = []
    for table, key in sorted(touched):
        av, gv = agent.get(table, key), gold.get(table, key)
        if av == gv:
            continue
        out.extend(record_diff(table, key, av, gv))
        if len(out) >= MAX_DIFFS:
            return out[:MAX_DIFFS]
    return out
