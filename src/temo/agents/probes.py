"""Probe agents: the oracle with exactly one injected flaw each.

They show that the benchmark notices each kind of mistake:
- `redundant-questions`: before every action it asks a needless question (repeats a question
  already answered, or asks for something the user cannot know). The user's patience runs out;
  caught as ###UNSATISFIED### (reward -1), sooner for urgent, angry and cold users.
- `skip-confirmation`: performs writes without asking for confirmation. Caught by the recorded
  `confirm_before_write` policy violation (the state still matches, so grading alone cannot).
- `wrong-argument`: one write is called with a wrong (but plausible) argument value. Caught by
  grading: the final state hash differs from the reference.
- `early-stop`: stops before the last write (in a read-only task, before the last look-up) and declares the
  work done. Caught by grading: the state, or a required output, is missing.

A probe takes a rate, `probe:NAME@RATE` with 0 < RATE <= 1: the flaw is committed at each
opportunity with that probability, drawn from the cell's seeded RNG (`ctx.rng`), so trials of one
task differ while a cell always plays the same. The opportunities: every reference action
(`redundant-questions`), every write (`skip-confirmation`, `wrong-argument`), the episode
(`early-stop`). Without a rate the flaw is always committed (`wrong-argument`: on the first write
only), and no random draw is made for it.
"""
from __future__ import annotations

import copy
from typing import Any, Callable, Optional

from ..core import Action, RoleConfig
from .base import AgentContext
from .oracle import PlanAgent, Step, humanize, oracle_plan

UNKNOWABLE = [
    "your mother's maiden name",
    "the name of your first pet",
    "your employee badge number",
    "your favourite colour",
]


class ProbeSpecError(ValueError):
    pass


def parse_probe(kind: str) -> tuple[str, Optional[float]]:
    """'probe:NAME' or 'probe:NAME@RATE' -> (NAME, RATE or None); raises ProbeSpecError."""
    spec = kind.split(":", 1)[1] if ":" in kind else ""
    name, at, rate_text = spec.partition("@")
    if name not in PROBES:
        raise ProbeSpecError(f"unknown probe {name!r}; choose one of: {', '.join('probe:' + p for p in PROBES)}")
    if not at:
        return name, None
    try:
        rate = float(rate_text)
    except ValueError:
        raise ProbeSpecError(f"probe rate {rate_text!r} is not a number; write e.g. probe:{name}@0.3") from None
    if not 0 < rate <= 1:
        raise ProbeSpecError(f"probe rate must be in (0, 1], got {rate_text} (probe:{name}@{rate_text})")
    return name, rate


def _chance(ctx: AgentContext, rate: Optional[float]) -> Callable[[], bool]:
    """Whether the flaw is committed at the next opportunity: always without a rate, else seeded."""
    if rate is None:
        return lambda: True
    return lambda: ctx.rng.random() < rate


def _redundant(ctx: AgentContext, rate: Optional[float] = None) -> PlanAgent:
    """Before every reference action, ask again for a fact the user already gave (or, before any
    was given, for something the user cannot know)."""
    fires = _chance(ctx, rate)
    out: list[Step] = []
    given: list[str] = []
    n = 0
    for step in oracle_plan(ctx):
        if step.kind == "say" and step.facts:
            out.append(step)
            given.extend(step.facts)
            continue
        if step.kind in ("tools", "confirm"):  # every write follows its confirmation
            for action in (step.actions if step.kind == "tools" else [None]):
                if not fires():
                    if action is not None:
                        out.append(Step("tools", actions=[action]))
                    continue
                if given:
                    key = given[n % len(given)]
                    question = f"Before I continue, could you tell me your {humanize(key)} once more?"
                else:
                    question = f"Before I continue, could you tell me {UNKNOWABLE[n % len(UNKNOWABLE)]}?"
                out.append(Step("say", question))
                n += 1
                if action is not None:
                    out.append(Step("tools", actions=[action]))
            if step.kind == "tools":
                continue
        out.append(step)
    return PlanAgent(ctx, out)


def _skip_confirmation(ctx: AgentContext, rate: Optional[float] = None) -> PlanAgent:
    if rate is None:
        return PlanAgent(ctx, oracle_plan(ctx, confirm=False))
    fires = _chance(ctx, rate)
    return PlanAgent(ctx, [s for s in oracle_plan(ctx) if not (s.kind == "confirm" and fires())])


def _other_values(ctx: AgentContext, tool: str, arg: str, current: Any) -> list[Any]:
    seen: list[Any] = []
    for split in ("test", "train"):
        for task in ctx.domain.tasks(split):
            for a in task.actions:
                if a.name == tool and arg in a.arguments and a.arguments[arg] != current and a.arguments[arg] not in seen:
                    seen.append(a.arguments[arg])
    return seen


def mutate_argument(ctx: AgentContext, action: Action) -> Action:
    """Change one argument of a write to a plausible wrong value (seeded)."""
    rng = ctx.rng
    wrong = copy.deepcopy(action)
    keys = sorted(action.arguments)
    rng.shuffle(keys)
    for key in keys:
        value = action.arguments[key]
        if isinstance(value, bool):
            wrong.arguments[key] = not value
            return wrong
        if isinstance(value, (int, float)):
            wrong.arguments[key] = value + 1
            return wrong
        others = _other_values(ctx, action.name, key, value)
        if others:
            wrong.arguments[key] = rng.choice(others)
            return wrong
        if isinstance(value, list) and value:
            wrong.arguments[key] = value[:-1] if len(value) > 1 else value + value
            return wrong
    return wrong


def _wrong_argument(ctx: AgentContext, rate: Optional[float] = None) -> PlanAgent:
    writes = {name for name, t in ctx.domain.tools.items() if t.kind == "write"}
    actions = [a.model_copy(deep=True) for a in ctx.task.actions]
    if rate is None:  # the first write, always
        idx = next((i for i, a in enumerate(actions) if a.name in writes), None)
        if idx is not None:
            actions[idx] = mutate_argument(ctx, actions[idx])
    else:
        fires = _chance(ctx, rate)
        actions = [mutate_argument(ctx, a) if a.name in writes and fires() else a for a in actions]
    return PlanAgent(ctx, oracle_plan(ctx, actions=actions))


def _early_stop(ctx: AgentContext, rate: Optional[float] = None) -> PlanAgent:
    steps = oracle_plan(ctx)
    if not _chance(ctx, rate)():
        return PlanAgent(ctx, steps)
    last_write = max((i for i, s in enumerate(steps) if s.kind == "write"), default=None)
    if last_write is None:  # a read-only task: stop before the last look-up, so its answer is never given
        last_write = max((i for i, s in enumerate(steps) if s.kind == "tools"), default=len(steps))
    cut = last_write - 1 if last_write > 0 and steps[last_write - 1].kind == "confirm" else last_write
    out = steps[:cut] + [Step("say", "All done! Is there anything else I can help you with?")]
    return PlanAgent(ctx, out, after="I'm sorry, that's all I can do today. Have a nice day!")


PROBES = {
    "redundant-questions": _redundant,
    "skip-confirmation": _skip_confirmation,
    "wrong-argument": _wrong_argument,
    "early-stop": _early_stop,
}


def create(role: RoleConfig, ctx: AgentContext) -> PlanAgent:
    name, rate = parse_probe(role.kind)
    return PROBES[name](ctx, rate)
