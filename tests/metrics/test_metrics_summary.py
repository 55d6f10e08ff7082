"""summarize(): per domain, per family, per arm, deltas, missing cells, unweighted averages."""
from __future__ import annotations

from typing import Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from temo.core import EmotionCondition, EpisodeRecord, RewardInfo, Violation
from temo.metrics import CellResult, cell_from_record, summarize

ANGER = "frustration.cold.high.skeptical"
FEAR = "anxiety.warm.low.trusting"


def rec(task: str, arm: str, trial: int, reward: Optional[int], *, domain: str = "retail", emotion: str = ANGER,
        termination: Optional[str] = None, violations: int = 0) -> EpisodeRecord:
    if termination is None:
        termination = "infra_error" if reward is None else ("user_unsatisfied" if reward == -1 else "user_stop")
    return EpisodeRecord(
        task_id=task, domain=domain, arm=arm, trial=trial, seed=trial, emotion=EmotionCondition.parse(emotion),
        termination=termination,
        reward=None if reward is None else RewardInfo(reward=reward, state_match=reward == 1),
        violations=[Violation(rule="confirm_before_write", turn=1)] * violations,
    )


def grid(domains: dict[str, list[str]], arms=("emotion", "neutral"), trials: int = 3):
    return [(d, t, a, i) for d, ts in domains.items() for t in ts for a in arms for i in range(trials)]


@pytest.fixture
def hand_built():
    records = [
        # retail / A (anger): emotion 1, 0, -1 ; neutral 1, 1, 1
        rec("A", "emotion", 0, 1), rec("A", "emotion", 1, 0), rec("A", "emotion", 2, -1),
        rec("A", "neutral", 0, 1), rec("A", "neutral", 1, 1), rec("A", "neutral", 2, 1),
        # retail / B (fear): emotion 1, 1, 1 (one violation) ; neutral 1, 0, infra error
        rec("B", "emotion", 0, 1, emotion=FEAR, violations=2), rec("B", "emotion", 1, 1, emotion=FEAR),
        rec("B", "emotion", 2, 1, emotion=FEAR),
        rec("B", "neutral", 0, 1, emotion=FEAR), rec("B", "neutral", 1, 0, emotion=FEAR),
        rec("B", "neutral", 2, None, emotion=FEAR),
        # airline / C (fear): emotion 1, 1, <no record> ; neutral: nothing at all
        rec("C", "emotion", 0, 1, domain="airline", emotion=FEAR), rec("C", "emotion", 1, 1, domain="airline", emotion=FEAR),
    ]
    planned = grid({"retail": ["A", "B"], "airline": ["C"]})
    return summarize(records, planned_cells=planned, trials=3)


def test_required_keys(hand_built):
    keys = {"tasks", "trials", "avg", "pass_hat", "pass_at", "unsatisfied_rate", "missing_cells", "by_family",
            "by_arm", "emotion_minus_neutral", "violation_rate"}
    for block in [*hand_built["domains"].values(), hand_built["average"]]:
        assert keys <= set(block)
        assert set(block["pass_hat"]) == {"1", "2", "3"} and set(block["pass_at"]) == {"1", "2", "3"}
        for fam in block["by_family"].values():
            assert {"cells", "avg", "unsatisfied_rate"} <= set(fam)
        for arm in block["by_arm"].values():
            assert {"tasks", "avg", "pass_hat", "unsatisfied_rate"} <= set(arm)
    assert list(hand_built["domains"]) == ["retail", "airline"]
    assert isinstance(hand_built["warnings"], list)


