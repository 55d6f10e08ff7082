"""The per-episode state: a copy-on-write overlay over a frozen database.

`Database` is loaded once per (domain, split) and never changes. A `Store` starts empty on top of
it, so a reset costs O(1); a record is copied only when a tool asks to edit it. The state hash is
kept incrementally (see `hashing`), so grading costs O(records changed), not O(database).

Rules for tool authors:
- `db.get(table, key)` returns the record for reading. Never mutate what it returns.
- `db.edit(table, key)` returns a private copy that you may mutate in place. After an edit, `get`
  returns that same object: copy what you need from the old value before editing.
- `db.insert(table, key, record)` adds a record, `db.delete(table, key)` removes one.
A tool call runs inside a transaction: if the tool raises, every change it made is rolled back.
"""
from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any, Iterator, Mapping

from .hashing import MOD, hex_digest, record_hash

_DELETED = object()
_ABSENT = object()


class Database:
    """A frozen set of tables: ``{table: {key: record}}`` with per-record hashes precomputed."""

    def __init__(self, tables: Mapping[str, Mapping[str, Any]], name: str = ""):
        self.name = name
        self.tables: dict[str, dict[str, Any]] = {t: dict(rows) for t, rows in tables.items()}
        self._hashes: dict[str, dict[str, int]] = {
            t: {k: record_hash(t, k, r) for k, r in rows.items()} for t, rows in self.tables.items()
        }
        self.base_hash: int = sum(h for rows in self._hashes.values() for h in rows.values()) % MOD

    @classmethod
    def load(cls, path: Path | str) -> "Database":
        path = Path(path)
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as fh:
            data = json.load(fh)
        if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
            raise ValueError(f"{path}: a database file must map table names to {{key: record}} objects")
        return cls(data, name=str(path))

    def counts(self) -> dict[str, int]:
        return {t: len(rows) for t, rows in self.tables.items()}

    def record_hash(self, table: str, key: str) -> int | None:
        return self._hashes.get(table, {}).get(key)


class StoreError(KeyError):
    pass


class Store:
    """Copy-on-write view of a `Database` for one episode (or one replay)."""

    def __init__(self, base: Database):
        self.base = base
        self._overlay: dict[str, dict[str, Any]] = {}
        self._journal: list[tuple[str, str, Any]] | None = None
        self._journaled: set[tuple[str, str]] = set()

    # ---- reading -------------------------------------------------------------------------
    def tables(self) -> list[str]:
        return sorted(set(self.base.tables) | set(self._overlay))

    def get(self, table: str, key: str, default: Any = None) -> Any:
        over = self._overlay.get(table)
        if over is not None and key in over:
            rec = over[key]
            return default if rec is _DELETED else rec
        return self.base.tables.get(table, {}).get(key, default)

    def has(self, table: str, key: str) -> bool:
        return self.get(table, key, _ABSENT) is not _ABSENT

    def keys(self, table: str) -> list[str]:
        base = self.base.tables.get(table, {})
        over = self._overlay.get(table, {})
        if not over:
            return list(base)
        out = [k for k in base if over.get(k, None) is not _DELETED]
        out.extend(k for k, v in over.items() if k not in base and v is not _DELETED)
        return out

    def items(self, table: str) -> Iterator[tuple[str, Any]]:
        for k in self.keys(table):
            yield k, self.get(table, k)

    def values(self, table: str) -> Iterator[Any]:
        for _, v in self.items(table):
            yield v

    def count(self, table: str) -> int:
        return len(self.keys(table))

    # ---- writing -------------------------------------------------------------------------
    def _remember(self, table: str, key: str) -> None:
        if self._journal is None or (table, key) in self._journaled:
            return  # outside a transaction, or already saved in this one
        self._journaled.add((table, key))
        over = self._overlay.get(table, {})
        prev = copy.deepcopy(over[key]) if key in over and over[key] is not _DELETED else over.get(key, _ABSENT)
        self._journal.append((table, key, prev))

    def edit(self, table: str, key: str) -> Any:
        """A mutable copy of a record, registered in the overlay. Raises StoreError if absent."""
        over = self._overlay.setdefault(table, {})
        if key in over:
            if over[key] is _DELETED:
                raise StoreError(f"{table}/{key} does not exist")
            self._remember(table, key)
            return over[key]
        base = self.base.tables.get(table, {})
        if key not in base:
            raise StoreError(f"{table}/{key} does not exist")
        self._remember(table, key)
        rec = copy.deepcopy(base[key])
        over[key] = rec
        return rec

    def insert(self, table: str, key: str, record: Any) -> None:
        if self.has(table, key):
            raise StoreError(f"{table}/{key} already exists")
        self._remember(table, key)
        self._overlay.setdefault(table, {})[key] = record

    def put(self, table: str, key: str, record: Any) -> None:
        """Insert or replace a whole record."""
        self._remember(table, key)
        self._overlay.setdefault(table, {})[key] = record

    def delete(self, table: str, key: str) -> None:
        if not self.has(table, key):
            raise StoreError(f"{table}/{key} does not exist")
        self._remember(table, key)
        self._overlay.setdefault(table, {})[key] = _DELETED

    # ---- transactions --------------------------------------------------------------------
    def begin(self) -> None:
        self._journal = []
        self._journaled = set()

    def commit(self) -> None:
        self._journal = None
        self._journaled = set()

    def rollback(self) -> None:
        journal, self._journal = self._journal or [], None
        self._journaled = set()
        for table, key, prev in reversed(journal):
            over = self._overlay.setdefault(table, {})
            if prev is _ABSENT:
                over.pop(key, None)
            else:
                over[key] = prev

    # ---- identity ------------------------------------------------------------------------
    def hash(self) -> str:
        """Canonical hash of the whole state; equal states give equal hashes however reached."""
        total = self.base.base_hash
        for table, over in self._overlay.items():
            for key, rec in over.items():
                old = self.base.record_hash(table, key)
                if old is not None:
                    total -= old
                if rec is not _DELETED:
                    total += record_hash(table, key, rec)
        return hex_digest(total)

    def changed(self) -> dict[str, list[str]]:
        """Keys touched per table (for diffs and debugging)."""
        return {t: sorted(o) for t, o in self._overlay.items() if o}

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """A full materialised copy (slow; for export and debugging only)."""
        return {t: {k: copy.deepcopy(v) for k, v in self.items(t)} for t in self.tables()}
