"""A run: tasks x arms x trials, executed concurrently, one atomic record per cell, resumable."""
from __future__ import annotations

import asyncio
import hashlib
import importlib
import random
from dataclasses import dataclass
from typing import Callable, Optional

from .. import __version__
from ..agents.base import AgentContext
from ..agents.registry import create_agent
from ..core import EpisodeRecord, RoleConfig, Task
from ..domains import get_domain
from ..env.hashing import canonical_json
from ..users.base import UserContext
from ..users.registry import create_user
from .orchestrator import Limits, run_episode
from .runstore import RunConfig, RunStore, sha256_text


def cell_seed(task_id: str, arm: str, trial: int, seed: int) -> int:
    """A seed per cell, independent of scheduling order."""
    digest = hashlib.sha256(f"{task_id}:{arm}:{trial}:{seed}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def task_set_hash(tasks: list[Task]) -> str:
    return sha256_text("\n".join(canonical_json(t.model_dump(mode="json")) for t in tasks))


def tasks_by_id(domains: list[str], split: str) -> dict[str, Task]:
    return {t.id: t for d in domains for t in get_domain(d).tasks(split)}


def select_tasks(domains: list[str], split: str, task_ids: Optional[list[str]] = None, limit: Optional[int] = None) -> dict[str, list[Task]]:
    """Tasks per domain, filtered by id and limited per domain. Raises ValueError on unknown ids."""
    out: dict[str, list[Task]] = {}
    wanted = set(task_ids or [])
    found: set[str] = set()
    for name in domains:
        tasks = get_domain(name).tasks(split)
        if wanted:
            tasks = [t for t in tasks if t.id in wanted]
            found |= {t.id for t in tasks}
        if limit is not None:
            tasks = tasks[:limit]
        out[name] = tasks
    missing = wanted - found
    if missing:
        raise ValueError(f"unknown task id(s) for split {split!r}: {', '.join(sorted(missing))}")
    return out


def _prompt_hashes(domains: list[str], agent: RoleConfig, user: RoleConfig) -> dict[str, str]:
    hashes = {f"policy:{d}": sha256_text(get_domain(d).policy) for d in domains}
    for role, module in ((agent, "temo.agents.llm"), (user, "temo.users.llm")):
        if role.kind == "llm":
            mod = importlib.import_module(module)
            for name, text in mod.prompt_templates().items():
                hashes[f"{role.kind}:{module.rsplit('.', 1)[-1]}:{name}"] = sha256_text(text)
    return hashes


def _is_reference_user(user: RoleConfig) -> bool:
    if user.kind != "llm":
        return False
    from ..llm import is_reference_user

    return is_reference_user(user)


def build_config(
    domains: list[str], split: str, tasks: dict[str, list[Task]], arms: list[str], trials: int,
    agent: RoleConfig, user: RoleConfig, max_turns: int, seed: int, concurrency: int, max_errors: int = 10,
) -> RunConfig:
    all_tasks = [t for d in domains for t in tasks[d]]
    return RunConfig(
        temo_version=__version__,
        domains=domains,
        split=split,
        task_ids={d: [t.id for t in tasks[d]] for d in domains},
        task_set_hash=task_set_hash(all_tasks),
        benchmark_versions=sorted({str(t.meta.get("benchmark_version", "untracked")) for t in all_tasks}),
        arms=arms,
        trials=trials,
        agent=agent,
        user=user,
        max_turns=max_turns,
        max_errors=max_errors,
        seed=seed,
        concurrency=concurrency,
        prompt_hashes=_prompt_hashes(domains, agent, user),
        reference_user_simulator=_is_reference_user(user),
    )


async def run_cell(config: RunConfig, task: Task, arm: str, trial: int) -> EpisodeRecord:
    domain = get_domain(task.domain)
    seed = cell_seed(task.id, arm, trial, config.seed)
    agent_ctx = AgentContext(domain=domain, task=task, split=config.split, arm=arm, trial=trial, seed=seed,
                             rng=random.Random(f"agent:{seed}"))
    user_ctx = UserContext(task=task, arm=arm, trial=trial, seed=seed, rng=random.Random(f"user:{seed}"))
    agent = create_agent(config.agent, agent_ctx)
    user = create_user(config.user, user_ctx)
    return await run_episode(domain, task, arm, trial, seed, agent, user,
                             Limits(max_turns=config.max_turns, max_errors=config.max_errors))


@dataclass
class RunSummary:
    planned: int
    skipped: int  # already complete (resume)
    ran: int
    infra_errors: int


async def execute(
    config: RunConfig,
    store: RunStore,
    on_cell: Optional[Callable[[EpisodeRecord], None]] = None,
    on_start: Optional[Callable[[int, int], None]] = None,
) -> RunSummary:
    """Run every planned cell that has no complete record yet. Safe to call again after a crash."""
    store.clean_temp()
    done = store.done_cells()
    tasks = tasks_by_id(config.domains, config.split)
    todo = [(tid, arm, trial) for _, tid, arm, trial in config.cells() if f"{tid}__{arm}__{trial}" not in done]
    if on_start:
        on_start(len(config.cells()), len(config.cells()) - len(todo))
    sem = asyncio.Semaphore(max(1, config.concurrency))
    infra = 0

    async def one(tid: str, arm: str, trial: int) -> None:
        nonlocal infra
        async with sem:
            record = await run_cell(config, tasks[tid], arm, trial)
        store.write(record)
        if record.termination == "infra_error":
            infra += 1
        if on_cell:
            on_cell(record)

    await asyncio.gather(*(one(*c) for c in todo))
    return RunSummary(planned=len(config.cells()), skipped=len(config.cells()) - len(todo), ran=len(todo), infra_errors=infra)
