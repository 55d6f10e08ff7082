"""The client layer against a loopback server: requests, retries, usage, cost, concurrency."""
from __future__ import annotations

import asyncio
import threading
import time

import pytest
from llm_helpers import llm_role
from llm_fake_server import Fault, reply

from temo.core import InfrastructureError, RoleConfig
from temo.llm import LLMClient, LLMConfigError, LLMRequestRejected, LLMSettings, parse_message, split_think


def client_for(server, **extra) -> LLMClient:
    return LLMClient(LLMSettings.from_role(llm_role(server, **extra), name="agent"))


# ------------------------------------------------------------------------------------------------
# parsing
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, visible, reasoning",
    [
        ("plain answer", "plain answer", None),
        ("<think>plan it</think>\n\nHello!", "Hello!", "plan it"),
        ("plan it</think>Hello!", "Hello!", "plan it"),  # opening tag was in the prompt (Qwen3)
        ("<think>cut off by max_tokens", "", "cut off by max_tokens"),
        ("<think>a</think>x<think>b</think>y", "xy", "a\n\nb"),
        ("", "", None),
        (None, "", None),
    ],
)
def test_split_think(text, visible, reasoning):
    assert split_think(text) == (visible, reasoning)


def test_parse_message_reads_every_reasoning_field():
    m = parse_message({"content": "<think>inline</think>Hi", "reasoning_content": "rc"})
    assert m.content == "Hi" and m.reasoning == "rc\n\ninline"
    m = parse_message({"content": None, "reasoning": "vllm-style"})
    assert m.content == "" and m.reasoning == "vllm-style" and m.tool_calls is None
    m = parse_message({"content": "x", "reasoning_content": "same", "reasoning": "same"})
    assert m.reasoning == "same"  # not duplicated


def test_parse_message_passes_tool_calls_through_raw():
    m = parse_message({"content": None, "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "no_such_tool", "arguments": "{bad json"}},
        {"type": "function", "function": {"name": "get_user_details", "arguments": {"user_id": "u1"}}},
        {"id": "c", "type": "function", "function": {"name": "think", "arguments": None}},
    ]}, call_prefix="call_3")
    assert [tc.function.name for tc in m.tool_calls] == ["no_such_tool", "get_user_details", "think"]
    assert m.tool_calls[0].function.arguments == "{bad json"
    assert m.tool_calls[1].function.arguments == '{"user_id": "u1"}' and m.tool_calls[1].id == "call_3_1"
    assert m.tool_calls[2].function.arguments == "{}"


# ------------------------------------------------------------------------------------------------
# requests
# ------------------------------------------------------------------------------------------------


async def test_request_carries_model_sampling_seed_and_extra_body(fake, pooled):
    role = llm_role(fake, sampling={"temperature": 0.6, "top_p": 0.95, "max_tokens": 512,
                                    "extra_body": {"top_k": 20, "min_p": 0,
                                                   "chat_template_kwargs": {"enable_thinking": True}},
                                    "repetition_penalty": 1.05})
    client = LLMClient(LLMSettings.from_role(role, name="agent"))
    await client.complete([{"role": "user", "content": "hi"}], seed=2**40 + 7)
    body = fake.requests[0]
    assert body["model"] == "fake-model"
    assert body["temperature"] == 0.6 and body["top_p"] == 0.95 and body["max_tokens"] == 512
    assert body["top_k"] == 20 and body["min_p"] == 0 and body["repetition_penalty"] == 1.05
    assert body["chat_template_kwargs"] == {"enable_thinking": True}
    assert body["seed"] == (2**40 + 7) % 2**31
    assert "tools" not in body


async def test_absent_sampling_keys_are_not_sent(fake, pooled):
    await client_for(fake).complete([{"role": "user", "content": "hi"}])
    body = fake.requests[0]
    for key in ("temperature", "top_p", "max_tokens", "seed", "top_k"):
        assert key not in body


