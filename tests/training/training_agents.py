"""Test agents for the training pipeline, registered into the agent registry by the tests.

`pester`: the oracle's plan with reasoning on every message; on about half of the tasks (chosen by
task id) it completes every write and then, instead of saying it is done, keeps asking for facts the
user already gave, until the user runs out of patience and quits with ###UNSATISFIED###: the goal
state is reached, and the user is unhappy.

`flaky`: the oracle, except that the agent's endpoint "goes down" on about half of the tasks (an
infrastructure error), unless the file named by $TEMO_TEST_ENDPOINT_UP exists.
"""
from __future__ import annotations

import hashlib
import os

from temo.agents.oracle import PlanAgent, Step, create as create_oracle, oracle_plan
from temo.core import InfrastructureError


def pesters(task_id: str) -> bool:
    return hashlib.sha256(task_id.encode()).digest()[0] % 2 == 0


class ReasoningPlanAgent(PlanAgent):
    async def respond(self, messages):
        msg = await super().respond(messages)
        return msg.model_copy(update={"reasoning": f"Step {self.pos}: the policy says to check before acting."})


def create_pester(role, ctx):
    steps = oracle_plan(ctx)
    if pesters(ctx.task.id):
        key = ctx.task.scenario.known[0].key.replace("_", " ") if ctx.task.scenario.known else "name"
        ask = f"Before we finish, could you give me your {key} again?"
        said = f"For your information: {'; '.join(ctx.task.outputs)}. " if ctx.task.outputs else ""
        steps = steps[:-1] + [Step("say", said + ask)] + [Step("say", ask)] * 30
    return ReasoningPlanAgent(ctx, steps)


class _Down:
    def __init__(self):
        from temo.core import Usage

        self.usage = Usage()

    async def respond(self, messages):
        raise InfrastructureError("connection refused (test endpoint down)")


def create_flaky(role, ctx):
    marker = os.environ.get("TEMO_TEST_ENDPOINT_UP", "")
    if pesters(ctx.task.id) and not (marker and os.path.exists(marker)):
        return _Down()
    return create_oracle(role, ctx)
