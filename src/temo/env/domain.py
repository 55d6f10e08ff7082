"""A domain: tools, written policy, tool dependency graph, frozen databases and task files.

Each domain is one folder `temo/domains/<name>/` with the same files:
`models.py`, `generate.py`, `tools.py` (a `TOOLS` list of `@tool` functions), `policy.md`,
`graph.json`, and `data/` (`db.json[.gz]`, optionally `db_train.json[.gz]`, `tasks_test.jsonl`,
`tasks_train.jsonl`). Adding a folder adds a domain; nothing else changes.
"""
from __future__ import annotations

import importlib
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, model_validator

from ..core import Task
from .store import Database, Store
from .tool import Tool


class ToolGraph(BaseModel):
    """Directed tool dependency graph: an edge (a, b) means b may validly follow a."""

    nodes: list[str]
    edges: list[tuple[str, str]]
    roots: list[str] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> "ToolGraph":
        nodes = set(self.nodes)
        if len(nodes) != len(self.nodes):
            raise ValueError("graph nodes must be unique")
        for a, b in self.edges:
            if a not in nodes or b not in nodes:
                raise ValueError(f"edge ({a}, {b}) names a tool that is not a node")
            if a == b:
                raise ValueError(f"self-loop on {a}")
        if len(set(self.edges)) != len(self.edges):
            raise ValueError("duplicate edges")
        bad = [r for r in self.roots if r not in nodes]
        if bad:
            raise ValueError(f"roots not among nodes: {bad}")
        return self

    def successors(self, node: str) -> list[str]:
        return [b for a, b in self.edges if a == node]

    @property
    def density(self) -> float:
        n = len(self.nodes)
        return len(self.edges) / (n * (n - 1)) if n > 1 else 0.0


class DomainError(ValueError):
    pass


def _find(folder: Path, stem: str) -> Path | None:
    for suffix in (".json", ".json.gz"):
        p = folder / f"{stem}{suffix}"
        if p.exists():
            return p
    return None


class Domain:
    def __init__(self, name: str, folder: Path, tools: list[Tool], auth_tools: list[str] | tuple[str, ...] = ()):
        self.name = name
        self.auth_tools = frozenset(auth_tools)
        self.folder = folder
        names = [t.name for t in tools]
        if len(set(names)) != len(names):
            raise DomainError(f"{name}: duplicate tool names")
        self.tools: dict[str, Tool] = {t.name: t for t in tools}
        self._dbs: dict[str, Database] = {}
        self._tasks: dict[str, list[Task]] = {}
        self.gold_hashes: dict[tuple[str, str], str] = {}  # (split, task id) -> hash, filled by the grader

    @classmethod
    def load(cls, name: str) -> "Domain":
        try:
            module = importlib.import_module(f"temo.domains.{name}.tools")
        except ModuleNotFoundError as e:
            raise DomainError(f"unknown domain {name!r}") from e
        folder = Path(module.__file__).resolve().parent
        return cls(name, folder, list(module.TOOLS), tuple(getattr(module, "AUTH_TOOLS", ())))

    @cached_property
    def policy(self) -> str:
        return (self.folder / "policy.md").read_text(encoding="utf-8")

    @cached_property
    def graph(self) -> ToolGraph:
        graph = ToolGraph.model_validate_json((self.folder / "graph.json").read_text(encoding="utf-8"))
        missing = [n for n in graph.nodes if n not in self.tools]
        if missing:
            raise DomainError(f"{self.name}/graph.json names unknown tools: {missing}")
        return graph

    def tool_schemas(self) -> list[dict[str, Any]]:
        return [t.openai_schema() for t in self.tools.values()]

    def database(self, split: str = "test") -> Database:
        key = "train" if split == "train" and _find(self.folder / "data", "db_train") else "test"
        if key not in self._dbs:
            path = _find(self.folder / "data", "db_train" if key == "train" else "db")
            if path is None:
                raise DomainError(f"{self.name}: no database file in {self.folder / 'data'}")
            self._dbs[key] = Database.load(path)
        return self._dbs[key]

    def store(self, split: str = "test") -> Store:
        return Store(self.database(split))

    def task_file(self, split: str) -> Path:
        """``tasks_{split}.jsonl``, or its gzipped twin ``.jsonl.gz`` (training files are large)."""
        plain = self.folder / "data" / f"tasks_{split}.jsonl"
        packed = plain.with_name(plain.name + ".gz")
        return packed if packed.exists() and not plain.exists() else plain

    def tasks(self, split: str = "test") -> list[Task]:
        if split not in self._tasks:
            path = self.task_file(split)
            out: list[Task] = []
            if path.exists():
                raw = path.read_bytes()
                if path.suffix == ".gz":
                    import gzip

                    raw = gzip.decompress(raw)
                for i, line in enumerate(raw.decode("utf-8").splitlines(), 1):
                    if line.strip():
                        try:
                            out.append(Task.model_validate_json(line))
                        except Exception as e:
                            raise DomainError(f"{path} line {i}: invalid task ({e})") from e
            self._tasks[split] = out
        return self._tasks[split]
