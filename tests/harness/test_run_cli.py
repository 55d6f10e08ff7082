"""`temo run`, resume after a real kill -9, regrade, and bad input at the CLI."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from temo.cli.app import app
from temo.harness.runstore import RunStore

runner = CliRunner()
TEMO = [sys.executable, "-m", "temo.cli.app"]


def run_cli(*args):
    return runner.invoke(app, list(args))


def test_small_run_writes_one_record_per_cell_and_the_full_config(tmp_path):
    out = tmp_path / "run"
    res = run_cli("run", "--domains", "retail", "--limit", "4", "--trials", "2", "--arms", "emotion,neutral", "--out", str(out), "-q")
    assert res.exit_code == 0, res.output
    store = RunStore(out)
    config = store.load_config()
    assert len(config.cells()) == 4 * 2 * 2
    records = list(store.records())
    assert sorted(r.cell_id for r in records) == sorted(f"{t}__{a}__{k}" for _, t, a, k in config.cells())
    assert all(r.reward.reward == 1 for r in records)
    assert config.task_set_hash and config.prompt_hashes["policy:retail"]
    assert config.agent.kind == "oracle" and config.user.kind == "scripted"
    # records are self-contained: messages, tool calls and the condition
    rec = records[0]
    assert rec.messages[0].role == "system" and rec.tool_calls and rec.emotion.id


def test_cells_are_deterministic_across_runs(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out, conc in ((a, "1"), (b, "4")):
        assert run_cli("run", "--domains", "retail", "--limit", "3", "--trials", "2", "--concurrency", conc, "--out", str(out), "-q").exit_code == 0
    ra = {r.cell_id: [m.content for m in r.messages] for r in RunStore(a).records()}
    rb = {r.cell_id: [m.content for m in r.messages] for r in RunStore(b).records()}
    assert ra == rb


def test_resume_after_kill_9_neither_loses_nor_duplicates(tmp_path):
    out = tmp_path / "run"
    args = [*TEMO, "run", "--domains", "retail", "--trials", "3", "--arms", "emotion,neutral", "--concurrency", "2", "--out", str(out), "-q"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cells = out / "cells"
    deadline = time.time() + 120
    while time.time() < deadline:
        if cells.exists() and len(list(cells.glob("*.json"))) >= 30:
            break
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    before = {p.name for p in cells.glob("*.json")}
    store = RunStore(out)
    planned = len(store.load_config().cells())
    assert 30 <= len(before) < planned, "the kill should land mid-run"
    for p in cells.glob("*.json"):  # every file that exists is a complete, valid record
        json.loads(p.read_text())
    killed_at = time.time()
    res = subprocess.run([*TEMO, "run", "--out", str(out), "--resume", "-q"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    records = list(store.records())
    assert len(records) == planned
    assert len({r.cell_id for r in records}) == planned
    rerun = [r for r in records if r.started_at >= killed_at]
    assert len(rerun) == planned - len(before)  # only the missing cells ran again
    assert not list(cells.glob(".*.tmp"))
    assert all(r.complete and r.reward.reward == 1 for r in records)


def test_resume_reruns_infrastructure_error_cells(tmp_path):
    out = tmp_path / "run"
    assert run_cli("run", "--domains", "retail", "--limit", "2", "--trials", "1", "--out", str(out), "-q").exit_code == 0
    store = RunStore(out)
    rec = next(store.records())
    store.write(rec.model_copy(update={"termination": "infra_error", "reward": None, "error": "endpoint down"}))
    assert rec.cell_id not in store.done_cells()
    assert run_cli("run", "--out", str(out), "--resume", "-q").exit_code == 0
    assert rec.cell_id in store.done_cells()


def test_regrade_restores_rewards(tmp_path):
    out = tmp_path / "run"
    assert run_cli("run", "--domains", "retail", "--limit", "2", "--trials", "1", "--out", str(out), "-q").exit_code == 0
    store = RunStore(out)
    rec = next(store.records())
    store.write(rec.model_copy(update={"reward": rec.reward.model_copy(update={"reward": 0})}))
    res = run_cli("regrade", str(out), "--json")
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["graded"] == 2 and summary["changed"] == [{"cell": rec.cell_id, "old": 0, "new": 1}]
    assert all(r.reward.reward == 1 for r in store.records())


@pytest.mark.parametrize(
    "args,needle",
    [
        (["run", "--domains", "nowhere"], "--domains"),
        (["run", "--arms", "happy"], "--arms"),
        (["run", "--agent", "genius"], "--agent"),
        (["run", "--agent", "probe:lazy"], "--agent"),
        (["run", "--user", "robot"], "--user"),
        (["run", "--split", "dev"], "--split"),
        (["run", "--domains", "retail", "--task-ids", "retail-test-999"], "--task-ids"),
        (["run", "--resume"], "--resume"),
        (["run", "--agent", "llm"], "--agent-model"),
        (["run", "--agent-extra-body", "{oops", "--domains", "retail"], "--agent-extra-body"),
        (["tasks", "show", "retail-test-999"], "unknown task id"),
        (["regrade", "/no/such/run"], "not a run directory"),
        (["domains", "--domains", "nowhere"], "--domains"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, needle, tmp_path):
    res = run_cli(*args, "--out", str(tmp_path / "x")) if args[0] == "run" else run_cli(*args)
    assert res.exit_code == 2, res.output
    lines = [l for l in res.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0], res.stderr


def test_existing_run_needs_resume(tmp_path):
    out = tmp_path / "run"
    assert run_cli("run", "--domains", "retail", "--limit", "1", "--trials", "1", "--out", str(out), "-q").exit_code == 0
    res = run_cli("run", "--domains", "retail", "--limit", "1", "--trials", "1", "--out", str(out), "-q")
    assert res.exit_code == 2 and "--resume" in res.stderr


def test_show_lists_cells_and_prints_a_conversation(tmp_path):
    out = tmp_path / "run"
    assert run_cli("run", "--domains", "retail", "--limit", "2", "--trials", "1", "--agent", "probe:early-stop", "--out", str(out), "-q").exit_code == 0
    listing = run_cli("show", str(out), "--failed")
    assert listing.exit_code == 0 and listing.stdout.count("reward 0") == 2
    convo = run_cli("show", str(out), "retail-test-000__emotion__0")
    assert convo.exit_code == 0 and "find_user_id" in convo.stdout and "Hi! How can I help you today?" in convo.stdout
    assert run_cli("show", str(out), "nope").exit_code == 2
