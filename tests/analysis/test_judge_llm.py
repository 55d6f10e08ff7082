"""The LLM judge against a loopback OpenAI-compatible fake server: schema, validation, retries."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from llm_fake_server import Fault, FakeLLMServer, reply
from temo.analysis.cells import load_run
from temo.analysis.judging import to_judge
from temo.analysis.llm_judge import judge_llm, llm_settings, parse_reply, prompt_hash
from temo.cli.app import app

runner = CliRunner()


def verdict_json(fault="early_stop", turn=2, abandoned=False, reason=None):
    return json.dumps({
        "errors": [{"source": "agent", "severity": "critical", "faults": [fault], "turn": turn,
                    "justification": "it said it was done before the last step"}],
        "critical_fault": fault, "critical_turn": turn, "reason": "stopped before the task was complete",
        "emotional_outcome": {"abandoned": abandoned, "reason": reason, "explanation": "the user said goodbye"},
    })


def test_invalid_replies_are_retried_with_the_error_and_verdicts_are_stored(runs, copy_run):
    run = copy_run(runs["probe:early-stop"])
    with FakeLLMServer(default=lambda body: reply(content=verdict_json())) as server:
        server.push(reply(content="I think the agent stopped early."),                  # not JSON
                    reply(content=verdict_json(fault="laziness")),                      # unknown fault tag
                    reply(content="```json\n" + verdict_json(turn=9999) + "\n```"))     # turn out of range
        res = runner.invoke(app, ["judge", str(run), "--json", "--judge-model", "judge-m", "--judge-base-url", server.url,
                                  "--judge-concurrency", "1", "--judge-attempts", "4"])
        assert res.exit_code == 0, res.output
        summary = json.loads(res.output)
        failed = summary["failed"]
        assert failed >= 3
        # one cell needed 4 requests (3 invalid replies, then a valid one); every other cell 1
        assert len(server.requests) == failed + 3
        first = server.requests[0]
        assert first["model"] == "judge-m" and first["temperature"] == 0
        assert first["response_format"]["type"] == "json_schema"
        assert first["response_format"]["json_schema"]["schema"]["properties"]["critical_fault"]
        assert "Reference actions" in first["messages"][1]["content"]
        retry = server.requests[1]["messages"]
        assert retry[-1]["role"] == "user" and "no JSON object" in retry[-1]["content"]
        assert "unknown fault tag(s) laziness" in server.requests[2]["messages"][-1]["content"]
        assert "outside the conversation" in server.requests[3]["messages"][-1]["content"]

        stored = [json.loads(p.read_text()) for p in sorted((run / "judge" / "llm").glob("*.json"))]
        assert len(stored) == failed
        assert {v["prompt_hash"] for v in stored} == {prompt_hash()} and {v["model"] for v in stored} == {"judge-m"}
        assert sorted(v["attempts"] for v in stored)[-1] == 4
        assert all(v["status"] == "ok" and v["critical"]["fault"] == "early_stop" for v in stored)
        assert summary["judges"]["llm"] == failed
        assert summary["agreement"]["cells"] == failed and summary["agreement"]["fault"] == 1.0

        # resumable: a second run asks nothing
        before = len(server.requests)
        res = runner.invoke(app, ["judge", str(run), "--json", "--judge-model", "judge-m", "--judge-base-url", server.url])
        assert res.exit_code == 0 and len(server.requests) == before


def test_a_reply_that_never_validates_is_stored_invalid_and_the_offline_verdict_counts(runs, copy_run):
    run = copy_run(runs["probe:wrong-argument"])
    loaded = load_run(run)
    cells = to_judge(loaded)[:1]
    with FakeLLMServer(default=lambda body: reply(content='{"errors": []}')) as server:
        settings = llm_settings("m", server.url, None, concurrency=1)
        verdicts, errors = judge_llm(loaded, cells, settings, max_attempts=2)
        assert not errors and len(server.requests) == 2
    v = verdicts[cells[0].id]
    assert v.status == "invalid" and "field" in v.error and v.attempts == 2
    res = runner.invoke(app, ["judge", str(run), "--json"])
    summary = json.loads(res.output)
    assert summary["judges"]["llm_invalid"] == 1
    assert summary["by_fault"]["wrong_arguments"] == summary["failed"]  # offline verdict used


def test_transport_faults_are_retried_and_a_dead_endpoint_leaves_cells_for_next_time(runs, copy_run):
    run = copy_run(runs["probe:early-stop"])
    loaded = load_run(run)
    cells = to_judge(loaded)[:2]
    with FakeLLMServer(default=lambda body: reply(content=verdict_json())) as server:
        server.push(Fault(status=503), Fault(status=429))
        settings = llm_settings("m", server.url, None, concurrency=1).model_copy(update={"retry_base_delay": 0.01, "retry_max_delay": 0.02})
        verdicts, errors = judge_llm(loaded, cells, settings)
        assert not errors and len(verdicts) == 2 and len(server.requests) == 4
        url = server.url
    # the server is gone now: the client gives up, the cells get no verdict, the CLI says so
    settings = llm_settings("m", url, None).model_copy(update={"max_retries": 1, "retry_base_delay": 0.01, "timeout": 2})
    verdicts, errors = judge_llm(loaded, to_judge(loaded)[2:3], settings)
    assert not verdicts and len(errors) == 1
    assert not (run / "judge" / "llm" / f"{to_judge(loaded)[2].id}.json").exists()


def test_parse_reply_rules():
    ok = parse_reply(verdict_json(abandoned=True, reason="procedural_friction"), 10)
    assert ok.critical_fault == "early_stop" and ok.emotional_outcome.reason == "procedural_friction"
    for bad, msg in ((verdict_json(abandoned=True), "required when abandoned"),
                     (verdict_json(abandoned=True, reason="rudeness"), "emotional_outcome.reason"),
                     ("[1, 2]", "no JSON object")):
        try:
            parse_reply(bad, 10)
        except ValueError as e:
            assert msg in str(e)
        else:
            raise AssertionError(f"accepted {bad}")
