"""The reward rule end to end: recorded by `temo run`, shown by `temo metrics`, changed by `temo regrade`;
and the tables say what the JSON says (violations, a readable reward, plurals, the progress bar on resume)."""
from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from temo.cli.app import app
from temo.core import Message
from temo.harness.runstore import RunStore

runner = CliRunner()


def cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def quit_after_goal_run(tmp_path, *flags):
    """An oracle run of 2 retail tasks in which the user of one cell quits after the goal was reached."""
    out = tmp_path / "run"
    res = cli("run", "--domains", "retail", "--limit", "2", "--trials", "1", "--out", out, "-q", *flags)
    assert res.exit_code == 0, res.output
    store = RunStore(out)
    rec = next(r for r in store.records() if r.task_id == "retail-test-000")
    quit_ = rec.model_copy(update={
        "messages": [*rec.messages[:-1], Message(role="user", content="Forget it, this took far too long.")],
        "termination": "user_unsatisfied", "reward": None,
    })
    store.write(quit_)
    return out, store, rec.cell_id


def reward_of(store, cell):
    return next(r for r in store.records() if r.cell_id == cell).reward


def test_paper_rule_is_recorded_and_a_quit_after_the_goal_scores_minus_one(tmp_path):
    out, store, cell = quit_after_goal_run(tmp_path)
    assert json.loads((out / "config.json").read_text())["reward_rule"] == "paper"
    res = cli("regrade", out, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["reward_rule"] == "paper"
    info = reward_of(store, cell)
    assert info.reward == -1 and info.quit_after_goal and info.rule == "paper"

    report = json.loads(cli("metrics", out, "--json").stdout)
    assert report["reward_rule"]["name"] == "paper" and report["reward_rule"]["recorded"] is True
    assert report["run"]["reward_rule"] == "paper"
    assert report["domains"]["retail"]["avg"] == 0.5
    table = cli("metrics", out).stdout
    assert "reward rule paper" in " ".join(table.split()) and "reward rule: paper" in table
    # a cell scored under the other rule (e.g. copied from another run) is pointed out
    rec = next(r for r in store.records() if r.cell_id == cell)
    store.write(rec.model_copy(update={"reward": rec.reward.model_copy(update={"rule": "goal-first", "reward": 1})}))
    warnings = json.loads(cli("metrics", out, "--json").stdout)["warnings"]
    assert any("1 cell(s) were scored under another reward rule" in w for w in warnings), warnings


def test_goal_first_is_an_explicit_option_of_run_and_regrade(tmp_path):
    out, store, cell = quit_after_goal_run(tmp_path, "--reward-rule", "goal-first")
    assert json.loads((out / "config.json").read_text())["reward_rule"] == "goal-first"
    assert cli("regrade", out).exit_code == 0
    assert reward_of(store, cell).reward == 1  # goal-first: the completed goal counts
    res = cli("regrade", out, "--reward-rule", "paper")  # re-score the other way, and record it
    assert res.exit_code == 0 and "reward rule: paper (was goal-first)" in res.stdout
    assert reward_of(store, cell).reward == -1
    assert store.load_config().reward_rule == "paper"
    assert json.loads(cli("metrics", out, "--json").stdout)["reward_rule"]["name"] == "paper"


def test_an_old_run_without_a_recorded_rule_is_treated_as_goal_first_and_says_so(tmp_path):
    out, store, cell = quit_after_goal_run(tmp_path, "--reward-rule", "goal-first")
    assert cli("regrade", out).exit_code == 0
    config = json.loads((out / "config.json").read_text())
    del config["reward_rule"]  # as written before the rule was recorded
    (out / "config.json").write_text(json.dumps(config))
    for path in (out / "cells").glob("*.json"):
        rec = json.loads(path.read_text())
        del rec["reward"]["rule"]
        path.write_text(json.dumps(rec))
    report = json.loads(cli("metrics", out, "--json").stdout)
    assert report["reward_rule"] == {**report["reward_rule"], "name": "goal-first", "recorded": False}
    assert not any("another reward rule" in w for w in report["warnings"])
    assert "not recorded" in cli("metrics", out).stdout
    res = cli("regrade", out)
    assert res.exit_code == 0 and "goal-first (not recorded" in res.stdout
    assert reward_of(store, cell).reward == 1
    assert cli("regrade", out, "--reward-rule", "paper").exit_code == 0
    assert reward_of(store, cell).reward == -1


def test_bad_or_conflicting_rule_exits_2_with_one_line(tmp_path):
    for args in (["run", "--domains", "retail", "--limit", "1", "--reward-rule", "kind", "--out", tmp_path / "x"],
                 ["regrade", tmp_path / "x", "--reward-rule", "kind"]):
        res = cli(*args)
        lines = [l for l in res.stderr.splitlines() if l.strip()]
        assert res.exit_code == 2 and len(lines) == 1 and "--reward-rule" in lines[0], res.stderr
    out = tmp_path / "run"
    assert cli("run", "--domains", "retail", "--limit", "1", "--trials", "1", "--out", out, "-q").exit_code == 0
    res = cli("run", "--out", out, "--resume", "--reward-rule", "goal-first", "-q")
    assert res.exit_code == 2 and "temo regrade" in res.stderr


def test_metrics_table_shows_the_violation_rate_of_a_probe_that_skips_confirmations(tmp_path):
    out = tmp_path / "run"
    assert cli("run", "--domains", "retail", "--limit", "2", "--trials", "1", "--agent", "probe:skip-confirmation",
               "--out", out, "-q").exit_code == 0
    report = json.loads(cli("metrics", out, "--json").stdout)
    assert report["domains"]["retail"]["avg"] == 1.0 and report["domains"]["retail"]["violation_rate"] == 1.0
    table = cli("metrics", out).stdout
    assert "Viol. %" in table or "Viol." in table
    retail_row = next(line for line in table.splitlines() if "retail" in line)
    assert retail_row.count("100.0") == 3  # Avg@1, Pass^1 and the violation rate


def test_show_prints_the_reward_readably(tmp_path):
    out, store, cell = quit_after_goal_run(tmp_path)
    assert cli("regrade", out).exit_code == 0
    text = " ".join(cli("show", out, cell).stdout.split())
    assert "reward -1: goal state reached" in text and "the user quit (###UNSATISFIED###) after the goal was reached" in text
    assert "rule paper" in text
    assert "'reward':" not in text and "state_match" not in text and "RewardInfo" not in text  # not a dict


def test_counts_read_in_the_singular_when_there_is_one(tmp_path):
    listing = cli("tasks", "list", "retail").stdout
    assert "\t1 intent\t" in listing and "1 intents" not in listing
    out = tmp_path / "run"
    assert cli("run", "--domains", "retail", "--limit", "1", "--trials", "1", "--out", out, "-q").exit_code == 0
    res = cli("regrade", out)
    assert "regraded 1 cell;" in res.stdout and "1 cells" not in res.stdout


def test_progress_bar_on_resume_counts_the_successes_kept_from_before(tmp_path):
    out = tmp_path / "run"
    assert cli("run", "--domains", "retail", "--limit", "3", "--trials", "1", "--out", out, "-q").exit_code == 0
    (out / "cells" / "retail-test-001__emotion__0.json").unlink()
    done = subprocess.run([sys.executable, "-m", "temo.cli.app", "run", "--out", str(out), "--resume"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "3/3" in done.stdout and "success 3" in done.stdout, done.stdout
