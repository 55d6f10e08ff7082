"""Per-token weights for the static encoder, fitted on the synthetic training corpus.

A static sentence vector is a mean of token vectors, so a long description full of situation
words ("order", "account", "flight", "the", "is") drowns its few emotion and behaviour words.
Each vocabulary entry gets a weight from how much its presence tells about the labels in the
training corpus (anchors + synthetic feelings): the largest, over the emotion, politeness, urgency
and trust heads, of the normalised KL divergence between the label distribution of the texts that
contain the token (Dirichlet-smoothed toward the overall distribution) and the overall
distribution. Tokens seen often but uninformative sink toward ``FLOOR``; informative tokens get
1. Tokens the corpus has rarely or never seen keep a weight near 1: nothing is known against
them, and unseen idioms ("took the wind out of his sails") should not be muted.

    weight = FLOOR + (1 - FLOOR) * (conf * min(1, I / I_REF) + (1 - conf)),   conf = n / (n + BETA)

Deterministic; numpy only. The weights are stored with the trained model.
"""
from __future__ import annotations

import numpy as np

from .classifier import labels_of

FLOOR = 0.2
UNSEEN: float | None = None  # s of an unseen token; None: predicted from its vector
FIT_MIN_COUNT = 5
RIDGE = 1.0
I_REF = 0.3
BETA = 20.0
SMOOTH = 2.0  # Dirichlet pseudo-counts per class, toward the overall label distribution
HEADS = ("emotion", "politeness", "urgency", "trust")


def informativeness(token_ids: list[list[int]], conds, vocab_size: int) -> tuple[np.ndarray, np.ndarray]:
    """(document count, informativeness in [0, 1]) per vocabulary entry."""
    y = labels_of(conds)
    rows = np.concatenate([np.full(len(set(ids)), i) for i, ids in enumerate(token_ids)]).astype(np.int64)
    cols = np.concatenate([np.fromiter(set(ids), np.int64, len(set(ids))) for ids in token_ids])
    n_t = np.bincount(cols, minlength=vocab_size).astype(np.float64)
    info = np.zeros(vocab_size)
    for h in HEADS:
        yh = y[h]
        k = int(yh.max()) + 1
        c = np.zeros((vocab_size, k))
        np.add.at(c, (cols, yh[rows]), 1.0)
        prior = np.bincount(yh, minlength=k) / len(yh)
        p = (c + SMOOTH * k * prior) / (n_t[:, None] + SMOOTH * k)
        info = np.maximum(info, (p * np.log(p / prior)).sum(1) / np.log(k))
    return n_t, info


def fit(encoder, texts, conds) -> np.ndarray:
    """Token weights (float32, one per vocabulary entry) from a labelled corpus."""
    n_t, info = informativeness(encoder.token_ids(texts), conds, encoder.table.shape[0])
    conf = n_t / (n_t + BETA)
    target = np.minimum(1.0, info / I_REF)
    if UNSEEN is None:  # predict a rarely seen token's weight from its static vector (ridge regression)
        fit_on = n_t >= FIT_MIN_COUNT
        X = encoder.table / np.maximum(np.linalg.norm(encoder.table, axis=1, keepdims=True), 1e-12)
        Xf = np.hstack([X[fit_on], np.ones((int(fit_on.sum()), 1), np.float32)]).astype(np.float64)
        wts = n_t[fit_on] / (n_t[fit_on] + BETA)
        A = Xf.T @ (Xf * wts[:, None]) + RIDGE * np.eye(Xf.shape[1])
        coef = np.linalg.solve(A, Xf.T @ (wts * target[fit_on]))
        prior = np.clip(np.hstack([X, np.ones((len(X), 1), np.float32)]) @ coef, 0.0, 1.0)
    else:
        prior = UNSEEN
    s = conf * target + (1.0 - conf) * prior
    return (FLOOR + (1.0 - FLOOR) * s).astype(np.float32)
