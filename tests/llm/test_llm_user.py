"""The llm user simulator, alone and in a full episode with the llm agent (both on one loopback server)."""
from __future__ import annotations

from collections import deque

import pytest
from llm_helpers import agent_ctx, llm_role, retail_task, user_ctx
from llm_fake_server import Fault, call, reply

from temo.agents.llm import create as create_agent
from temo.core import InfrastructureError
from temo.domains import get_domain
from temo.harness.orchestrator import run_episode
from temo.users.base import STOP, UNSATISFIED, User, read_termination
from temo.users.llm import create, prompt_templates, system_prompt
from temo.users.registry import create_user

EMOTION = "You are anxious and in a hurry; you want this fixed right now."


async def test_registry_builds_it_and_it_is_a_user(fake, pooled):
    assert isinstance(create_user(llm_role(fake), user_ctx()), User)


async def test_system_prompt_has_guidelines_instruction_and_both_endings(fake, pooled):
    user = create(llm_role(fake), user_ctx("emotion"))
    fake.push(reply(content="I need to cancel an order."))
    out = await user.respond("Hi! How can I help you today?")
    assert out.text == "I need to cancel an order."
    body = fake.requests[0]
    system = body["messages"][0]
    assert system["role"] == "system"
    text = system["content"]
    task = retail_task()
    assert task.instruction.strip() in text and EMOTION in text
    assert STOP in text and UNSATISFIED in text
    for phrase in ("one message at a time", "Never invent facts", "Stay within your task", "Give information only when it is needed"):
        assert phrase.lower() in text.lower()
    assert body["temperature"] == 0.0  # the paper's user temperature, by default
    assert "tools" not in body


async def test_neutral_arm_has_no_emotion_instruction(fake, pooled):
    user = create(llm_role(fake), user_ctx("neutral"))
    await user.respond("Hi! How can I help you today?")
    text = fake.requests[0]["messages"][0]["content"]
    assert retail_task().instruction.strip() in text and EMOTION not in text


async def test_roles_are_flipped_and_the_greeting_opens(fake, pooled):
    user = create(llm_role(fake), user_ctx())
    fake.push(reply(content="Cancel my order please."), reply(content="It's amelia@example.com"))
    await user.respond("Hi! How can I help you today?")
    await user.respond("Sure. What's your email?")
    msgs = fake.requests[1]["messages"]
    assert [(m["role"], m["content"]) for m in msgs[1:]] == [
        ("user", "Hi! How can I help you today?"),
        ("assistant", "Cancel my order please."),
        ("user", "Sure. What's your email?"),
    ]


@pytest.mark.parametrize("raw, token", [
    (f"Thanks, that's all. {STOP}", "stop"),
    (f"This is going nowhere. {UNSATISFIED}", "unsatisfied"),
])
async def test_termination_tokens_reach_the_reply_text(fake, pooled, raw, token):
    user = create(llm_role(fake), user_ctx())
    fake.push(reply(content=raw))
    out = await user.respond("Anything else?")
    assert out.text == raw
    assert read_termination(out.text)[0] == token


async def test_think_is_stripped_from_the_visible_text_and_kept_as_reasoning(fake, pooled):
    user = create(llm_role(fake), user_ctx())
    fake.push(reply(content=f"<think>I am done, maybe {UNSATISFIED}? no.</think>All good, thanks! {STOP}"), reply(content="x"))
    out = await user.respond("Your order is cancelled.")
    assert out.text == f"All good, thanks! {STOP}" and "maybe" in out.reasoning
    assert read_termination(out.text)[0] == "stop"  # tokens come from the visible text only
    await user.respond("Bye")
    assert "maybe" not in str(fake.requests[1]["messages"])  # its own thoughts are not replayed


async def test_user_temperature_can_be_set_and_sampling_passes(fake, pooled):
    user = create(llm_role(fake, sampling={"temperature": 0.7, "top_p": 0.8, "extra_body": {"top_k": 20}}), user_ctx())
    await user.respond("Hi")
    body = fake.requests[0]
    assert (body["temperature"], body["top_p"], body["top_k"]) == (0.7, 0.8, 20)


