"""Honest emotion numbers: no near-duplicates across the split, blunt statements, labeller agreement,
and retraining that reproduces the shipped weights exactly."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("tokenizers", reason="the static encoder needs `tokenizers`")

from temo.emotion import agreement, blunt, neardup  # noqa: E402
from temo.emotion.evaluate import eval_freeform, eval_path, main as evaluate_main  # noqa: E402
from temo.emotion.mapper import BLUNT_FILE, SHIPPED_MODEL, WRITTEN_FILE, get_mapper  # noqa: E402

pytestmark = pytest.mark.usefixtures("private_cache")  # a fresh TEMO_CACHE_DIR for this module


# ------------------------------------------------------------------ near-duplicates across the split
def test_no_blind_feeling_has_a_training_neighbour_above_the_threshold():
    train = neardup.read_jsonl(WRITTEN_FILE) + neardup.read_jsonl(BLUNT_FILE)
    hits = neardup.training_neighbours(train, neardup.blind_rows(), neardup.NEAR_DUP_THRESHOLD)
    assert hits == [], [(i, j, round(s, 3)) for i, j, s in hits[:5]]
    assert len(neardup.blind_rows()) == 330  # the blind sets were kept whole


def test_the_measure_flags_paraphrases_of_a_blind_feeling():
    blind = neardup.blind_rows()
    para = blind[0]["text"].replace("The customer", "The caller").replace("likely", "probably")
    hits = neardup.training_neighbours([{"text": para}], blind, neardup.NEAR_DUP_THRESHOLD)
    assert [i for i, _, _ in hits] == [0]
    # one of the pairs the issue named, as it stood in the training data before the removal
    meal = "Opened a meal-kit box, found maggots crawling in the chicken. Revolted. Plain tone."
    hit = neardup.training_neighbours([{"text": meal}], blind, neardup.NEAR_DUP_THRESHOLD)
    assert hit and "maggots" in blind[hit[0][0]]["text"]


# ------------------------------------------------------------------ blunt statements
def test_blunt_set_covers_every_family_in_both_persons():
    rows = [json.loads(line) for line in eval_path("blunt").read_text().splitlines()]
    assert len(rows) >= 60
    assert {r["family"] for r in rows} == {"anger", "fear", "disgust", "sadness", "enjoyment"}
    assert len({r["emotion"] for r in rows}) == 22
    assert sum(r["text"].startswith("The customer") for r in rows) >= 15
    assert sum(r["text"].startswith("I") for r in rows) >= 30


def test_blunt_training_statements_never_equal_an_evaluation_text():
    ev = {blunt.norm(r["text"]) for r in neardup.read_jsonl(blunt.EVAL_FILE)}
    tr = [blunt.norm(r["text"]) for r in neardup.read_jsonl(BLUNT_FILE)]
    assert len(tr) >= 22 * 20 and not ev & set(tr)
    assert blunt.generate(avoid=set()) == blunt.generate(avoid=set())  # seeded


def test_blunt_statements_floor():
    res, _, _ = eval_freeform(eval_path("blunt"), get_mapper())
    # shipped weights: family 0.939, fine emotion 0.878 (before the blunt training statements: 0.866 / 0.805)
    assert res["family"] >= 0.92 and res["emotion"] >= 0.85, res


@pytest.mark.parametrize("text", ["I am so angry now", "I am furious.", "I'm furious", "The customer is furious."])
def test_plain_anger_is_anger(text):
    assert get_mapper().map(text).family == "anger"


# ------------------------------------------------------------------ labeller agreement
def test_fleiss_kappa_by_hand():
    assert agreement.fleiss_kappa([["a", "a", "a"], ["b", "b", "b"]], ("a", "b")) == 1.0
    # 2 items x 3 raters, categories a/b: P_i = 1/3 and 1/3, p_a = p_b = 1/2 -> (1/3 - 1/2) / (1/2) = -1/3
    assert agreement.fleiss_kappa([["a", "a", "b"], ["b", "b", "a"]], ("a", "b")) == pytest.approx(-1 / 3)
    assert agreement.majority(["a", "b", "c"]) is None and agreement.majority(["a", "b", "a"]) == "a"


def test_agreement_report_over_the_shipped_files():
    r = agreement.report()
    assert r["n"] == 150 and r["labellers"] == 3
    for f, d in r["dimensions"].items():
        assert -1 <= d["fleiss_kappa"] <= 1 and 0 <= d["pairwise_mean"] <= 1
        assert 0 <= d["no_majority"] <= 150 and sum(d["majority_counts"].values()) == 150 - d["no_majority"]
    # the shipped labeller files agree with the writers on 99 % of fine emotions (see docs/emotion.md
    # for why that is not read as an independent ceiling); a change to them must update the docs
    assert r["dimensions"]["emotion"]["vs_writer"] == {"1": 149 / 150, "2": 149 / 150, "3": 149 / 150}


def test_evaluate_set_agreement_prints_the_table(capsys):
    assert evaluate_main(["--set", "agreement"]) == 0
    out = capsys.readouterr().out
    assert "agreement set (n=150, 3 labellers)" in out and "model~maj" in out
    assert all(line.split()[0] in agreement.CATEGORIES for line in out.splitlines()[3:8])


def test_agreement_names_a_bad_label(tmp_path, capsys):
    for f in ("feelings_150.jsonl", "writer_labels_150.jsonl", *agreement.LABELLER_FILES):
        (tmp_path / f).write_text((agreement.AGREEMENT_DIR / f).read_text())
    lines = (tmp_path / "labels_2.jsonl").read_text().splitlines()
    lines[3] = lines[3].replace('"urgency": "', '"urgency": "x')
    (tmp_path / "labels_2.jsonl").write_text("\n".join(lines) + "\n")
    assert agreement.main(["--dir", str(tmp_path), "--no-model"]) == 2
    assert "labels_2.jsonl line 4: urgency must be one of" in capsys.readouterr().err


NATURAL = agreement.SETS["agreement-natural"]


def test_natural_set_has_no_writer_labels_and_reports_stated_against_guessed():
    r = agreement.report(directory=NATURAL)
    assert r["n"] == 165 and r["labellers"] == 3 and r["writer_labels"] is False
    assert "vs_writer" not in r["dimensions"]["family"]  # nothing to compare with: none were written
    for f in ("politeness", "urgency", "trust"):
        d = r["dimensions"][f]
        said, guess = d["basis"]["said"], d["basis"]["guess"]
        assert said["n"] > 0 and guess["n"] > 0 and said["n"] + guess["n"] <= 165
        assert sum(guess["majority_counts"].values()) <= guess["n"]
        assert all(0 <= x <= 165 for x in d["said_by_labeller"].values())
    # the point of the set: most texts leave urgency and trust unstated (all three labellers guessed)
    assert r["dimensions"]["urgency"]["basis"]["guess"]["n"] > 82
    assert r["dimensions"]["trust"]["basis"]["guess"]["n"] > 82


def test_natural_set_shares_no_scenario_wording_with_the_training_feelings():
    natural = neardup.read_jsonl(agreement.feelings_file(NATURAL))
    hits = neardup.training_neighbours(neardup.read_jsonl(WRITTEN_FILE), natural, neardup.NEAR_DUP_THRESHOLD)
    assert hits == [], hits[:5]


def test_evaluate_prints_the_stated_and_guessed_table(capsys):
    assert evaluate_main(["--set", "agreement-natural"]) == 0
    out = capsys.readouterr().out
    assert "agreement-natural set (n=165, 3 labellers)" in out and "L1~writer" not in out
    rows = [line.split() for line in out.splitlines() if line.split()[:2] in (["urgency", "said"], ["urgency", "guess"])]
    assert len(rows) == 2 and all(0 <= float(row[5]) <= 1 for row in rows)  # model~maj on each


def test_agreement_names_a_bad_basis(tmp_path, capsys):
    for f in NATURAL.glob("*.jsonl"):
        (tmp_path / f.name).write_text(f.read_text())
    lines = (tmp_path / "labels_3.jsonl").read_text().splitlines()
    lines[9] = lines[9].replace('"trust_basis": "', '"trust_basis": "maybe-')
    (tmp_path / "labels_3.jsonl").write_text("\n".join(lines) + "\n")
    assert agreement.main(["--dir", str(tmp_path), "--no-model"]) == 2
    assert "labels_3.jsonl line 10: trust_basis must be said or guess" in capsys.readouterr().err


# ------------------------------------------------------------------ bit-for-bit retraining
def test_retraining_reproduces_the_shipped_weights_exactly(tmp_path):
    """`python -m temo.emotion.train` pins the BLAS to one thread; a retrain equals the shipped file
    array for array (np.array_equal), whatever the caller's thread settings. About 30 s."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = tmp_path / "m.npz"
    p = subprocess.run([sys.executable, "-m", "temo.emotion.train", "--out", str(out)], env=env,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    a, b = np.load(out), np.load(SHIPPED_MODEL)
    assert sorted(a.files) == sorted(b.files)
    diff = [k for k in a.files if k != "meta" and not np.array_equal(a[k], b[k])]
    assert diff == []
    ma, mb = (json.loads(bytes(x["meta"]).decode()) for x in (a, b))
    assert (ma["written"], ma["anchors"], ma["n_train"]) == (mb["written"], mb["anchors"], mb["n_train"])
