"""The llm agent against a loopback server."""
from __future__ import annotations

import pytest
from llm_helpers import agent_ctx, llm_role
from llm_fake_server import Fault, call, reply

from temo.agents.base import Agent
from temo.agents.llm import WRAPPED_TEMPLATE, create, prompt_templates
from temo.agents.registry import create_agent
from temo.core import FunctionCall, InfrastructureError, Message, ToolCall
from temo.llm import LLMConfigError


def start(policy: str = "POLICY TEXT") -> list[Message]:
    return [Message(role="system", content=policy), Message(role="assistant", content="Hi! How can I help you today?"),
            Message(role="user", content="I want to cancel my order.")]


async def test_registry_builds_it_and_it_is_an_agent(fake, pooled):
    agent = create_agent(llm_role(fake), agent_ctx())
    assert isinstance(agent, Agent)


async def test_policy_is_the_system_prompt_and_tools_are_offered(fake, pooled):
    ctx = agent_ctx(seed=77)
    agent = create(llm_role(fake), ctx)
    fake.push(reply(content="Sure, what is your email?"))
    msg = await agent.respond(start())
    assert msg.role == "assistant" and msg.content == "Sure, what is your email?" and msg.tool_calls is None
    body = fake.requests[0]
    assert body["messages"][0] == {"role": "system", "content": "POLICY TEXT"}
    assert [m["role"] for m in body["messages"]] == ["system", "assistant", "user"]
    assert body["tools"] == ctx.tool_schemas and len(body["tools"]) > 5
    assert body["seed"] == 77


async def test_wrapped_prompt_puts_general_instructions_around_the_policy(fake, pooled):
    agent = create(llm_role(fake, prompt="wrapped"), agent_ctx())
    await agent.respond(start("THE POLICY"))
    system = fake.requests[0]["messages"][0]["content"]
    assert "THE POLICY" in system and system != "THE POLICY"
    assert system == WRAPPED_TEMPLATE.replace("{policy}", "THE POLICY")
    with pytest.raises(LLMConfigError):
        create(llm_role(fake, prompt="fancy"), agent_ctx())


def test_prompt_templates_are_exposed():
    names = prompt_templates()
    assert set(names) == {"agent.llm.policy", "agent.llm.wrapped"} and all(isinstance(v, str) for v in names.values())


async def test_several_tool_calls_in_one_message_are_all_returned(fake, pooled):
    agent = create(llm_role(fake), agent_ctx())
    fake.push(reply(content=None, tool_calls=[
        call("find_user_id_by_email", {"email": "a@b.c"}, "c1"),
        call("get_order_details", {"order_id": "#W1"}, "c2"),
        call("get_product_details", {"product_id": "p"}, "c3"),
    ]))
    msg = await agent.respond(start())
    assert [tc.id for tc in msg.tool_calls] == ["c1", "c2", "c3"]
    assert [tc.function.name for tc in msg.tool_calls] == ["find_user_id_by_email", "get_order_details", "get_product_details"]
    assert msg.content == ""


async def test_malformed_arguments_and_unknown_tools_pass_through(fake, pooled):
    agent = create(llm_role(fake), agent_ctx())
    fake.push(reply(content=None, tool_calls=[call("launch_rocket", {"x": 1}, "c1"),
                                              call("get_user_details", '{"user_id": "u1"', "c2")]))
    msg = await agent.respond(start())
    assert msg.tool_calls[0].function.name == "launch_rocket"
    assert msg.tool_calls[1].function.arguments == '{"user_id": "u1"'


async def test_empty_reply_is_an_empty_message(fake, pooled):
    agent = create(llm_role(fake), agent_ctx())
    fake.push(reply(content=None), reply(content="", reasoning_content="only thoughts"))
    first = await agent.respond(start())
    second = await agent.respond(start())
    assert first.content == "" and first.tool_calls is None
    assert second.content == "" and second.reasoning == "only thoughts"


def history_with_reasoning() -> list[Message]:
    return start() + [
        Message(role="assistant", content=None, reasoning="I should look the user up.",
                tool_calls=[ToolCall(id="c1", function=FunctionCall(name="find_user_id_by_email", arguments='{"email": "a@b.c"}'))]),
        Message(role="tool", content="u1", tool_call_id="c1", name="find_user_id_by_email"),
        Message(role="assistant", content="Found you. Which order?", reasoning="Now ask which order."),
        Message(role="user", content="The latest one.", reasoning="USER PRIVATE THOUGHT"),
    ]


async def test_reasoning_is_kept_in_the_agents_own_history(fake, pooled):
    agent = create(llm_role(fake), agent_ctx())
    fake.push(reply(content="<think>check the order</think>Let me check.", reasoning_content=None))
    msg = await agent.respond(history_with_reasoning())
    assert msg.content == "Let me check." and msg.reasoning == "check the order"
    sent = fake.requests[0]["messages"]
    tool_turn, spoken = sent[3], sent[5]
    assert tool_turn["content"] == "" and tool_turn["reasoning_content"] == "I should look the user up."
    assert tool_turn["tool_calls"][0]["function"]["arguments"] == '{"email": "a@b.c"}'
    assert spoken["reasoning_content"] == "Now ask which order."
    assert sent[4] == {"role": "tool", "content": "u1", "tool_call_id": "c1", "name": "find_user_id_by_email"}
    assert "USER PRIVATE THOUGHT" not in str(fake.requests[0])  # a user's reasoning never reaches the agent


async def test_keep_reasoning_off_strips_it(fake, pooled):
    agent = create(llm_role(fake, keep_reasoning=False), agent_ctx())
    await agent.respond(history_with_reasoning())
    sent = fake.requests[0]["messages"]
    assert all("reasoning_content" not in m and "reasoning" not in m for m in sent)
    assert all(m["content"] is not None for m in sent)  # replayed assistant turns carry "" not null


async def test_reasoning_from_the_reasoning_field(fake, pooled):
    agent = create(llm_role(fake), agent_ctx())
    fake.push(reply(content="Done.", reasoning="vLLM parser output"))
    msg = await agent.respond(start())
    assert (msg.content, msg.reasoning) == ("Done.", "vLLM parser output")


async def test_usage_is_per_agent(fake, pooled):
    agent = create(llm_role(fake), agent_ctx())
    other = create(llm_role(fake), agent_ctx())
    fake.push(reply(content="a", usage=(30, 3)), reply(content="b", usage=(40, 4)), reply(content="c", usage=(1, 1)))
    await agent.respond(start())
    await agent.respond(start())
    await other.respond(start())
    assert (agent.usage.prompt_tokens, agent.usage.completion_tokens, agent.usage.requests) == (70, 7, 2)
    assert other.usage.requests == 1 and agent.usage.cost is None


async def test_endpoint_failure_raises_infrastructure_error(fake, pooled):
    agent = create(llm_role(fake, max_retries=1), agent_ctx())
    fake.push(Fault(status=502), Fault(status=502))
    with pytest.raises(InfrastructureError):
        await agent.respond(start())
