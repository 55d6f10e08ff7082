"""Map a free-form feeling to one of the 594 conditions and one of its anchor instructions.

1. encode the text (``encoder``), 2. project it into the classifier's learned space,
3. score every condition by the heads' probabilities (fine emotion x politeness x urgency x
trust) combined with similarity-weighted votes of the k nearest anchors in that space,
4. pick the best condition, 5. draw one of its 10 anchors with ``Random(f"{seed}:{text}")``
(so a text maps the same way alone or in a batch, whatever the order).

Trained weights for the default (static) encoder ship as ``data/model_static.npz``; for any
other encoder the heads are trained on first use (seconds to a minute) and cached under
``$TEMO_CACHE_DIR`` (default ``~/.cache/temo``)/emotion, together with the anchor embeddings.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
from pydantic import BaseModel

from temo.core import EmotionCondition
from temo.core.taxonomy import EMOTIONS, FAMILIES, FAMILY_OF, POLITENESS, TRUST, URGENCY

from . import anchors as anchors_mod
from . import segments, synth, tokenweights
from .classifier import MultiHead, TrainConfig, labels_of
from .encoder import Encoder, get_encoder
from .labelled import load_labelled

DATA_DIR = Path(__file__).resolve().parent / "data"
SHIPPED_MODEL = DATA_DIR / "model_static.npz"
TRAIN_SEED = 0
SYNTH_PER_CONDITION = 50
# Hand-written third-person feelings (``data/feelings_train.jsonl``: 3,787 by twelve authors, none of
# whom wrote an evaluation set). Few next to the 35,640 anchors and synthetic feelings, so each
# counts this many times in the loss (chosen by leave-one-author-out: ``evaluate --cross-author``).
WRITTEN_FILE = DATA_DIR / "feelings_train.jsonl"
WRITTEN_WEIGHT = 64.0
# Short blunt statements ("I'm livid.", "The caller is relieved."; ``blunt.py``): without them a bare
# "I am furious" mapped to disgust. Each counts this many times (about 4 % of the total weight).
BLUNT_FILE = DATA_DIR / "blunt_train.jsonl"
BLUNT_WEIGHT = 64.0
TOKEN_WEIGHTING = True  # static encoder: weighted token mean (``tokenweights``), fitted at training time


def cache_dir() -> Path:
    root = Path(os.environ.get("TEMO_CACHE_DIR", Path.home() / ".cache" / "temo"))
    return root / "emotion"


class Mapping(BaseModel):
    family: str
    emotion: str
    politeness: str
    urgency: str
    trust: str
    condition_id: str
    instruction: str
    confidence: float

    @property
    def condition(self) -> EmotionCondition:
        return EmotionCondition.parse(self.condition_id)


@dataclass
class MapConfig:
    k: int = 40              # nearest anchors that vote
    temperature: float = 0.05  # similarity -> vote weight: exp(sim / T)
    knn_weight: float = 0.5  # exponent of the kNN vote in the combined score
    head_weight: float = 1.0  # exponent of the heads' joint probability
    smoothing: float = 0.02  # added to every condition's vote share
    clause_weight: float = 1.0  # exponent of the clause-level dimension evidence
    text_dim_weight: float = 1.0  # exponent of the whole-text dimension heads
    # exponents of the clause-level emotion evidence and of the whole-text emotion head. The clause
    # one was fitted on synthetic held-out wording (``python -m temo.emotion.calibrate``); the
    # whole-text ones were raised from 0.5 to 1.0 once the heads also learned from hand-written
    # feelings, chosen by leave-one-author-out accuracy (``evaluate --cross-author``)
    clause_emotion_weight: float = 0.8
    text_emotion_weight: float = 1.0
    family_first: bool = False  # decide the family first (measured: hurts held-out anchors, see docs)


@dataclass
class Model:
    """The trained parts: whole-text heads (main) and the clause-level dimension model (seg)."""
    main: MultiHead
    seg: MultiHead | None = None
    token_weights: np.ndarray | None = None  # static encoder only: one weight per vocabulary entry

    def to_arrays(self) -> dict[str, np.ndarray]:
        d = {f"main/{k}": v for k, v in self.main.to_arrays().items()}
        if self.seg is not None:
            d.update({f"seg/{k}": v for k, v in self.seg.to_arrays().items()})
        if self.token_weights is not None:
            d["token_weights"] = self.token_weights
        return d

    @classmethod
    def from_arrays(cls, d) -> "Model":
        def part(prefix):
            sub = {k[len(prefix):]: d[k] for k in d.keys() if k.startswith(prefix)}
            return MultiHead.from_arrays(sub) if sub else None
        tw = np.asarray(d["token_weights"], np.float32) if "token_weights" in d.keys() else None
        return cls(part("main/"), part("seg/"), tw)

    def encode(self, encoder: Encoder, texts: Sequence[str]) -> np.ndarray:
        if self.token_weights is not None:
            return encoder.encode(texts, token_weights=self.token_weights)
        return encoder.encode(texts)


# ---------------------------------------------------------------------------------- training
def load_written(path: Path | None = None, authors: frozenset[str] | None = None) -> list[tuple[str, EmotionCondition]]:
    """The hand-written training feelings (optionally only some authors), as (text, condition)."""
    path = path or WRITTEN_FILE
    if not path.exists():
        return []
    return [(d["text"], EmotionCondition(emotion=d["emotion"], politeness=d["politeness"],
                                         urgency=d["urgency"], trust=d["trust"]))
            for d in load_labelled(path) if authors is None or d.get("author") in authors]


def training_corpus(seed: int = TRAIN_SEED, n_synth: int | None = None, anchor_filter=None,
                    written_authors: frozenset[str] | None = None,
                    ) -> tuple[list[str], list[EmotionCondition], np.ndarray]:
    """Anchors + synthetic and hand-written third-person feelings, their conditions, sample weights."""
    texts: list[str] = []
    conds: list[EmotionCondition] = []
    weights: list[float] = []
    for a in anchors_mod.load_anchors():
        if anchor_filter is None or anchor_filter(a):
            texts.append(a.text)
            conds.append(a.condition)
            weights.append(1.0)
    for f in synth.generate(n_per_condition=n_synth or SYNTH_PER_CONDITION, seed=seed + 7):
        texts.append(f.text)
        conds.append(f.condition)
        weights.append(1.0)
    for text, cond in load_written(authors=written_authors):
        texts.append(text)
        conds.append(cond)
        weights.append(WRITTEN_WEIGHT)
    for text, cond in load_written(BLUNT_FILE) if BLUNT_WEIGHT else ():
        texts.append(text)
        conds.append(cond)
        weights.append(BLUNT_WEIGHT)
    return texts, conds, np.asarray(weights, np.float32)


SEG_CONFIG = TrainConfig(hidden=128, epochs=40, batch=128, input_dropout=0.1, hidden_dropout=0.1)


def train(encoder: Encoder, seed: int = TRAIN_SEED, cfg: TrainConfig | None = None,
          anchor_filter=None, x: np.ndarray | None = None,
          exclude: frozenset[str] = frozenset(),
          written_authors: frozenset[str] | None = None) -> tuple[Model, dict]:
    """Train both parts. ``anchor_filter``/``exclude`` hold anchors / phrasings out and
    ``written_authors`` keeps only some authors of the hand-written feelings (evaluation)."""
    t0 = time.perf_counter()
    texts, conds, w = training_corpus(seed, anchor_filter=anchor_filter, written_authors=written_authors)
    seg_texts, seg_labels = segments.examples(seed, exclude=exclude)
    tw = None
    if TOKEN_WEIGHTING and hasattr(encoder, "token_ids"):
        tw = tokenweights.fit(encoder, texts, conds)
    enc = Model(None, None, tw)  # only its encode()
    if x is None:
        x = enc.encode(encoder, texts)
    xs = enc.encode(encoder, seg_texts)
    t1 = time.perf_counter()
    cfg = cfg or TrainConfig(seed=seed)
    main = MultiHead.train(x, labels_of(conds), cfg, sample_weight=w)
    seg_idx = {d: np.array([segments.SEG_HEADS[d].index(v) for v in vals]) for d, vals in seg_labels.items()}
    seg = MultiHead.train(xs, seg_idx, TrainConfig(**{**SEG_CONFIG.__dict__, "seed": seed}),
                          heads=segments.SEG_HEADS)
    t2 = time.perf_counter()
    meta = {"encoder": encoder.name, "anchors": anchors_hash(), "written": written_hash(), "n_train": len(texts),
            "n_clauses": len(seg_texts), "encode_seconds": round(t1 - t0, 2),
            "fit_seconds": round(t2 - t1, 2), "seed": seed, "config": cfg.__dict__}
    return Model(main, seg, tw), meta


def anchors_hash() -> str:
    return hashlib.sha1(anchors_mod.ANCHORS_FILE.read_bytes()).hexdigest()[:12]


def written_hash() -> str:
    """Hash of the hand-written training feelings and the blunt statements (in that order)."""
    h = hashlib.sha1()
    for f in (WRITTEN_FILE, BLUNT_FILE):
        h.update(f.read_bytes() if f.exists() else b"none")
    return h.hexdigest()[:12]


def save_model(model: Model, meta: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {k: v.astype(np.float32) for k, v in model.to_arrays().items()}
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8), **arrays)
    os.replace(tmp, path)


def load_model(path: Path) -> tuple[Model, dict]:
    d = np.load(path)
    meta = json.loads(bytes(d["meta"]).decode())
    return Model.from_arrays(d), meta


# ---------------------------------------------------------------------------------- mapping
class Mapper:
    def __init__(self, encoder: Encoder, model: Model, config: MapConfig | None = None,
                 anchor_vectors: np.ndarray | None = None):
        self.encoder = encoder
        self.model = model
        self.config = config or MapConfig()
        self.anchors = anchors_mod.load_anchors()
        self.condition_ids = [c.id for c in EmotionCondition.all()]
        cid_index = {c: i for i, c in enumerate(self.condition_ids)}
        self.anchor_cond = np.array([cid_index[a.condition_id] for a in self.anchors])
        self.anchor_texts = anchors_mod._by_condition()
        if anchor_vectors is None:
            anchor_vectors = cached_anchor_vectors(encoder, model.token_weights)
        self.anchor_space = model.main.project(anchor_vectors)
        # index of each condition's labels in the heads' output order
        conds = EmotionCondition.all()
        self._e = np.array([EMOTIONS.index(c.emotion) for c in conds])
        self._f = np.array([list(FAMILIES).index(c.family) for c in conds])
        self._p = np.array([POLITENESS.index(c.politeness) for c in conds])
        self._u = np.array([URGENCY.index(c.urgency) for c in conds])
        self._t = np.array([TRUST.index(c.trust) for c in conds])

    def clause_evidence(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """Pooled clause-level distributions per text (dimensions and emotion, without 'none')."""
        segs, owner = [], []
        for i, t in enumerate(texts):
            for sgm in segments.split(t):
                segs.append(sgm)
                owner.append(i)
        sp = self.model.seg.predict_proba(self.model.encode(self.encoder, segs))
        return segments.pool(sp, np.asarray(owner), len(texts))

    def dimension_probs(self, texts: Sequence[str], probs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Combine whole-text heads with clause-level evidence."""
        if self.model.seg is None or not self.config.clause_weight:
            return probs
        pooled = self.clause_evidence(texts)
        out = dict(probs)
        for d in pooled:
            if d == "emotion":
                a, b = self.config.text_emotion_weight, self.config.clause_emotion_weight
            else:
                a, b = self.config.text_dim_weight, self.config.clause_weight
            logp = a * np.log(probs[d] + 1e-9) + b * np.log(pooled[d] + 1e-9)
            p = np.exp(logp - logp.max(axis=1, keepdims=True))
            out[d] = p / p.sum(axis=1, keepdims=True)
        return out

    def condition_scores(self, x: np.ndarray, texts: Sequence[str] | None = None) -> np.ndarray:
        """Posterior over the 594 conditions for each encoded text (rows sum to 1)."""
        cfg = self.config
        h = self.model.main.hidden(x)
        probs = self.model.main.predict_proba(x, h)
        if texts is not None:
            probs = self.dimension_probs(texts, probs)
        z = h / np.maximum(np.linalg.norm(h, axis=1, keepdims=True), 1e-12)
        log_heads = (np.log(probs["emotion"][:, self._e] + 1e-9) + np.log(probs["politeness"][:, self._p] + 1e-9)
                     + np.log(probs["urgency"][:, self._u] + 1e-9) + np.log(probs["trust"][:, self._t] + 1e-9))
        sims = z @ self.anchor_space.T  # (n, 5940)
        k = min(cfg.k, sims.shape[1])
        top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        n = len(x)
        votes = np.zeros((n, len(self.condition_ids)), np.float64)
        rows = np.repeat(np.arange(n), k)
        ts = sims[np.arange(n)[:, None], top]
        wts = np.exp((ts - ts.max(axis=1, keepdims=True)) / cfg.temperature)
        np.add.at(votes, (rows, self.anchor_cond[top].ravel()), wts.ravel())
        votes /= votes.sum(axis=1, keepdims=True)
        score = cfg.head_weight * log_heads + cfg.knn_weight * np.log(votes + cfg.smoothing)
        if cfg.family_first:
            fam_mass = np.stack([probs["emotion"][:, [EMOTIONS.index(e) for e in es]].sum(1)
                                 for es in FAMILIES.values()], axis=1)
            fam = np.log(fam_mass + 1e-9) + 0.5 * np.log(probs["family"] + 1e-9)
            best_fam = fam.argmax(axis=1)
            score = np.where(self._f[None, :] == best_fam[:, None], score, score - 50.0)
        score -= score.max(axis=1, keepdims=True)
        post = np.exp(score)
        return post / post.sum(axis=1, keepdims=True)

    def map_many(self, texts: Sequence[str], seed: int = 0, batch_size: int = 512) -> list[Mapping]:
        texts = list(texts)
        for i, t in enumerate(texts):
            if not isinstance(t, str) or not t.strip():
                raise ValueError(f"feeling #{i + 1} is empty")
        out: list[Mapping] = []
        for s in range(0, len(texts), batch_size):
            chunk = texts[s: s + batch_size]
            post = self.condition_scores(self.model.encode(self.encoder, chunk), chunk)
            best = post.argmax(axis=1)
            for text, j, p in zip(chunk, best, post):
                out.append(self._mapping(text, int(j), float(p[j]), seed))
        return out

    def map(self, text: str, seed: int = 0) -> Mapping:
        return self.map_many([text], seed)[0]

    def _mapping(self, text: str, j: int, conf: float, seed: int) -> Mapping:
        cid = self.condition_ids[j]
        e, p, u, t = cid.split(".")
        choices = self.anchor_texts[cid]
        instruction = choices[random.Random(f"{seed}:{text}").randrange(len(choices))]
        return Mapping(family=FAMILY_OF[e], emotion=e, politeness=p, urgency=u, trust=t,
                       condition_id=cid, instruction=instruction, confidence=round(conf, 4))


