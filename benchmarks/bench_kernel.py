"""Kernel benchmarks, measured side by side in one run (ratios, not absolute times).

1. Per-episode reset + grade at Table 15 scale: temo's copy-on-write store and incremental hash
   against a naive baseline (deep-copy the database, replay, hash a JSON dump of everything).
2. Offline episodes per second (oracle agent, scripted user) per domain.

    python benchmarks/bench_kernel.py [--domains retail,airline] [--repeat 200]
"""
from __future__ import annotations

import argparse
import asyncio
import copy
import hashlib
import json
import random
import statistics
import time

from temo.agents.base import AgentContext
from temo.agents.registry import create_agent
from temo.core import RoleConfig
from temo.domains import available, get_domain
from temo.env import Environment, Store
from temo.harness.grader import gold_hash
from temo.harness.orchestrator import run_episode
from temo.users.base import UserContext
from temo.users.registry import create_user


class NaiveStore(Store):
    """The baseline: a full deep copy per episode, a JSON dump of everything to hash."""

    def __init__(self, base):
        super().__init__(base)
        self.tables_copy = copy.deepcopy(base.tables)

    def get(self, table, key, default=None):
        return self.tables_copy.get(table, {}).get(key, default)

    def edit(self, table, key):
        return self.tables_copy[table][key]

    def hash(self):
        return hashlib.sha256(json.dumps(self.tables_copy, sort_keys=True).encode()).hexdigest()


def reset_and_grade(domain, tasks, store_cls, repeat):
    """Time one reset + replay of the reference writes + state hash, per task."""
    env_tools = domain.tools
    samples = []
    for i in range(repeat):
        task = tasks[i % len(tasks)]
        t0 = time.perf_counter()
        store = store_cls(domain.database(task.split))
        env = Environment(env_tools, store)
        for a in task.actions:
            if env_tools[a.name].kind == "write":
                env.execute(a.name, a.arguments)
        store.hash()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


async def offline_episodes(domain, tasks, n):
    t0 = time.perf_counter()
    for i in range(n):
        task = tasks[i % len(tasks)]
        actx = AgentContext(domain=domain, task=task, split=task.split, arm="emotion", trial=0, seed=i, rng=random.Random(i))
        uctx = UserContext(task=task, arm="emotion", trial=0, seed=i, rng=random.Random(i))
        rec = await run_episode(domain, task, "emotion", 0, i, create_agent(RoleConfig(kind="oracle"), actx),
                                create_user(RoleConfig(kind="scripted"), uctx))
        assert rec.reward is not None
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--domains", default=",".join(available()))
    ap.add_argument("--repeat", type=int, default=100)
    ap.add_argument("--episodes", type=int, default=200)
    args = ap.parse_args()
    print(f"{'domain':12} {'records':>8} {'naive ms':>9} {'temo ms':>8} {'ratio':>7} {'episodes/s':>11}")
    for name in args.domains.split(","):
        dom = get_domain(name)
        tasks = dom.tasks("test")
        db = dom.database("test")
        records = sum(db.counts().values())
        for t in tasks:
            gold_hash(dom, t)  # warm the gold-hash cache like a real run does
        naive = reset_and_grade(dom, tasks, NaiveStore, max(10, args.repeat // 10))
        fast = reset_and_grade(dom, tasks, Store, args.repeat)
        eps = asyncio.run(offline_episodes(dom, tasks, args.episodes))
        print(f"{name:12} {records:8d} {naive * 1e3:9.2f} {fast * 1e3:8.3f} {naive / fast:6.0f}x {eps:11.0f}")


if __name__ == "__main__":
    main()
