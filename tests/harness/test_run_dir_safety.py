"""A run directory is never silently wrong (issue 13, section 2)."""
from __future__ import annotations

import json
import subprocess
import sys
import time

from run_helpers import TEMO, cli, one_line_error

from temo.harness.runstore import RunStore


def small_run(out, *extra):
    res = cli("run", "--domains", "retail", "--limit", "2", "--trials", "2", "--out", str(out), "-q", *extra)
    assert res.exit_code == 0, res.output
    return RunStore(out)


def test_a_second_process_on_the_same_run_directory_exits_2_naming_the_holder(tmp_path):
    out = tmp_path / "run"
    store = small_run(out)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from temo.harness.runstore import RunStore; "
         "lock = RunStore(sys.argv[1]).lock(); print('held', flush=True); time.sleep(60)", str(out)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        before = {p.name: p.read_bytes() for p in store.cell_files()}
        line = one_line_error(cli("run", "--out", str(out), "--resume", "-q"))
        assert f"pid {holder.pid}" in line and "in use" in line
        assert {p.name: p.read_bytes() for p in store.cell_files()} == before  # nothing touched
    finally:
        holder.kill()
        holder.wait()
    # the lock dies with its holder, even a killed one
    assert cli("run", "--out", str(out), "--resume", "-q").exit_code == 0


def test_two_resumes_at_once_neither_crashes_nor_runs_a_cell_twice(tmp_path):
    out = tmp_path / "run"
    assert cli("run", "--domains", "retail", "--limit", "1", "--trials", "1", "--out", str(out), "-q").exit_code == 0
    config = RunStore(out).load_config()
    # widen the stored plan so that a resume has real work for several seconds (same task, more trials)
    RunStore(out).save_config(config.model_copy(update={"trials": 400}))
    procs = [subprocess.Popen([*TEMO, "run", "--out", str(out), "--resume", "-q"], stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    results = [(p.wait(timeout=240), p.stderr.read()) for p in procs]
    codes = sorted(code for code, _ in results)
    assert codes == [0, 2], results  # the loser says who holds the directory; nobody crashes
    assert not any("Traceback" in err or "FileNotFoundError" in err for _, err in results)
    assert "in use by temo run pid" in next(err for code, err in results if code == 2)
    records = list(RunStore(out).records())
    assert len(records) == 400 and len({r.cell_id for r in records}) == 400


def test_cells_without_config_are_refused(tmp_path):
    src = small_run(tmp_path / "oracle")
    out = tmp_path / "orphan"
    (out / "cells").mkdir(parents=True)
    for p in src.cell_files():
        (out / "cells" / p.name).write_bytes(p.read_bytes())
    for args in ([], ["--resume"]):
        line = one_line_error(cli("run", "--agent", "probe:early-stop", "--domains", "retail", "--limit", "2",
                                  "--trials", "2", "--out", str(out), "-q", *args))
        assert "no config.json" in line
    assert not (out / "config.json").exists()


def test_resume_without_flags_says_nothing_and_a_conflicting_flag_exits_2(tmp_path):
    out = tmp_path / "run"
    small_run(out)
    res = cli("run", "--out", str(out), "--resume", "-q")
    assert res.exit_code == 0, res.output
    assert [ln for ln in res.stderr.splitlines() if ln.strip()] == [f"run directory: {out}"]
    res = cli("run", "--out", str(out), "--resume", "--domains", "retail", "--limit", "2", "--trials", "2", "-q")
    assert res.exit_code == 0, res.output  # flags that agree are fine
    for args, flag in ((["--trials", "3"], "--trials"), (["--domains", "airline"], "--domains"),
                       (["--agent", "probe:early-stop"], "--agent"), (["--seed", "7"], "--seed"),
                       (["--arms", "neutral"], "--arms")):
        line = one_line_error(cli("run", "--out", str(out), "--resume", "-q", *args))
        assert flag in line, line
    assert cli("run", "--out", str(out), "--resume", "--concurrency", "1", "-q").exit_code == 0  # operational


def test_changed_tasks_are_refused_by_resume_and_regrade(tmp_path):
    out = tmp_path / "run"
    store = small_run(out)
    config = store.load_config()
    first = config.task_ids["retail"][0]
    # the run as if started against another version of its first task
    store.save_config(config.model_copy(update={"task_set_hash": "0" * 64,
                                                "task_hashes": {**config.task_hashes, first: "1" * 64}}))
    line = one_line_error(cli("run", "--out", str(out), "--resume", "-q"))
    assert first in line and "changed" in line and config.task_ids["retail"][1] not in line
    line = one_line_error(cli("regrade", str(out)))
    assert first in line and "changed" in line
    # accepting grades against the installed tasks and records them: the next resume and regrade run
    res = cli("regrade", str(out), "--accept-task-changes")
    assert res.exit_code == 0 and "accepted 1 changed task" in res.output, res.output
    assert RunStore(out).load_config().task_hashes[first] == config.task_hashes[first]
    assert cli("regrade", str(out)).exit_code == 0
    assert cli("run", "--out", str(out), "--resume", "-q").exit_code == 0


def test_unreadable_cell_files_are_quarantined_and_rerun(tmp_path):
    out = tmp_path / "run"
    store = small_run(out)
    files = store.cell_files()
    files[0].write_bytes(files[0].read_bytes()[:120])  # truncated
    files[1].write_bytes(b"\xff\xfe{\"task_id\": 1}")  # not UTF-8
    line = one_line_error(cli("metrics", str(out)))  # a reader says what to do, without a traceback
    assert "--resume" in line
    res = cli("run", "--out", str(out), "--resume", "-q")
    assert res.exit_code == 0, res.output
    moved = [ln for ln in res.stderr.splitlines() if ln.startswith("moved unreadable cell file")]
    assert len(moved) == 2 and any("not UTF-8" in ln for ln in moved) and any("truncated" in ln for ln in moved)
    assert sorted(p.name for p in (out / "quarantine").iterdir()) == sorted([files[0].name, files[1].name])
    records = list(store.records())
    assert len(records) == 4 and all(r.reward.reward == 1 for r in records)


def test_a_plain_resume_keeps_user_error_cells_and_metrics_reports_them(tmp_path):
    out = tmp_path / "run"
    store = small_run(out)
    rec = next(store.records())
    store.write(rec.model_copy(update={"termination": "user_error", "reward": None,
                                       "error": "user model 'u' at http://x/v1 failed after 1 attempt(s): HTTP 400: bad"}))
    written = store.cell_path(rec.task_id, rec.arm, rec.trial).read_bytes()
    started = time.time()
    assert cli("run", "--out", str(out), "--resume", "-q").exit_code == 0
    assert store.cell_path(rec.task_id, rec.arm, rec.trial).read_bytes() == written
    assert all(r.started_at < started for r in store.records())
    report = json.loads(cli("metrics", str(out), "--json").stdout)
    assert report["errors"]["user_error"][0]["cells"] == 1
    assert any("USER_ERROR" in w for w in report["warnings"])
