"""Fixtures of the analysis tests: small offline runs made once per session with `temo run`."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "llm"))

from temo.cli.app import app  # noqa: E402

AGENTS = ("oracle", "probe:wrong-argument", "probe:early-stop", "probe:skip-confirmation", "probe:redundant-questions")


def make_run(out: Path, agent: str, domains: str = "retail,airline", limit: int = 2, trials: int = 1,
             arms: str = "emotion,neutral") -> Path:
    res = CliRunner().invoke(app, ["run", "--domains", domains, "--limit", str(limit), "--trials", str(trials),
                                   "--arms", arms, "--agent", agent, "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    return out


@pytest.fixture(scope="session")
def runs(tmp_path_factory) -> dict[str, Path]:
    """One small run per agent: retail and airline, 2 tasks each, both arms, 1 trial (8 cells)."""
    root = tmp_path_factory.mktemp("runs")
    return {agent: make_run(root / agent.replace(":", "-"), agent) for agent in AGENTS}


@pytest.fixture
def copy_run(tmp_path):
    """A private copy of a session run (tests that write verdicts or edit cells use it)."""
    import shutil

    def copy(src: Path) -> Path:
        dst = tmp_path / src.name
        shutil.copytree(src, dst)
        return dst

    return copy
