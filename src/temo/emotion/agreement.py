"""Labeller agreement on 150 blind feelings: how far the labels themselves can be trusted.

Three labellers (helpers of this project, each working alone from ``data/eval/agreement/BRIEF.md``
and the texts only) labelled the same 150 feelings sampled from the blind sets. For each dimension
(family, emotion, politeness, urgency, trust) this reports: pairwise agreement and Fleiss' kappa
among the three, each labeller against the writers' labels (the labels the text was written for),
the majority label (two or three of three agree; the rest have no majority) and the model against
the majority and against the writers.

    python -m temo.emotion.evaluate --set agreement          # or: python -m temo.emotion.agreement
    python -m temo.emotion.agreement --json

Files (``data/eval/agreement/``): feelings_150.jsonl (id, text; the id is ``blind_x:N``, line N
counted from 1), writer_labels_150.jsonl, labels_1.jsonl .. labels_3.jsonl (id + five labels).
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import Counter
from pathlib import Path

from temo.core.taxonomy import DIMENSIONS, FAMILIES, FAMILY_OF

from .labelled import FIELDS

AGREEMENT_DIR = Path(__file__).resolve().parent / "data" / "eval" / "agreement"
LABELLER_FILES = ("labels_1.jsonl", "labels_2.jsonl", "labels_3.jsonl")
CATEGORIES = {"family": tuple(FAMILIES), "emotion": tuple(FAMILY_OF), **{d: tuple(v) for d, v in DIMENSIONS.items()}}


def _read(path: Path, ids: list[str] | None = None) -> list[dict]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path.name} line {n}: not valid JSON ({e.msg})") from None
        if ids is not None:
            for f in FIELDS:
                if d.get(f) not in CATEGORIES[f]:
                    raise ValueError(f"{path.name} line {n}: {f} must be one of {', '.join(CATEGORIES[f])}, "
                                     f"not {d.get(f)!r}")
        rows.append(d)
    if ids is not None and [r.get("id") for r in rows] != ids:
        raise ValueError(f"{path.name}: ids do not match feelings_150.jsonl line for line")
    return rows


def load(directory: Path = AGREEMENT_DIR) -> tuple[list[dict], list[dict], list[list[dict]]]:
    """(feelings, writer labels, [labeller labels ...]) for the labeller files that exist."""
    feelings = _read(directory / "feelings_150.jsonl")
    ids = [r["id"] for r in feelings]
    writer = _read(directory / "writer_labels_150.jsonl", ids)
    labellers = [_read(directory / f, ids) for f in LABELLER_FILES if (directory / f).exists()]
    if len(labellers) < 2:
        raise ValueError(f"{directory}: need at least two labeller files ({', '.join(LABELLER_FILES)})")
    return feelings, writer, labellers


def fleiss_kappa(labels: list[list[str]], categories: tuple[str, ...]) -> float:
    """Fleiss' kappa for items x raters (every item rated by the same number of raters)."""
    n_items, n_raters = len(labels), len(labels[0])
    counts = [[row.count(c) for c in categories] for row in labels]
    p_j = [sum(r[j] for r in counts) / (n_items * n_raters) for j in range(len(categories))]
    p_i = [(sum(x * x for x in r) - n_raters) / (n_raters * (n_raters - 1)) for r in counts]
    p_bar, p_e = sum(p_i) / n_items, sum(p * p for p in p_j)
    return 1.0 if p_e == 1 else (p_bar - p_e) / (1 - p_e)


def majority(votes: list[str]) -> str | None:
    label, k = Counter(votes).most_common(1)[0]
    return label if k * 2 > len(votes) else None


def report(model_labels: list[dict] | None = None, directory: Path = AGREEMENT_DIR) -> dict:
    feelings, writer, labellers = load(directory)
    n = len(feelings)
    out: dict = {"n": n, "labellers": len(labellers), "dimensions": {}}
    for f in FIELDS:
        votes = [[lab[i][f] for lab in labellers] for i in range(n)]
        pairs = list(itertools.combinations(range(len(labellers)), 2))
        pair = {f"{a + 1}-{b + 1}": sum(v[a] == v[b] for v in votes) / n for a, b in pairs}
        maj = [majority(v) for v in votes]
        has = [i for i in range(n) if maj[i] is not None]
        d = {
            "pairwise": pair,
            "pairwise_mean": sum(pair.values()) / len(pair),
            "fleiss_kappa": fleiss_kappa(votes, CATEGORIES[f]),
            "vs_writer": {str(k + 1): sum(lab[i][f] == writer[i][f] for i in range(n)) / n
                          for k, lab in enumerate(labellers)},
            "no_majority": n - len(has),
            "majority_vs_writer": sum(maj[i] == writer[i][f] for i in has) / len(has),
            "majority_counts": dict(Counter(maj[i] for i in has).most_common()),
            "writer_counts": dict(Counter(w[f] for w in writer).most_common()),
        }
        if model_labels is not None:
            d["model_vs_majority"] = sum(model_labels[i][f] == maj[i] for i in has) / len(has)
            d["model_vs_writer"] = sum(model_labels[i][f] == writer[i][f] for i in range(n)) / n
        out["dimensions"][f] = d
    return out


def model_labels(mapper=None, directory: Path = AGREEMENT_DIR) -> list[dict]:
    from .mapper import get_mapper

    feelings = _read(directory / "feelings_150.jsonl")
    preds = (mapper or get_mapper()).map_many([r["text"] for r in feelings])
    return [{f: getattr(p, f) for f in FIELDS} for p in preds]


def format_report(r: dict) -> str:
    k = r["labellers"]
    lines = [f"agreement set (n={r['n']}, {k} labellers):",
             f"{'dimension':<11} {'pairwise':>8} {'kappa':>6}  " + "  ".join(f"L{i + 1}~writer" for i in range(k))
             + f"  {'no maj.':>7}  maj~writer" + ("  model~maj  model~writer" if "model_vs_majority" in
                                                 r["dimensions"]["family"] else "")]
    for f, d in r["dimensions"].items():
        row = (f"{f:<11} {d['pairwise_mean']:>8.3f} {d['fleiss_kappa']:>6.3f}  "
               + "  ".join(f"{d['vs_writer'][str(i + 1)]:>9.3f}" for i in range(k))
               + f"  {d['no_majority']:>7}  {d['majority_vs_writer']:>10.3f}")
        if "model_vs_majority" in d:
            row += f"  {d['model_vs_majority']:>9.3f}  {d['model_vs_writer']:>12.3f}"
        lines.append(row)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", type=Path, default=AGREEMENT_DIR, help="folder with the five files")
    ap.add_argument("--no-model", action="store_true", help="labels only; do not load the mapper")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        r = report(None if args.no_model else model_labels(directory=args.dir), args.dir)
    except (OSError, ValueError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(r, indent=1) if args.json else format_report(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
