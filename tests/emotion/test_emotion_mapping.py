"""Mapping: determinism, batch == single, bad input, accuracy floor on the free-form set."""
import json

import pytest
from typer.testing import CliRunner

pytest.importorskip("tokenizers", reason="the static encoder needs `tokenizers` (pip install 'temo[embed]')")

from temo.cli.emotion import app  # noqa: E402
from temo.emotion import anchors_for, get_mapper, map_feeling, map_feelings  # noqa: E402
from temo.emotion.evaluate import EVAL_SETS, FIELDS, eval_freeform, eval_path, load_labelled, score  # noqa: E402
from temo.emotion.mapper import WRITTEN_FILE  # noqa: E402

runner = CliRunner()
TEXTS = [
    "The user is worn out after three failed attempts to fix the billing error and wants it resolved today; "
    "they are curt and doubt the agent will manage.",
    "The traveler is thrilled about the honeymoon and politely asks to add a tour, with plenty of time to spare.",
    "The patient is scared about the test results and needs an answer right away, though they stay kind.",
]

pytestmark = pytest.mark.usefixtures("private_cache")  # a fresh TEMO_CACHE_DIR for this module


def test_shipped_weights_fit_the_shipped_encoder():
    from temo.emotion.mapper import SHIPPED_MODEL, anchors_hash, load_model
    _, meta = load_model(SHIPPED_MODEL)
    assert meta["encoder"] == get_mapper().encoder.name
    assert meta["anchors"] == anchors_hash()


def test_mapping_fields_and_instruction_is_an_anchor():
    m = map_feeling(TEXTS[0], seed=3)
    assert m.condition_id == f"{m.emotion}.{m.politeness}.{m.urgency}.{m.trust}"
    assert m.instruction in anchors_for(m.condition_id)
    assert 0.0 < m.confidence <= 1.0
    assert m.family == "anger"


def test_determinism_and_seed():
    a = [map_feeling(TEXTS[0], seed=5) for _ in range(3)]
    assert all(x == a[0] for x in a)
    draws = {map_feeling(TEXTS[0], seed=s).instruction for s in range(20)}
    assert len(draws) > 1  # the seed controls the anchor draw
    assert len({map_feeling(TEXTS[0], seed=s).condition_id for s in range(5)}) == 1


def test_batch_and_single_agree():
    batch = map_feelings(TEXTS, seed=1)
    single = [map_feeling(t, seed=1) for t in TEXTS]
    assert [b.model_dump() for b in batch] == [s.model_dump() for s in single]
    rev = map_feelings(TEXTS[::-1], seed=1)[::-1]
    assert [b.condition_id for b in rev] == [b.condition_id for b in batch]


