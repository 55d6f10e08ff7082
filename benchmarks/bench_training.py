"""Throughput of Tracer's training half on this machine, offline:

- collection (oracle agent x scripted user, rollouts/s), selection and export: trajectories/s to
  JSONL and to Parquet (the step that scales with the paper's 7,048 rollouts);
- CPU training of the tiny Qwen3-shaped model with `temo train sft`'s code path: tokens/s on
  full-length exported rows and on shortened rows, with the loss before and after.

    python benchmarks/bench_training.py                      # retail + airline, 20 tasks each
    python benchmarks/bench_training.py --tasks 50 --steps 4

Numbers are measured side by side in one run, so a busy machine moves them together.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path


def collect(root: Path, domains: list[str], tasks: int) -> float:
    from temo.core import RoleConfig
    from temo.harness.runner import build_config, execute, select_tasks
    from temo.harness.runstore import RunStore

    chosen = select_tasks(domains, "train", None, tasks)
    config = build_config(domains, "train", chosen, ["emotion"], 1, RoleConfig(kind="oracle"), RoleConfig(kind="scripted"),
                          50, 0, 8)
    store = RunStore(root)
    store.save_config(config)
    t = time.perf_counter()
    asyncio.run(execute(config, store))
    return time.perf_counter() - t


def shorten(row: dict, keep: int = 10) -> dict:
    msgs = row["messages"][:keep]
    while msgs[-1]["role"] != "assistant":
        msgs.pop()
    msgs[0] = {**msgs[0], "content": msgs[0]["content"][:200]}
    called = {tc["function"]["name"] for m in msgs for tc in m.get("tool_calls") or []}
    return {**row, "messages": msgs, "tools": json.dumps([t for t in json.loads(row["tools"]) if t["function"]["name"] in called])}


def train_tokens_per_s(rows: list[dict], tmp: Path, name: str, steps: int) -> dict:
    from temo.training.export import write_rows
    from temo.training.sft import SFTSettings, train
    from temo.training.tiny import build_tiny

    data = tmp / f"{name}.jsonl"
    write_rows(rows, data)
    model = build_tiny(tmp / f"tiny-{name}", rows)
    record = train(data, str(model), tmp / f"ckpt-{name}", SFTSettings(
        max_steps=steps, effective_batch_size=1, learning_rate=5e-3, save_strategy="no", max_length=None), progress=False)
    losses = [e["loss"] for e in record["losses"]]
    return {"rows": name, "steps": record["global_steps"], "tokens": record["train_tokens"],
            "seconds (incl. tokenizing)": record["train_seconds"],
            "tokens/s": round(record["train_tokens"] / record["train_seconds"], 1),
            "loss first -> last": f"{losses[0]:.3f} -> {losses[-1]:.3f}"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--domains", default="retail,airline")
    ap.add_argument("--tasks", type=int, default=20, help="training tasks per domain")
    ap.add_argument("--steps", type=int, default=3, help="optimizer steps per training measurement")
    ap.add_argument("--no-train", action="store_true", help="export throughput only")
    args = ap.parse_args()
    domains = [d.strip() for d in args.domains.split(",") if d.strip()]

    from temo.training.collect import load_collection
    from temo.training.export import build_rows, write_rows
    from temo.training.select import select

    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        seconds = collect(tmp / "col", domains, args.tasks)
        t = time.perf_counter()
        collection = load_collection(tmp / "col")
        selection = select(collection.records)
        load_s = time.perf_counter() - t
        t = time.perf_counter()
        rows = build_rows(selection.rows(), selection.rule)
        build_s = time.perf_counter() - t
        n = len(rows)
        print(f"collect: {len(collection.records)} rollouts in {seconds:.2f} s ({len(collection.records) / seconds:.1f} rollouts/s)")
        print(f"load + select: {load_s:.2f} s; {n} kept")
        print(f"rows: {n / build_s:.0f} trajectories/s")
        for fmt in ("jsonl", "parquet"):
            write_rows(rows[:1], tmp / f"warm.{fmt}", fmt)  # imports and Arrow's first-use set-up are not write time
            t = time.perf_counter()
            write_rows(rows, tmp / f"out.{fmt}", fmt)
            dt = time.perf_counter() - t
            size = (tmp / f"out.{fmt}").stat().st_size / 1e6
            print(f"write {fmt}: {n / dt:.0f} trajectories/s ({size:.1f} MB)")
        if args.no_train:
            return
        for name, data in (("full-length", rows[:4]), ("shortened", [shorten(r) for r in rows[:4]])):
            print(json.dumps(train_tokens_per_s(data, tmp, name, args.steps)))


if __name__ == "__main__":
    main()
