"""Evaluate the feeling -> condition mapper.

    python -m temo.emotion.evaluate                    # the three shipped free-form sets (shipped model)
    python -m temo.emotion.evaluate --anchors          # + held-out anchor sentences (retrains, ~2 min)
    python -m temo.emotion.evaluate --file my.jsonl    # your own labelled feelings
    python -m temo.emotion.evaluate --json

Free-form sets: one JSON object per line with text, family, emotion, politeness, urgency, trust.
Two are shipped, both written by hand and never used for training: data/feelings_eval.jsonl
(110, the paper's feeling-generator style) and data/feelings_eval2.jsonl (66, written later in a
deliberately different style: varied length, subjects and sentence shapes, fragments, negations) and
data/feelings_eval3.jsonl (44, written before the broad-vocabulary work: named subjects, idioms,
behaviour descriptions, curt users with sad or fearful emotions). Held-out anchors: a model is trained without any anchor containing one of
the held-out pieces (2 of the 10 feeling sentences of every emotion and one phrasing of every
dimension level), then maps the anchors that contain them.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from temo.core.taxonomy import FAMILY_OF

FIELDS = ("family", "emotion", "politeness", "urgency", "trust")
DEFAULT_EVAL = Path(__file__).resolve().parent / "data" / "feelings_eval.jsonl"
SECOND_EVAL = DEFAULT_EVAL.with_name("feelings_eval2.jsonl")
THIRD_EVAL = DEFAULT_EVAL.with_name("feelings_eval3.jsonl")


def load_labelled(path: Path) -> list[dict]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            d = json.loads(line)
            d.setdefault("family", FAMILY_OF[d["emotion"]])
            rows.append(d)
    return rows


def score(rows: list[dict], preds) -> dict:
    n = len(rows)
    acc = {f: sum(getattr(p, f) == r[f] for r, p in zip(rows, preds)) / n for f in FIELDS}
    acc["condition"] = sum(p.condition_id == f"{r['emotion']}.{r['politeness']}.{r['urgency']}.{r['trust']}"
                           for r, p in zip(rows, preds)) / n
    acc["n"] = n
    return acc


def confusions(rows, preds, field: str, top: int = 8) -> list[tuple[str, str, int]]:
    c = Counter((r[field], getattr(p, field)) for r, p in zip(rows, preds) if r[field] != getattr(p, field))
    return [(a, b, k) for (a, b), k in c.most_common(top)]


def eval_freeform(path: Path, mapper) -> tuple[dict, list, list]:
    rows = load_labelled(path)
    t0 = time.perf_counter()
    preds = mapper.map_many([r["text"] for r in rows])
    res = score(rows, preds)
    res["seconds"] = round(time.perf_counter() - t0, 3)
    return res, rows, preds


def heldout_pieces() -> frozenset[str]:
    from .lexicon_anchor import FEEL, POLITENESS_HOW, TRUST_HOW, URGENCY_HOW

    pieces = set()
    for sents in FEEL.values():
        pieces.update(sents[8:10])
    for lex in (POLITENESS_HOW, URGENCY_HOW, TRUST_HOW):
        for phrasings in lex.values():
            pieces.add(phrasings[-1])
    return frozenset(pieces)


def eval_heldout_anchors(encoder) -> dict:
    from .anchors import load_anchors
    from .mapper import Mapper, train

    pieces = heldout_pieces()

    def held(a) -> bool:
        return any(p in a.text for p in pieces)

    t0 = time.perf_counter()
    model, meta = train(encoder, anchor_filter=lambda a: not held(a), exclude=pieces)
    test = [a for a in load_anchors() if held(a)]
    mapper = Mapper(encoder, model)
    preds = mapper.map_many([a.text for a in test])
    rows = []
    for a in test:
        c = a.condition
        rows.append({"family": c.family, "emotion": c.emotion, "politeness": c.politeness,
                     "urgency": c.urgency, "trust": c.trust})
    res = score(rows, preds)
    res["train_anchors"] = meta["n_train"]
    res["seconds"] = round(time.perf_counter() - t0, 1)
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", type=Path, action="append", default=None,
                    help="labelled feelings (repeatable; default: the three shipped sets)")
    ap.add_argument("--anchors", action="store_true", help="also evaluate on held-out anchor sentences (retrains)")
    ap.add_argument("--encoder", default=None, help="static (default), minilm or openai")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--errors", action="store_true", help="print every mis-mapped feeling")
    args = ap.parse_args(argv)
    files = args.file or [DEFAULT_EVAL, SECOND_EVAL, THIRD_EVAL]
    for f in files:
        if not f.exists():
            print(f"error: {f}: no such file", file=sys.stderr)
            return 2
    from .mapper import get_mapper

    mapper = get_mapper(args.encoder)
    out: dict = {"encoder": mapper.encoder.name}
    detail = {}
    for i, f in enumerate(files):
        name = "freeform" if i == 0 else ("freeform2" if f == SECOND_EVAL else
                                          "freeform3" if f == THIRD_EVAL else f"freeform{i + 1}")
        res, rows, preds = eval_freeform(f, mapper)
        res["file"] = f.name
        out[name] = res
        detail[name] = (rows, preds)
    if args.anchors:
        out["heldout_anchors"] = eval_heldout_anchors(mapper.encoder)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"encoder: {out['encoder']}")
    for name in [k for k in out if k.startswith("freeform")] + (["heldout_anchors"] if "heldout_anchors" in out else []):
        r = out[name]
        label = f"{name} [{r['file']}]" if "file" in r else name
        print(f"{label} (n={r['n']}): " + "  ".join(f"{f}={r[f]:.3f}" for f in FIELDS + ("condition",)))
        if name not in detail:
            continue
        rows, preds = detail[name]
        for f in FIELDS:
            conf = confusions(rows, preds, f)
            if conf:
                print(f"  {f} confusions: " + ", ".join(f"{a}->{b} x{k}" for a, b, k in conf))
        if args.errors:
            for r_, p in zip(rows, preds):
                bad = [f for f in FIELDS if getattr(p, f) != r_[f]]
                if bad:
                    print(f"- {', '.join(f'{f}: {r_[f]}->{getattr(p, f)}' for f in bad)} | {r_['text']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
