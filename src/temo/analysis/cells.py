"""Reading a run directory for the judge, the analyses and the report, tolerantly.

Every run directory works, old or new: cells are read with the project's `EpisodeRecord`, and a
termination value this version does not know yet (written by a newer temo) is kept as text
instead of making the cell unreadable. Tasks are looked up in the installed domains; a task that
no longer exists (or a domain that is not installed) leaves the cell without its reference, and
the judge says so rather than failing.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from pydantic import ValidationError

from ..core import EpisodeRecord, Task
from ..harness.runstore import RunConfig, RunStore, RunStoreError


class RunReadError(ValueError):
    """A run directory (or one of its files) cannot be read; the message names the file."""


@dataclass
class Cell:
    path: Path
    sha: str  # sha256 of the file's bytes
    record: EpisodeRecord

    @property
    def id(self) -> str:
        return self.path.stem


@dataclass
class Run:
    root: Path
    config: RunConfig
    cells: list[Cell]
    tasks: dict[str, Task]  # task id -> task, for the tasks still installed
    warnings: list[str]

    @property
    def name(self) -> str:
        return self.root.name

    def task(self, task_id: str) -> Optional[Task]:
        return self.tasks.get(task_id)


def _termination_of(data: dict[str, Any]) -> Optional[str]:
    value = data.get("termination")
    return value if isinstance(value, str) else None


def parse_record(raw: bytes, path: Path) -> EpisodeRecord:
    """An EpisodeRecord from a cell file; an unknown termination value is kept as it is."""
    try:
        return EpisodeRecord.model_validate_json(raw)
    except ValidationError:
        pass  # not valid as it is: find out why below (a newer termination value is kept)
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RunReadError(f"{path}: not a JSON cell record ({e})") from None
    if not isinstance(data, dict):
        raise RunReadError(f"{path}: a cell record must be a JSON object")
    try:
        return EpisodeRecord.model_validate(data)
    except ValidationError as e:
        termination = _termination_of(data)
        bad_fields = {str(err["loc"][0]) for err in e.errors() if err.get("loc")}
        if termination and bad_fields == {"termination"}:
            # A newer termination value: validate with a known one, then put the real one back.
            record = EpisodeRecord.model_validate({**data, "termination": "agent_stop"})
            return record.model_copy(update={"termination": termination})
        first = e.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "record"
        raise RunReadError(f"{path}: invalid cell record at {where} ({first.get('msg')})") from None


def load_tasks(config: RunConfig) -> tuple[dict[str, Task], list[str]]:
    from ..domains import available, get_domain

    tasks: dict[str, Task] = {}
    warnings: list[str] = []
    installed = set(available())
    for name in config.domains:
        if name not in installed:
            warnings.append(f"domain {name!r} is not installed; its cells are judged without their reference actions")
            continue
        try:
            for t in get_domain(name).tasks(config.split):
                tasks[t.id] = t
        except Exception as e:  # a broken task file must not stop a report
            warnings.append(f"domain {name!r}: tasks unreadable ({' '.join(str(e).split())[:200]})")
    return tasks, warnings


def _drop_changed_tasks(config: RunConfig, tasks: dict[str, Task]) -> list[str]:
    """Tasks that changed since the run was made are not its reference any more: drop them (their
    cells are judged from the record alone) and say so."""
    from ..harness.runner import changed_tasks

    try:
        changed = changed_tasks(config)
    except Exception:  # a domain that is not installed: already warned about
        return []
    if not changed:
        return []
    if changed[0].startswith("("):  # a run from before per-task hashes: which task is unknown
        return ["the frozen tasks changed since this run was made (task-set hash differs; the run predates "
                "per-task hashes): verdicts compare its conversations with today's reference actions"]
    for tid in changed:
        tasks.pop(tid, None)
    return [f"{len(changed)} task(s) changed since this run was made (e.g. {changed[0]}); their cells are judged "
            "from the record alone, without the reference diff"]


def load_run(root: Path | str, with_tasks: bool = True) -> Run:
    root = Path(root)
    if not root.exists():
        raise RunReadError(f"{root}: no such run directory")
    if not root.is_dir():
        raise RunReadError(f"{root}: is a file, not a run directory")
    store = RunStore(root)
    try:
        config = store.load_config()
    except RunStoreError as e:
        raise RunReadError(" ".join(str(e).split())) from None
    cells: list[Cell] = []
    if store.cells_dir.exists():
        for path in sorted(store.cells_dir.glob("*.json")):
            raw = path.read_bytes()
            cells.append(Cell(path, hashlib.sha256(raw).hexdigest(), parse_record(raw, path)))
    tasks, warnings = load_tasks(config) if with_tasks else ({}, [])
    if with_tasks and tasks:
        warnings += _drop_changed_tasks(config, tasks)
    missing = sorted({c.record.task_id for c in cells if with_tasks and c.record.task_id not in tasks})
    if missing and not any("changed since" in w for w in warnings):
        warnings.append(f"{len(missing)} task(s) of this run are no longer installed (e.g. {missing[0]}); "
                        "their cells are judged from the record alone")
    return Run(root=root, config=config, cells=cells, tasks=tasks, warnings=warnings)


def is_judgeable(record: EpisodeRecord) -> bool:
    """A complete cell that ended for a reason the agent answers for."""
    from .faults import NOT_AGENT_TERMINATIONS

    return record.reward is not None and str(record.termination) not in NOT_AGENT_TERMINATIONS


def is_failed(record: EpisodeRecord) -> bool:
    return record.reward is not None and record.reward.reward != 1
