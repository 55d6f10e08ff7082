"""`temo tracer` stage by stage over JSONL, and its errors on bad input (exit 2, one line)."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from temo.cli.app import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_stages_compose_into_verified_tasks(tmp_path):
    t, g, i, f, c, v = (tmp_path / n for n in ("t.jsonl", "g.jsonl", "i.jsonl", "f.jsonl", "c.jsonl", "v.jsonl"))
    assert run("tracer", "sample", "--domain", "retail", "--split", "test", "--draws", "400", "--out", t).exit_code == 0
    res = run("tracer", "ground", "--domain", "retail", "--in", t, "--out", g, "--count", "6")
    assert res.exit_code == 0, res.output
    assert run("tracer", "instruct", "--domain", "retail", "--in", g, "--out", i).exit_code == 0
    assert run("tracer", "feel", "--in", i, "--out", f).exit_code == 0
    res = run("tracer", "condition", "--in", f, "--out", c)
    assert res.exit_code == 0 and "round trip" in res.output
    res = run("tracer", "verify", "--domain", "retail", "--in", c, "--out", v)
    assert res.exit_code == 0, res.output
    tasks = [json.loads(x) for x in v.read_text().splitlines()]
    assert len(tasks) == 6
    for task in tasks:
        assert task["emotion_instruction"] and task["meta"]["feeling"] and task["actions"][0]["name"].startswith("find_user")


@pytest.mark.parametrize("args, fragment", [
    (["tracer", "sample", "--domain", "nowhere", "--out", "x.jsonl"], "--domain"),
    (["tracer", "sample", "--domain", "retail", "--split", "dev", "--out", "x.jsonl"], "--split"),
    (["tracer", "ground", "--domain", "retail", "--in", "missing.jsonl", "--out", "x.jsonl"], "does not exist"),
    (["tracer", "build", "--domains", "nowhere"], "--domains"),
    (["tracer", "instruct", "--domain", "retail", "--in", "BAD", "--out", "x.jsonl", "--writer-model", "m"], "--writer"),
    (["domains", "graph", "nowhere"], "unknown domain"),
    (["domains", "graph", "retail", "--out", "x.gif"], "--out"),
    (["tasks", "export", "--split", "dev"], "--split"),
    (["tasks", "stats", "--domains", "nowhere"], "--domains"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, monkeypatch, args, fragment):
    monkeypatch.chdir(tmp_path)
    if "BAD" in args:
        (tmp_path / "BAD").write_text('{"grounded": {}}\n')
    res = run(*args)
    assert res.exit_code == 2, res.output
    assert fragment in res.output


def test_bad_jsonl_line_is_named(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x", "trace": [["get_order_details"]], "split": "test"}\nnot json\n')
    res = run("tracer", "ground", "--domain", "retail", "--in", bad, "--out", tmp_path / "o.jsonl")
    assert res.exit_code == 2 and "line 2" in res.output


def test_graph_picture_and_stats(tmp_path):
    res = run("domains", "graph", "retail", "--out", tmp_path / "r.svg")
    assert res.exit_code == 0 and (tmp_path / "r.svg").read_text().startswith("<svg")
    res = run("tasks", "stats", "--domains", "retail", "--json")
    assert res.exit_code == 0
    stats = json.loads(res.output)["retail"]
    assert stats["test"]["tasks"] == 70 and stats["paper"]["train"] == 898
