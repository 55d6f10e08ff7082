"""What the `temo` command-line tests share: calling the app in-process, the command that runs it in a
child process, and the check that a bad input got one clear error line."""
from __future__ import annotations

import sys

from typer.testing import CliRunner, Result

from temo.cli.app import app

runner = CliRunner()
TEMO = [sys.executable, "-m", "temo.cli.app"]  # for tests that need a real second process


def cli(*args: str) -> Result:
    """`temo ARGS...` run in this process (arguments are turned into strings by the caller)."""
    return runner.invoke(app, list(args))


def one_line_error(res: Result, code: int = 2) -> str:
    """The run exited with ``code`` after exactly one non-blank stderr line, ``error: ...``, and no
    traceback; that line."""
    assert res.exit_code == code, res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert "Traceback" not in res.output
    return lines[0]
