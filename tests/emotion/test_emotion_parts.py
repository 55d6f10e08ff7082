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


def test_pooling_a_batch_equals_pooling_each_text_alone():
    """`segments.pool` groups clause rows by text; a text's distribution must not depend on the other
    texts in the batch, their order, or texts without any clause (which fall back to the prior)."""
    import numpy as np

    from temo.emotion import segments

    rng = np.random.default_rng(3)
    n, rows = 40, 160
    owner = rng.permutation(np.sort(rng.integers(0, n, rows)))
    owner[owner == 7] = 8  # text 7 has no clause
    probs = {d: rng.dirichlet(np.ones(4), rows) for d in ("politeness", "urgency", "trust")}
    probs["emotion"] = rng.dirichlet(np.ones(23), rows)
    batch = segments.pool(probs, owner, n)
    for i in range(n):
        mine = owner == i
        alone = segments.pool({d: p[mine] for d, p in probs.items()}, np.zeros(int(mine.sum()), dtype=int), 1)
        for d in probs:
            assert np.allclose(batch[d][i], alone[d][0], rtol=0, atol=1e-15)
    assert np.allclose(batch["trust"][7], segments.PRIOR)
