"""Pieces that several domains build their tools from.

``record_reader`` makes the commonest read tool of every desk, "get one record by its id", from one
line: the tool's name, its single string argument, the function that fetches (or shapes) the record,
and the two texts the agent reads (what the tool does; what the argument is). The tool is an
ordinary `temo.env.Tool`; its schema is the one a hand-written ``@tool`` function with the same
docstring would have.

``record_finder`` makes the other one, "find a record's id by one field" (the e-mail address a
desk authenticates people with), the same way.

``replace_field`` is the last step of the small write tools that set one field of one record and
refuse a change that changes nothing.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

from temo.domains.kit.lookup import find_one_by, first_key
from temo.env import Store, Tool, ToolError, tool

_ARG = inspect.Parameter.POSITIONAL_OR_KEYWORD


def record_reader(name: str, arg: str, fetch: Callable[[Store, str], Any], summary: str, arg_doc: str) -> Tool:
    """A read tool ``name(arg: str)`` answering ``fetch(store, value)`` (a record, or a view of one).

    ``summary`` is the tool's description and ``arg_doc`` the argument's, as the agent sees them;
    errors are whatever ``fetch`` raises (a ToolError for an unknown id).
    """
    return _one_arg_read_tool(name, arg, Any, fetch, summary, arg_doc)


def record_finder(name: str, arg: str, table: str, field: str, summary: str, arg_doc: str, *,
                  missing: str | None = None, what: str | None = None) -> Tool:
    """A read tool ``name(arg: str) -> str`` answering the key of the ``table`` record whose ``field``
    (``a__b`` for a nested one) equals the argument, compared as in `kit.lookup.find_one_by`.

    With ``missing`` (a template naming the argument, such as ``"no user with email {email}"``) the
    first match is the answer and no match raises a ToolError of that text; without it the match
    must be unique, and `find_one_by` words the errors for a ``what`` (such as "client").
    """
    if (missing is None) == (what is None):
        raise TypeError(f"record_finder {name}: give exactly one of missing= and what=")

    def find(db: Store, value: str) -> str:
        if missing is not None:
            return first_key(db, table, missing.format(**{arg: value}), **{field: value})
        key, _ = find_one_by(db, table, what, **{field: value.strip()})
        return key

    return _one_arg_read_tool(name, arg, str, find, summary, arg_doc)


def _one_arg_read_tool(name: str, arg: str, returns: Any, run: Callable[[Store, str], Any], summary: str,
                       arg_doc: str) -> Tool:
    """``@tool(kind="read")`` applied to a function ``name(db, arg: str) -> returns`` whose docstring
    is ``summary`` and an ``Args:`` line for ``arg``."""
    signature = inspect.Signature(
        [inspect.Parameter("db", _ARG, annotation=Store), inspect.Parameter(arg, _ARG, annotation=str)],
        return_annotation=returns,
    )

    def read(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        return run(bound.arguments["db"], bound.arguments[arg])

    read.__name__ = read.__qualname__ = name
    read.__signature__ = signature  # type: ignore[attr-defined]
    read.__annotations__ = {"db": Store, arg: str, "return": returns}
    read.__doc__ = f"{summary}\n\nArgs:\n    {arg}: {arg_doc}\n"
    return tool(kind="read")(read)


def replace_field(store: Store, table: str, key: str, field: str, value: Any, unchanged: str) -> Any:
    """Set ``table[key][field]`` to ``value`` and return the edited record.

    Raises a ToolError saying ``unchanged`` when the field already holds that value, so a write
    that would change nothing is refused rather than logged as done.
    """
    if store.get(table, key)[field] == value:
        raise ToolError(unchanged)
    rec = store.edit(table, key)
    rec[field] = value
    return rec
