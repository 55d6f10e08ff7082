"""`temo metrics` through typer's CliRunner on a run directory written with RunStore."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from temo.cli.metrics import REFERENCE_USER_WARNING, metrics_command
from temo.core import EmotionCondition, EpisodeRecord, RewardInfo
from temo.harness.runstore import RoleConfig, RunConfig, RunStore

DATA = Path(__file__).parent / "data"
REQUIRED = {"tasks", "trials", "avg", "pass_hat", "pass_at", "unsatisfied_rate", "missing_cells", "by_family",
            "by_arm", "emotion_minus_neutral", "violation_rate"}


def make_app() -> typer.Typer:
    # Mounted the way temo.cli.app mounts it; the callback keeps `metrics` a subcommand.
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def _root() -> None:
        pass

    app.command("metrics")(metrics_command)
    return app


runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(make_app(), ["metrics", *map(str, args)])


def write_run(root: Path, reference: bool = False) -> Path:
    config = RunConfig(
        domains=["retail", "airline"], task_ids={"retail": ["r1", "r2"], "airline": ["a1"]}, task_set_hash="h",
        arms=["emotion", "neutral"], trials=3, agent=RoleConfig(kind="oracle"), user=RoleConfig(kind="scripted"),
        reference_user_simulator=reference,
    )
    store = RunStore(root)
    store.save_config(config)
    outcomes = {("r1", "emotion"): [1, 1, 0], ("r1", "neutral"): [1, 1, 1], ("r2", "emotion"): [-1, 1, None],
                ("r2", "neutral"): [0, 0, 1], ("a1", "emotion"): [1, 1, 1], ("a1", "neutral"): [1, 1]}
    for (domain, task, arm, trial) in config.cells():
        rewards = outcomes[(task, arm)]
        if trial >= len(rewards):
            continue  # never run
        reward = rewards[trial]
        store.write(EpisodeRecord(
            task_id=task, domain=domain, arm=arm, trial=trial, seed=trial,
            emotion=EmotionCondition.parse("frustration.cold.high.skeptical" if task != "r2" else "dread.neutral.high.cautious"),
            termination="infra_error" if reward is None else ("user_unsatisfied" if reward == -1 else "user_stop"),
            reward=None if reward is None else RewardInfo(reward=reward, state_match=reward == 1),
        ))
    return root


@pytest.fixture
def run_dir(tmp_path):
    return write_run(tmp_path / "run")


def test_json_report(run_dir):
    result = invoke(run_dir, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report["domains"]) == {"retail", "airline"}
    for block in [*report["domains"].values(), report["average"]]:
        assert REQUIRED <= set(block)
        assert set(block["pass_hat"]) == {"1", "2", "3"}
    retail = report["domains"]["retail"]
    assert retail["avg"] == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert retail["missing_cells"] == 1 and report["domains"]["airline"]["missing_cells"] == 1
    assert retail["by_family"]["fear"]["unsatisfied_rate"] == 0.5
    assert report["average"]["avg"] == pytest.approx(((2 / 3 + 1 / 2) / 2 + 1.0) / 2)
    assert report["run"]["trials"] == 3 and report["run"]["arms"] == ["emotion", "neutral"]
    assert report["run"]["agent"]["kind"] == "oracle" and report["run"]["user"]["kind"] == "scripted"
    # a scripted user is not a simulator of the paper's kind: the reference-simulator warning does not apply
    assert REFERENCE_USER_WARNING not in report["warnings"]
    assert any("2 of 18 cells" in w for w in report["warnings"])


def test_an_llm_user_other_than_the_reference_is_warned_about(tmp_path):
    root = write_run(tmp_path / "run")
    store = RunStore(root)
    config = store.load_config()
    store.save_config(config.model_copy(update={"user": RoleConfig(kind="llm", model="small-model", base_url="http://x/v1")}))
    report = json.loads(invoke(root, "--json").stdout)
    assert REFERENCE_USER_WARNING in report["warnings"]


def test_reference_user_has_no_warning(tmp_path):
    report = json.loads(invoke(write_run(tmp_path / "run", reference=True), "--json").stdout)
    assert REFERENCE_USER_WARNING not in report["warnings"]


def test_domain_filter(run_dir):
    report = json.loads(invoke(run_dir, "--json", "--domain", "airline").stdout)
    assert list(report["domains"]) == ["airline"]
    result = invoke(run_dir, "--domain", "mars")
    assert result.exit_code == 2 and "mars" in result.stderr


def test_table(run_dir):
    result = invoke(run_dir)
    assert result.exit_code == 0, result.output
    out = result.stdout
    for needle in ("Avg@3", "Pass^1", "Pass^3", "Unsat", "Missing", "retail", "airline", "Average", "anger", "fear",
                   "emotion − neutral"):
        assert needle in out
    assert "58.3" in out  # retail Avg@3 = 7/12
    assert "warning:" in result.stderr


def test_import_taubench_json_and_table():
    result = invoke("--import", "taubench", DATA / "taubench_results.json", "--json", "--domain", "retail")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert REQUIRED <= set(report["domains"]["retail"]) and REQUIRED <= set(report["average"])
    assert report["source"]["format"] == "taubench" and report["source"]["entries"] == 9
    assert report["domains"]["retail"]["missing_cells"] == 1
    table = invoke("--import", "taubench", DATA / "taubench_results.json")
    assert table.exit_code == 0 and "imported" in table.stdout and "Pass^3" in table.stdout


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    return lines[0]


def test_bad_inputs_exit_2_with_one_line(tmp_path, run_dir):
    assert "no such run directory" in one_line_error(invoke(tmp_path / "nope"))
    (tmp_path / "empty").mkdir()
    assert "not a run directory" in one_line_error(invoke(tmp_path / "empty"))
    assert "--import" in one_line_error(invoke(DATA / "taubench_results.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    assert "not valid JSON" in one_line_error(invoke("--import", "taubench", bad))
    assert "no such file" in one_line_error(invoke("--import", "taubench", tmp_path / "missing.json"))
    assert "unknown import format" in one_line_error(invoke("--import", "swebench", bad))
    one_line_error(invoke("--import", "taubench"))
    one_line_error(invoke())
    # a corrupt cell record and a corrupt config: pydantic's multi-line errors squashed to one line
    (run_dir / "cells" / "broken__emotion__0.json").write_text('{"task_id": 1}')
    assert "unreadable cell record" in one_line_error(invoke(run_dir))
    (run_dir / "config.json").write_text('{"domains": 3}')
    assert "invalid run configuration" in one_line_error(invoke(run_dir, "--json"))


def test_help_teaches():
    result = invoke("--help")
    assert result.exit_code == 0
    for needle in ("temo metrics", "--import", "taubench", "Pass^k", "--json", "missing"):
        assert needle in result.stdout


def test_mounted_in_the_temo_app(run_dir):
    from temo.cli.app import app

    names = {c.name for c in app.registered_commands}
    if "metrics" not in names or len(names) + len(app.registered_groups) < 2:
        pytest.skip("temo app not fully mounted in this checkout")
    result = runner.invoke(app, ["metrics", str(run_dir), "--json"])
    assert result.exit_code == 0, result.output
    assert REQUIRED <= set(json.loads(result.stdout)["average"])
