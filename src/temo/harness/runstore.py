"""A run directory: its configuration and one record per cell, each written atomically.

    RUN/
      config.json                       # RunConfig: everything needed to reproduce and to resume
      cells/<task>__<arm>__<trial>.json  # one EpisodeRecord per cell (write to tmp, fsync, rename)
      quarantine/                       # cell files that could not be read, moved aside on resume
      .lock, .lock.owner                # held by the one `temo run` writing here (pid@host)

A cell file exists only once complete, so `kill -9` at any moment loses at most the cells in flight
and never leaves a half-written one; `--resume` runs the cells whose file is missing or whose record
ended in an infrastructure error. Only one process may write a run directory at a time (`lock`).
"""
from __future__ import annotations

import hashlib
import os
import socket
import tempfile
from pathlib import Path
from typing import Any, Iterator, Optional

from pydantic import BaseModel, Field

from ..core import EpisodeRecord, cell_id
from ..core.config import RoleConfig


class RunConfig(BaseModel):
    schema_version: int = 1
    temo_version: str = ""
    domains: list[str]
    split: str = "test"
    task_ids: dict[str, list[str]]  # per domain, in order
    task_set_hash: str
    task_hashes: dict[str, str] = Field(default_factory=dict)  # per task id (names what changed)
    benchmark_versions: list[str] = Field(default_factory=list)  # Tracer build version of the tasks
    arms: list[str] = Field(default_factory=lambda: ["emotion"])
    trials: int = 3
    agent: RoleConfig
    user: RoleConfig
    max_turns: int = 200
    max_errors: int = 10
    seed: int = 0
    concurrency: int = 8
    prompt_hashes: dict[str, str] = Field(default_factory=dict)
    reference_user_simulator: bool = False
    # harness.grader.REWARD_RULES; None = a run from before temo recorded the rule (graded goal-first)
    reward_rule: Optional[str] = None
    notes: dict[str, Any] = Field(default_factory=dict)

    @property
    def effective_reward_rule(self) -> str:
        """The rule this run's cells are scored under (the legacy rule when none was recorded)."""
        from .grader import LEGACY_REWARD_RULE

        return self.reward_rule or LEGACY_REWARD_RULE

    def cells(self) -> list[tuple[str, str, str, int]]:
        """Every planned cell as (domain, task_id, arm, trial)."""
        return [
            (d, t, arm, trial)
            for d in self.domains
            for t in self.task_ids.get(d, [])
            for arm in self.arms
            for trial in range(self.trials)
        ]

    def comparable(self, other: "RunConfig") -> list[str]:
        """Fields that must match for a resume to be valid; returns the names that differ."""
        keys = ("domains", "split", "task_ids", "task_set_hash", "arms", "trials", "agent", "user", "max_turns", "seed")
        return [k for k in keys if getattr(self, k) != getattr(other, k)]


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class RunStoreError(ValueError):
    pass


class RunLocked(RunStoreError):
    """Another process holds the run directory."""


class RunStore:
    def __init__(self, root: Path | str):
        self.root = Path(root)
        self.cells_dir = self.root / "cells"

    @property
    def config_path(self) -> Path:
        return self.root / "config.json"

    def exists(self) -> bool:
        return self.config_path.exists()

    def load_config(self) -> RunConfig:
        if not self.config_path.exists():
            raise RunStoreError(f"{self.root}: not a run directory (no config.json)")
        try:
            return RunConfig.model_validate_json(self.config_path.read_text(encoding="utf-8"))
        except Exception as e:
            raise RunStoreError(f"{self.config_path}: invalid run configuration ({e})") from e

    def save_config(self, config: RunConfig) -> None:
        atomic_write(self.config_path, config.model_dump_json(indent=2))

    def cell_path(self, task_id: str, arm: str, trial: int) -> Path:
        return self.cells_dir / f"{cell_id(task_id, arm, trial)}.json"

    def write(self, record: EpisodeRecord) -> None:
        atomic_write(self.cell_path(record.task_id, record.arm, record.trial), record.model_dump_json())

    def read(self, path: Path) -> EpisodeRecord:
        return EpisodeRecord.model_validate_json(path.read_text(encoding="utf-8"))

    def cell_files(self) -> list[Path]:
        return sorted(self.cells_dir.glob("*.json")) if self.cells_dir.is_dir() else []

    def records(self) -> Iterator[EpisodeRecord]:
        for path in self.cell_files():
            try:
                yield self.read(path)
            except Exception as e:
                raise RunStoreError(f"{path}: unreadable cell record ({_reason(e)}); "
                                    f"`temo run --out {self.root} --resume` moves it to quarantine/ and re-runs it") from None

    def quarantine_unreadable(self) -> list[str]:
        """Move every cell file that cannot be read (truncated, not UTF-8, not a record) to
        ``quarantine/``; returns one line per file moved. Its cell is then re-run."""
        moved = []
        for path in self.cell_files():
            try:
                self.read(path)
                continue
            except Exception as e:
                reason = _reason(e)
            target_dir = self.root / "quarantine"
            target_dir.mkdir(exist_ok=True)
            target = target_dir / path.name
            n = 1
            while target.exists():
                target, n = target_dir / f"{path.stem}.{n}.json", n + 1
            os.replace(path, target)
            moved.append(f"moved unreadable cell file {path.name} to {target} ({reason}); the cell will be re-run")
        return moved

    def done_cells(self) -> set[str]:
        """Cells that are complete (not infrastructure errors)."""
        return {r.cell_id for r in self.records() if r.complete}

    def clean_temp(self) -> int:
        """Remove temp files left by a killed writer (call it only while holding the lock)."""
        n = 0
        if self.cells_dir.exists():
            for p in self.cells_dir.glob(".*.tmp"):
                p.unlink(missing_ok=True)
                n += 1
        return n

    # ---- one writer at a time ------------------------------------------------------------
    @property
    def lock_path(self) -> Path:
        return self.root / ".lock"

    def lock(self) -> "RunLock":
        """Hold the directory for this process (released at exit, even after kill -9: the OS
        drops the lock with the process). Raises `RunLocked` naming the holder."""
        from filelock import FileLock, Timeout

        self.root.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(self.lock_path), timeout=0)
        try:
            lock.acquire()
        except Timeout:
            owner = (self.root / ".lock.owner")
            try:
                holder = owner.read_text(encoding="utf-8").strip() or "another process"
            except OSError:
                holder = "another process"
            raise RunLocked(f"{self.root} is in use by {holder}; wait for it to finish (or stop it) "
                            "before running here again") from None
        (self.root / ".lock.owner").write_text(f"temo run pid {os.getpid()} on {socket.gethostname()}", encoding="utf-8")
        return RunLock(lock)


class RunLock:
    def __init__(self, lock: object):
        self._lock = lock

    def release(self) -> None:
        self._lock.release()  # type: ignore[attr-defined]

    def __enter__(self) -> "RunLock":
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _reason(e: BaseException) -> str:
    if isinstance(e, UnicodeDecodeError):
        return "not UTF-8"
    text = " ".join(str(e).split())
    if "EOF while parsing" in text or "Invalid JSON" in text:
        return "truncated or not JSON"
    return text[:160] + ("..." if len(text) > 160 else "")