def test_domain_headline_is_the_emotion_arm(hand_built):
    r = hand_built["domains"]["retail"]
    assert r["arm"] == "emotion" and r["tasks"] == 2 and r["trials"] == 3
    assert r["avg"] == pytest.approx(2 / 3)  # A: 1/3, B: 1
    assert r["pass_hat"]["1"] == r["avg"]
    assert r["pass_hat"]["2"] == pytest.approx(0.5)
    assert r["pass_hat"]["3"] == pytest.approx(0.5)
    assert r["pass_at"]["3"] == pytest.approx(1.0)
    assert r["unsatisfied_rate"] == pytest.approx(1 / 6)
    assert r["violation_rate"] == pytest.approx(1 / 6)
    assert r["missing_cells"] == 1  # B neutral trial 2 (infra error)


def test_by_arm_and_paired_delta(hand_built):
    r = hand_built["domains"]["retail"]
    neutral = r["by_arm"]["neutral"]
    assert neutral["tasks"] == 2 and neutral["avg"] == pytest.approx(0.75)  # A: 1, B: 1/2 (infra error excluded)
    assert neutral["pass_hat"]["3"] == pytest.approx(1.0)  # only A has 3 completed trials
    assert neutral["pass_hat_excluded"]["3"] == 1
    assert neutral["missing_cells"] == 1 and r["by_arm"]["emotion"]["missing_cells"] == 0
    assert r["by_arm"]["emotion"]["avg"] == r["avg"]
    assert r["emotion_minus_neutral"] == pytest.approx(((1 / 3 - 1) + (1 - 1 / 2)) / 2)
    assert r["paired_tasks"] == 2


def test_by_family_uses_emotion_arm_only(hand_built):
    fam = hand_built["domains"]["retail"]["by_family"]
    assert list(fam) == ["anger", "fear"]
    assert fam["anger"]["cells"] == 3 and fam["anger"]["avg"] == pytest.approx(1 / 3)
    assert fam["anger"]["unsatisfied_rate"] == pytest.approx(1 / 3)
    assert fam["anger"]["emotion_minus_neutral"] == pytest.approx(-2 / 3)
    assert fam["fear"]["cells"] == 3 and fam["fear"]["avg"] == 1.0 and fam["fear"]["unsatisfied_rate"] == 0.0
    assert fam["fear"]["neutral_avg"] == pytest.approx(0.5)


def test_missing_cells_are_excluded_and_counted(hand_built):
    a = hand_built["domains"]["airline"]
    assert a["avg"] == 1.0  # C: 2 of 2 completed; the missing third trial is no failure
    assert a["pass_hat"]["3"] is None and a["pass_hat_excluded"]["3"] == 1
    assert a["missing_cells"] == 4  # 1 emotion trial + 3 neutral trials
    assert a["by_arm"]["neutral"]["tasks"] == 0 and a["by_arm"]["neutral"]["tasks_without_results"] == 1
    assert a["emotion_minus_neutral"] is None and a["paired_tasks"] == 0
    assert hand_built["average"]["missing_cells"] == 5
    assert any("5 of 18 cells" in w for w in hand_built["warnings"])
    assert any("Pass^3" in w for w in hand_built["warnings"])


def test_average_is_unweighted_over_domains(hand_built):
    avg = hand_built["average"]
    assert avg["avg"] == pytest.approx((2 / 3 + 1.0) / 2)
    assert avg["pass_hat"]["3"] == pytest.approx(0.5)  # airline has no Pass^3 value
    assert avg["emotion_minus_neutral"] == pytest.approx(-1 / 12)  # only retail is paired
    assert avg["tasks"] == 3 and avg["trials"] == 3
    assert avg["by_family"]["fear"]["avg"] == pytest.approx(1.0)
    assert avg["by_arm"]["emotion"]["avg"] == pytest.approx(avg["avg"])


def test_unweighted_not_pooled():
    records = [rec(f"x{i}", "emotion", 0, 1, domain="big") for i in range(10)] + [rec("y", "emotion", 0, 0, domain="small")]
    report = summarize(records)
    assert report["average"]["avg"] == pytest.approx(0.5)  # not 10/11
    assert report["average"]["tasks"] == 11


