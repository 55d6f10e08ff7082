"""Train the mapper's heads for the default static encoder and write the shipped weights.

    python -m temo.emotion.train                    # writes src/temo/emotion/data/model_static.npz
    python -m temo.emotion.train --out /tmp/m.npz   # somewhere else (e.g. to compare two retrains)

Deterministic from the seed: numpy only, one process, and the BLAS pinned to ONE thread (set
below, before numpy is first imported). With one thread OpenBLAS sums in a fixed order, so two
retrains on the same machine and numpy build give identical arrays (np.array_equal); with the
default thread count they differed by about 1e-6 and training was 5x slower on 2 cores because
the threads fought over them. Prints the time it took.
"""
from __future__ import annotations

import os
import sys

_NUMPY_FIRST = "numpy" in sys.modules  # then its BLAS has already read its thread count
BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
for _v in BLAS_THREAD_VARS:  # must run before numpy is imported (temo.emotion itself does not import it)
    os.environ[_v] = "1"

import argparse  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402


def pin_loaded_blas(threads: int = 1) -> bool:
    """Set the thread count of an OpenBLAS that numpy has already loaded (Linux; numpy's wheels name
    its setter ``scipy_openblas_set_num_threads64_``). True if one was found and set."""
    import ctypes

    try:
        with open("/proc/self/maps", encoding="utf-8") as f:
            libs = sorted({line.split()[-1] for line in f if "openblas" in line.lower() and "/" in line})
    except OSError:
        return False
    done = False
    for path in libs:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for name in ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
                     "openblas_set_num_threads64_", "openblas_set_num_threads"):
            fn = getattr(lib, name, None)
            if fn is not None:
                fn(ctypes.c_int(threads))
                done = True
                break
    return done


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=None, help="training seed (default: the shipped one, 0)")
    ap.add_argument("--encoder", default="static")
    ap.add_argument("--out", type=Path, default=None, help="where to write the weights (default: the shipped file)")
    args = ap.parse_args(argv)
    if _NUMPY_FIRST and not pin_loaded_blas(1):
        print("warning: numpy was imported before temo.emotion.train; the BLAS may not be pinned to one "
              "thread, so the weights may differ from a fresh `python -m temo.emotion.train` in the last bits",
              file=sys.stderr)
    from .encoder import get_encoder
    from .mapper import SHIPPED_MODEL, TRAIN_SEED, save_model, train

    seed = TRAIN_SEED if args.seed is None else args.seed
    out = args.out or SHIPPED_MODEL
    if out.is_dir():
        print(f"error: --out {out}: is a directory", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    enc = get_encoder(args.encoder)
    model, meta = train(enc, seed=seed)
    meta["total_seconds"] = round(time.perf_counter() - t0, 2)
    save_model(model, meta, out)
    print(f"trained on {meta['n_train']} texts + {meta['n_clauses']} clauses: encode {meta['encode_seconds']} s, "
          f"fit {meta['fit_seconds']} s, total {meta['total_seconds']} s -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
