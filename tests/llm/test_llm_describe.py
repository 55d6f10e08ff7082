"""What a run records about an llm role: never a key; the reference user simulator."""
from __future__ import annotations

import json

import pytest

from temo.core import RoleConfig
from temo.llm import LLMConfigError, check_role, describe_role, is_reference_user

SECRET = "sk-live-THIS-MUST-NOT-LEAK-42"


def test_describe_role_never_contains_the_key(monkeypatch):
    monkeypatch.setenv("TEMO_TEST_KEY", SECRET)
    role = RoleConfig(
        kind="llm", model="Qwen/Qwen3-8B", base_url=f"https://user:{SECRET}@api.example.com/v1?api_key={SECRET}",
        api_key_env="TEMO_TEST_KEY",
        sampling={"temperature": 0.6, "top_p": 0.95, "max_tokens": 4096, "extra_body": {"top_k": 20, "api_key": SECRET}},
        extra={"keep_reasoning": True, "prompt": "policy", "prices": {"Qwen/Qwen3-8B": {"prompt": 0.1, "completion": 0.2}},
               "note": f"copied {SECRET} by mistake"},
    )
    out = describe_role(role)
    text = json.dumps(out)
    assert SECRET not in text
    assert out["model"] == "Qwen/Qwen3-8B" and out["base_url"] == "https://api.example.com/v1"
    assert out["api_key_env"] == "TEMO_TEST_KEY"  # the NAME of the variable is fine
    assert out["sampling"]["temperature"] == 0.6 and out["sampling"]["extra_body"]["top_k"] == 20
    assert out["sampling"]["max_tokens"] == 4096
    assert out["extra"]["prices"]["Qwen/Qwen3-8B"]["completion"] == 0.2


def test_describe_non_llm_role():
    assert describe_role(RoleConfig(kind="oracle")) == {"kind": "oracle"}


@pytest.mark.parametrize("model, sampling, expected", [
    ("Qwen3-235B-A22B-Instruct-2507", {"temperature": 0.0}, True),
    ("Qwen/Qwen3-235B-A22B-Instruct-2507", {"temperature": 0}, True),
    ("qwen/qwen3-235b-a22b-instruct-2507", {}, True),  # user default temperature is 0
    ("QWEN3-235B-A22B-INSTRUCT-2507", {"temperature": 0.0, "extra_body": {"top_k": 20}}, True),
    ("Qwen/Qwen3-235B-A22B-Instruct-2507", {"temperature": 0.7}, False),
    ("Qwen/Qwen3-235B-A22B-Thinking-2507", {"temperature": 0}, False),
    ("Qwen/Qwen3-235B-A22B-Instruct-2507-FP8", {"temperature": 0}, False),
    ("Qwen3-235B-A22B", {"temperature": 0}, False),
    ("GLM-5.2", {"temperature": 0}, False),
])
def test_is_reference_user(model, sampling, expected):
    role = RoleConfig(kind="llm", model=model, base_url="http://x/v1", sampling=sampling)
    assert is_reference_user(role) is expected


def test_scripted_user_is_not_the_reference():
    assert not is_reference_user(RoleConfig(kind="scripted", model="Qwen3-235B-A22B-Instruct-2507"))


def test_check_role(monkeypatch):
    monkeypatch.delenv("TEMO_TEST_MISSING", raising=False)
    check_role(RoleConfig(kind="oracle"), "agent")
    check_role(RoleConfig(kind="llm", model="m", base_url="http://127.0.0.1:8000/v1"), "agent")
    with pytest.raises(LLMConfigError, match="TEMO_TEST_MISSING"):
        check_role(RoleConfig(kind="llm", model="m", base_url="http://x/v1", api_key_env="TEMO_TEST_MISSING"), "user")