async def test_api_key_comes_from_the_named_env_var(fake, pooled, monkeypatch):
    monkeypatch.setenv("TEMO_TEST_KEY", "sk-test-secret-123")
    await client_for(fake, api_key_env="TEMO_TEST_KEY").complete([{"role": "user", "content": "hi"}])
    await client_for(fake).complete([{"role": "user", "content": "hi"}])
    assert fake.headers[0]["authorization"] == "Bearer sk-test-secret-123"
    assert fake.headers[1]["authorization"] == "Bearer EMPTY"  # a base URL with no key still works


def test_unset_key_variable_is_a_config_error(fake, monkeypatch):
    monkeypatch.delenv("TEMO_TEST_UNSET", raising=False)
    settings = LLMSettings.from_role(llm_role(fake, api_key_env="TEMO_TEST_UNSET"), name="agent")
    with pytest.raises(LLMConfigError, match="TEMO_TEST_UNSET"):
        settings.api_key()


@pytest.mark.parametrize("role, message", [
    (RoleConfig(kind="llm", base_url="http://127.0.0.1:1/v1"), "model"),
    (RoleConfig(kind="llm", model="m"), "base URL"),
    (RoleConfig(kind="llm", model="m", base_url="http://x/v1", extra={"max_retries": -1}), "max_retries"),
    (RoleConfig(kind="llm", model="m", base_url="http://x/v1", extra={"timeout": "soon"}), "timeout"),
])
def test_settings_errors(role, message):
    with pytest.raises(LLMConfigError, match=message):
        LLMSettings.from_role(role, name="agent")


# ------------------------------------------------------------------------------------------------
# retries
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fault", [Fault(status=429), Fault(status=500), Fault(status=503), Fault(drop=True),
                                   Fault(delay=0.5)], ids=["429", "500", "503", "drop", "timeout"])
async def test_transient_faults_are_retried(fake, pooled, fault):
    fake.push(fault, fault, reply(content="recovered"))
    client = client_for(fake, timeout=0.2)
    done = await client.complete([{"role": "user", "content": "hi"}])
    assert done.message.content == "recovered" and done.attempts == 3
    assert client.usage.requests == 1  # failed attempts are not billed


@pytest.mark.parametrize("fault", [Fault(status=429), Fault(status=500), Fault(delay=0.5)], ids=["429", "500", "timeout"])
async def test_persistent_faults_end_as_infrastructure_error(fake, pooled, fault):
    fake.push(*[fault] * 3)
    client = client_for(fake, timeout=0.2, max_retries=2)
    with pytest.raises(InfrastructureError, match="after 3 attempt"):
        await client.complete([{"role": "user", "content": "hi"}])
    assert len(fake.requests) == 3
    assert client.usage.requests == 0


async def test_client_retries_are_off_ours_count(fake, pooled):
    fake.push(Fault(status=500))
    with pytest.raises(InfrastructureError):
        await client_for(fake, max_retries=0).complete([{"role": "user", "content": "hi"}])
    assert len(fake.requests) == 1


async def test_rejections_are_not_retried(fake, pooled):
    fake.push(Fault(status=400, body={"error": {"message": "maximum context length exceeded"}}))
    with pytest.raises(LLMRequestRejected, match="context length") as info:
        await client_for(fake).complete([{"role": "user", "content": "hi"}])
    assert info.value.status == 400 and isinstance(info.value, InfrastructureError)
    assert len(fake.requests) == 1


async def test_malformed_response_is_retried(fake, pooled):
    fake.push({"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": []}, reply(content="fine"))
    done = await client_for(fake).complete([{"role": "user", "content": "hi"}])
    assert done.message.content == "fine" and done.attempts == 2