def test_negative_reward_is_failure_and_unsatisfied():
    # -1 with the usual termination, and -1 recorded with another termination: both unsatisfied failures
    records = [rec("A", "emotion", 0, -1), rec("A", "emotion", 1, -1, termination="user_stop"), rec("A", "emotion", 2, 1)]
    r = summarize(records)["domains"]["retail"]
    assert r["avg"] == pytest.approx(1 / 3)
    assert r["unsatisfied_rate"] == pytest.approx(2 / 3)
    assert cell_from_record(records[0]).success is False


def test_without_plan_infra_errors_are_missing_and_trials_inferred():
    records = [rec("A", "emotion", 0, 1), rec("A", "emotion", 1, None), rec("A", "emotion", 2, 0)]
    report = summarize(records)
    r = report["domains"]["retail"]
    assert report["trials"] == 3 and r["missing_cells"] == 1 and r["avg"] == 0.5 and r["cells"] == 2


def test_missing_cells_are_named_by_cause():
    records = [rec("A", "emotion", 0, 1), rec("A", "emotion", 1, None), rec("A", "emotion", 2, None, termination="harness_error"),
               rec("B", "emotion", 0, None, termination="user_error"), rec("B", "emotion", 1, None, termination="user_error")]
    planned = [("retail", t, "emotion", i) for t in "AB" for i in range(3)]
    report = summarize(records, planned_cells=planned, trials=3)
    line = next(w for w in report["warnings"] if "no complete result" in w)
    assert "5 of 6 cells" in line and "2 user_error" in line and "1 harness_error" in line
    assert "1 infra_error" in line and "1 not run" in line


def test_neutral_only_run():
    records = [rec("A", "neutral", 0, 1), rec("A", "neutral", 1, 0)]
    r = summarize(records, trials=2)["domains"]["retail"]
    assert r["arm"] == "neutral" and r["avg"] == 0.5 and r["by_family"] == {}
    assert r["emotion_minus_neutral"] is None


def test_records_outside_plan_warn_and_duplicates_collapse():
    records = [rec("A", "emotion", 0, 1), rec("Z", "emotion", 0, 0)]
    report = summarize(records, planned_cells=[("retail", "A", "emotion", 0)], trials=1)
    assert report["domains"]["retail"]["tasks"] == 2
    assert any("outside" in w for w in report["warnings"])
    cells = [CellResult("d", "t", "emotion", 0, complete=True, success=True),
             CellResult("d", "t", "emotion", 0, complete=False)]
    report = summarize(cells)
    assert report["domains"]["d"]["avg"] == 1.0 and report["domains"]["d"]["missing_cells"] == 0
    assert any("duplicate" in w for w in report["warnings"])


def test_empty():
    report = summarize([])
    assert report["domains"] == {} and report["average"] == {}


outcome = st.sampled_from([1, 0, -1, None])


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["d1", "d2", "d3"]),
                       st.lists(st.lists(outcome, min_size=3, max_size=3), min_size=1, max_size=4), min_size=1))
def test_avg_equals_pass1_and_average_is_domain_mean(data):
    records = []
    for dom, tasks in data.items():
        for ti, trials in enumerate(tasks):
            for tr, reward in enumerate(trials):
                records.append(rec(f"t{ti}", "emotion", tr, reward, domain=dom))
    report = summarize(records, trials=3)
    vals = []
    for dom, block in report["domains"].items():
        assert block["avg"] == block["pass_hat"]["1"] == block["pass_at"]["1"]
        # brute force: per task successes / completed, then mean over tasks with a result
        rates = [sum(r == 1 for r in t) / sum(r is not None for r in t) for t in data[dom] if any(r is not None for r in t)]
        expected = sum(rates) / len(rates) if rates else None
        assert block["avg"] == (pytest.approx(expected) if expected is not None else None)
        assert block["missing_cells"] == sum(r is None for t in data[dom] for r in t)
        if block["avg"] is not None:
            vals.append(block["avg"])
    if vals:
        assert report["average"]["avg"] == pytest.approx(sum(vals) / len(vals))
