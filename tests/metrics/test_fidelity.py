"""Simulator fidelity: chance for a user that ignores its condition, clearly above it for the
scripted user; the stored report, the JSON contract, comparisons and bad input at the CLI."""
from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from temo.cli.app import app
from temo.core import EmotionCondition, EpisodeRecord, Message, RewardInfo
from temo.harness.runstore import RunStore
from temo.metrics import fidelity_mapping
from temo.metrics.fidelity import DIMS, compare, load_stored, run_fidelity, user_turns
from temo.users.phrasing import Voice

runner = CliRunner()

CORES = ["I want to change my booking to a later date.", "My user id is sam_lee_1234.", "Yes, please go ahead.",
         "Thanks, that's all."]


def _conditions(n: int = 120, seed: int = 3) -> list[EmotionCondition]:
    rng = random.Random(seed)
    return [rng.choice(EmotionCondition.all()) for _ in range(n)]


def _record(i: int, cond: EmotionCondition, turns: list[str], arm: str = "emotion", domain: str | None = None) -> EpisodeRecord:
    messages = [Message(role="system", content="policy"), Message(role="assistant", content="Hi! How can I help?")]
    for t in turns:
        messages += [Message(role="user", content=t), Message(role="assistant", content="Sure.")]
    return EpisodeRecord(task_id=f"t{i:03d}", domain=domain or ("alpha" if i % 2 else "beta"), arm=arm, trial=0,
                         seed=i, emotion=cond, messages=messages, termination="user_stop",
                         reward=RewardInfo(reward=1, state_match=True))


def _scripted_turns(cond: EmotionCondition | None, seed: int) -> list[str]:
    voice = Voice(cond, random.Random(seed))
    turns = [voice.say(c, first=(k == 0)) for k, c in enumerate(CORES[:-1])]
    return turns + [f"{voice.thanks()} ###STOP###"]


@pytest.fixture(scope="module")
def conditions():
    return _conditions()


def test_a_user_that_ignores_its_condition_scores_at_chance(conditions):
    records = [_record(i, c, ["I want to change my booking to a later date.", "Yes, please go ahead. ###STOP###"])
               for i, c in enumerate(conditions)]
    report, _ = run_fidelity(records, n_boot=50)
    assert report["cells"] == len(conditions)
    for d in DIMS:  # a permutation keeps both label mixes, so the same text everywhere is exactly chance
        assert report["agreement"][d] == pytest.approx(report["baseline"][d], abs=1e-3), d
        assert report["turn"]["agreement"][d] == pytest.approx(report["turn"]["baseline"][d], abs=1e-3), d


def test_the_scripted_user_scores_clearly_above_chance(conditions):
    records = [_record(i, c, _scripted_turns(c, i)) for i, c in enumerate(conditions)]
    records += [_record(i, c, _scripted_turns(None, i), arm="neutral") for i, c in enumerate(conditions)]
    report, _ = run_fidelity(records, n_boot=200)
    a, b = report["agreement"], report["baseline"]
    assert a["family"] >= b["family"] + 0.35 and a["emotion"] >= b["emotion"] + 0.35
    for d in ("politeness", "urgency", "trust"):
        assert a[d] >= b[d] + 0.15, d
    assert report["ci"]["family"][0] > b["family"] + 0.2  # the whole CI sits above chance
    # the neutral twin (same cores, no emotion) carries nothing of the condition
    neutral = report["neutral"]
    assert neutral["agreement"]["family"] == pytest.approx(neutral["baseline"]["family"], abs=0.05)
    assert a["family"] >= neutral["agreement"]["family"] + 0.35
    # every family is heard above its own chance level
    for fam, block in report["by_family"].items():
        assert block["agreement"]["family"] > block["baseline"]["family"], fam


def test_tables_confusion_and_domains_add_up(conditions):
    records = [_record(i, c, _scripted_turns(c, i)) for i, c in enumerate(conditions)]
    report, _ = run_fidelity(records, n_boot=20)
    matrix = report["confusion"]["matrix"]
    assert sum(map(sum, matrix)) == len(conditions)
    diag = sum(matrix[k][k] for k in range(len(matrix)))
    assert diag / len(conditions) == pytest.approx(report["agreement"]["family"], abs=1e-3)
    assert set(report["by_domain"]) == {"alpha", "beta"}
    assert sum(b["cells"] for b in report["by_domain"].values()) == len(conditions)
    assert sum(b["cells"] for b in report["by_family"].values()) == len(conditions)
    for block in (report, report["turn"], *report["by_domain"].values()):
        for key in ("agreement", "baseline"):
            assert all(0.0 <= block[key][d] <= 1.0 for d in DIMS)
    assert report["neutral"] is None  # no neutral arm in this run
    again, _ = run_fidelity(records, n_boot=20)
    assert again["baseline"] == report["baseline"] and again["ci"] == report["ci"]  # seeded
    other, _ = run_fidelity(records, n_boot=20, seed=1)
    assert other["baseline"] != report["baseline"]