async def test_user_failure_is_an_infrastructure_error_and_history_stays_consistent(fake, pooled):
    user = create(llm_role(fake, max_retries=0), user_ctx())
    fake.push(Fault(status=500))
    with pytest.raises(InfrastructureError):
        await user.respond("Hi")
    assert len(user.history) == 1


def test_prompt_templates_are_exposed():
    assert set(prompt_templates()) == {"user.llm.system"}
    assert "{instruction}" in prompt_templates()["user.llm.system"]
    assert system_prompt("DO THIS").endswith("DO THIS")


# ------------------------------------------------------------------------------------------------
# A full episode: both roles on one server
# ------------------------------------------------------------------------------------------------


class TwoRoles:
    """Routes requests with `tools` to the agent script, the others to the user script."""

    def __init__(self, agent: list, user: list):
        self.agent, self.user = deque(agent), deque(user)

    def __call__(self, body):
        queue = self.agent if body.get("tools") else self.user
        return queue.popleft() if queue else reply(content=f"nothing scripted {STOP}")


@pytest.mark.parametrize("ending, termination", [(STOP, "user_stop"), (UNSATISFIED, "user_unsatisfied")])
async def test_episode_user_never_sees_reasoning_or_tool_calls(fake, pooled, ending, termination):
    task = retail_task()
    email = task.scenario.fact("email").value if task.scenario.fact("email") else "x@example.com"
    fake.default = TwoRoles(
        agent=[
            reply(content="<think>SECRET-PLAN look up</think>", tool_calls=[
                call("find_user_id_by_email", {"email": email}, "c1"), call("no_such_tool", "{oops", "c2")],
                reasoning_content=None),
            reply(content="I found your account. What else?", reasoning_content="SECRET-REASONING"),
        ],
        user=[reply(content=f"Hi, I need help. My email is {email}."), reply(content=f"That's it. {ending}")],
    )
    domain = get_domain("retail")
    agent = create_agent(llm_role(fake), agent_ctx(task=task))
    user = create(llm_role(fake), user_ctx(task=task))
    record = await run_episode(domain, task, "emotion", 0, 1, agent, user)
    assert record.termination == termination
    assert [c.name for c in record.tool_calls] == ["find_user_id_by_email", "no_such_tool"]
    assert record.tool_calls[1].ok is False
    user_requests = [r for r in fake.requests if not r.get("tools")]
    agent_requests = [r for r in fake.requests if r.get("tools")]
    assert len(user_requests) == 2 and len(agent_requests) == 2
    seen = str(user_requests)
    for hidden in ("SECRET-PLAN", "SECRET-REASONING", "find_user_id_by_email", "no_such_tool", "c1"):
        assert hidden not in seen
    assert user_requests[1]["messages"][-1] == {"role": "user", "content": "I found your account. What else?"}
    # the agent's second request replays its own reasoning with the tool calls and their results
    replay = agent_requests[1]["messages"]
    assert any(m.get("reasoning_content") == "SECRET-PLAN look up" for m in replay)
    assert [m["tool_call_id"] for m in replay if m["role"] == "tool"] == ["c1", "c2"]
    assert record.usage["agent"].requests == 2 and record.usage["user"].requests == 2
    assert record.usage["agent"].cost is None


async def test_episode_with_endpoint_down_ends_as_infra_error(fake, pooled):
    task = retail_task()
    fake.default = lambda body: Fault(status=503)
    agent = create_agent(llm_role(fake, max_retries=1), agent_ctx(task=task))
    user = create(llm_role(fake, max_retries=1), user_ctx(task=task))
    record = await run_episode(get_domain("retail"), task, "emotion", 0, 1, agent, user)
    assert record.termination == "infra_error" and "503" in (record.error or "")
    assert not record.complete
