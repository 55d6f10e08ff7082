"""`temo analyze`: policy adherence, emotion effect, user hallucination, interaction pattern."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from temo.analysis.analyses import bootstrap_ci
from temo.cli.app import app

runner = CliRunner()


def analyze_json(run):
    res = runner.invoke(app, ["analyze", str(run), "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_policy_counts_unconfirmed_writes_per_100_episodes(runs):
    skip = analyze_json(runs["probe:skip-confirmation"])["policy"]["all"]
    oracle = analyze_json(runs["oracle"])["policy"]["all"]
    violations = sum(sum(1 for v in json.loads(p.read_text())["violations"] if v["rule"] == "confirm_before_write")
                     for p in (runs["probe:skip-confirmation"] / "cells").glob("*.json"))
    assert violations > 0 and skip["unconfirmed_writes"] == violations
    assert skip["unconfirmed_writes_per_100"] == 100 * violations / skip["episodes"]
    assert oracle["unconfirmed_writes"] == 0 and oracle["writes_before_auth"] == 0


def test_an_unneeded_transfer_is_counted(runs, copy_run):
    run = copy_run(runs["oracle"])
    cell = sorted((run / "cells").glob("*.json"))[0]
    data = json.loads(cell.read_text())
    data["tool_calls"].append({"turn": 5, "name": "transfer_to_human_agents", "arguments": {"summary": "x"},
                               "raw_arguments": "{}", "kind": "read", "ok": True, "result": "ok"})
    cell.write_text(json.dumps(data))
    pol = analyze_json(run)["policy"]
    assert pol["all"]["unnecessary_transfers"] == 1
    assert pol["all"]["unnecessary_transfers_per_100"] == 100 / pol["all"]["episodes"]
    assert pol["by_domain"][data["domain"]]["unnecessary_transfers"] == 1


def test_emotion_effect_is_paired_by_task_with_a_bootstrap_interval(runs):
    eff = analyze_json(runs["probe:redundant-questions"])["emotion_effect"]
    metrics = json.loads(runner.invoke(app, ["metrics", str(runs["probe:redundant-questions"]), "--json"]).output)
    for domain, block in eff["by_domain"].items():
        assert block["paired_tasks"] == 2
        assert abs(block["delta"] - metrics["domains"][domain]["emotion_minus_neutral"]) < 1e-9
        lo, hi = block["ci95"]
        assert -1 <= lo <= block["delta"] <= hi <= 1
    emotion_cells = sum(1 for p in (runs["probe:redundant-questions"] / "cells").glob("*__emotion__*.json"))
    for dim in ("urgency", "politeness", "trust"):
        assert sum(b["cells"] for b in eff["by_level"][dim].values()) == emotion_cells


def test_bootstrap_interval_of_the_mean():
    assert bootstrap_ci([1.0, 1.0, 1.0]) == [1.0, 1.0]
    lo, hi = bootstrap_ci([0.0, 1.0] * 20)
    assert 0.3 < lo < 0.5 < hi < 0.7
    assert bootstrap_ci([0.5]) is None


def test_a_user_turn_with_an_ungrounded_fact_is_flagged(runs, copy_run):
    run = copy_run(runs["probe:wrong-argument"])
    assert analyze_json(run)["user_hallucination"]["all"]["flagged_turns"] == 0  # the scripted user says only what it knows
    cell = sorted((run / "cells").glob("*.json"))[0]
    data = json.loads(cell.read_text())
    i = next(i for i, m in enumerate(data["messages"]) if m["role"] == "user")
    data["messages"][i]["content"] += " Also my backup email is ghost.writer@nowhere.example and my order is #W0000001."
    cell.write_text(json.dumps(data))
    hal = analyze_json(run)["user_hallucination"]
    assert hal["all"]["flagged_turns"] == 1
    flagged = hal["flagged"][0]
    assert flagged["cell"] == cell.stem and "ghost.writer@nowhere.example" in flagged["tokens"] and "#W0000001" in flagged["tokens"]
    assert hal["all"]["failed_with_flag"] == 1


def test_interaction_pattern_separates_questioning_from_tool_use(runs):
    oracle = analyze_json(runs["oracle"])["interaction"]["all"]
    redundant = analyze_json(runs["probe:redundant-questions"])["interaction"]["all"]
    # per tool call: the probe's users quit early, so its conversations are shorter in absolute terms
    ratio = lambda b: b["mean_follow_ups"] / b["mean_tool_calls"]  # noqa: E731
    assert ratio(redundant) > ratio(oracle)
    assert redundant["more_follow_ups"]["share"] > oracle["more_follow_ups"]["share"]
    for block in (oracle, redundant):
        shares = [block[k]["share"] for k in ("more_tool_calls", "equal", "more_follow_ups")]
        assert abs(sum(shares) - 1) < 1e-9
    assert oracle["success_rate"] == 1.0


def test_text_output_and_bad_input(runs):
    res = runner.invoke(app, ["analyze", str(runs["probe:skip-confirmation"])])
    assert res.exit_code == 0
    for title in ("Policy adherence", "Emotion effect", "User hallucination", "Interaction pattern"):
        assert title in res.output
    res = runner.invoke(app, ["analyze", "/nonexistent/run"])
    assert res.exit_code == 2 and "no such run directory" in res.output


def test_export_cells_one_row_per_cell_with_the_verdict(runs, copy_run, tmp_path):
    import csv

    run = copy_run(runs["probe:early-stop"])
    out = tmp_path / "cells.jsonl"
    res = runner.invoke(app, ["export", "cells", str(run), "--out", str(out)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == len(list((run / "cells").glob("*.json")))
    failed = [r for r in rows if not r["success"]]
    assert failed and all(r["critical_fault"] == "early_stop" and r["fault_category"] == "incomplete" for r in failed)
    assert all(r["critical_fault"] is None for r in rows if r["success"])
    res = runner.invoke(app, ["export", "cells", str(run), "--out", str(tmp_path / "cells.csv")])
    assert res.exit_code == 0
    assert len(list(csv.DictReader((tmp_path / "cells.csv").open()))) == len(rows)
    res = runner.invoke(app, ["export", "cells", str(run), "--out", str(tmp_path / "cells.xlsx")])
    assert res.exit_code == 2 and "--format" in res.output


def test_report_shows_stored_fidelity_and_says_when_it_is_missing(runs, copy_run, tmp_path):
    from temo.analysis.report import build_report

    run = copy_run(runs["oracle"])
    out = tmp_path / "r.html"
    build_report([run], out)
    assert "No stored fidelity" in out.read_text(encoding="utf-8")
    res = CliRunner().invoke(app, ["fidelity", str(run), "--json"])
    assert res.exit_code == 0, res.output
    build_report([run], out)
    html = out.read_text(encoding="utf-8")
    section = html[html.index('id="fidelity"'):html.index('id="viewer"')]
    assert "No stored fidelity" not in section and "chance" in section and "family" in section