async def test_retry_after_is_honoured_up_to_the_max_delay(fake, pooled):
    fake.push(Fault(status=429, headers={"retry-after": "0.15"}), reply(content="ok"))
    t0 = time.perf_counter()
    await client_for(fake, retry_max_delay=1.0).complete([{"role": "user", "content": "hi"}])
    assert time.perf_counter() - t0 >= 0.14
    fake.push(Fault(status=429, headers={"retry-after": "30"}), reply(content="ok"))
    t0 = time.perf_counter()
    await client_for(fake, retry_max_delay=0.05).complete([{"role": "user", "content": "hi"}])
    assert time.perf_counter() - t0 < 2


async def test_connection_refused_is_an_infrastructure_error(pooled):
    role = RoleConfig(kind="llm", model="m", base_url="http://127.0.0.1:9/v1",
                      extra={"max_retries": 1, "retry_base_delay": 0.001, "timeout": 2})
    with pytest.raises(InfrastructureError, match="(?i)connect"):
        await LLMClient(LLMSettings.from_role(role, name="user")).complete([{"role": "user", "content": "hi"}])


# ------------------------------------------------------------------------------------------------
# usage and cost
# ------------------------------------------------------------------------------------------------


async def test_usage_accumulates_and_cost_stays_unknown_without_prices(fake, pooled):
    fake.push(reply(content="a", usage=(100, 20)), reply(content="b", usage=(150, 30)), reply(content="c", usage=None))
    client = client_for(fake)
    for _ in range(3):
        await client.complete([{"role": "user", "content": "hi"}])
    assert (client.usage.prompt_tokens, client.usage.completion_tokens, client.usage.requests) == (250, 50, 3)
    assert client.usage.cost is None


async def test_cost_from_price_table(fake, pooled):
    prices = {"Org/Fake-Model": {"prompt": 2.0, "completion": 10.0}}  # matched without org, any case
    fake.push(reply(content="a", usage=(1_000_000, 100_000)), reply(content="b", usage=(500_000, 0)))
    client = client_for(fake, prices=prices)
    await client.complete([{"role": "user", "content": "hi"}])
    await client.complete([{"role": "user", "content": "hi"}])
    assert client.usage.cost == pytest.approx(2.0 + 1.0 + 1.0)


async def test_cost_unknown_for_a_model_missing_from_the_table(fake, pooled):
    client = client_for(fake, prices={"other-model": {"prompt": 1.0, "completion": 1.0}})
    await client.complete([{"role": "user", "content": "hi"}])
    assert client.usage.cost is None and client.usage.requests == 1


# ------------------------------------------------------------------------------------------------
# concurrency per endpoint
# ------------------------------------------------------------------------------------------------


async def test_endpoint_concurrency_limit_is_shared_across_roles(fake, pooled):
    state = {"now": 0, "peak": 0}
    lock = threading.Lock()

    def slow(body):
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return reply(content="ok")

    fake.default = slow
    agents = [client_for(fake, concurrency=3) for _ in range(4)]
    users = [LLMClient(LLMSettings.from_role(llm_role(fake, concurrency=3), name="user")) for _ in range(4)]
    await asyncio.gather(*(c.complete([{"role": "user", "content": "x"}]) for c in agents + users for _ in range(2)))
    assert len(fake.requests) == 16
    assert state["peak"] == 3


def test_unset_key_variable_fails_when_the_role_is_built(fake, monkeypatch):
    from llm_helpers import agent_ctx

    from temo.agents.llm import create

    monkeypatch.delenv("TEMO_TEST_UNSET", raising=False)
    with pytest.raises(LLMConfigError, match="TEMO_TEST_UNSET"):
        create(llm_role(fake, api_key_env="TEMO_TEST_UNSET"), agent_ctx())


def test_pooled_clients_are_closed_when_asyncio_run_ends(fake):
    from temo.llm import client as client_module

    seen = {}

    async def main():
        c = client_for(fake)
        await c.complete([{"role": "user", "content": "hi"}])
        st = client_module._state()
        seen["clients"] = list(st.clients.values())
        seen["keeper"] = st.keeper

    asyncio.run(main())
    assert seen["clients"] and seen["keeper"].done()
    assert all(c.is_closed() for c in seen["clients"])
