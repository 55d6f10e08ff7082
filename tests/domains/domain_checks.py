"""Checks several domain test modules share."""
from __future__ import annotations

from temo.env import Database, Domain, Environment, Store


def assert_atomic(domain: Domain, db: Database, tool: str, args: dict) -> None:
    """A call either changes the state or, when refused, leaves no trace at all."""
    store = Store(db)
    before = store.hash()
    out = Environment(domain.tools, store).execute(tool, args)
    if out.ok:
        assert store.hash() != before
    else:
        assert store.hash() == before and store.changed() == {}, out.observation
