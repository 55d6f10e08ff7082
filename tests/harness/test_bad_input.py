"""One clear line for every bad input (issue 13, section 3): exit 2 (1 for the environment),
one line, no traceback, nothing lost."""
from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import time

import pytest
from run_helpers import TEMO, cli, one_line_error

from temo.harness.runstore import RunStore


def test_out_that_is_a_file_under_a_file_or_not_writable(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("keep me")
    assert "is a file" in one_line_error(cli("run", "--out", str(afile), "-q"))
    assert "which is a file" in one_line_error(cli("run", "--out", str(afile / "sub" / "run"), "-q"))
    assert afile.read_text() == "keep me"
    place = "/sys/temo-run" if os.geteuid() == 0 else str(tmp_path / "ro" / "run")
    if os.geteuid() != 0:
        (tmp_path / "ro").mkdir()
        os.chmod(tmp_path / "ro", 0o500)
    assert "cannot write" in one_line_error(cli("run", "--domains", "retail", "--limit", "1", "--out", place, "-q"))


def test_empty_lists_huge_trials_and_bad_prices(tmp_path):
    out = str(tmp_path / "run")
    assert "--domains" in one_line_error(cli("run", "--domains", ",", "--out", out, "-q"))
    assert "--task-ids" in one_line_error(cli("run", "--task-ids", " , ", "--out", out, "-q"))
    t0 = time.time()
    assert "--trials" in one_line_error(cli("run", "--trials", "1000000000000", "--out", out, "-q"))
    assert time.time() - t0 < 30
    (tmp_path / "prices").mkdir()
    assert "is a directory" in one_line_error(cli("run", "--prices", str(tmp_path / "prices"), "--out", out, "-q"))
    (tmp_path / "p.json").write_bytes(b"\xff\xfe{}")
    assert "not UTF-8" in one_line_error(cli("run", "--prices", str(tmp_path / "p.json"), "--out", out, "-q"))
    assert not (tmp_path / "run").exists()  # nothing created on bad input


@pytest.mark.parametrize("url, words", [
    ("ftp://localhost:8000/v1", "http://"), ("localhost:8000/v1", "http://"), ("file:///etc/passwd", "http://"),
    ("http://localhost:8000/v1?api_key=sk-SECRET", "query string"), ("http://localhost:8000/v1?token=sk-SECRET", "query string"),
    ("http://localhost:8000/v1?api-version=1&access_token=sk-SECRET", "query string"),
])
def test_base_urls_are_checked_before_any_request(tmp_path, url, words):
    out = tmp_path / "run"
    line = one_line_error(cli("run", "--agent", "llm", "--agent-model", "m", "--agent-base-url", url, "--domains", "retail",
                        "--limit", "1", "--trials", "1", "--llm-max-retries", "0", "--out", str(out), "-q"))
    assert words in line and "SECRET" not in line
    assert not out.exists()


def test_non_utf8_text_to_emotion_map():
    res = cli("emotion", "map", "I am so \udcff\udcfe angry")  # how argv delivers bad bytes
    assert "UTF-8" in one_line_error(res)


def test_a_config_naming_a_domain_that_is_not_installed(tmp_path):
    out = tmp_path / "run"
    assert cli("run", "--domains", "retail", "--limit", "1", "--trials", "1", "--out", str(out), "-q").exit_code == 0
    store = RunStore(out)
    config = store.load_config()
    store.save_config(config.model_copy(update={"domains": ["atlantis"], "task_ids": {"atlantis": config.task_ids["retail"]}}))
    assert "atlantis" in one_line_error(cli("run", "--out", str(out), "--resume", "-q"))
    assert "atlantis" in one_line_error(cli("regrade", str(out)))


def test_full_disk_stops_with_one_line_and_the_written_cells_stay_valid(tmp_path, monkeypatch):
    out = tmp_path / "run"
    real_write = RunStore.write
    written = []

    def write(self, record):
        if len(written) >= 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(self, record)
        written.append(record.cell_id)

    monkeypatch.setattr(RunStore, "write", write)
    line = one_line_error(cli("run", "--domains", "retail", "--limit", "4", "--trials", "2", "--concurrency", "1",
                        "--out", str(out), "-q"), code=1)
    assert "no space left" in line and f"temo run --out {out} --resume" in line
    store = RunStore(out)
    assert sorted(r.cell_id for r in store.records()) == sorted(written)  # valid and complete
    assert not list((out / "cells").glob(".*.tmp"))
    monkeypatch.setattr(RunStore, "write", real_write)
    assert cli("run", "--out", str(out), "--resume", "-q").exit_code == 0
    assert len(list(store.records())) == 8


def test_ctrl_c_prints_the_run_directory_and_the_resume_command(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen([*TEMO, "run", "--domains", "retail", "--trials", "3", "--concurrency", "1",
                             "--out", str(out), "-q"], stderr=subprocess.PIPE, text=True)
    cells = out / "cells"
    deadline = time.time() + 120
    while time.time() < deadline and not (cells.exists() and len(list(cells.glob("*.json"))) >= 5):
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 130, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    assert str(out) in lines[0] and f"temo run --out {out} --resume" in lines[0]
    for p in cells.glob("*.json"):
        json.loads(p.read_text())  # what was written is valid
