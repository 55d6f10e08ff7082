"""Near-duplicates across the train / evaluation split, by one stated measure.

Measure: cosine similarity of TF-IDF vectors over lower-cased words (runs of two or more letters or
digits, as in scikit-learn's default token pattern; unigrams only), raw term counts, smoothed
idf = ln((1 + n) / (1 + df)) + 1 fitted on the EVALUATION side only (the 330 blind feelings; a word
they never use gets df = 0), vectors L2-normalised. Fitting the idf on one fixed side makes the
cosine of a pair independent of what else is in the training data, so removing neighbours once
leaves none behind and adding training text cannot create new ones elsewhere. Two
texts with cosine >= NEAR_DUP_THRESHOLD (0.3) count as near-duplicates: at that level pairs share a
scenario and much of its wording (the crowded-mall, meal-kit maggots, bank-app, voicemail pairs);
below about 0.25 they share only the usual "the customer is likely ..." scaffolding. Unigrams are
the stricter choice: adding word bigrams spreads the weight over pairs a paraphrase rarely keeps, and
at 0.3 it flagged only 5 of the 330 blind items where unigrams flagged 116.

    python -m temo.emotion.neardup            # blind-set items with a training neighbour >= 0.3
    python -m temo.emotion.neardup --write    # drop those training feelings from feelings_train.jsonl

Pure Python (no scikit-learn): sparse dicts and an inverted index; about a second for 4k x 330.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Sequence

from .labelled import jsonl_rows

NEAR_DUP_THRESHOLD = 0.3
_WORD = re.compile(r"(?u)\b\w\w+\b")
DATA_DIR = Path(__file__).resolve().parent / "data"
BLIND_SETS = ("blind_a", "blind_b", "blind_c")


def grams(text: str) -> Counter:
    return Counter(_WORD.findall(text.lower()))


def tfidf(docs: Sequence[str], idf_docs: Sequence[str] | None = None) -> list[dict[str, float]]:
    """L2-normalised TF-IDF vectors of ``docs``, the idf fitted on ``idf_docs`` (default: docs)."""
    counts = [grams(t) for t in docs]
    fit = counts if idf_docs is None else [grams(t) for t in idf_docs]
    df = Counter(g for c in fit for g in c)
    n = len(fit)
    unseen = math.log(1 + n) + 1.0
    idf = {g: math.log((1 + n) / (1 + k)) + 1.0 for g, k in df.items()}
    vecs = []
    for c in counts:
        v = {g: k * idf.get(g, unseen) for g, k in c.items()}
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        vecs.append({g: x / norm for g, x in v.items()})
    return vecs


def nearest(queries: Sequence[str], pool: Sequence[str]) -> list[tuple[int, float]]:
    """For each query, (index into pool, cosine) of its nearest pool text (idf on the queries)."""
    vecs = tfidf(list(queries) + list(pool), idf_docs=list(queries))
    qv, pv = vecs[: len(queries)], vecs[len(queries):]
    index: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for j, v in enumerate(pv):
        for g, x in v.items():
            index[g].append((j, x))
    out = []
    for v in qv:
        acc: dict[int, float] = defaultdict(float)
        for g, x in v.items():
            for j, y in index.get(g, ()):
                acc[j] += x * y
        j, s = max(acc.items(), key=lambda kv: kv[1]) if acc else (-1, 0.0)
        out.append((j, s))
    return out


def read_jsonl(path: Path) -> list[dict]:
    return [d for _, d in jsonl_rows(path, f"{path.name} ")]


def training_neighbours(train_rows: list[dict], eval_rows: list[dict], threshold: float = NEAR_DUP_THRESHOLD
                        ) -> list[tuple[int, int, float]]:
    """Every (eval index, train index, cosine) with cosine >= threshold, all training neighbours
    of each eval item (not only the nearest), so removing them leaves none behind."""
    vecs = tfidf([r["text"] for r in eval_rows] + [r["text"] for r in train_rows],
                 idf_docs=[r["text"] for r in eval_rows])
    ev, tv = vecs[: len(eval_rows)], vecs[len(eval_rows):]
    index: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for i, v in enumerate(ev):
        for g, x in v.items():
            index[g].append((i, x))
    hits = []
    for j, v in enumerate(tv):
        acc: dict[int, float] = defaultdict(float)
        for g, x in v.items():
            for i, y in index.get(g, ()):
                acc[i] += x * y
        hits.extend((i, j, s) for i, s in acc.items() if s >= threshold)
    return sorted(hits)


def blind_rows() -> list[dict]:
    rows = []
    for name in BLIND_SETS:
        for k, r in enumerate(read_jsonl(DATA_DIR / "eval" / f"{name}.jsonl")):
            rows.append({**r, "id": f"{name}:{k}"})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threshold", type=float, default=NEAR_DUP_THRESHOLD)
    ap.add_argument("--train", type=Path, default=DATA_DIR / "feelings_train.jsonl")
    ap.add_argument("--write", action="store_true", help="remove the training feelings that are near-duplicates")
    ap.add_argument("--show", type=int, default=0, help="print this many pairs")
    args = ap.parse_args(argv)
    if not 0 < args.threshold <= 1:
        print(f"error: --threshold must be in (0, 1], not {args.threshold}", file=sys.stderr)
        return 2
    train_rows, ev = read_jsonl(args.train), blind_rows()
    hits = training_neighbours(train_rows, ev, args.threshold)
    items, drop = {i for i, _, _ in hits}, {j for _, j, _ in hits}
    print(f"{len(items)} of {len(ev)} blind items have a training neighbour at TF-IDF cosine >= {args.threshold}; "
          f"{len(drop)} of {len(train_rows)} training feelings are such neighbours")
    for i, j, s in sorted(hits, key=lambda h: -h[2])[: args.show]:
        print(f"{s:.2f}  {ev[i]['id']}: {ev[i]['text'][:90]}\n      train {j}: {train_rows[j]['text'][:90]}")
    if args.write and drop:
        keep = [r for j, r in enumerate(train_rows) if j not in drop]
        args.train.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in keep), encoding="utf-8")
        print(f"wrote {len(keep)} training feelings to {args.train}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
