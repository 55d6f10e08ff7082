"""Ids derived from the state: the next free number of a prefix, so replays give the same ids."""
from __future__ import annotations

import re

from temo.env import Store


def next_id(store: Store, table: str, prefix: str, width: int = 4, start: int = 1) -> str:
    """The next id ``f"{prefix}{n:0{width}d}"`` after the highest number in use in ``table``.

    >>> # with keys TCK0001, TCK0007 in store table "tickets": next_id(store, "tickets", "TCK") == "TCK0008"
    """
    pattern = re.compile(re.escape(prefix) + r"(\d+)$")
    top = start - 1
    for key in store.keys(table):
        m = pattern.match(key)
        if m:
            top = max(top, int(m.group(1)))
    return f"{prefix}{top + 1:0{width}d}"
