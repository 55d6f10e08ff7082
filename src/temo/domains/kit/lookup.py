"""Record look-ups that answer the agent with an error it can act on."""
from __future__ import annotations

from typing import Any, Callable, Iterator

from temo.env import Store, ToolError


def require(store: Store, table: str, key: str, what: str | None = None) -> Any:
    """The record ``table[key]`` (read-only), or a ToolError naming what was not found."""
    rec = store.get(table, key)
    if rec is None:
        raise ToolError(f"{what or table.rstrip('s')} {key!r} not found; check the id and try again")
    return rec


def fetcher(table: str, what: str | None = None) -> Callable[[Store, str], Any]:
    """`require` for one table, as a function of (store, key): what `kit.tooling.record_reader` takes."""
    return lambda store, key: require(store, table, key, what)


def require_id(store: Store, table: str, key: str, *, prefix: str, looks_like: str, missing: str) -> Any:
    """The record ``table[key]`` (read-only), or a ToolError worded by the template ``missing``.

    ``missing`` names ``{key}`` and ``{hint}``; the hint, `` (looks_like)``, is given only when the
    key does not start with ``prefix`` (the agent most likely mistyped the id's form).
    """
    rec = store.get(table, key)
    if rec is None:
        hint = "" if key.startswith(prefix) else f" ({looks_like})"
        raise ToolError(missing.format(key=key, hint=hint))
    return rec


def find_one_by(store: Store, table: str, what: str, **fields: Any) -> tuple[str, Any]:
    """The single record whose fields equal ``fields`` (strings compared case-insensitively).

    Raises a ToolError when none matches (or several do, asking for more details).
    """
    hits = list(_matching(store, table, fields))
    if not hits:
        desc = ", ".join(f"{k.replace('__', '.')}={v!r}" for k, v in fields.items())
        raise ToolError(f"no {what} found with {desc}; ask the user to check the details")
    if len(hits) > 1:
        raise ToolError(f"several {what}s match; ask the user for another detail to tell them apart")
    return hits[0]


def first_key(store: Store, table: str, missing: str, **fields: Any) -> str:
    """The key of the first record whose fields equal ``fields`` (compared as in `find_one_by`),
    or a ToolError saying ``missing``."""
    for key, _ in _matching(store, table, fields):
        return key
    raise ToolError(missing)


def _matching(store: Store, table: str, fields: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(key, record) of each record whose fields equal ``fields``; strings compared without case or
    surrounding spaces."""
    for key, rec in store.items(table):
        if all(_same(_get(rec, f), v) for f, v in fields.items()):
            yield key, rec


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().lower() == b.strip().lower()
    return a == b


def _get(rec: Any, path: str) -> Any:
    """``a__b`` reads ``rec['a']['b']``."""
    for part in path.split("__"):
        if not isinstance(rec, dict):
            return None
        rec = rec.get(part)
    return rec
