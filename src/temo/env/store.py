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


def copy_record(value: Any) -> Any:
    """A deep copy of a JSON-like record (dicts, lists, scalars), several times faster than
    ``copy.deepcopy``; anything else is handed to ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {k: v if v is None or type(v) in _SCALARS else copy_record(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if v is None or type(v) in _SCALARS else copy_record(v) for v in value]
    if value is None or type(value) in _SCALARS:
        return value
    return copy.deepcopy(value)


_SCALARS = (str, int, float, bool)


class Database:
    """A frozen set of tables: ``{table: {key: record}}`` with per-record hashes precomputed."""

    def __init__(self, tables: Mapping[str, Mapping[str, Any]], name: str = ""):
        self.name = name
        self.tables: dict[str, dict[str, Any]] = {t: dict(rows) for t, rows in tables.items()}
        self._hashes: dict[str, dict[str, int]] = {
            t: {k: record_hash(t, k, r) for k, r in rows.items()} for t, rows in self.tables.items()
        }
        self.base_hash: int = sum(h for rows in self._hashes.values() for h in rows.values()) % MOD
        self._indexes: dict[tuple[str, str], dict[Any, list[str]]] = {}

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

    def index(self, table: str, field: str) -> dict[Any, list[str]]:
        """Keys of ``table`` by the value of a top-level ``field`` (built once, on first use; records
        whose value is not hashable are left out)."""
        found = self._indexes.get((table, field))
        if found is None:
            found = {}
            for k, rec in self.tables.get(table, {}).items():
                v = rec.get(field) if isinstance(rec, dict) else None
                if v is None or type(v) in (str, int, bool):
                    found.setdefault(v, []).append(k)
            self._indexes[(table, field)] = found
        return found


class StoreError(KeyError):
    pass


class Store:
    """Copy-on-write view of a `Database` for one episode (or one replay)."""

    def __init__(self, base: Database):
        self.base = base
        self._overlay: dict[str, dict[str, Any]] = {}
        self._journal: list[tuple[str, str, Any]] | None = None
        self._journaled: set[tuple[str, str]] = set()
        self._hashes: dict[tuple[str, str], int] = {}  # record hashes of overlay records not edited since

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
        base = self.base.tables.get(table, {})
        over = self._overlay.get(table)
        if not over:
            yield from base.items()
            return
        for k, v in base.items():
            mine = over.get(k, _ABSENT)
            if mine is _ABSENT:
                yield k, v
            elif mine is not _DELETED:
                yield k, mine
        for k, v in over.items():
            if k not in base and v is not _DELETED:
                yield k, v

    def values(self, table: str) -> Iterator[Any]:
        for _, v in self.items(table):
            yield v

    def where(self, table: str, field: str, value: Any) -> list[Any]:
        """The records of ``table`` whose top-level ``field`` equals ``value`` (a str, int or bool), in
        the order of ``values``, found through an index of the frozen database instead of a scan."""
        base = self.base.tables.get(table, {})
        keys = self.base.index(table, field).get(value, [])
        over = self._overlay.get(table)
        if not over:
            return [base[k] for k in keys]
        hit = set(keys)
        out = []
        for k in keys:
            mine = over.get(k, _ABSENT)
            if mine is _ABSENT:
                out.append(base[k])
            elif mine is not _DELETED and mine.get(field) == value:
                out.append(mine)
        if any(k not in hit and v is not _DELETED and v.get(field) == value for k, v in over.items()):
            # a record changed to this value, or was inserted: scan, to keep the order of ``values``
            return [r for r in self.values(table) if r.get(field) == value]
        return out

    def count(self, table: str) -> int:
        return len(self.keys(table))

    # ---- writing -------------------------------------------------------------------------
    def _remember(self, table: str, key: str) -> None:
        self._hashes.pop((table, key), None)  # the record is about to change
        if self._journal is None or (table, key) in self._journaled:
            return  # outside a transaction, or already saved in this one
        self._journaled.add((table, key))
        over = self._overlay.get(table, {})
        prev = copy_record(over[key]) if key in over and over[key] is not _DELETED else over.get(key, _ABSENT)
        self._journal.append((table, key, prev))

    def edit(self, table: str, key: str) -> Any:
        """A mutable copy of a record, registered in the overlay. Raises StoreError if absent."""
        over = self._overlay.setdefault(table, {})
        if key in over:
            if over[key] is _DELETED:
                raise StoreError(f"{table}/{key} does not exist")
            self._remember(table, key)
            self._hashes.pop((table, key), None)  # the caller mutates it
            return over[key]
        base = self.base.tables.get(table, {})
        if key not in base:
            raise StoreError(f"{table}/{key} does not exist")
        self._remember(table, key)
        rec = copy_record(base[key])
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

    def touched(self) -> list[tuple[str, str]]:
        """(table, key) of every record written in the open transaction."""
        return [(t, k) for t, k, _ in self._journal or []]

    def rollback(self) -> None:
        journal, self._journal = self._journal or [], None
        self._journaled = set()
        for table, key, prev in reversed(journal):
            self._hashes.pop((table, key), None)
            over = self._overlay.setdefault(table, {})
            if prev is _ABSENT:
                over.pop(key, None)
            else:
                over[key] = prev

    # ---- identity ------------------------------------------------------------------------
    def hash(self) -> str:
        """Canonical hash of the whole state; equal states give equal hashes however reached."""
        total = self.base.base_hash
        cache = self._hashes
        for table, over in self._overlay.items():
            for key, rec in over.items():
                old = self.base.record_hash(table, key)
                if old is not None:
                    total -= old
                if rec is not _DELETED:
                    h = cache.get((table, key))
                    if h is None:
                        h = cache[(table, key)] = record_hash(table, key, rec)
                    total += h
        return hex_digest(total)

    def changed(self) -> dict[str, list[str]]:
        """Keys touched per table (for diffs and debugging)."""
        return {t: sorted(o) for t, o in self._overlay.items() if o}

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """A full materialised copy (slow; for export and debugging only)."""
        return {t: {k: copy.deepcopy(v) for k, v in self.items(t)} for t in self.tables()}
