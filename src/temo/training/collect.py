"""A collection is a run directory on the training split (one trial, emotion arm) plus the
selection settings it was collected with, stored beside the run's own files:

    DIR/
      config.json     # the runner's RunConfig (agents, users, endpoints, seeds, task-set hash)
      cells/*.json    # one EpisodeRecord per rollout, written atomically by the runner
      collect.json    # CollectSettings: selection rule, cap, preset, sampling seed

Everything downstream (tables, export) is computed from these files, so a collection can be
re-selected or re-exported with other settings without re-running a single conversation.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from pydantic import BaseModel

from ..core import EpisodeRecord, Task
from ..harness.runner import tasks_by_id
from ..harness.runstore import RunConfig, RunStore, RunStoreError, atomic_write
from .protocol import ARMS, MAX_STEPS, SPLIT, TRIALS  # noqa: F401  (re-exported)
from .select import DEFAULT_CAP, DEFAULT_RULE, PRESETS, RULES

SETTINGS_FILE = "collect.json"


class CollectionError(ValueError):
    pass


class CollectSettings(BaseModel):
    """How a collection's trajectories are selected (recorded so every table says which rule)."""

    schema_version: int = 1
    rule: str = DEFAULT_RULE
    cap: Optional[int] = DEFAULT_CAP  # per domain; None = no cap
    preset: Optional[str] = None
    seed: int = 0  # seed of the per-domain random sample

    def check(self) -> "CollectSettings":
        if self.rule not in RULES:
            raise CollectionError(f"selection rule {self.rule!r} is unknown; choose one of: {', '.join(RULES)}")
        if self.preset is not None and self.preset not in PRESETS:
            raise CollectionError(f"preset {self.preset!r} is unknown; choose one of: {', '.join(PRESETS)}")
        if self.cap is not None and self.cap < 0:
            raise CollectionError("cap must be 0 (no cap) or a positive number of trajectories per domain")
        return self


def save_settings(root: Path, settings: CollectSettings) -> None:
    atomic_write(Path(root) / SETTINGS_FILE, settings.model_dump_json(indent=2))


def load_settings(root: Path) -> Optional[CollectSettings]:
    path = Path(root) / SETTINGS_FILE
    if not path.exists():
        return None
    try:
        return CollectSettings.model_validate_json(path.read_text(encoding="utf-8")).check()
    except CollectionError:
        raise
    except Exception as e:
        raise CollectionError(f"{path}: invalid collection settings ({' '.join(str(e).split())[:300]})") from e


@dataclass
class Collection:
    root: Path
    config: RunConfig
    records: list[EpisodeRecord]
    settings: CollectSettings
    tasks: dict[str, Task] = field(default_factory=dict)

    def planned(self, domain: Optional[str] = None) -> int:
        return sum(1 for c in self.config.cells() if domain is None or c[0] == domain)

    @property
    def domains(self) -> list[str]:
        return list(self.config.domains)


def load_collection(root: Path | str) -> Collection:
    """Read a collection (any run directory works; one without collect.json gets the defaults)."""
    root = Path(root)
    if not root.exists():
        raise CollectionError(f"{root}: no such collection directory")
    if root.is_file():
        raise CollectionError(f"{root}: is a file; expected a collection directory (from `temo collect --out DIR`)")
    store = RunStore(root)
    try:
        config = store.load_config()
        records = list(store.records())
    except RunStoreError as e:
        raise CollectionError(" ".join(str(e).split())) from e
    settings = load_settings(root) or CollectSettings()
    try:
        tasks = tasks_by_id(config.domains, config.split)
    except Exception as e:  # a domain that is not installed here
        raise CollectionError(f"{root}: cannot load the tasks of {', '.join(config.domains)} ({e})") from e
    return Collection(root=root, config=config, records=records, settings=settings, tasks=tasks)
