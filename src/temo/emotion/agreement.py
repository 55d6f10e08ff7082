"""Labeller agreement: how far labels themselves can be trusted, and the model against the majority.

Two sets, each labelled by three labellers (helpers of this project, each working alone from the
set's ``BRIEF.md`` and the texts only):

- ``agreement`` (``data/eval/agreement/``): 150 feelings sampled from the blind sets. They were
  written to a brief that asks every text to show its labels, so the writers' labels exist
  (``writer_labels_150.jsonl``) and almost every dimension is stated.
- ``agreement-natural`` (``data/eval/agreement_natural/``): 165 feelings written for this from
  task scenarios (``scenarios_165.jsonl``) by a writer told to write naturally and to mention
  politeness, urgency or trust only where the story needs it (``WRITER_BRIEF.md``). No labels were
  ever written with them, so there is nothing a labeller could copy. Each labeller also says, per
  politeness / urgency / trust, whether the text states it (``said``) or they guessed (``guess``):
  the agreement on guesses is the ceiling for unstated dimensions.

For each dimension this reports pairwise agreement and Fleiss' kappa among the labellers, the
majority label (two or three of three agree; the rest have no majority), each labeller against the
writers where the writers' labels exist, and the model against the majority; with bases, the same
on the items all three said and all three guessed, and what they guessed.

    python -m temo.emotion.evaluate --set agreement --set agreement-natural
    python -m temo.emotion.agreement [--set agreement-natural] [--json] [--no-model]

Files: one ``feelings_N.jsonl`` (id, text), optional ``writer_labels_N.jsonl``, ``labels_1.jsonl`` ..
``labels_3.jsonl`` (id + five labels, in the feelings' order; optional ``*_basis`` fields).
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import Counter
from pathlib import Path

from temo.core.taxonomy import DIMENSIONS, FAMILIES, FAMILY_OF

from .labelled import FIELDS, jsonl_rows

AGREEMENT_DIR = Path(__file__).resolve().parent / "data" / "eval" / "agreement"
SETS = {"agreement": AGREEMENT_DIR, "agreement-natural": AGREEMENT_DIR.parent / "agreement_natural"}
LABELLER_FILES = ("labels_1.jsonl", "labels_2.jsonl", "labels_3.jsonl")
CATEGORIES = {"family": tuple(FAMILIES), "emotion": tuple(FAMILY_OF), **{d: tuple(v) for d, v in DIMENSIONS.items()}}
BASES = ("said", "guess")


def _read(path: Path, ids: list[str] | None = None, feelings_name: str = "the feelings file") -> list[dict]:
    rows = []
    for n, d in jsonl_rows(path, f"{path.name} "):
        if ids is not None:
            for f in FIELDS:
                if d.get(f) not in CATEGORIES[f]:
                    raise ValueError(f"{path.name} line {n}: {f} must be one of {', '.join(CATEGORIES[f])}, "
                                     f"not {d.get(f)!r}")
            for f in DIMENSIONS:
                if f"{f}_basis" in d and d[f"{f}_basis"] not in BASES:
                    raise ValueError(f"{path.name} line {n}: {f}_basis must be said or guess, not {d[f'{f}_basis']!r}")
        rows.append(d)
    if ids is not None and [r.get("id") for r in rows] != ids:
        raise ValueError(f"{path.name}: ids do not match {feelings_name} line for line")
    return rows


def feelings_file(directory: Path) -> Path:
    found = sorted(directory.glob("feelings_*.jsonl"))
    if len(found) != 1:
        raise ValueError(f"{directory}: expected one feelings_N.jsonl, found {len(found)}")
    return found[0]


def load(directory: Path = AGREEMENT_DIR) -> tuple[list[dict], list[dict] | None, list[list[dict]]]:
    """(feelings, writer labels or None, [labeller labels ...]) for the labeller files that exist."""
    path = feelings_file(directory)
    feelings = _read(path)
    ids = [r["id"] for r in feelings]
    writer_path = directory / path.name.replace("feelings_", "writer_labels_")
    writer = _read(writer_path, ids, path.name) if writer_path.exists() else None
    labellers = [_read(directory / f, ids, path.name) for f in LABELLER_FILES if (directory / f).exists()]
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


def _agreement(votes: list[list[str]], categories: tuple[str, ...]) -> dict:
    pairs = list(itertools.combinations(range(len(votes[0])), 2))
    pair = {f"{a + 1}-{b + 1}": sum(v[a] == v[b] for v in votes) / len(votes) for a, b in pairs}
    return {"pairwise": pair, "pairwise_mean": sum(pair.values()) / len(pair),
            "fleiss_kappa": fleiss_kappa(votes, categories)}


def _share(hits: list[bool]) -> float | None:
    return sum(hits) / len(hits) if hits else None


def report(model_labels: list[dict] | None = None, directory: Path = AGREEMENT_DIR) -> dict:
    feelings, writer, labellers = load(directory)
    n = len(feelings)
    out: dict = {"n": n, "labellers": len(labellers), "writer_labels": writer is not None, "dimensions": {}}
    for f in FIELDS:
        votes = [[lab[i][f] for lab in labellers] for i in range(n)]
        maj = [majority(v) for v in votes]
        has = [i for i in range(n) if maj[i] is not None]
        d = {**_agreement(votes, CATEGORIES[f]), "no_majority": n - len(has),
             "majority_counts": dict(Counter(maj[i] for i in has).most_common())}
        if writer is not None:
            d["vs_writer"] = {str(k + 1): sum(lab[i][f] == writer[i][f] for i in range(n)) / n
                              for k, lab in enumerate(labellers)}
            d["majority_vs_writer"] = sum(maj[i] == writer[i][f] for i in has) / len(has)
            d["writer_counts"] = dict(Counter(w[f] for w in writer).most_common())
        if model_labels is not None:
            d["model_vs_majority"] = _share([model_labels[i][f] == maj[i] for i in has])
            if writer is not None:
                d["model_vs_writer"] = sum(model_labels[i][f] == writer[i][f] for i in range(n)) / n
        if f in DIMENSIONS and all(f"{f}_basis" in lab[i] for lab in labellers for i in range(n)):
            d["basis"] = {}
            for basis in BASES:
                idx = [i for i in range(n) if all(lab[i][f"{f}_basis"] == basis for lab in labellers)]
                b: dict = {"n": len(idx)}
                if idx:
                    b.update(_agreement([votes[i] for i in idx], CATEGORIES[f]))
                    b["majority_counts"] = dict(Counter(maj[i] for i in idx if maj[i]).most_common())
                    if model_labels is not None:
                        b["model_vs_majority"] = _share([model_labels[i][f] == maj[i] for i in idx if maj[i]])
                        b["model_counts"] = dict(Counter(model_labels[i][f] for i in idx).most_common())
                d["basis"][basis] = b
            d["said_by_labeller"] = {str(k + 1): sum(lab[i][f"{f}_basis"] == "said" for i in range(n))
                                     for k, lab in enumerate(labellers)}
        out["dimensions"][f] = d
    return out


def model_labels(mapper=None, directory: Path = AGREEMENT_DIR) -> list[dict]:
    from .mapper import get_mapper

    feelings = _read(feelings_file(directory))
    preds = (mapper or get_mapper()).map_many([r["text"] for r in feelings])
    return [{f: getattr(p, f) for f in FIELDS} for p in preds]


def _num(x: float | None, width: int) -> str:
    return f"{x:>{width}.3f}" if x is not None else f"{'-':>{width}}"


def format_report(r: dict, name: str = "agreement") -> str:
    k, dims = r["labellers"], r["dimensions"]
    model = "model_vs_majority" in dims["family"]
    head = f"{'dimension':<11} {'pairwise':>8} {'kappa':>6}  {'no maj.':>7}"
    if r["writer_labels"]:
        head += "  " + "  ".join(f"L{i + 1}~writer" for i in range(k)) + "  maj~writer"
    head += "  model~maj" if model else ""
    head += "  model~writer" if model and r["writer_labels"] else ""
    lines = [f"{name} set (n={r['n']}, {k} labellers):", head]
    for f, d in dims.items():
        row = f"{f:<11} {d['pairwise_mean']:>8.3f} {d['fleiss_kappa']:>6.3f}  {d['no_majority']:>7}"
        if r["writer_labels"]:
            row += "  " + "  ".join(f"{d['vs_writer'][str(i + 1)]:>9.3f}" for i in range(k))
            row += f"  {d['majority_vs_writer']:>10.3f}"
        row += _num(d.get("model_vs_majority"), 11) if model else ""
        row += _num(d.get("model_vs_writer"), 14) if model and r["writer_labels"] else ""
        lines.append(row)
    based = [(f, d) for f, d in dims.items() if "basis" in d]
    if based:
        lines.append("said = all three labellers say the text states it; guess = all three guessed:")
        lines.append(f"{'dimension':<11} {'basis':<6} {'n':>4} {'pairwise':>8} {'kappa':>6}"
                     + ("  model~maj" if model else "") + "  majority labels" + ("  |  model labels" if model else ""))
        for f, d in based:
            for basis, b in d["basis"].items():
                if not b["n"]:
                    continue
                counts = " ".join(f"{c}:{m}" for c, m in b["majority_counts"].items())
                row = f"{f:<11} {basis:<6} {b['n']:>4} {b['pairwise_mean']:>8.3f} {b['fleiss_kappa']:>6.3f}"
                if model:
                    row += _num(b.get("model_vs_majority"), 11)
                row += f"  {counts}"
                if model:
                    row += "  |  " + " ".join(f"{c}:{m}" for c, m in b["model_counts"].items())
                lines.append(row)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", choices=list(SETS), default="agreement", help="a shipped set (default: agreement)")
    ap.add_argument("--dir", type=Path, default=None, help="your own folder with the files (instead of --set)")
    ap.add_argument("--no-model", action="store_true", help="labels only; do not load the mapper")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    directory = args.dir or SETS[args.set]
    try:
        r = report(None if args.no_model else model_labels(directory=directory), directory)
    except (OSError, ValueError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(r, indent=1) if args.json else format_report(r, args.set if args.dir is None else str(directory)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
