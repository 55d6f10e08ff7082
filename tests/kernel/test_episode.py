"""Episodes on the toy domain: oracle, probes, scripted user, policy checks."""
from __future__ import annotations

import random


from temo.agents.base import AgentContext
from temo.agents.registry import create_agent
from temo.core import FunctionCall, Message, RoleConfig, ToolCall, Usage
from temo.harness.orchestrator import Limits, run_episode
from temo.users.base import UserContext
from temo.users.registry import create_user

from toydomain import toy_task


async def play(domain, agent_kind="oracle", arm="emotion", task=None, agent=None, user=None, limits=Limits()):
    task = task or toy_task()
    actx = AgentContext(domain=domain, task=task, split="test", arm=arm, trial=0, seed=1, rng=random.Random(1))
    uctx = UserContext(task=task, arm=arm, trial=0, seed=1, rng=random.Random(2))
    agent = agent or create_agent(RoleConfig(kind=agent_kind), actx)
    user = user or create_user(RoleConfig(kind="scripted"), uctx)
    return await run_episode(domain, task, arm, 0, 1, agent, user, limits)


async def test_oracle_solves_the_task(toy_domain):
    rec = await play(toy_domain)
    assert rec.termination == "user_stop"
    assert rec.reward.reward == 1
    assert rec.violations == []
    assert [c.name for c in rec.tool_calls] == ["find_account", "deposit"]
    roles = [m.role for m in rec.messages]
    assert roles[:3] == ["system", "assistant", "user"]  # opens with the agent's greeting


async def test_neutral_arm_has_no_emotional_phrasing(toy_domain):
    emo = await play(toy_domain, arm="emotion")
    neu = await play(toy_domain, arm="neutral")
    assert neu.reward.reward == emo.reward.reward == 1
    first_emo = emo.messages[2].content
    first_neu = neu.messages[2].content
    assert first_neu == "I want to deposit 5 dollars into my account."
    assert first_emo != first_neu and "deposit 5 dollars" in first_emo


async def test_skip_confirmation_is_recorded_as_a_violation(toy_domain):
    rec = await play(toy_domain, "probe:skip-confirmation")
    assert rec.reward.reward == 1  # the state is right...
    assert [v.rule for v in rec.violations] == ["confirm_before_write"]  # ...but the policy was broken


async def test_wrong_argument_fails_grading(toy_domain):
    rec = await play(toy_domain, "probe:wrong-argument")
    assert rec.reward.reward == 0 and not rec.reward.state_match


async def test_early_stop_fails_grading(toy_domain):
    rec = await play(toy_domain, "probe:early-stop")
    assert rec.termination == "user_stop"
    assert rec.reward.reward == 0


async def test_redundant_questions_exhaust_an_impatient_user(toy_domain):
    angry = toy_task(emotion="frustration.cold.high.skeptical")
    rec = await play(toy_domain, "probe:redundant-questions", task=angry)
    assert rec.termination == "user_unsatisfied" and rec.reward.reward == -1
    calm = toy_task(emotion="peace.warm.low.trusting")
    rec = await play(toy_domain, "probe:redundant-questions", task=calm)
    assert rec.termination == "user_stop" and rec.reward.reward == 1


class ScriptedAgent:
    """Replays a fixed list of assistant messages (for error handling tests)."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.usage = Usage()

    async def respond(self, messages):
        return self.replies.pop(0) if self.replies else Message(role="assistant", content="Anything else?")


def tc(i, name, args):
    return ToolCall(id=f"c{i}", function=FunctionCall(name=name, arguments=args))


async def test_several_tool_calls_in_one_message_and_bad_calls_are_counted(toy_domain):
    agent = ScriptedAgent([
        Message(role="assistant", content="Could you give me your email?"),
        Message(role="assistant", content="Let me check.", tool_calls=[
            tc(1, "find_account", '{"email": "ana@example.com"}'),
            tc(2, "no_such_tool", "{}"),
            tc(3, "deposit", "{broken json"),
        ]),
        Message(role="assistant", content=""),  # empty reply: counted, the episode goes on
    ])
    rec = await play(toy_domain, agent=agent)
    assert [c.name for c in rec.tool_calls] == ["find_account", "no_such_tool", "deposit"]
    assert [c.error for c in rec.tool_calls] == [None, "unknown_tool", "bad_json"]
    assert rec.counters["tool_errors"] == 2 and rec.counters["empty_replies"] == 1
    tool_msgs = [m for m in rec.messages if m.role == "tool"]
    assert [m.tool_call_id for m in tool_msgs] == ["c1", "c2", "c3"]
    assert rec.termination == "user_stop" and rec.reward.reward == 0


async def test_too_many_errors_and_max_turns(toy_domain):
    agent = ScriptedAgent([Message(role="assistant", tool_calls=[tc(i, "nope", "{}")]) for i in range(20)])
    rec = await play(toy_domain, agent=agent, limits=Limits(max_errors=3))
    assert rec.termination == "too_many_errors" and rec.counters["tool_errors"] == 3

    class Chatty(ScriptedAgent):
        async def respond(self, messages):
            return Message(role="assistant", content="Let me think about it.")

    rec = await play(toy_domain, agent=Chatty([]), limits=Limits(max_turns=9))
    assert rec.termination == "max_turns" and rec.counters["turns"] <= 9


async def test_transfer_ends_the_episode(toy_domain):
    agent = ScriptedAgent([Message(role="assistant", tool_calls=[tc(1, "transfer_to_human_agents", '{"summary": "x"}')])])
    rec = await play(toy_domain, agent=agent)
    assert rec.termination == "transfer" and rec.reward.reward == 0


async def test_infrastructure_error_ends_the_cell_ungraded(toy_domain):
    from temo.core import InfrastructureError

    class Down(ScriptedAgent):
        async def respond(self, messages):
            raise InfrastructureError("endpoint down after 5 retries")

    rec = await play(toy_domain, agent=Down([]))
    assert rec.termination == "infra_error" and rec.reward is None and not rec.complete
    assert "endpoint down" in rec.error


async def test_write_before_auth_is_a_violation(toy_domain):
    agent = ScriptedAgent([
        Message(role="assistant", content="Shall I deposit 5.0 into acc_1 (yes/no)?"),
        Message(role="assistant", tool_calls=[tc(1, "deposit", '{"account_id": "acc_1", "amount": 5.0}')]),
    ])
    rec = await play(toy_domain, agent=agent)
    assert [v.rule for v in rec.violations] == ["auth_before_write"]
    assert rec.reward.reward == 1


async def test_rejected_agent_request_is_a_graded_agent_failure(toy_domain):
    from temo.core import InfrastructureError

    class Rejected(InfrastructureError):
        status = 400

    class TooLong(ScriptedAgent):
        async def respond(self, messages):
            raise Rejected("HTTP 400: maximum context length exceeded")

    rec = await play(toy_domain, agent=TooLong([]))
    assert rec.termination == "agent_error" and rec.complete and rec.reward.reward == 0
