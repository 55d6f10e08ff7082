"""The ids a user could not know, read off a database for ``Grounder.internal_ids``.

Tracer scans every task instruction for them, so a user never quotes a record key they were never
given. Most domains' internal ids are the keys of a few tables plus ids each record holds under a
field (a user's payment-method ids, a product's variant ids); :func:`internal_ids_of` says which.
"""
from __future__ import annotations

from typing import Callable, Iterable, Mapping, Sequence

from temo.env.store import Database


def internal_ids_of(tables: Iterable[str] = (),
                    held: Mapping[str, Sequence[str]] | None = None) -> Callable[[Database], set[str]]:
    """An ``internal_ids(db)`` giving the keys of every table in ``tables``, and, for each
    ``table: fields`` of ``held``, the ids every record of that table holds under those fields (the keys
    of a mapping, or the items of a list)."""
    tables, held = tuple(tables), dict(held or {})

    def internal_ids(db: Database) -> set[str]:
        out: set[str] = set()
        for table in tables:
            out.update(db.tables[table])
        for table, fields in held.items():
            for rec in db.tables[table].values():
                for name in fields:
                    out.update(rec[name])
        return out

    return internal_ids
