"""The oracle agent: follows the policy and executes the task's reference actions.

It asks for the facts each intent needs, runs the reference reads (several tool calls in one
message), asks for explicit confirmation before every write, and reports each intent done. It is
the upper bound of the benchmark and its solvability check: the oracle with the scripted user
must reach reward 1 on every task. Probe agents (`probes.py`) are this plan with one flaw.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from ..core import Action, FunctionCall, Message, RoleConfig, ToolCall, Usage
from ..core.phrases import is_affirmative
from .base import AgentContext

def humanize(name: str) -> str:
    return name.replace("_", " ")


def describe_arguments(arguments: dict[str, Any]) -> str:
    parts = []
    for k, v in arguments.items():
        shown = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
        parts.append(f"{humanize(k)}: {shown}")
    return "; ".join(parts)


@dataclass
class Step:
    """One move of the plan: say something (and wait for the user), or call tools."""

    kind: str  # "say" | "tools" | "confirm" | "write"
    text: str = ""
    actions: list[Action] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)  # fact keys asked for by this "say"


class PlanAgent:
    """An agent that walks a fixed plan; the oracle and every probe are plans."""

    def __init__(self, ctx: AgentContext, steps: list[Step], after: Optional[str] = None):
        self.ctx = ctx
        self.steps = steps
        self.pos = 0
        self.usage = Usage()
        self._calls = 0
        self.after = after or "Is there anything else I can help you with?"

    def _tool_message(self, actions: list[Action]) -> Message:
        calls = []
        for a in actions:
            self._calls += 1
            calls.append(
                ToolCall(id=f"call_{self._calls}", function=FunctionCall(name=a.name, arguments=json.dumps(a.arguments)))
            )
        return Message(role="assistant", content="", tool_calls=calls)

    async def respond(self, messages: list[Message]) -> Message:
        last = messages[-1] if messages else None
        while self.pos < len(self.steps):
            step = self.steps[self.pos]
            self.pos += 1
            if step.kind == "say" or step.kind == "confirm":
                return Message(role="assistant", content=step.text)
            if step.kind == "write":
                # the user's answer to the confirmation is the last message
                answer = last.content if last is not None and last.role == "user" else ""
                prev = self.steps[self.pos - 2] if self.pos >= 2 else None
                if prev is not None and prev.kind == "confirm" and not is_affirmative(answer or ""):
                    continue  # declined: do not act
                return self._tool_message(step.actions)
            if step.kind == "tools":
                return self._tool_message(step.actions)
        return Message(role="assistant", content=self.after)


def fact_request(ctx: AgentContext, intent: int) -> Optional[Step]:
    facts = [f for f in ctx.task.scenario.known if f.intent == intent]
    if not facts:
        return None
    names = [humanize(f.key) for f in facts]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return Step("say", f"I can help with that. Could you please give me your {listed}?", facts=[f.key for f in facts])


def confirmation(action: Action) -> str:
    return (
        f"Here is what I will do: {humanize(action.name)} ({describe_arguments(action.arguments)}). "
        "Do you confirm that I should proceed (yes/no)?"
    )


def intent_done(ctx: AgentContext, intent: int, last: bool) -> str:
    text = "That's done."
    if last and ctx.task.outputs:
        text += " For your information: " + "; ".join(ctx.task.outputs) + "."
    return text + " Is there anything else I can help you with?"


def oracle_plan(ctx: AgentContext, actions: Optional[list[Action]] = None, confirm: bool = True) -> list[Step]:
    actions = actions if actions is not None else ctx.task.actions
    writes = {name for name, t in ctx.domain.tools.items() if t.kind == "write"}
    n_intents = len(ctx.task.scenario.intents)
    steps: list[Step] = []
    for i in range(n_intents):
        ask = fact_request(ctx, i)
        if ask:
            steps.append(ask)
        refusal = ctx.task.scenario.intents[i].refusal
        if refusal:  # a request the policy forbids: decline, hold firm once, move on
            steps.append(Step("say", f"I'm sorry, but I can't do that: {refusal}."))
            steps.append(Step("say", f"I understand, but I cannot make an exception here: {refusal}. "
                                     + intent_done(ctx, i, last=i == n_intents - 1).replace("That's done. ", "")))
            continue
        reads: list[Action] = []
        for a in (a for a in actions if a.intent == i):
            if a.name in writes:
                if reads:
                    steps.append(Step("tools", actions=reads))
                    reads = []
                if confirm:
                    steps.append(Step("confirm", confirmation(a)))
                steps.append(Step("write", actions=[a]))
            else:
                reads.append(a)
        if reads:
            steps.append(Step("tools", actions=reads))
        steps.append(Step("say", intent_done(ctx, i, last=i == n_intents - 1)))
    return steps


def create(role: RoleConfig, ctx: AgentContext) -> PlanAgent:
    return PlanAgent(ctx, oracle_plan(ctx))
