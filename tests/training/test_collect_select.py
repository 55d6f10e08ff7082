"""`temo collect`: rollouts on the training split, lost rollouts, and the two selection rules."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from temo.agents import registry
from temo.cli.app import app
from temo.training.collect import load_collection
from temo.training.select import cap_sample, keeps, select
from training_agents import pesters

runner = CliRunner()


@pytest.fixture
def test_agents(monkeypatch):
    monkeypatch.setitem(registry._AGENTS, "pester", "training_agents:create_pester")
    monkeypatch.setitem(registry._AGENTS, "flaky", "training_agents:create_flaky")


def collect(*args: str):
    result = runner.invoke(app, ["collect", *args])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def pester_collection(tmp_path, test_agents):
    out = tmp_path / "col"
    collect("--domains", "retail,airline", "--agent", "pester", "--user", "scripted", "--out", str(out),
            "--limit", "6", "-q")
    return out


def test_the_rules_differ_when_users_quit_after_the_goal(pester_collection):
    collection = load_collection(pester_collection)
    assert collection.config.split == "train" and collection.config.trials == 1 and collection.config.arms == ["emotion"]
    assert collection.config.max_turns == 50
    records = collection.records
    assert len(records) == 12
    quitters = [r for r in records if pesters(r.task_id)]
    polite = [r for r in records if not pesters(r.task_id)]
    assert quitters and polite
    for r in quitters:  # the writes were all done, then the user lost patience
        assert r.reward.state_match and r.termination == "user_unsatisfied"
    aware = select(records, "interaction-aware", cap=None)
    naive = select(records, "state-only", cap=None)
    kept_aware = {r.cell_id for r in aware.rows()}
    kept_naive = {r.cell_id for r in naive.rows()}
    assert kept_aware == {r.cell_id for r in polite}
    assert kept_naive == {r.cell_id for r in records}
    assert kept_naive - kept_aware == {r.cell_id for r in quitters}


def test_json_report_prints_table6_numbers_per_domain(pester_collection):
    data = json.loads(collect(str(pester_collection), "--json").stdout)
    t6 = data["table6"]
    assert data["settings"]["rule"] == "interaction-aware"
    quit_count = sum(1 for r in load_collection(pester_collection).records if pesters(r.task_id))
    assert t6["total"]["rollouts"] == 12 and t6["total"]["lost"] == 0
    assert t6["total"]["kept"]["state-only"] == 12
    assert t6["total"]["kept"]["interaction-aware"] == 12 - quit_count
    assert t6["total"]["quit_after_goal"] == quit_count
    for domain in ("retail", "airline"):
        row = t6["domains"][domain]
        assert row["tasks"] == 6 and row["r1"] + row["r0"] + row["r_minus1"] == row["rollouts"]
        assert row["tracer_high"] == row["kept"]["interaction-aware"]  # under the cap
        assert row["tracer_low"] == row["kept"]["interaction-aware"]
    t7 = data["table7"]["domains"]["retail"]
    assert t7["n"] == t6["domains"]["retail"]["kept"]["interaction-aware"]
    assert t7["tool_calls"] > 0 and t7["gold_actions"] > 0 and t7["reasoning_tokens"] > 0
    groups = data["emotion_mix"]["groups"]
    assert groups["kept"]["n"] + groups["failed: user quit"]["n"] + groups["failed: other"]["n"] == 12
    assert groups["failed: user quit"]["n"] == quit_count
    assert abs(sum(groups["kept"]["families"].values()) - 100) < 0.5
    # the other rule, on the same rollouts, without re-running anything
    naive = json.loads(collect(str(pester_collection), "--json", "--select", "state-only").stdout)
    assert naive["table7"]["all"]["n"] == 12 and naive["emotion_mix"]["groups"]["failed: user quit"]["n"] == 0


def test_tables_print(pester_collection):
    out = runner.invoke(app, ["collect", str(pester_collection)], env={"COLUMNS": "200"}).output
    assert "Table 6" in out and "Table 7" in out and "Emotion families" in out
    assert "reached the goal but the user quit" in out


def test_lost_rollouts_are_discarded_counted_and_resumed(tmp_path, test_agents, monkeypatch):
    out = tmp_path / "flaky"
    first = json.loads(collect("--domains", "retail", "--agent", "flaky", "--user", "scripted", "--out", str(out),
                               "--limit", "8", "--json").stdout)
    down = sum(1 for r in load_collection(out).records if pesters(r.task_id))
    assert down > 0
    t6 = first["table6"]["domains"]["retail"]
    assert t6["lost"] == down and t6["rollouts"] == 8 - down
    assert t6["r0"] == 0 and t6["r_minus1"] == 0  # never counted as failures
    assert t6["kept"]["interaction-aware"] == 8 - down
    marker = tmp_path / "up"
    marker.write_text("")
    monkeypatch.setenv("TEMO_TEST_ENDPOINT_UP", str(marker))
    again = json.loads(collect("--out", str(out), "--agent", "flaky", "--domains", "retail", "--limit", "8",
                               "--resume", "--json").stdout)
    t6 = again["table6"]["domains"]["retail"]
    assert t6["lost"] == 0 and t6["rollouts"] == 8 and t6["kept"]["interaction-aware"] == 8


def test_cap_is_a_seeded_sample_and_presets_choose_domains(pester_collection):
    records = load_collection(pester_collection).records
    retail = [r for r in records if r.domain == "retail"]
    a = cap_sample(retail, 3, seed=1, domain="retail")
    assert len(a) == 3 and a == cap_sample(list(reversed(retail)), 3, seed=1, domain="retail")
    seeds = {tuple(r.cell_id for r in cap_sample(retail, 3, seed=s, domain="retail")) for s in range(8)}
    assert len(seeds) > 1
    high = select(records, "state-only", cap=2, preset="tracer-high")
    assert all(len(v) == 2 for v in high.chosen.values())
    low = select(records, "state-only", cap=2, preset="tracer-low")  # tracer-low keeps every trajectory
    assert all(len(v) == 6 for v in low.chosen.values()) and low.cap is None
    assert not keeps("interaction-aware", next(r for r in records if pesters(r.task_id)))


@pytest.mark.parametrize("args, needle", [
    (["--select", "lenient"], "--select"),
    (["--preset", "tracer-mid"], "--preset"),
    (["--domains", "atlantis"], "--domains"),
])
def test_bad_flags_exit_2_with_one_line(tmp_path, args, needle):
    result = runner.invoke(app, ["collect", "--out", str(tmp_path / "x"), *args])
    assert result.exit_code == 2
    assert needle in result.output and "Traceback" not in result.output


def test_report_on_a_missing_directory_exits_2(tmp_path):
    result = runner.invoke(app, ["collect", str(tmp_path / "nope")])
    assert result.exit_code == 2 and "no such collection" in result.output
