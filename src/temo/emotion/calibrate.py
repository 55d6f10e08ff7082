"""Fit the map-time combination weights on synthetic held-out wording (never on the eval sets).

    python -m temo.emotion.calibrate            # prints the fitted weights and held-out accuracies

A quarter of every emotion's adjectives and predicates, a fifth of every dimension level's cue
phrases and 30 % of the situations and reasons are held out. Both models (whole-text heads and clause model) are trained without them,
then synthetic feelings are written *only* with the held-out phrases. On those feelings the
whole-text emotion head and the pooled clause evidence are both "reading unseen wording", as on
real feelings, and the exponents that combine them are chosen by log-likelihood of the true
emotion. Deterministic from the seed.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import random
import time

import numpy as np

from temo.core.taxonomy import EMOTIONS, FAMILY_OF

from . import lexicon_feeling as LF
from . import synth

EMOTION_HELD = 0.25
DIM_HELD = 0.2
SITUATION_HELD = 0.3  # situations and reasons too, so that the feelings also bring unseen content words
VAL_PER_CONDITION = 6


def split_lexicon(seed: int = 0) -> dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...]]]]:
    """{lexicon name: {key: (kept, held)}} for ADJ, PRED, POL, URG, TRU, SITUATIONS, REASONS."""
    rng = random.Random(f"calibrate:{seed}")
    out = {}
    for name, frac in (("ADJ", EMOTION_HELD), ("PRED", EMOTION_HELD), ("POL", DIM_HELD), ("URG", DIM_HELD),
                       ("TRU", DIM_HELD), ("SITUATIONS", SITUATION_HELD), ("REASONS", SITUATION_HELD)):
        lex = getattr(LF, name)
        out[name] = {}
        for k, phrases in lex.items():
            held = set(rng.sample(range(len(phrases)), max(2, round(frac * len(phrases)))))
            out[name][k] = (tuple(p for i, p in enumerate(phrases) if i not in held),
                            tuple(p for i, p in enumerate(phrases) if i in held))
    return out


@contextlib.contextmanager
def lexicon_view(split, which: int):
    """Temporarily restrict the shared lexicon dicts to the kept (0) or held-out (1) phrases."""
    saved = {name: dict(getattr(LF, name)) for name in split}
    try:
        for name, parts in split.items():
            lex = getattr(LF, name)
            for k, pair in parts.items():
                lex[k] = pair[which]
        yield
    finally:
        for name, d in saved.items():
            getattr(LF, name).update(d)


def heldout_parts(encoder, seed: int = 0):
    """Train without the held-out phrases; return the mapper and the held-out synthetic feelings."""
    from .mapper import Mapper, train

    split = split_lexicon(seed)
    with lexicon_view(split, 0):
        model, meta = train(encoder, seed=seed)
    with lexicon_view(split, 1):
        val = synth.generate(n_per_condition=VAL_PER_CONDITION, seed=seed + 1000)
    return Mapper(encoder, model), val, meta


def emotion_parts(mapper, texts):
    """Whole-text emotion probabilities and pooled clause evidence for each text."""
    x = mapper.model.encode(mapper.encoder, texts)
    pt = mapper.model.main.predict_proba(x)["emotion"]
    pooled = mapper.clause_evidence(texts)["emotion"]
    return pt, pooled


def fit_emotion_weights(pt, pc, y) -> tuple[float, float, dict]:
    """Exponents (a, b) of text head and clause evidence maximising the mean log-likelihood."""
    lt, lc = np.log(pt + 1e-9), np.log(pc + 1e-9)
    best = None
    grid = {}
    for a in np.round(np.arange(0.2, 2.01, 0.1), 2):
        for b in np.round(np.arange(0.0, 3.01, 0.1), 2):
            z = a * lt + b * lc
            z -= z.max(1, keepdims=True)
            ll = float((z[np.arange(len(y)), y] - np.log(np.exp(z).sum(1))).mean())
            grid[(float(a), float(b))] = ll
            if best is None or ll > best[0]:
                best = (ll, float(a), float(b))
    return best[1], best[2], {"loglik": round(best[0], 4)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--encoder", default="static")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from .encoder import get_encoder

    t0 = time.perf_counter()
    enc = get_encoder(args.encoder)
    mapper, val, _ = heldout_parts(enc, args.seed)
    texts = [f.text for f in val]
    y = np.array([EMOTIONS.index(f.condition.emotion) for f in val])
    pt, pc = emotion_parts(mapper, texts)
    a, b, info = fit_emotion_weights(pt, pc, y)
    fam = np.array([FAMILY_OF[e] for e in EMOTIONS])

    def acc(p):
        j = p.argmax(1)
        return {"emotion": round(float((j == y).mean()), 3), "family": round(float((fam[j] == fam[y]).mean()), 3)}

    cur = mapper.config.text_emotion_weight, mapper.config.clause_emotion_weight
    comb = lambda a_, b_: np.exp(a_ * np.log(pt + 1e-9) + b_ * np.log(pc + 1e-9))  # noqa: E731
    def mapping():
        preds = mapper.map_many(texts)
        return {f: round(float(np.mean([getattr(p, f) == getattr(v.condition, f) for p, v in zip(preds, val)])), 3)
                for f in ("family", "emotion", "politeness", "urgency", "trust")}

    out = {"n_val": len(texts), "fitted": {"text_emotion_weight": a, "clause_emotion_weight": b, **info},
           "text_head": acc(pt), "clause": acc(pc), "combined_current": acc(comb(*cur)),
           "combined_fitted": acc(comb(a, b)), "mapping_current": mapping()}
    mapper.config.text_emotion_weight, mapper.config.clause_emotion_weight = a, b
    out["mapping_fitted"] = mapping()
    out["seconds"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
