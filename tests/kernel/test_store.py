"""The store: copy-on-write, atomic tool calls, canonical hashes."""
from __future__ import annotations

import copy
import json

from hypothesis import given, strategies as st

from temo.env import Database, Environment, Store
from temo.env.hashing import canonical_json


def make_db():
    return Database({"t": {"a": {"x": 1, "y": [1, 2]}, "b": {"x": 2.5, "y": []}}})


def test_reset_is_a_cheap_view_and_base_never_changes():
    db = make_db()
    before = copy.deepcopy(db.tables)
    s = Store(db)
    rec = s.edit("t", "a")
    rec["x"] = 99
    rec["y"].append(3)
    assert s.get("t", "a")["x"] == 99
    assert db.tables == before  # the frozen base is untouched
    assert Store(db).get("t", "a")["x"] == 1  # a new episode starts clean


def test_hash_is_canonical_across_key_order_float_format_and_write_order():
    d1 = Database({"t": {"a": {"x": 1, "y": 2.0}, "b": {"s": "z"}}})
    d2 = Database({"t": {"b": {"s": "z"}, "a": {"y": 2, "x": 1.0}}})
    assert Store(d1).hash() == Store(d2).hash()
    s1, s2 = Store(d1), Store(d1)
    s1.edit("t", "a")["x"] = 5
    s1.insert("t", "c", {"k": 1})
    s2.insert("t", "c", {"k": 1.0})
    s2.edit("t", "a")["x"] = 5.0
    assert s1.hash() == s2.hash()
    assert s1.hash() != Store(d1).hash()


def test_reverting_a_change_restores_the_original_hash():
    db = make_db()
    s = Store(db)
    original = s.hash()
    s.edit("t", "a")["x"] = 7
    assert s.hash() != original
    s.edit("t", "a")["x"] = 1
    assert s.hash() == original


def test_sets_hash_independent_of_order():
    assert canonical_json({"s": {3, 1, 2}}) == canonical_json({"s": {2, 3, 1}})


@given(st.dictionaries(st.text(min_size=1, max_size=5), st.one_of(st.integers(-1000, 1000), st.floats(-1e6, 1e6, allow_nan=False), st.text(max_size=5)), max_size=6))
def test_hash_equals_full_recompute(record):
    db = Database({"t": {"a": {"v": 0}}})
    s = Store(db)
    s.put("t", "a", record)
    s.insert("t", "new", {"copy": record})
    assert s.hash() == Store(Database({"t": {"a": record, "new": {"copy": record}}})).hash()


def test_delete_and_keys():
    s = Store(make_db())
    s.delete("t", "a")
    assert s.keys("t") == ["b"]
    assert s.get("t", "a") is None
    s.insert("t", "a", {"x": 1, "y": [1, 2]})
    assert s.hash() == Store(make_db()).hash()


def test_failed_write_is_atomic(toy_domain):
    store = toy_domain.store()
    env = Environment(toy_domain.tools, store)
    before_hash, before = store.hash(), json.dumps(store.snapshot(), sort_keys=True)
    out = env.execute("close_account", {"account_id": "acc_1"})  # edits status, then raises
    assert not out.ok and out.error == "domain" and "balance must be zero" in out.observation
    assert store.hash() == before_hash
    assert json.dumps(store.snapshot(), sort_keys=True) == before
    assert store.get("accounts", "acc_1")["status"] == "open"


def test_failed_write_after_earlier_success_keeps_the_earlier_change(toy_domain):
    store = toy_domain.store()
    env = Environment(toy_domain.tools, store)
    assert env.execute("deposit", {"account_id": "acc_1", "amount": 5.0}).ok
    after_deposit = store.hash()
    # a second edit of the same (already overlaid) record that fails must restore the overlay value
    assert not env.execute("close_account", {"account_id": "acc_1"}).ok
    assert store.hash() == after_deposit
    assert store.get("accounts", "acc_1")["balance"] == 15.0
    assert store.get("accounts", "acc_1")["history"] == [5.0]


def test_internal_error_in_a_tool_is_an_observation_and_rolls_back(toy_domain):
    from temo.env import tool

    @tool(kind="write")
    def broken(db, account_id: str) -> str:
        """Break halfway.

        Args:
            account_id: The account id.
        """
        db.edit("accounts", account_id)["balance"] = -1
        raise RuntimeError("bug")

    store = toy_domain.store()
    env = Environment({**toy_domain.tools, "broken": broken}, store)
    h = store.hash()
    out = env.execute("broken", {"account_id": "acc_2"})
    assert not out.ok and out.error == "internal" and "RuntimeError" in out.observation
    assert store.hash() == h
