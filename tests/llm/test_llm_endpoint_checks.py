"""What a real server showed (issue 13, section 10) and a user model that rejects its request
(section 5): tool_choice, plain connection and HTTP errors, the endpoint check before a run, error
reasons grouped, the no-tool-call warning, and the user_error termination."""
from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from llm_fake_server import Fault, FakeLLMServer, reply
from typer.testing import CliRunner

from temo.cli.app import app
from temo.core import RoleConfig
from temo.harness.runstore import RunStore
from temo.llm import LLMClient, LLMRequestRejected, LLMSettings
from temo.core.errors import InfrastructureError

runner = CliRunner()
TOOLS = [{"type": "function", "function": {"name": "think", "description": "d", "parameters": {"type": "object", "properties": {}}}}]


def cli(*args):
    return runner.invoke(app, list(args))


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StatusServer:
    """Answers every request with one status (a server without /v1 answers 404 to everything)."""

    def __init__(self, status: int):
        code = status

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self):
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(json.dumps({"detail": "Not Found"}).encode())

            do_GET = do_POST = _answer

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def settings(url, **kw):
    return LLMSettings.from_role(RoleConfig(kind="llm", model="m", base_url=url, extra={"max_retries": 0, **kw}), name="agent")


async def test_tool_choice_auto_is_sent_whenever_tools_are_offered(fake, pooled):
    fake.push(reply(content="a"), reply(content="b"), reply(content="c"))
    client = LLMClient(settings(fake.url))
    await client.complete([{"role": "user", "content": "hi"}], tools=TOOLS)
    await client.complete([{"role": "user", "content": "hi"}])
    required = LLMClient(LLMSettings.from_role(RoleConfig(kind="llm", model="m", base_url=fake.url,
                                                          sampling={"extra_body": {"tool_choice": "required"}}), name="agent"))
    await required.complete([{"role": "user", "content": "hi"}], tools=TOOLS)
    with_tools, without, overridden = fake.requests
    assert with_tools["tool_choice"] == "auto" and with_tools["tools"]
    assert "tool_choice" not in without and "tools" not in without
    assert overridden["tool_choice"] == "required"


async def test_a_refused_connection_says_so(pooled):
    client = LLMClient(settings(f"http://127.0.0.1:{closed_port()}/v1"))
    with pytest.raises(InfrastructureError) as info:
        await client.complete([{"role": "user", "content": "hi"}])
    text = str(info.value)
    assert "connection refused" in text and "timed out" not in text


async def test_http_400_reads_once_and_a_context_overflow_is_named(fake, pooled):
    fake.push(Fault(status=400, body={"error": {"message": "messages[3] is malformed"}}),
              Fault(status=400, body={"error": {"message": "This model's maximum context length is 8192 tokens. "
                                                           "However, you requested 9000 tokens"}}))
    client = LLMClient(settings(fake.url))
    with pytest.raises(LLMRequestRejected) as first:
        await client.complete([{"role": "user", "content": "hi"}])
    assert "HTTP 400: " in str(first.value) and "Error code" not in str(first.value)
    with pytest.raises(LLMRequestRejected) as second:
        await client.complete([{"role": "user", "content": "hi"}])
    assert "context overflow" in str(second.value) and "8192" in str(second.value)


def test_the_endpoint_check_stops_a_run_before_any_episode(tmp_path):
    out = tmp_path / "run"
    base = ["run", "--agent", "llm", "--agent-model", "m", "--domains", "retail", "--limit", "1", "--trials", "1", "-q"]
    for status, code, words in ((404, 2, "/v1"), (401, 2, "HTTP 401")):
        server = StatusServer(status)
        try:
            res = cli(*base, "--agent-base-url", server.url, "--out", str(out))
        finally:
            server.close()
        assert res.exit_code == code, res.output
        lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and words in lines[0] and "nothing was run" in lines[0], lines
        assert not (out / "config.json").exists()
    res = cli(*base, "--agent-base-url", f"http://127.0.0.1:{closed_port()}/v1", "--out", str(out))
    assert res.exit_code == 1 and "connection refused" in res.stderr and "timed out" not in res.stderr