def test_termination_tokens_are_stripped_and_empty_turns_dropped():
    rec = _record(0, _conditions(1)[0], ["I'm fed up. ###UNSATISFIED###", "###STOP###", "  "])
    assert user_turns(rec) == ["I'm fed up."]


def test_comparison_is_paired_and_its_interval_excludes_zero(conditions):
    scripted = [_record(i, c, _scripted_turns(c, i)) for i, c in enumerate(conditions)]
    flat = [_record(i, c, ["I want to change my booking to a later date.", "Yes, please go ahead."])
            for i, c in enumerate(conditions)]
    _, arms_a = run_fidelity(scripted, n_boot=20)
    _, arms_b = run_fidelity(flat, n_boot=20)
    cmp = compare(arms_a, arms_b, n_boot=300)
    assert cmp["paired_tasks"] == len(conditions)
    fam = cmp["difference"]["family"]
    assert fam["value"] > 0.3 and fam["ci"][0] > 0


def test_parallel_mapping_gives_the_same_predictions(conditions, monkeypatch):
    groups = [_scripted_turns(c, i) for i, c in enumerate(conditions[:40])]
    alone = fidelity_mapping.map_text_groups(groups, workers=1)
    monkeypatch.setattr(fidelity_mapping, "MIN_PARALLEL_TEXTS", 0)
    assert fidelity_mapping.map_text_groups(groups, workers=2) == alone


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("fid") / "run"
    res = runner.invoke(app, ["run", "--domains", "retail", "--limit", "4", "--trials", "1",
                              "--arms", "emotion,neutral", "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    return out


def test_cli_json_contract_and_stored_report(small_run):
    res = runner.invoke(app, ["fidelity", str(small_run), "--json", "--bootstrap", "50"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    for key in ("agreement", "baseline"):
        assert set(report[key]) == set(DIMS)
        assert all(isinstance(v, float) and 0.0 <= v <= 1.0 for v in report[key].values())
    assert report["cells"] == 4 and report["neutral"]["cells"] == 4 and report["user"]["kind"] == "scripted"
    stored = json.loads((small_run / "fidelity.json").read_text())
    assert stored["agreement"] == report["agreement"] and len(stored["cell_predictions"]) == 4
    # the CLI reads the cell files directly; the records give the same report
    from_records, _ = run_fidelity(list(RunStore(small_run).records()), n_boot=50)
    assert from_records["agreement"] == report["agreement"] and from_records["fingerprint"] == report["fingerprint"]
    assert load_stored(small_run, RunStore(small_run).records()) is not None
    text = runner.invoke(app, ["fidelity", str(small_run), "--no-save"])
    assert text.exit_code == 0 and "chance" in text.stdout and "family" in text.stdout


def test_cli_side_by_side(small_run):
    res = runner.invoke(app, ["fidelity", str(small_run), str(small_run), "--json", "--bootstrap", "50", "--no-save"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert len(out["runs"]) == 2 and out["comparisons"][0]["paired_tasks"] == 4
    assert all(v["value"] == 0 for v in out["comparisons"][0]["difference"].values())  # a run against itself
    text = runner.invoke(app, ["fidelity", str(small_run), str(small_run), "--no-save"])
    assert text.exit_code == 0 and "side by side" in text.stdout.lower() and "A−B" in text.stdout


def test_cli_bad_input_is_one_line_exit_2(tmp_path, small_run):
    missing = runner.invoke(app, ["fidelity", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "no such run directory" in missing.output
    a_file = tmp_path / "x.json"
    a_file.write_text("{}")
    res = runner.invoke(app, ["fidelity", str(a_file)])
    assert res.exit_code == 2 and "is a file" in res.output
    neutral_only = tmp_path / "neutral"
    ok = runner.invoke(app, ["run", "--domains", "retail", "--limit", "1", "--trials", "1", "--arms", "neutral",
                             "--out", str(neutral_only), "-q"])
    assert ok.exit_code == 0, ok.output
    res = runner.invoke(app, ["fidelity", str(neutral_only)])
    assert res.exit_code == 2 and "no completed emotion-arm cells" in res.output
    assert len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output
