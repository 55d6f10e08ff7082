"""The other role combinations over a loopback server: llm agent + scripted user, and oracle or
probe agents + llm user (how one validates a user simulator)."""
from __future__ import annotations

import json
from pathlib import Path

from llm_fake_server import FakeLLMServer, reply
from typer.testing import CliRunner

from temo.cli.app import app
from temo.harness.runstore import RunStore

runner = CliRunner()


def cooperative_user(body):
    """A user simulator that says yes to confirmations and stops when asked for anything else."""
    last = body["messages"][-1]["content"].lower()
    if len(body["messages"]) <= 2:
        return reply(content="Hi, I need help with my order.")
    if "anything else" in last:
        return reply(content="No, that's everything, thanks. ###STOP###")
    if "confirm" in last:
        return reply(content="Yes, please go ahead.")
    return reply(content="Sure, here is what you need.")


def one_intent_tasks(domain: str, n: int = 2) -> str:
    """This fake user knows one request only, so give it one-intent tasks."""
    from temo.domains import get_domain

    return ",".join([t.id for t in get_domain(domain).tasks("test") if len(t.scenario.intents) == 1][:n])


def test_oracle_with_llm_user_reaches_the_goal(tmp_path: Path):
    out = tmp_path / "run"
    ids = one_intent_tasks("retail") + "," + one_intent_tasks("airline")
    with FakeLLMServer(default=cooperative_user) as server:
        res = runner.invoke(app, ["run", "--agent", "oracle", "--user", "llm", "--user-model", "sim", "--user-base-url", server.url,
                                  "--domains", "retail,airline", "--task-ids", ids, "--trials", "1", "--out", str(out), "-q"])
        assert res.exit_code == 0, res.output
        assert all("tools" not in b for b in server.requests)  # the user never sees tools
    records = list(RunStore(out).records())
    assert len(records) == 4
    assert all(r.termination == "user_stop" and r.reward.reward == 1 for r in records)
    assert all(r.usage["user"].requests >= 3 and r.usage["agent"].requests == 0 for r in records)


def test_skip_confirmation_probe_with_llm_user_is_flagged(tmp_path: Path):
    out = tmp_path / "run"
    with FakeLLMServer(default=cooperative_user) as server:
        res = runner.invoke(app, ["run", "--agent", "probe:skip-confirmation", "--user", "llm", "--user-model", "sim",
                                  "--user-base-url", server.url, "--domains", "retail", "--task-ids", one_intent_tasks("retail"), "--trials", "1",
                                  "--out", str(out), "-q"])
        assert res.exit_code == 0, res.output
    assert all(any(v.rule == "confirm_before_write" for v in r.violations) for r in RunStore(out).records())


def test_llm_agent_with_scripted_user(tmp_path: Path):
    out = tmp_path / "run"

    def agent(body):
        assert body["tools"] and body["messages"][0]["role"] == "system"
        said = [m for m in body["messages"] if m["role"] == "assistant"]
        if len(said) == 1:  # only the greeting so far
            return reply(content="Sure. Could you give me your email address?")
        return reply(content="Thanks. Is there anything else I can help you with?")

    with FakeLLMServer(default=agent) as server:
        res = runner.invoke(app, ["run", "--agent", "llm", "--agent-model", "m", "--agent-base-url", server.url,
                                  "--user", "scripted", "--domains", "retail", "--limit", "2", "--trials", "1",
                                  "--out", str(out), "-q"])
        assert res.exit_code == 0, res.output
        users = [m["content"] for b in server.requests for m in b["messages"] if m["role"] == "user"]
    records = list(RunStore(out).records())
    assert len(records) == 2 and all(r.reward is not None for r in records)
    assert all(r.reward.reward == 0 for r in records)  # it never acted, so the goal is not reached
    assert any("@" in u for u in users)  # the scripted user revealed the email it was asked for
    config = json.loads((out / "config.json").read_text())
    assert any(k.startswith("llm:llm:agent.llm") for k in config["prompt_hashes"])