def cached_anchor_vectors(encoder: Encoder, token_weights: np.ndarray | None = None) -> np.ndarray:
    tw = "" if token_weights is None else hashlib.sha1(np.ascontiguousarray(token_weights).tobytes()).hexdigest()[:12]
    key = hashlib.sha1(f"{encoder.name}|{anchors_hash()}|{tw}".encode()).hexdigest()[:16]
    path = cache_dir() / f"anchors-{key}.npy"
    if path.exists():
        try:
            return np.load(path)
        except (OSError, ValueError):
            pass
    texts = [a.text for a in anchors_mod.load_anchors()]
    vecs = (encoder.encode(texts) if token_weights is None else
            encoder.encode(texts, token_weights=token_weights)).astype(np.float32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            np.save(f, vecs)
        os.replace(tmp, path)
    except OSError:  # read-only home: fine, just slower next time
        pass
    return vecs


def load_or_train(encoder: Encoder) -> Model:
    """Shipped weights if they fit this encoder and these anchors; else cached; else train+cache."""
    want = {"encoder": encoder.name, "anchors": anchors_hash(), "written": written_hash()}
    if SHIPPED_MODEL.exists():
        model, meta = load_model(SHIPPED_MODEL)
        if all(meta.get(k) == v for k, v in want.items()):
            return model
    key = hashlib.sha1("|".join(want.values()).encode()).hexdigest()[:16]
    path = cache_dir() / f"model-{key}.npz"
    if path.exists():
        model, _ = load_model(path)
        return model
    model, meta = train(encoder)
    try:
        save_model(model, meta, path)
    except OSError:
        pass
    return model


_LOCK = threading.Lock()
_MAPPERS: dict[str, Mapper] = {}


def get_mapper(encoder: str | Encoder | None = None) -> Mapper:
    """A cached Mapper for the encoder (default: $TEMO_EMOTION_ENCODER or 'static')."""
    key = encoder if isinstance(encoder, str) else (encoder.name if encoder is not None else
                                                   os.environ.get("TEMO_EMOTION_ENCODER", "static"))
    with _LOCK:
        if key not in _MAPPERS:
            enc = encoder if (encoder is not None and not isinstance(encoder, str)) else get_encoder(key)
            _MAPPERS[key] = Mapper(enc, load_or_train(enc))
        return _MAPPERS[key]


def map_feeling(text: str, seed: int = 0) -> Mapping:
    return get_mapper().map(text, seed)


def map_feelings(texts: Sequence[str], seed: int = 0) -> list[Mapping]:
    return get_mapper().map_many(texts, seed)
