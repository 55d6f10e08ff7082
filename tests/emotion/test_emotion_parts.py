"""Smaller parts: classifier determinism, clause splitting, synthetic data, LLM rewrite (fake client)."""
import json
from types import SimpleNamespace

import numpy as np

from temo.core import EmotionCondition
from temo.emotion import segments, synth
from temo.emotion.classifier import HEADS, MultiHead, TrainConfig
from temo.emotion.llm_rewrite import rewrite_condition


def test_classifier_training_is_deterministic():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(300, 16)).astype(np.float32)
    y = {h: rng.integers(0, len(v), 300) for h, v in HEADS.items()}
    cfg = TrainConfig(hidden=8, epochs=3, batch=64, seed=4)
    a = MultiHead.train(x, y, cfg).to_arrays()
    b = MultiHead.train(x, y, cfg).to_arrays()
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_clause_split():
    segs = segments.split("The user is tired; they are curt, need it today and doubt the agent.")
    assert segs == ["The user is tired", "they are curt", "need it today", "doubt the agent"]


def test_synth_is_seeded_and_third_person():
    a = synth.generate(n_per_condition=1, seed=3)
    b = synth.generate(n_per_condition=1, seed=3)
    assert [f.text for f in a] == [f.text for f in b]
    assert len(a) == 594
    assert not any(f.text.startswith("You ") for f in a)


def _fake_client(content):
    msg = SimpleNamespace(content=content)
    create = lambda **kw: SimpleNamespace(choices=[SimpleNamespace(message=msg)])  # noqa: E731
    return SimpleNamespace(chat=SimpleNamespace(completions=SimpleNamespace(create=create)))


def test_llm_rewrite_accepts_valid_and_rejects_invalid():
    cond = EmotionCondition.parse("relief.warm.low.trusting")
    new = [f"You feel relieved, version {i}. Be kind and take your time." for i in range(10)]
    assert rewrite_condition(_fake_client(json.dumps(new)), "m", cond) == new
    from temo.emotion import anchors_for
    assert rewrite_condition(_fake_client("not json"), "m", cond) == anchors_for(cond)
    assert rewrite_condition(_fake_client(json.dumps(new[:3])), "m", cond) == anchors_for(cond)


def test_dimension_cue_surface_variants():
    import random
    v = segments.surface_variants("says there's no rush", random.Random(0))
    assert "there's no rush" in v and "no rush" in v and "with no rush" in v
    assert any(x.endswith("in no hurry") for x in segments.surface_variants("is in no hurry", random.Random(0)))


def test_weighted_encoding_with_equal_weights_is_the_plain_mean():
    import pytest
    pytest.importorskip("tokenizers")
    from temo.emotion.encoder import get_encoder
    enc = get_encoder("static")
    texts = ["The user is calm and not in a hurry.", "doesn't trust the bank"]
    ones = np.ones(enc.table.shape[0], np.float32)
    assert np.allclose(enc.encode(texts), enc.encode(texts, token_weights=ones), atol=1e-6)
