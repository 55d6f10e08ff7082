"""Evaluate the feeling -> condition mapper.

    python -m temo.emotion.evaluate                    # every shipped free-form set (shipped model)
    python -m temo.emotion.evaluate --set blind_a      # one set (repeatable)
    python -m temo.emotion.evaluate --set agreement    # three labellers vs the writers vs the model (150 blind)
    python -m temo.emotion.evaluate --set agreement-natural  # 165 natural feelings, stated vs guessed dimensions
    python -m temo.emotion.evaluate --weights m.npz    # weights from `python -m temo.emotion.train --out m.npz`
    python -m temo.emotion.evaluate --anchors          # + held-out anchor sentences (retrains, ~2 min)
    python -m temo.emotion.evaluate --cross-author     # + leave-one-author-out on the training feelings (~4 min)
    python -m temo.emotion.evaluate --file my.jsonl    # your own labelled feelings
    python -m temo.emotion.evaluate --json --errors

Free-form sets: one JSON object per line with text, family, emotion, politeness, urgency, trust.
None of them is used for training. Seven ship in data/eval/ (see EVAL_SETS and docs/emotion.md):
three written by the engineer who also wrote the training lexicons (lead1-3), and three written
by three other authors who never saw the model, its lexicons or its training data (blind_a-c),
the best estimate of accuracy on other authors' feelings (all authors are generated (LLM)
helpers writing from one brief, and the encoder was chosen on the blind numbers), plus
82 short blunt statements (blunt). Held-out anchors: a model is trained
without any anchor containing one of the held-out pieces (2 of the 10 feeling sentences of every
emotion and one phrasing of every dimension level), then maps the anchors that contain them.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from .labelled import FIELDS, load_labelled  # noqa: F401  (load_labelled: part of this module's API)

EVAL_DIR = Path(__file__).resolve().parent / "data" / "eval"
EVAL_SETS: dict[str, str] = {
    "lead1": "110, the paper's feeling-generator style; by the author of the training lexicons",
    "lead2": "66, varied length, subjects, fragments and negations; same author",
    "lead3": "44, idioms, behaviour descriptions, curt users with sad or fearful emotions; same author",
    "blind_a": "110, the paper's feeling-generator style; another author, blind to the model",
    "blind_b": "110, mixed styles (generator, narrative, terse, behaviour only); another author, blind",
    "blind_c": "110, a feeling generator handed the task (generator, narrative, behaviour); another author, blind",
    "blunt": "82, short blunt statements (\"I am furious\", \"The customer is relieved\"); emotion only, dimensions by convention",
}
AGREEMENT_SETS = ("agreement", "agreement-natural")  # three labellers each (temo.emotion.agreement)


def eval_path(name: str) -> Path:
    return EVAL_DIR / f"{name}.jsonl"


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


def eval_cross_author(encoder, progress=None) -> dict:
    """Leave one author out: for each author of the hand-written training feelings, train without
    their feelings and map them. The mean is an estimate for feelings written by a new author."""
    from .mapper import WRITTEN_FILE, Mapper, train

    rows = load_labelled(WRITTEN_FILE)
    authors = sorted({r["author"] for r in rows})
    t0 = time.perf_counter()
    per: dict[str, dict] = {}
    for a in authors:
        model, _ = train(encoder, written_authors=frozenset(authors) - {a})
        test = [r for r in rows if r["author"] == a]
        per[a] = score(test, Mapper(encoder, model).map_many([r["text"] for r in test]))
        if progress:
            progress(a, per[a])
    mean = {f: sum(r[f] for r in per.values()) / len(per) for f in FIELDS + ("condition",)}
    return {**mean, "n": len(rows), "authors": per, "seconds": round(time.perf_counter() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", action="append", default=None, choices=list(EVAL_SETS) + list(AGREEMENT_SETS),
                    help="a shipped set (repeatable; default: all of them unless --file is given); "
                         "'agreement': three labellers' agreement on 150 blind feelings and the model "
                         "against their majority label; 'agreement-natural': the same on 165 feelings "
                         "that state a dimension only where the story needs it (see temo.emotion.agreement)")
    ap.add_argument("--file", type=Path, action="append", default=None, help="your own labelled feelings (repeatable)")
    ap.add_argument("--anchors", action="store_true", help="also evaluate on held-out anchor sentences (retrains)")
    ap.add_argument("--cross-author", action="store_true",
                    help="also leave-one-author-out on the hand-written training feelings (retrains once per author, ~4 min)")
    ap.add_argument("--encoder", default=None, help="static (default), minilm or openai")
    ap.add_argument("--weights", type=Path, default=None,
                    help="a trained weights file (.npz from `python -m temo.emotion.train --out`) instead of the shipped one")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--errors", action="store_true", help="print every mis-mapped feeling")
    args = ap.parse_args(argv)
    want_agreement = [s for s in AGREEMENT_SETS if s in (args.set or [])]
    sets = [s for s in args.set or [] if s not in AGREEMENT_SETS] if args.set else ([] if args.file else list(EVAL_SETS))
    named = {name: eval_path(name) for name in sets}
    named.update({str(f): f for f in args.file or []})
    for f in named.values():
        if not f.exists():
            print(f"error: {f}: no such file", file=sys.stderr)
            return 2
    from .mapper import get_mapper

    if args.weights is not None:
        from .encoder import get_encoder
        from .mapper import Mapper, load_model
        try:
            mapper = Mapper(get_encoder(args.encoder or "static"), load_model(args.weights)[0])
        except (OSError, ValueError, KeyError) as e:
            print(f"error: --weights {args.weights}: cannot load ({e})", file=sys.stderr)
            return 2
    else:
        mapper = get_mapper(args.encoder)
    out: dict = {"encoder": mapper.encoder.name}
    detail = {}
    for name, f in named.items():
        try:
            res, rows, preds = eval_freeform(f, mapper)
        except (ValueError, KeyError) as e:
            print(f"error: {f}: {e}", file=sys.stderr)
            return 2
        res["file"] = f.name
        out[name] = res
        detail[name] = (rows, preds)
    agreement: dict = {}
    if want_agreement:
        from .agreement import SETS, model_labels, report
        for name in want_agreement:
            try:
                agreement[name] = out[name] = report(model_labels(mapper, SETS[name]), SETS[name])
            except (OSError, ValueError, KeyError) as e:
                print(f"error: {name} set: {e}", file=sys.stderr)
                return 2
    if args.anchors:
        out["heldout_anchors"] = eval_heldout_anchors(mapper.encoder)
    if args.cross_author:
        def progress(author, r):
            print(f"  left out {author}: " + "  ".join(f"{f}={r[f]:.3f}" for f in FIELDS), file=sys.stderr, flush=True)
        out["cross_author"] = eval_cross_author(mapper.encoder, progress)
    if args.json:
        if args.errors:
            out["errors"] = {name: [{"text": r["text"], **{f: [r[f], getattr(p, f)] for f in FIELDS if getattr(p, f) != r[f]}}
                                    for r, p in zip(rows, preds) if any(getattr(p, f) != r[f] for f in FIELDS)]
                             for name, (rows, preds) in detail.items()}
        print(json.dumps(out, indent=1))
        return 0
    print(f"encoder: {out['encoder']}")
    if agreement:
        from .agreement import format_report
        for name, r in agreement.items():
            print(format_report(r, name))
    for name, r in out.items():
        if name == "encoder" or name in AGREEMENT_SETS:
            continue
        print(f"{name} (n={r['n']}): " + "  ".join(f"{f}={r[f]:.3f}" for f in FIELDS + ("condition",)))
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
