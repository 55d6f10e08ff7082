"""`temo run --agent llm --user llm` end to end over a loopback server that fails every fifth request.

The fake server plays both roles: a request offering tools is the agent (it answers "Is there
anything else?"), the others are the user simulator (a request, then ###STOP###). Rewards are
0 (the agent never calls a tool, so it can reach no goal); what matters is that every cell is graded,
no fault counts against the agent, no cell is missing, and the API key never reaches the run directory.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from llm_fake_server import Fault, FakeLLMServer, reply

SECRET = "sk-e2e-NEVER-WRITE-ME-9f3c1a"


class EveryFifthFails:
    def __init__(self):
        self.n = 0
        self.faults = 0
        self.lock = threading.Lock()

    def __call__(self, body):
        with self.lock:
            self.n += 1
            fail = self.n % 5 == 0
            if fail:
                self.faults += 1
        if fail:
            return Fault(status=500 if self.faults % 2 else 429)
        if body.get("tools"):
            return reply(content="Is there anything else?", reasoning_content="thinking about it", usage=(200, 10))
        if len(body["messages"]) <= 2:  # system + the agent's greeting
            return reply(content="Hi, I need help with one of my orders.", usage=(120, 12))
        return reply(content="No, that's all. ###STOP###", usage=(150, 8))


def temo(*args: str, env: dict[str, str], timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "temo.cli.app", *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


@pytest.fixture
def server():
    with FakeLLMServer(default=EveryFifthFails()) as s:
        yield s


def test_llm_run_with_faults_grades_every_cell(server, tmp_path: Path):
    out = tmp_path / "run"
    env = {**os.environ, "TEMO_E2E_KEY": SECRET}
    done = temo(
        "run", "--agent", "llm", "--agent-model", "Qwen/Qwen3-8B", "--agent-base-url", server.url,
        "--agent-api-key-env", "TEMO_E2E_KEY",
        "--user", "llm", "--user-model", "Qwen/Qwen3-235B-A22B-Instruct-2507", "--user-base-url", server.url,
        "--user-api-key-env", "TEMO_E2E_KEY",
        "--domains", "retail", "--limit", "3", "--trials", "2", "--out", str(out), "--quiet",
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    faults = server.default.faults
    assert faults >= 3, "the server should have injected faults"
    assert all(h.get("authorization") == f"Bearer {SECRET}" for h in server.headers)

    cells = sorted((out / "cells").glob("*.json"))
    assert len(cells) == 6
    for path in cells:
        record = json.loads(path.read_text())
        assert record["termination"] == "user_stop", (path.name, record.get("error"))
        # the agent never calls a tool: every task needs a write or a required output, so it earns nothing
        assert record["tool_calls"] == []
        assert record["reward"] is not None and record["reward"]["reward"] == 0, record["reward"]
        assert record["usage"]["agent"]["requests"] >= 1 and record["usage"]["user"]["requests"] == 2
        assert record["usage"]["agent"]["cost"] is None

    metrics = temo("metrics", str(out), "--json", env=env, timeout=120)
    assert metrics.returncode == 0, metrics.stderr[-2000:]
    report = json.loads(metrics.stdout)
    missing = list(_find(report, "missing_cells"))
    assert missing and all(v == 0 for v in missing), report
    assert any(v == 6 for v in _find(report, "cells")), report

    # the key never reaches anything written under the run directory
    for path in out.rglob("*"):
        if path.is_file():
            assert SECRET not in path.read_text(encoding="utf-8", errors="replace"), path
    assert SECRET not in done.stdout + done.stderr + metrics.stdout + metrics.stderr
    assert "Unclosed" not in done.stderr and "Traceback" not in done.stderr


def _find(obj, key):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == key:
                yield v
            yield from _find(v, key)
    elif isinstance(obj, list):
        for v in obj:
            yield from _find(v, key)