def test_every_cell_failing_on_infrastructure_exits_1_naming_the_endpoint_and_reasons_are_grouped(tmp_path):
    out = tmp_path / "run"
    with FakeLLMServer(default=lambda body: Fault(status=503)) as server:
        res = cli("run", "--agent", "llm", "--agent-model", "m", "--agent-base-url", server.url, "--llm-max-retries", "0",
                  "--domains", "retail", "--limit", "2", "--trials", "1", "--out", str(out), "-q")
    assert res.exit_code == 1, res.output
    assert server.url in res.stderr and "every cell run (2) failed on infrastructure" in res.stderr
    assert "2 infra_error cell(s)" in res.stderr and "2 x agent model 'm'" in res.stderr and "HTTP 503" in res.stderr
    report = json.loads(cli("metrics", str(out), "--json").stdout)
    assert report["errors"]["infra_error"][0]["cells"] == 2
    shown = cli("show", str(out))
    assert "2 infra_error cell(s)" in shown.stderr and "HTTP 503" in shown.stderr


def test_an_llm_agent_that_never_calls_a_tool_is_warned_about(tmp_path):
    out = tmp_path / "run"
    with FakeLLMServer(default=lambda body: reply(content="Sorry, I cannot help with that.")) as server:
        res = cli("run", "--agent", "llm", "--agent-model", "m", "--agent-base-url", server.url,
                  "--domains", "retail", "--limit", "1", "--trials", "1", "--max-turns", "6", "--out", str(out), "-q")
    assert res.exit_code == 0, res.output
    assert "made no tool call" in res.stderr and "chatml-function-calling" in res.stderr
    assert all(b.get("tool_choice") == "auto" for b in server.requests)


def test_a_user_model_that_rejects_its_request_is_user_error_not_the_agents_fault(tmp_path):
    out = tmp_path / "run"
    with FakeLLMServer(default=lambda body: Fault(status=413, body={"error": {"message": "payload too large"}})) as server:
        res = cli("run", "--user", "llm", "--user-model", "u", "--user-base-url", server.url,
                  "--domains", "retail", "--limit", "2", "--trials", "1", "--out", str(out), "-q")
        assert res.exit_code == 0, res.output
        records = list(RunStore(out).records())
        assert [r.termination for r in records] == ["user_error", "user_error"]
        assert all(r.reward is None and "HTTP 413" in r.error for r in records)  # not graded as an agent failure
        asked = len(server.requests)
        assert cli("run", "--out", str(out), "--resume", "-q").exit_code == 0
        assert len(server.requests) == asked  # a plain resume does not re-run them
    report = json.loads(cli("metrics", str(out), "--json").stdout)
    assert report["errors"]["user_error"][0]["cells"] == 2
    assert any("2 cell(s) ended in USER_ERROR" in w for w in report["warnings"])
    assert all(block["successes"] == 0 and block["cells"] == 0 for block in [report["domains"]["retail"]])


def test_a_server_sending_lone_surrogates_and_nan_arguments_cannot_break_a_run(tmp_path):
    from llm_fake_server import call

    def hostile(body):
        if len([m for m in body["messages"] if m["role"] == "assistant"]) < 2:
            return reply(content="Looking \ud83d up", reasoning_content="hmm \udc00",
                         tool_calls=[call("calculate", '{"expression": NaN}'),
                                     call("get_user_details\ud83d", '{"user_id": "x\\ud83d"}'),
                                     call("calculate", '{"expression": "(-8)**0.5"}')])
        return reply(content="Anything else \udfff?")

    out = tmp_path / "run"
    with FakeLLMServer(default=hostile) as server:
        res = cli("run", "--agent", "llm", "--agent-model", "m", "--agent-base-url", server.url,
                  "--domains", "retail", "--limit", "1", "--trials", "1", "--max-turns", "8", "--out", str(out), "-q")
    assert res.exit_code == 0, res.output
    (path,) = RunStore(out).cell_files()
    path.read_bytes().decode("utf-8")  # encodable
    (record,) = RunStore(out).records()
    assert record.termination not in ("harness_error", "infra_error"), record.error
    assert record.reward is not None
    assert [c.ok for c in record.tool_calls[:3]] == [False, False, False]
    acted = next(m for m in record.messages if m.role == "assistant" and m.tool_calls)
    assert acted.content == "Looking \\ud83d up" and acted.reasoning == "hmm \\udc00"  # kept, as text
