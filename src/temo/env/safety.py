"""What a model sends is checked before it reaches a tool or the store.

A model can send any text as a tool call's arguments: nesting thousands of levels deep, numbers
that are not finite (``NaN``, ``Infinity``, ``1e999``), integers with thousands of digits, strings
holding lone UTF-16 surrogates (``"\\ud83d"``) that no file or hash can encode. Each of these is
answered with an error observation here, so none of them can crash an episode or poison the state.

- `parse_arguments(text)` reads JSON strictly (no NaN/Infinity, finite floats, bounded size);
- `check_value(value)` walks a value without recursion and says what is wrong with it, if anything;
- `escape_surrogates(text)` writes each lone surrogate as the 6 characters ``\\udXXX``, so a
  record stays encodable and a replay of raw JSON arguments sees the same (rejected) value.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any, Optional

MAX_ARGUMENT_CHARS = 100_000  # raw JSON text of one call's arguments
MAX_DEPTH = 32  # nesting of arguments: tool signatures need 3 or 4 levels
MAX_RECORD_DEPTH = 64  # nesting of a record a tool wrote
MAX_INT_DIGITS = 30

_SURROGATE = re.compile("[\ud800-\udfff]")


class UnsafeValue(ValueError):
    """A value that must not reach a tool or the store; the message is said to the model."""


def has_surrogate(text: str) -> bool:
    return _SURROGATE.search(text) is not None


def escape_surrogates(text: str) -> str:
    """Lone surrogates written as ``\\udXXX`` text (valid JSON escapes; encodable as UTF-8)."""
    if not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def cap_arguments(text: str) -> str:
    """Raw arguments as stored: past the limit only one more character is kept (the call is
    rejected for its length either way, and a replay rejects the kept text the same way)."""
    return text if len(text) <= MAX_ARGUMENT_CHARS else text[: MAX_ARGUMENT_CHARS + 1]


def escape_strings(value: Any) -> Any:
    """`escape_surrogates` applied to every string (and key) of a JSON-like value, iteratively."""
    if isinstance(value, str):
        return escape_surrogates(value)
    if not isinstance(value, (dict, list)):
        return value
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while stack:
        node, parent, slot = stack.pop()
        if isinstance(node, dict):
            new: Any = {}
            parent[slot] = new
            for k, v in node.items():
                key = escape_surrogates(k) if isinstance(k, str) else k
                new[key] = None
                stack.append((v, new, key))
        elif isinstance(node, list):
            new = [None] * len(node)
            parent[slot] = new
            for i, v in enumerate(node):
                stack.append((v, new, i))
        else:
            parent[slot] = escape_surrogates(node) if isinstance(node, str) else node
    return root[0]


def _reject_constant(name: str) -> Any:
    raise UnsafeValue(f"{name} is not a valid JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise UnsafeValue(f"the number {text[:40]} is too large")
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise UnsafeValue(f"an integer with {len(text.lstrip('-'))} digits is too large")
    return int(text)


def parse_arguments(text: str) -> Any:
    """JSON from a model, strictly. Raises `UnsafeValue` with a message for the model."""
    if len(text) > MAX_ARGUMENT_CHARS:
        raise UnsafeValue(f"arguments are longer than the limit of {MAX_ARGUMENT_CHARS:,} characters")
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float, parse_int=_bounded_int)
    except json.JSONDecodeError as e:
        raise UnsafeValue(f"not valid JSON ({e})") from None
    except RecursionError:
        raise UnsafeValue(f"nested more than {MAX_DEPTH} levels deep") from None


_INT_LIMIT = 10**MAX_INT_DIGITS


def _surely_fine(value: Any, max_depth: int) -> bool:
    """A quick pass for the common case (every record a tool writes is checked): True when the value
    is certainly safe. False means "look closer": `check_value` then walks it again to say where.
    It goes level by level, checks leaves in place, and searches all text for surrogates in one
    regex call over the joined strings."""
    texts: list[str] = []
    level: list[Any] = [[value]]  # a list around the root, one level above it
    depth = -1
    while level:
        deeper: list[Any] = []
        for node in level:
            if type(node) is dict:
                for k in node:
                    if type(k) is not str:
                        return False
                texts.extend(node)
                values: Any = node.values()
            else:
                values = node
            if node and depth >= max_depth:  # its children would stand deeper than allowed
                return False
            for v in values:
                t = type(v)
                if t is str:
                    texts.append(v)
                elif t is int:
                    if not -_INT_LIMIT < v < _INT_LIMIT:
                        return False
                elif t is float:
                    if not math.isfinite(v):
                        return False
                elif t is dict or t is list or t is tuple:
                    deeper.append(v)
                elif v is not None and t is not bool:
                    return False
        level = deeper
        depth += 1
    return _SURROGATE.search("".join(texts)) is None


def check_value(value: Any, max_depth: int = MAX_DEPTH) -> Optional[str]:
    """What makes a JSON-like value unsafe (too deep, not finite, unencodable text, a type JSON
    does not have), or None when it is fine. Iterative: any depth is safe to check."""
    if _surely_fine(value, max_depth):
        return None
    stack: list[tuple[Any, int, str]] = [(value, 0, "arguments")]
    while stack:
        node, depth, where = stack.pop()
        if depth > max_depth:
            return f"nested more than {max_depth} levels deep"
        if node is None or isinstance(node, bool):
            continue
        if isinstance(node, str):
            if has_surrogate(node):
                return f"{where} holds text that is not valid Unicode (a lone surrogate)"
        elif isinstance(node, int):
            if abs(node) >= _INT_LIMIT:
                return f"{where} holds an integer that is too large"
        elif isinstance(node, float):
            if not math.isfinite(node):
                return f"{where} holds a number that is not finite ({node!r})"
        elif isinstance(node, dict):
            for k, v in node.items():
                if not isinstance(k, str):
                    return f"{where} has a key that is not a string"
                if has_surrogate(k):
                    return f"{where} has a key that is not valid Unicode (a lone surrogate)"
                stack.append((v, depth + 1, k if len(k) <= 40 else k[:40] + "..."))
        elif isinstance(node, (list, tuple)):
            stack.extend((v, depth + 1, where) for v in node)
        else:
            return f"{where} holds a value of type {type(node).__name__}, which JSON does not have"
    return None
