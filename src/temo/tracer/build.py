"""``temo tracer build``: compose the stages and freeze a domain's task files.

For each split: sample traces (the split's share of tool sequences), ground them in a seeded order
until the split's count of tasks verify (a trace may be grounded again with another user when the
pool runs out, up to ``PASSES`` times), write instructions, then feelings, then conditions. Test and
training tasks never share a tool sequence; where both splits share a database, they never share a
user. The files go to ``domains/<name>/data/tasks_{split}.jsonl`` (training files gzipped), with a
``tracer_report.json`` of counts, drop reasons, entity spread and the emotion round trip.
"""
from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Optional

from ..core import Action, EmotionCondition, Task, UserScenario
from ..env import Domain
from . import BENCHMARK_VERSION
from .condition import condition, round_trip
from .feel import feel
from .ground import ground_trace, load_grounder, shares_database, user_cap
from .instruct import instruct
from .sample import sample
from .verify import problems

PAPER_FACTS_COUNTS = {  # (test, train): paper Table 2 and Table 6
    "airline": (70, 922), "retail": (70, 898), "telecom": (70, 1519), "telehealth": (70, 1314),
    "school": (50, 333), "basketball": (50, 876), "restaurant": (50, 243), "travel": (50, 458),
    "movie": (50, 549), "bank": (50, 655),
}
DRAWS = 20000
PASSES = 3
CHALLENGE_EVERY = {"test": 6, "train": 10}  # about 16% of test and 10% of training tasks


def task_of(record: dict[str, Any], domain: str, split: str, index: int) -> Task:
    g = record["grounded"]
    outputs: list[str] = []
    for intent in g["intents"]:
        for s in intent["steps"]:
            for o in s["outputs"]:
                if o not in outputs:
                    outputs.append(o)
    m = record.get("mapping")
    emotion = EmotionCondition.parse(m["condition_id"]) if m else EmotionCondition.parse("peace.neutral.low.trusting")
    width = 3 if split == "test" else 4
    meta = {"benchmark_version": BENCHMARK_VERSION, "trace_id": record["id"], "trace": record["trace"],
            "user_id": g["user_id"], "writer": record.get("writer", "offline")}
    if record.get("feeling"):
        meta.update(feeling=record["feeling"], feeling_target=record["feeling_target"],
                    mapping_confidence=m["confidence"] if m else None)
    if g.get("challenge"):
        meta["challenge_rule"] = g["challenge"]["rule"]
    return Task(id=f"{domain}-{split}-{index:0{width}d}", domain=domain, split=split,
                scenario=UserScenario(**record["scenario"]), actions=[Action(**a) for a in g["actions"]],
                outputs=outputs, emotion=emotion, instruction=record["instruction"],
                emotion_instruction=m["instruction"] if m else "", meta=meta)


_SAMPLED: dict[tuple[str, int], list[dict[str, Any]]] = {}


def sampled(domain: Domain, seed: int) -> list[dict[str, Any]]:
    """The domain's deduplicated traces from ``DRAWS`` walks (computed once per domain and seed)."""
    key = (domain.name, seed)
    if key not in _SAMPLED:
        _SAMPLED[key] = sample(domain.graph, DRAWS, seed, domain.name)
    return _SAMPLED[key]


def counts_for(name: str) -> dict[str, int]:
    test, train = PAPER_FACTS_COUNTS.get(name, (50, 300))
    return {"test": test, "train": train}


