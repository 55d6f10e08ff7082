"""A run: tasks x arms x trials, executed concurrently, one atomic record per cell, resumable."""
from __future__ import annotations

import asyncio
import hashlib
import importlib
import random
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable, Optional

from .. import __version__
from ..agents.base import AgentContext
from ..agents.registry import create_agent
from ..core import EpisodeRecord, RoleConfig, Task
from ..domains import get_domain
from ..core.models import UNGRADED_FINAL
from ..env.hashing import canonical_json
from ..env.safety import escape_surrogates
from ..users.base import UserContext
from ..users.registry import create_user
from .grader import DEFAULT_REWARD_RULE, check_rule
from .orchestrator import Limits, run_episode
from .runstore import RunConfig, RunStore, sha256_text


def cell_seed(task_id: str, arm: str, trial: int, seed: int) -> int:
    """A seed per cell, independent of scheduling order."""
    digest = hashlib.sha256(f"{task_id}:{arm}:{trial}:{seed}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def task_set_hash(tasks: list[Task]) -> str:
    return sha256_text("\n".join(canonical_json(t.model_dump(mode="json")) for t in tasks))


def task_hashes(tasks: list[Task]) -> dict[str, str]:
    """One hash per task, so that a changed task set can name what changed."""
    return {t.id: sha256_text(canonical_json(t.model_dump(mode="json"))) for t in tasks}


def changed_tasks(config: RunConfig) -> list[str]:
    """Ids of the run's tasks that differ from (or are missing in) the installed task set; [] when
    the frozen tasks are unchanged. Domains that are not installed raise KeyError/ValueError."""
    current = tasks_by_id(config.domains, config.split)
    planned = [tid for d in config.domains for tid in config.task_ids.get(d, [])]
    missing = [tid for tid in planned if tid not in current]
    present = installed_tasks(config, current)
    if not missing and task_set_hash(present) == config.task_set_hash:
        return []
    if not config.task_hashes:  # a run written before per-task hashes: the set changed, somewhere
        return missing or ["(some task; this run predates per-task hashes)"]
    now = task_hashes(present)
    return missing + [tid for tid in planned if tid in now and now[tid] != config.task_hashes.get(tid)]


def installed_tasks(config: RunConfig, current: dict[str, Task]) -> list[Task]:
    """The run's planned tasks as installed now, in plan order (those no longer installed left out)."""
    return [current[tid] for d in config.domains for tid in config.task_ids.get(d, []) if tid in current]


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
    reward_rule: str = DEFAULT_REWARD_RULE,
) -> RunConfig:
    all_tasks = [t for d in domains for t in tasks[d]]
    return RunConfig(
        temo_version=__version__,
        domains=domains,
        split=split,
        task_ids={d: [t.id for t in tasks[d]] for d in domains},
        task_set_hash=task_set_hash(all_tasks),
        task_hashes=task_hashes(all_tasks),
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
        reward_rule=check_rule(reward_rule),
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
                             Limits(max_turns=config.max_turns, max_errors=config.max_errors),
                             reward_rule=config.effective_reward_rule)


def harness_error_record(task: Task, arm: str, trial: int, seed: int, started: float, text: str) -> EpisodeRecord:
    """The record of a cell that temo itself could not run or store (termination harness_error)."""
    return EpisodeRecord(task_id=task.id, domain=task.domain, arm=arm, trial=trial, seed=seed,  # type: ignore[arg-type]
                         emotion=task.emotion, termination="harness_error", error=escape_surrogates(text)[-8000:],
                         started_at=started, duration_s=round(time.time() - started, 4))


@dataclass
class RunSummary:
    planned: int
    skipped: int  # already complete (resume)
    ran: int
    infra_errors: int
    terminations: dict[str, int] = field(default_factory=dict)  # of the cells run now
    quarantined: list[str] = field(default_factory=list)  # unreadable cell files moved aside


def cells_to_run(config: RunConfig, store: RunStore, retry_errors: bool = False) -> list[tuple[str, str, int]]:
    """Planned cells without a final record. A plain resume re-runs missing cells and
    infrastructure errors; `user_error` and `harness_error` cells are final (re-running them
    fails the same way) unless ``retry_errors``."""
    final = {r.cell_id for r in store.records()
             if r.complete or (not retry_errors and r.termination in UNGRADED_FINAL)}
    return [(tid, arm, trial) for _, tid, arm, trial in config.cells() if f"{tid}__{arm}__{trial}" not in final]


async def execute(
    config: RunConfig,
    store: RunStore,
    on_cell: Optional[Callable[[EpisodeRecord], None]] = None,
    on_start: Optional[Callable[[int, int], None]] = None,
    retry_errors: bool = False,
) -> RunSummary:
    """Run every planned cell that has no final record yet. Safe to call again after a crash.

    An exception inside one cell is stored as that cell's `harness_error` record; the other
    cells go on. Only an `OSError` while writing (disk full, directory gone) stops the run: the
    cells already written stay valid."""
    store.clean_temp()
    quarantined = store.quarantine_unreadable()
    todo = cells_to_run(config, store, retry_errors)
    tasks = tasks_by_id(config.domains, config.split)
    if on_start:
        on_start(len(config.cells()), len(config.cells()) - len(todo))
    sem = asyncio.Semaphore(max(1, config.concurrency))
    terminations: dict[str, int] = {}

    async def one(tid: str, arm: str, trial: int) -> None:
        task = tasks[tid]
        started = time.time()
        async with sem:
            try:
                record = await run_cell(config, task, arm, trial)
            except Exception:
                record = harness_error_record(task, arm, trial, cell_seed(tid, arm, trial, config.seed), started,
                                              traceback.format_exc())
        try:
            store.write(record)
        except OSError:
            raise  # the disk or the directory: stop the run (reported by the CLI)
        except Exception:  # the record itself cannot be written: keep a stub saying why
            record = harness_error_record(task, arm, trial, record.seed, started,
                                          "while writing the record:\n" + traceback.format_exc())
            store.write(record)
        terminations[record.termination] = terminations.get(record.termination, 0) + 1
        if on_cell:
            on_cell(record)

    jobs = [asyncio.ensure_future(one(*c)) for c in todo]
    try:
        await asyncio.gather(*jobs)
    except BaseException:
        for job in jobs:
            job.cancel()
        await asyncio.gather(*jobs, return_exceptions=True)
        raise
    return RunSummary(planned=len(config.cells()), skipped=len(config.cells()) - len(todo), ran=len(todo),
                      infra_errors=terminations.get("infra_error", 0), terminations=terminations,
                      quarantined=quarantined)
