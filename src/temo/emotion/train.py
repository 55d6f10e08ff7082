"""Train the mapper's heads for the default static encoder and write the shipped weights.

    python -m temo.emotion.train            # writes src/temo/emotion/data/model_static.npz

Deterministic from the seed (numpy, single process). Prints the time it took.
"""
from __future__ import annotations

import argparse
import time

from .encoder import get_encoder
from .mapper import SHIPPED_MODEL, TRAIN_SEED, save_model, train


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=TRAIN_SEED)
    ap.add_argument("--encoder", default="static")
    ap.add_argument("--out", default=str(SHIPPED_MODEL))
    args = ap.parse_args()
    t0 = time.perf_counter()
    enc = get_encoder(args.encoder)
    model, meta = train(enc, seed=args.seed)
    meta["total_seconds"] = round(time.perf_counter() - t0, 2)
    save_model(model, meta, __import__("pathlib").Path(args.out))
    print(f"trained on {meta['n_train']} texts + {meta['n_clauses']} clauses: encode {meta['encode_seconds']} s, "
          f"fit {meta['fit_seconds']} s, total {meta['total_seconds']} s -> {args.out}")


if __name__ == "__main__":
    main()
