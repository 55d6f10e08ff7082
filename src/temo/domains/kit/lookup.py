"""Record look-ups that answer the agent with an error it can act on."""
from __future__ import annotations

from typing import Any

from temo.env import Store, ToolError


def require(store: Store, table: str, key: str, what: str | None = None) -> Any:
    """The record ``table[key]`` (read-only), or a ToolError naming what was not found."""
    rec = store.get(table, key)
    if rec is None:
        raise ToolError(f"{what or table.rstrip('s')} {key!r} not found; check the id and try again")
    return rec


def find_one_by(store: Store, table: str, what: str, **fields: Any) -> tuple[str, Any]:
    """The single record whose fields equal ``fields`` (strings compared case-insensitively).

    Raises a ToolError when none matches (or several do, asking for more details).
    """
    def same(a: Any, b: Any) -> bool:
        if isinstance(a, str) and isinstance(b, str):
            return a.strip().lower() == b.strip().lower()
        return a == b

    hits = [(k, r) for k, r in store.items(table) if all(same(_get(r, f), v) for f, v in fields.items())]
    if not hits:
        desc = ", ".join(f"{k.replace('__', '.')}={v!r}" for k, v in fields.items())
        raise ToolError(f"no {what} found with {desc}; ask the user to check the details")
    if len(hits) > 1:
        raise ToolError(f"several {what}s match; ask the user for another detail to tell them apart")
    return hits[0]


def _get(rec: Any, path: str) -> Any:
    """``a__b`` reads ``rec['a']['b']``."""
    for part in path.split("__"):
        if not isinstance(rec, dict):
            return None
        rec = rec.get(part)
    return rec