def build_split(domain: Domain, split: str, count: int, seed: int, seen_actions: set[str],
                progress: Optional[Callable[[int], None]] = None, writer: Any = None) -> tuple[list[Task], dict[str, Any]]:
    grounder = load_grounder(domain)
    pool = [t for t in sampled(domain, seed) if t["split"] == split]
    random.Random(f"order:{domain.name}:{split}:{seed}").shuffle(pool)
    db = domain.database(split)
    internal = grounder.internal_ids(db) if grounder.internal_ids else set()
    cap = user_cap(grounder, db, split, count, shares_database(domain))
    usage: Counter = Counter()
    drops: Counter = Counter()
    kept: list[dict[str, Any]] = []
    tried = 0
    for p in range(PASSES):
        for rec in pool:
            if len(kept) >= count:
                break
            rec = {**rec, "id": rec["id"] if p == 0 else f"{rec['id']}.{p}"}
            tried += 1
            want_ch = len(kept) % CHALLENGE_EVERY[split] == CHALLENGE_EVERY[split] - 1
            g = ground_trace(domain, grounder, rec, usage, drops, seed, want_ch, user_cap=cap)
            if g is None:
                continue
            r = instruct([g], grounder.context, seed, None)[0]
            task = task_of(r, domain.name, split, len(kept))
            sig = json.dumps([a.model_dump() for a in task.actions], sort_keys=True)
            found = problems(task, r, domain, grounder, internal)
            if sig in seen_actions:
                found.append("duplicate")
            if found:
                for f in found:
                    drops[f"verify:{f}"] += 1
                continue
            seen_actions.add(sig)
            kept.append(r)
            if progress:
                progress(1)
        if len(kept) >= count:
            break
    if len(kept) < count:
        raise RuntimeError(f"{domain.name} {split}: only {len(kept)} of {count} tasks grounded and verified "
                           f"after {tried} traces; drops: {dict(drops.most_common(8))}")
    if writer is not None:
        kept = instruct(kept, grounder.context, seed, writer)
    kept = condition(feel(kept, seed, f"{domain.name}:{split}"), seed)
    tasks = [task_of(r, domain.name, split, i) for i, r in enumerate(kept)]
    spread = Counter()
    for (kind, _), n in usage.items():
        spread[kind] = max(spread[kind], n)
    report = {"tasks": len(tasks), "pool_traces": len(pool), "traces_tried": tried, "drops": dict(sorted(drops.items())),
              "max_tasks_per_entity": dict(sorted(spread.items())), "user_cap": cap, "round_trip": round_trip(kept),
              "challenges": sum(1 for t in tasks if any(i.refusal for i in t.scenario.intents)),
              "with_outputs": sum(1 for t in tasks if t.outputs)}
    return tasks, report


def build(domain: Domain, seed: int = 0, counts: dict[str, int] | None = None,
          progress: Optional[Callable[[int], None]] = None, writer: Any = None) -> dict[str, Any]:
    counts = counts or counts_for(domain.name)
    seen: set[str] = set()
    out: dict[str, Any] = {"tasks": {}, "report": {"domain": domain.name, "seed": seed,
                                                  "benchmark_version": BENCHMARK_VERSION,
                                                  "unique_traces": len(sampled(domain, seed))}}
    for split in ("test", "train"):
        if counts.get(split):
            tasks, rep = build_split(domain, split, counts[split], seed, seen, progress, writer)
            out["tasks"][split] = tasks
            out["report"][split] = rep
    return out


def task_bytes(tasks: list[Task], split: str) -> tuple[str, bytes]:
    text = "".join(t.model_dump_json() + "\n" for t in tasks).encode()
    if split == "train":
        return "tasks_train.jsonl.gz", gzip.compress(text, mtime=0)
    return f"tasks_{split}.jsonl", text


def write(domain: Domain, built: dict[str, Any]) -> list[Path]:
    folder = domain.folder / "data"
    paths = []
    for split, tasks in built["tasks"].items():
        name, data = task_bytes(tasks, split)
        for old in (folder / f"tasks_{split}.jsonl", folder / f"tasks_{split}.jsonl.gz"):
            old.unlink(missing_ok=True)
        (folder / name).write_bytes(data)
        paths.append(folder / name)
    rep = folder / "tracer_report.json"
    rep.write_text(json.dumps(built["report"], indent=1, sort_keys=True) + "\n", encoding="utf-8")
    paths.append(rep)
    return paths


def check(domain: Domain, built: dict[str, Any]) -> list[str]:
    folder = domain.folder / "data"
    out = []
    for split, tasks in built["tasks"].items():
        name, data = task_bytes(tasks, split)
        path = folder / name
        if not path.exists() or path.read_bytes() != data:
            out.append(f"{path} differs from a fresh build")
    return out
