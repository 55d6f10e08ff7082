"""The tau-bench importer on small fixture files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from temo.metrics import ImportFormatError, family_of_label, load_results, load_taubench, parse_taubench, summarize

DATA = Path(__file__).parent / "data"


def test_plain_taubench_file():
    result = load_taubench(DATA / "taubench_results.json", domain="retail")
    assert result.entries == 9 and not result.has_emotion
    assert {c.arm for c in result.cells} == {"emotion"}
    report = summarize(result.cells)
    r = report["domains"]["retail"]
    # task 0: 3/3 ; task 1: 1/3 (0.99999999 counts) ; task 2: 0/2 + one crashed entry (missing)
    assert report["trials"] == 3 and r["tasks"] == 3
    assert r["avg"] == pytest.approx((1 + 1 / 3 + 0) / 3)
    assert r["pass_hat"]["2"] == pytest.approx(1 / 3)
    assert r["pass_hat"]["3"] == pytest.approx(0.5) and r["pass_hat_excluded"]["3"] == 1
    assert r["missing_cells"] == 1
    # unsatisfied: a user message with ###UNSATISFIED###, and a termination hint in info
    assert r["unsatisfied_rate"] == pytest.approx(2 / 8)
    assert r["violation_rate"] is None  # tau-bench does not record violations
    assert r["by_family"] == {}
    assert any("no emotion information" in w for w in result.warnings)
    assert any("error" in w for w in result.warnings)


def test_default_domain_name():
    report = summarize(load_taubench(DATA / "taubench_results.json").cells)
    assert list(report["domains"]) == ["imported"]


def test_emotion_variant_file():
    result = load_taubench(DATA / "taubench_emotion.json", domain="airline")
    assert result.has_emotion
    report = summarize(result.cells)
    r = report["domains"]["airline"]
    assert set(r["by_arm"]) == {"emotion", "neutral"}
    fam = r["by_family"]
    assert list(fam) == ["anger", "fear", "sadness"]  # "grumpy" is not a known emotion
    assert fam["anger"]["avg"] == 0.5 and fam["anger"]["emotion_minus_neutral"] == -0.5
    assert fam["fear"]["unsatisfied_rate"] == 0.5  # reward -1
    assert r["emotion_minus_neutral"] == -0.5 and r["paired_tasks"] == 1
    assert any("unrecognised emotion" in w for w in result.warnings)


@pytest.mark.parametrize(
    "label,family",
    [("frustration.cold.high.skeptical", "anger"), ("Relief", "enjoyment"), ("disgust", "disgust"),
     ({"family": "sadness"}, "sadness"), ({"emotion": "dread"}, "fear"), ("grumpy", None), (3, None)],
)
def test_family_labels(label, family):
    assert family_of_label(label) == family


def test_tolerant_shapes():
    data = {"simulations": [
        {"task_id": 1, "reward_info": {"reward": 1.0}, "termination_reason": "user_stop"},
        {"task_id": 1, "reward_info": {"reward": 0.0}, "termination_reason": "USER_UNSATISFIED"},
        {"task_id": 1, "reward": None, "info": {"error": "timeout"}},
    ]}
    result = parse_taubench(data, domain="telecom")
    assert [c.trial for c in result.cells] == [0, 1, 2]  # numbered in order when missing
    r = summarize(result.cells)["domains"]["telecom"]
    assert r["avg"] == 0.5 and r["unsatisfied_rate"] == 0.5 and r["missing_cells"] == 1


@pytest.mark.parametrize(
    "content,needle",
    [("{not json", "not valid JSON"), ('{"a": 1}', "expected a JSON list"), ("[1, 2]", "not an object"),
     ('[{"reward": 1.0}]', "no task_id"), ('[{"task_id": 1}]', "no reward"),
     ('[{"task_id": 1, "reward": "yes"}]', "non-numeric reward"),
     ('[{"task_id": 1, "reward": 1, "trial": -1}]', "bad trial")],
)
def test_malformed_files_raise_one_line(tmp_path, content, needle):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ImportFormatError) as e:
        load_taubench(path)
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_missing_file_and_unknown_format(tmp_path):
    with pytest.raises(ImportFormatError, match="no such file"):
        load_taubench(tmp_path / "nope.json")
    with pytest.raises(ImportFormatError, match="unknown import format"):
        load_results("swebench", DATA / "taubench_results.json")
    assert load_results("tau-bench", DATA / "taubench_results.json").entries == 9


def test_fixture_is_valid_json():
    assert isinstance(json.loads((DATA / "taubench_results.json").read_text()), list)