def test_cli_map_single_and_file(tmp_path):
    r = runner.invoke(app, ["map", TEXTS[1], "--json", "--seed", "2"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert set(d) == {"family", "emotion", "politeness", "urgency", "trust", "condition_id", "instruction", "confidence"}
    f = tmp_path / "feelings.jsonl"
    f.write_text("".join(json.dumps({"text": t}) + "\n" for t in TEXTS))
    r = runner.invoke(app, ["map", "--file", str(f), "--json", "--seed", "2"])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in r.output.strip().splitlines()]
    assert len(lines) == 3 and lines[1] == d


def test_bad_input(tmp_path):
    r = runner.invoke(app, ["map", "   ", "--json"])
    assert r.exit_code == 2 and "empty" in r.output
    f = tmp_path / "feelings.jsonl"
    f.write_text('{"text": "fine"}\n' * 6 + '{"text": broken\n')
    r = runner.invoke(app, ["map", "--file", str(f), "--json"])
    assert r.exit_code == 2
    assert "feelings.jsonl line 7: not valid JSON" in r.output
    assert len(r.output.strip().splitlines()) == 1
    f.write_text('{"text": "ok"}\n{"txt": "no text"}\n')
    r = runner.invoke(app, ["map", "--file", str(f)])
    assert r.exit_code == 2 and "line 2" in r.output
    r = runner.invoke(app, ["map", "--file", str(tmp_path / "missing.jsonl")])
    assert r.exit_code == 2 and "no such file" in r.output
    with pytest.raises(ValueError):
        map_feeling("")


# Floors about 5-8 points under the shipped numbers (docs/emotion.md), so that regressions fail.
# (set, at least n, family, emotion, politeness, urgency, trust)
FLOORS = [
    ("lead1", 100, 0.86, 0.80, 0.90, 0.78, 0.76),
    ("lead2", 60, 0.89, 0.83, 0.93, 0.85, 0.83),
    ("lead3", 40, 0.63, 0.59, 0.88, 0.81, 0.79),
    # written by three other authors who never saw the model, its lexicons or its training data
    ("blind_a", 100, 0.89, 0.83, 0.89, 0.77, 0.80),
    ("blind_b", 100, 0.84, 0.76, 0.87, 0.82, 0.81),
    ("blind_c", 100, 0.81, 0.75, 0.89, 0.82, 0.81),
]


@pytest.mark.parametrize("name,n,floors", [(f[0], f[1], f[2:]) for f in FLOORS], ids=[f[0] for f in FLOORS])
def test_accuracy_floor_on_freeform_sets(name, n, floors):
    res, rows, _ = eval_freeform(eval_path(name), get_mapper())
    assert res["n"] >= n
    assert len({r["emotion"] for r in rows}) == 22
    for field, floor in zip(FIELDS, floors):
        assert res[field] >= floor, (field, res)


def test_blind_sets_meet_the_goals():
    """The issue's goals (family >= 0.8, fine emotion >= 0.6, each dimension >= 0.6), on the
    pooled feelings of the three authors who did not build the model."""
    rows, preds = [], []
    for name in ("blind_a", "blind_b", "blind_c"):
        _, r, p = eval_freeform(eval_path(name), get_mapper())
        rows += r
        preds += p
    res = score(rows, preds)
    assert res["n"] >= 300
    assert res["family"] >= 0.8 and res["emotion"] >= 0.6, res
    assert min(res["politeness"], res["urgency"], res["trust"]) >= 0.6, res


def test_training_and_evaluation_feelings_never_overlap():
    train = {r["text"] for r in load_labelled(WRITTEN_FILE)}
    assert len(train) >= 3700  # 3,960 written, less the near-duplicates of blind feelings (neardup.py)
    for name in EVAL_SETS:
        assert not train & {r["text"] for r in load_labelled(eval_path(name))}, name


# cue understanding: paraphrases and negations of each dimension, independent of the emotion
CUES = [
    ("The shopper is a little annoyed about the late parcel; she is not in a rush at all.", "urgency", "low"),
    ("The caller is calm and says it can wait until next month.", "urgency", "low"),
    ("The passenger is frantic and needs the rebooking done this minute.", "urgency", "high"),
    ("The guest is pleased and would like the booking changed sometime this week.", "urgency", "moderate"),
    ("The client is irritated by the fee and doesn't trust the bank at all.", "trust", "skeptical"),
    ("The patient is worried but relies completely on the nurse to sort it out.", "trust", "trusting"),
    ("The student is nervous and wants every step confirmed before agreeing.", "trust", "cautious"),
    ("The fan is thrilled and thanks the agent warmly.", "politeness", "warm"),
]


@pytest.mark.parametrize("text,dim,level", CUES)
def test_dimension_cues(text, dim, level):
    assert getattr(map_feeling(text), dim) == level


def test_sad_but_curt_stays_sad():
    m = map_feeling("The traveler has given up on ever seeing the lost suitcase again; she is curt, "
                    "in no hurry, and expects nothing from the airline.")
    assert m.family == "sadness" and m.politeness == "cold"


def test_calm_or_proud_user_amid_situation_words_stays_in_enjoyment():
    """A clear emotion word in a long sentence full of situation words is not drowned by them."""
    a = map_feeling("The guest is at ease and just wants to move the dinner booking to Saturday; "
                    "there's no hurry and they take the host's suggestion.")
    b = map_feeling("The shopper is pleased with themselves for finding the discount code and wants the "
                    "order updated; not in a hurry, matter-of-fact.")
    assert a.emotion == "peace" and b.emotion == "pride"


def test_timing_and_politeness_clauses_carry_no_emotion():
    """Clauses with only urgency / politeness / trust cues read as emotion `none` in the clause model."""
    m = get_mapper()
    clauses = ["there's no hurry", "no rush at all", "whenever is convenient", "she is polite about it",
               "he is curt with the agent", "needs it today", "doubts the bank will help",
               "it can wait until next week", "they keep it short", "there is no deadline"]
    p_none = m.model.seg.predict_proba(m.model.encode(m.encoder, clauses))["emotion"][:, 0]
    assert (p_none > 0.5).all(), dict(zip(clauses, p_none.round(2)))


def test_token_weights_mute_situation_words():
    m = get_mapper()
    tw, vocab = m.model.token_weights, m.encoder.tokenizer.get_vocab()
    assert tw is not None and tw.shape == (m.encoder.table.shape[0],)
    for situation in ("the", "is", "order", "account"):
        for cue in ("calm", "pleased", "curt", "hurry", "doubts"):
            assert tw[vocab[situation]] < 0.5 < tw[vocab[cue]]


def test_evaluate_reports_a_set_and_names_a_bad_line(tmp_path, capsys):
    from temo.emotion.evaluate import main as evaluate

    assert evaluate(["--set", "blind_a", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["blind_a"]["n"] == 110 and 0 <= out["blind_a"]["family"] <= 1
    good = {"text": "The caller is calm and in no hurry.", "emotion": "peace", "politeness": "warm",
            "urgency": "low", "trust": "trusting"}
    bad = tmp_path / "mine.jsonl"
    bad.write_text(json.dumps(good) + "\n" + json.dumps({**good, "emotion": "joy"}) + "\n")
    assert evaluate(["--file", str(bad)]) == 2
    assert "line 2: unknown emotion 'joy'" in capsys.readouterr().err
    bad.write_text(json.dumps({**good, "urgency": "asap"}) + "\n")
    assert evaluate(["--file", str(bad)]) == 2
    assert "line 1: urgency must be one of low, moderate, high" in capsys.readouterr().err
    bad.write_text(json.dumps(good) + "\n{not json\n")
    assert evaluate(["--file", str(bad)]) == 2
    assert "line 2: not valid JSON" in capsys.readouterr().err


def test_shipped_weights_match_the_training_data():
    """The shipped model records the hashes it was trained on; a stale model would be retrained."""
    from temo.emotion.mapper import SHIPPED_MODEL, anchors_hash, load_model, written_hash

    _, meta = load_model(SHIPPED_MODEL)
    assert meta["anchors"] == anchors_hash() and meta["written"] == written_hash()
