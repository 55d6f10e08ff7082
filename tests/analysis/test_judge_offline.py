"""The offline judge names each probe's flaw, stores verdicts beside the cells, and resumes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from temo.analysis.cells import load_run
from temo.analysis.faults import CATEGORIES, CATEGORY_OF, EMOTIONAL_OUTCOME_REASONS, FAULTS
from temo.cli.app import app

runner = CliRunner()

EXPECTED = {
    "probe:wrong-argument": {"wrong_arguments"},
    "probe:early-stop": {"early_stop"},
    "probe:redundant-questions": {"friction"},
}


def judge_json(run, *extra):
    res = runner.invoke(app, ["judge", str(run), "--json", *extra])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_taxonomy_matches_the_paper():
    assert len(FAULTS) == 15 and len(CATEGORIES) == 5
    facts = Path(__file__).resolve().parents[3] / "shared" / "paper_facts.json"
    if not facts.exists():
        pytest.skip("the paper's facts are not beside this checkout")
    paper = json.loads(facts.read_text())["faults"]
    for cat, faults in CATEGORIES.items():
        assert list(faults) == paper[cat]
    assert list(EMOTIONAL_OUTCOME_REASONS) == paper["emotional_outcome_reasons"]


@pytest.mark.parametrize("agent", sorted(EXPECTED))
def test_each_probe_flaw_is_the_critical_fault_of_its_failed_cells(runs, copy_run, agent):
    summary = judge_json(copy_run(runs[agent]))
    assert summary["failed"] >= 3, summary
    named = sum(summary["by_fault"][f] for f in EXPECTED[agent])
    assert named / summary["failed"] >= 0.9, summary["by_fault"]
    assert sum(summary["by_fault"].values()) == summary["failed"]
    # the category share follows the fault (Figure 12)
    cat = CATEGORY_OF[next(iter(EXPECTED[agent]))]
    assert summary["category_share"][cat] >= 0.9


def test_skipped_confirmation_passes_but_is_judged_a_policy_breach(runs, copy_run):
    run = copy_run(runs["probe:skip-confirmation"])
    summary = judge_json(run)
    assert summary["failed"] == 0
    assert summary["passed_with_policy_breach"] >= 3
    verdict = json.loads(next((run / "judge" / "offline").glob("*.json")).read_text())
    assert verdict["critical"]["fault"] == "policy_breach" and verdict["failed"] is False
    assert "explicit yes" in verdict["critical"]["reason"] and verdict["critical"]["turn"] > 1


def test_the_oracle_has_nothing_to_judge(runs, copy_run):
    summary = judge_json(copy_run(runs["oracle"]))
    assert summary["failed"] == 0 and summary["judged"] == 0 and summary["cells"] == 8


def test_verdicts_carry_turn_reason_outcome_and_replay_diff(runs, copy_run):
    run = copy_run(runs["probe:wrong-argument"])
    judge_json(run, "--diff")
    files = sorted((run / "judge" / "offline").glob("*.json"))
    assert len(files) == len(list((run / "cells").glob("*.json")))
    loaded = load_run(run)
    by_id = {c.id: c for c in loaded.cells}
    v = json.loads(files[0].read_text())
    cell = by_id[v["cell"]]
    call_turns = {c.turn for c in cell.record.tool_calls}
    crit = v["critical"]
    assert crit["fault"] == "wrong_arguments" and crit["severity"] == "critical" and crit["reason"]
    # the turn is that of the wrong write (or of the refused proposal)
    assert 1 < crit["turn"] <= cell.record.counters["turns"]
    assert v["emotional_outcome"]["abandoned"] is False
    if crit["turn"] in call_turns:  # the wrong write ran: the replay diff shows what it changed
        assert v["replay_diff"]
        row = v["replay_diff"][0]
        assert row["agent"] != row["reference"] and row["table"] and row["key"]
    assert any(json.loads(p.read_text())["replay_diff"] for p in files)


def test_redundant_questions_are_abandonment_by_procedural_friction(runs, copy_run):
    summary = judge_json(copy_run(runs["probe:redundant-questions"]))
    eo = summary["emotional_outcome"]
    assert eo["abandoned"] >= 0.9 * summary["failed"]
    assert eo["reasons"]["procedural_friction"] == eo["abandoned"]


def test_judging_again_reuses_verdicts_and_a_changed_cell_is_judged_again(runs, copy_run):
    run = copy_run(runs["probe:early-stop"])
    judge_json(run)
    vdir = run / "judge" / "offline"
    first = {p.name: p.stat().st_mtime_ns for p in vdir.glob("*.json")}
    judge_json(run)
    assert {p.name: p.stat().st_mtime_ns for p in vdir.glob("*.json")} == first  # resumed, nothing rewritten
    cell = sorted((run / "cells").glob("*.json"))[0]
    data = json.loads(cell.read_text())
    data["duration_s"] = 123.0  # any change to the cell file
    cell.write_text(json.dumps(data))
    judge_json(run)
    after = {p.name: p.stat().st_mtime_ns for p in vdir.glob("*.json")}
    changed = [n for n in after if after[n] != first[n]]
    assert changed == [cell.name]


def test_unknown_terminations_from_newer_runs_are_read_and_not_judged(runs, copy_run):
    run = copy_run(runs["probe:early-stop"])
    cells = sorted((run / "cells").glob("*.json"))
    data = json.loads(cells[0].read_text())
    data.update(termination="harness_error", reward=None, error="Traceback ...")
    cells[0].write_text(json.dumps(data))
    data = json.loads(cells[1].read_text())
    data["termination"] = "some_future_reason"  # graded, unknown to this version
    cells[1].write_text(json.dumps(data))
    summary = judge_json(run)
    assert summary["not_judged"] == {"harness_error": 1}
    assert summary["cells"] == 7 and summary["failed"] == 7


def test_bad_input_is_one_line_exit_2(tmp_path):
    res = runner.invoke(app, ["judge", str(tmp_path / "nope")])
    assert res.exit_code == 2 and "no such run directory" in res.output
    (tmp_path / "cells").mkdir()
    res = runner.invoke(app, ["judge", str(tmp_path)])
    assert res.exit_code == 2 and "config.json" in res.output
    res = runner.invoke(app, ["judge", str(tmp_path), "--judge-model", "m"])
    assert res.exit_code == 2 and "--judge-base-url" in res.output


def test_a_corrupt_cell_names_its_file(runs, copy_run):
    run = copy_run(runs["oracle"])
    bad = sorted((run / "cells").glob("*.json"))[0]
    bad.write_text("{ truncated")
    res = runner.invoke(app, ["judge", str(run)])
    assert res.exit_code == 2 and bad.name in res.output and "Traceback" not in res.output


def test_a_task_changed_since_the_run_is_judged_without_its_stale_reference(runs, copy_run):
    run = copy_run(runs["probe:early-stop"])
    config = json.loads((run / "config.json").read_text())
    assert config.get("task_hashes"), "runs record a hash per task"
    changed = sorted(config["task_hashes"])[0]
    config["task_hashes"][changed] = "0" * 64
    config["task_set_hash"] = "1" * 64
    judge_json(run)  # verdicts made while the task was current are judged again once it changed
    (run / "config.json").write_text(json.dumps(config))
    summary = judge_json(run)
    assert any("1 task(s) changed" in w and changed in w for w in summary["warnings"])
    for p in (run / "judge" / "offline").glob(f"{changed}__*.json"):
        v = json.loads(p.read_text())
        assert v["critical"]["fault"] != "early_stop" and "no specific action fault" in v["critical"]["reason"]
    assert summary["by_fault"]["early_stop"] == summary["failed"] - len(list((run / "cells").glob(f"{changed}__*.json")))
