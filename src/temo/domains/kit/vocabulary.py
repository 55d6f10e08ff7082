"""A domain's word lists as data: its fact aliases (``data/aliases.json``) and any other vocabulary file
kept beside its databases.

A fact alias table maps a fact key to the words an agent may use to ask for it; the scripted user hands
the fact over when the agent's question contains one of them, so the order of every list is kept as
written. Domain modules bind their tables to module-level names once, on import::

    from temo.domains.kit.vocabulary import aliases
    ALIASES = aliases(__file__)["facts"]

Files are read once per process (cached); the same object comes back on every call, so callers must not
change what they get.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

ALIASES_FILE = "aliases.json"


def domain_folder(where: str | Path) -> Path:
    """The domain folder of ``where``: a module file inside it (``__file__``) or the folder itself."""
    path = Path(where).resolve()
    return path if path.is_dir() else path.parent


@lru_cache(maxsize=None)
def _read(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: the domain's vocabulary file is missing") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None


def vocabulary(where: str | Path, name: str) -> Any:
    """The parsed JSON file ``data/<name>`` of the domain that ``where`` belongs to."""
    return _read(domain_folder(where) / "data" / name)


def aliases(where: str | Path) -> dict[str, Any]:
    """The domain's fact alias tables, ``data/aliases.json``: one JSON object, one key per table."""
    tables = vocabulary(where, ALIASES_FILE)
    if not isinstance(tables, dict):
        raise ValueError(f"{domain_folder(where) / 'data' / ALIASES_FILE}: expected an object of named tables")
    return tables


def tuples(rows: Iterable[Iterable[Any]]) -> list[tuple]:
    """JSON arrays back into the tuples the code compares, unpacks or uses as keys."""
    return [tuple(row) for row in rows]
