"""A small multi-head MLP in numpy: shared projection + heads for family, fine emotion,
politeness, urgency and trust. The shared hidden layer is the learned space in which anchors and
feelings are compared. Trained with Adam from a seed; deterministic on one machine.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from temo.core.taxonomy import EMOTIONS, FAMILIES, FAMILY_OF, POLITENESS, TRUST, URGENCY

HEADS: dict[str, tuple[str, ...]] = {
    "family": tuple(FAMILIES),
    "emotion": EMOTIONS,
    "politeness": POLITENESS,
    "urgency": URGENCY,
    "trust": TRUST,
}
HEAD_WEIGHT = {"family": 0.5, "emotion": 1.0, "politeness": 1.0, "urgency": 1.0, "trust": 1.0}


@dataclass
class TrainConfig:
    hidden: int = 256
    epochs: int = 25
    batch: int = 256
    lr: float = 2e-3
    weight_decay: float = 1e-4
    input_dropout: float = 0.2
    hidden_dropout: float = 0.2
    seed: int = 0


def labels_of(conditions) -> dict[str, np.ndarray]:
    idx = {h: {v: i for i, v in enumerate(vals)} for h, vals in HEADS.items()}
    out = {h: np.empty(len(conditions), dtype=np.int64) for h in HEADS}
    for j, c in enumerate(conditions):
        out["family"][j] = idx["family"][FAMILY_OF[c.emotion]]
        out["emotion"][j] = idx["emotion"][c.emotion]
        out["politeness"][j] = idx["politeness"][c.politeness]
        out["urgency"][j] = idx["urgency"][c.urgency]
        out["trust"][j] = idx["trust"][c.trust]
    return out


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@dataclass
class MultiHead:
    W1: np.ndarray
    b1: np.ndarray
    heads: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)

    # ------------------------------------------------------------------ inference
    def project(self, x: np.ndarray) -> np.ndarray:
        """The learned space (hidden layer), L2-normalised."""
        h = np.tanh(x @ self.W1 + self.b1)
        return h / np.maximum(np.linalg.norm(h, axis=1, keepdims=True), 1e-12)

    def hidden(self, x: np.ndarray) -> np.ndarray:
        return np.tanh(x @ self.W1 + self.b1)

    def predict_proba(self, x: np.ndarray, h: np.ndarray | None = None) -> dict[str, np.ndarray]:
        h = self.hidden(x) if h is None else h
        return {name: _softmax(h @ W + b) for name, (W, b) in self.heads.items()}

    # ------------------------------------------------------------------ persistence
    def to_arrays(self) -> dict[str, np.ndarray]:
        d = {"W1": self.W1, "b1": self.b1}
        for name, (W, b) in self.heads.items():
            d[f"{name}.W"] = W
            d[f"{name}.b"] = b
        return d

    @classmethod
    def from_arrays(cls, d) -> "MultiHead":
        names = [k[:-2] for k in d.keys() if k.endswith(".W")] if hasattr(d, "keys") else list(HEADS)
        heads = {name: (np.asarray(d[f"{name}.W"], np.float32), np.asarray(d[f"{name}.b"], np.float32))
                 for name in names}
        return cls(np.asarray(d["W1"], np.float32), np.asarray(d["b1"], np.float32), heads)

    # ------------------------------------------------------------------ training
    @classmethod
    def train(cls, x: np.ndarray, y: dict[str, np.ndarray], cfg: TrainConfig = TrainConfig(),
              sample_weight: np.ndarray | None = None, heads: dict[str, tuple[str, ...]] | None = None,
              head_weight: dict[str, float] | None = None) -> "MultiHead":
        heads = heads or HEADS
        head_weight = head_weight or {h: HEAD_WEIGHT.get(h, 1.0) for h in heads}
        rng = np.random.default_rng(cfg.seed)
        x = np.ascontiguousarray(x, dtype=np.float32)
        n, d = x.shape
        H = cfg.hidden
        params = {"W1": rng.normal(0, 1 / np.sqrt(d), (d, H)).astype(np.float32),
                  "b1": np.zeros(H, np.float32)}
        for name, vals in heads.items():
            params[f"{name}.W"] = rng.normal(0, 1 / np.sqrt(H), (H, len(vals))).astype(np.float32)
            params[f"{name}.b"] = np.zeros(len(vals), np.float32)
        m = {k: np.zeros_like(v) for k, v in params.items()}
        v = {k: np.zeros_like(v) for k, v in params.items()}
        sw = np.ones(n, np.float32) if sample_weight is None else sample_weight.astype(np.float32)
        step = 0
        b1_, b2_, eps = 0.9, 0.999, 1e-8
        for epoch in range(cfg.epochs):
            order = rng.permutation(n)
            lr = np.float32(cfg.lr * 0.5 * (1 + np.cos(np.pi * epoch / cfg.epochs)))  # cosine schedule
            for s in range(0, n, cfg.batch):
                bi = order[s: s + cfg.batch]
                xb = x[bi]
                wb = sw[bi] / sw[bi].sum()
                if cfg.input_dropout:
                    keep = rng.random(xb.shape, dtype=np.float32) >= cfg.input_dropout
                    xb = xb * (keep * np.float32(1 / (1 - cfg.input_dropout)))
                a = xb @ params["W1"] + params["b1"]
                h = np.tanh(a)
                if cfg.hidden_dropout:
                    hk = (rng.random(h.shape, dtype=np.float32) >= cfg.hidden_dropout) * np.float32(1 / (1 - cfg.hidden_dropout))
                    hd = h * hk
                else:
                    hk, hd = 1.0, h
                grads = {}
                dh = np.zeros_like(h)
                for name in heads:
                    W, b = params[f"{name}.W"], params[f"{name}.b"]
                    p = _softmax(hd @ W + b)
                    p[np.arange(len(bi)), y[name][bi]] -= 1.0
                    g = p * (wb[:, None] * head_weight[name])
                    grads[f"{name}.W"] = hd.T @ g + cfg.weight_decay * W
                    grads[f"{name}.b"] = g.sum(0)
                    dh += g @ W.T
                da = dh * hk * (1 - h * h)
                grads["W1"] = xb.T @ da + cfg.weight_decay * params["W1"]
                grads["b1"] = da.sum(0)
                step += 1
                for k in params:
                    g = grads[k].astype(np.float32, copy=False)
                    m[k] = np.float32(b1_) * m[k] + np.float32(1 - b1_) * g
                    v[k] = np.float32(b2_) * v[k] + np.float32(1 - b2_) * (g * g)
                    c1 = np.float32(1 / (1 - b1_ ** step))
                    c2 = np.float32(1 / (1 - b2_ ** step))
                    params[k] -= lr * (m[k] * c1) / (np.sqrt(v[k] * c2) + np.float32(eps))
        return cls.from_arrays(params)
