"""Canonical JSON and the order-independent state hash.

The state hash is a multiset hash: the sum, modulo 2**256, of one SHA-256 per record (table, key,
canonical JSON of the record). Key order, float formatting (``1.0`` vs ``1``), set order and the
order in which records were written do not change it, and it can be updated in O(changed records).
"""
from __future__ import annotations

import hashlib
import json
import math
from typing import Any

MOD = 1 << 256


_PLAIN = (str, int, bool, type(None))  # exact types that are already canonical


def normalize(value: Any) -> Any:
    """Bring a JSON-like value to one canonical form."""
    kind = type(value)  # fast paths for the plain dicts and lists records are made of
    if kind is dict:
        return {k if type(k) is str else str(k): v if type(v) in _PLAIN else normalize(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _PLAIN else normalize(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return repr(value)
        rounded = round(value, 9)
        if rounded == int(rounded) and abs(rounded) < 2**53:
            return int(rounded)
        return rounded
    if isinstance(value, dict):
        return {str(k): normalize(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        items = [normalize(v) for v in value]
        return sorted(items, key=lambda x: json.dumps(x, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [normalize(v) for v in value]
    if hasattr(value, "model_dump"):
        return normalize(value.model_dump(mode="json"))
    raise TypeError(f"cannot hash a value of type {type(value).__name__}")


def canonical_json(value: Any) -> str:
    return json.dumps(normalize(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def record_hash(table: str, key: str, record: Any) -> int:
    h = hashlib.sha256()
    h.update(table.encode())
    h.update(b"\x00")
    h.update(str(key).encode("utf-8", "surrogatepass"))
    h.update(b"\x00")
    # (surrogatepass: a hash never raises, even on text the environment would have refused)
    h.update(canonical_json(record).encode("utf-8", "surrogatepass"))
    return int.from_bytes(h.digest(), "big")


def hex_digest(total: int) -> str:
    return f"{total % MOD:064x}"
