"""Regenerate a domain's frozen data files: databases and code-built task sets.

    python -m temo.domains.build retail            # write data/ for retail
    python -m temo.domains.build retail --check    # regenerate in memory and compare with data/

Each domain supplies `generate.build_database(seed, split)` and
`tasks.build_tasks(db, split, count, seed, conditions)`. This module draws the emotion conditions
(balanced over the five families, seeded) and attaches one anchor instruction per task.
"""
from __future__ import annotations

import argparse
import gzip
import importlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from ..core import EmotionCondition, Task
from ..core.taxonomy import FAMILIES, POLITENESS, TRUST, URGENCY
from ..env.hashing import canonical_json
from ..env.store import Database

DEFAULT_COUNTS = {"test": 70, "train": 100}
GZIP_OVER_BYTES = 2_000_000


def draw_conditions(count: int, seed: int) -> list[EmotionCondition]:
    """Round-robin over families so every family is covered; the rest drawn from a seeded RNG."""
    rng = random.Random(f"conditions:{seed}")
    families = list(FAMILIES)
    out = []
    for i in range(count):
        fam = families[i % len(families)]
        out.append(
            EmotionCondition(
                emotion=rng.choice(FAMILIES[fam]),
                politeness=rng.choice(POLITENESS),
                urgency=rng.choice(URGENCY),
                trust=rng.choice(TRUST),
            )
        )
    rng.shuffle(out)
    return out


def attach_emotion_instructions(tasks: list[Task], seed: int) -> list[Task]:
    from ..emotion import anchors_for  # the emotion model owns the anchor texts

    out = []
    for task in tasks:
        anchors = anchors_for(task.emotion)
        pick = random.Random(f"anchor:{task.id}:{seed}").randrange(len(anchors))
        out.append(task.model_copy(update={"emotion_instruction": anchors[pick]}))
    return out


def _db_text(tables: dict[str, Any]) -> str:
    return json.dumps(tables, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _write_db(folder: Path, stem: str, tables: dict[str, Any]) -> Path:
    text = _db_text(tables)
    for old in (folder / f"{stem}.json", folder / f"{stem}.json.gz"):
        old.unlink(missing_ok=True)
    if len(text) > GZIP_OVER_BYTES:
        path = folder / f"{stem}.json.gz"
        with gzip.GzipFile(path, "wb", mtime=0) as fh:  # mtime=0 keeps the bytes reproducible
            fh.write(text.encode())
    else:
        path = folder / f"{stem}.json"
        path.write_text(text, encoding="utf-8")
    return path


def build(name: str, seed: int = 0, counts: dict[str, int] | None = None, emotion: bool = True,
          separate_train_db: bool = False) -> dict[str, Any]:
    """Build databases and tasks for one domain in memory."""
    counts = counts or DEFAULT_COUNTS
    gen = importlib.import_module(f"temo.domains.{name}.generate")
    taskmod = importlib.import_module(f"temo.domains.{name}.tasks")
    dbs = {"db": gen.build_database(seed=seed, split="test")}
    if separate_train_db:
        dbs["db_train"] = gen.build_database(seed=seed + 1, split="train")
    tasks: dict[str, list[Task]] = {}
    for split, count in counts.items():
        tables = dbs["db_train"] if split == "train" and "db_train" in dbs else dbs["db"]
        database = Database(json.loads(_db_text(tables)), name=f"{name}:{split}")
        conditions = draw_conditions(count, seed=hash_seed(name, split, seed))
        built = taskmod.build_tasks(database, split, count, seed=hash_seed(name, split, seed), conditions=conditions)
        if emotion:
            built = attach_emotion_instructions(built, seed)
        tasks[split] = built
    return {"dbs": dbs, "tasks": tasks}


def hash_seed(*parts: Any) -> int:
    return random.Random(":".join(map(str, parts))).randrange(2**31)


def write(name: str, built: dict[str, Any]) -> list[Path]:
    folder = Path(importlib.import_module(f"temo.domains.{name}.tools").__file__).resolve().parent / "data"
    folder.mkdir(exist_ok=True)
    paths = [_write_db(folder, stem, tables) for stem, tables in built["dbs"].items()]
    for split, tasks in built["tasks"].items():
        path = folder / f"tasks_{split}.jsonl"
        path.write_text("".join(t.model_dump_json(exclude_defaults=False) + "\n" for t in tasks), encoding="utf-8")
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m temo.domains.build", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("domain")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--test", type=int, default=DEFAULT_COUNTS["test"], help="number of test tasks")
    parser.add_argument("--train", type=int, default=DEFAULT_COUNTS["train"], help="number of training tasks")
    parser.add_argument("--separate-train-db", action="store_true", help="generate a second database for training tasks")
    parser.add_argument("--no-emotion", action="store_true", help="leave emotion instructions empty (for development)")
    parser.add_argument("--check", action="store_true", help="compare a fresh build with the files in data/")
    args = parser.parse_args(argv)
    built = build(args.domain, args.seed, {"test": args.test, "train": args.train}, emotion=not args.no_emotion,
                  separate_train_db=args.separate_train_db)
    if args.check:
        from . import get_domain

        dom = get_domain(args.domain)
        ok = True
        for split, tasks in built["tasks"].items():
            fresh = [canonical_json(t.model_dump(mode="json")) for t in tasks]
            stored = [canonical_json(t.model_dump(mode="json")) for t in dom.tasks(split)]
            if fresh != stored:
                print(f"{args.domain}: tasks_{split}.jsonl differs from a fresh build", file=sys.stderr)
                ok = False
        for stem, tables in built["dbs"].items():
            if Database(tables).base_hash != dom.database("train" if stem == "db_train" else "test").base_hash:
                print(f"{args.domain}: {stem} differs from a fresh build", file=sys.stderr)
                ok = False
        print("up to date" if ok else "stale")
        return 0 if ok else 1
    for p in write(args.domain, built):
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
