"""The store's speed-ups change no answer: ``where`` equals a scan of ``values``, a record copy is a
deep copy, and the cached record hashes follow every kind of write and rollback."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from temo.env import Database, Store
from temo.env.store import copy_record


def _db() -> Database:
    return Database({"flights": {f"F{i}": {"origin": "ABC"[i % 3], "n": i, "dates": {"d1": {"seats": i}}}
                                 for i in range(12)}})


def _fresh_hash(store: Store) -> str:
    """The hash recomputed from scratch from the materialised state."""
    return Store(Database(store.snapshot())).hash()


OPS = st.lists(st.tuples(st.sampled_from(["edit_origin", "edit_seats", "insert", "delete", "rollback_edit"]),
                         st.integers(0, 14), st.sampled_from("ABCD")), max_size=25)


@settings(max_examples=150, deadline=None)
@given(OPS)
def test_where_matches_a_scan_and_hash_matches_a_fresh_one(ops):
    store = Store(_db())
    for op, i, letter in ops:
        key = f"F{i}"
        if op == "edit_origin" and store.has("flights", key):
            store.edit("flights", key)["origin"] = letter
        elif op == "edit_seats" and store.has("flights", key):
            store.edit("flights", key)["dates"]["d1"]["seats"] += 1
        elif op == "insert" and not store.has("flights", key):
            store.insert("flights", key, {"origin": letter, "n": i, "dates": {"d1": {"seats": 0}}})
        elif op == "delete" and store.has("flights", key):
            store.delete("flights", key)
        elif op == "rollback_edit" and store.has("flights", key):
            store.begin()
            store.edit("flights", key)["origin"] = letter
            store.hash()  # a hash taken inside the transaction must not survive the rollback
            store.rollback()
        for value in "ABCD":
            assert store.where("flights", "origin", value) == [r for r in store.values("flights") if r["origin"] == value]
        assert store.hash() == _fresh_hash(store)


def test_editing_a_record_twice_updates_its_cached_hash():
    store = Store(_db())
    store.edit("flights", "F1")["n"] = 100
    first = store.hash()
    store.edit("flights", "F1")["n"] = 101
    assert store.hash() != first and store.hash() == _fresh_hash(store)


def test_copy_record_is_deep_and_equal():
    rec = {"a": [1, {"b": [2.5, None, True]}], "c": {"d": "x"}, "e": (1, 2)}
    out = copy_record(rec)
    assert out == rec
    out["a"][1]["b"].append(3)
    out["c"]["d"] = "y"
    assert rec == {"a": [1, {"b": [2.5, None, True]}], "c": {"d": "x"}, "e": (1, 2)}


def test_check_value_fast_pass_agrees_with_the_full_walk():
    """`check_value` first takes a quick pass and walks again only to say where a problem is; on a
    seeded fuzz of JSON-like values (deep, huge ints, non-finite floats, surrogates, odd keys and types)
    its answer equals the full walk's."""
    import random as _random

    from temo.env import safety

    rng = _random.Random(7)
    leaves = [1, -2, 10**31, -10**30, 10**30 - 1, 1.5, float("nan"), float("-inf"), None, True, "ok",
              "x\ud83d", "\udc00", (1, 2), {1}, b"b", [], {}]

    def gen(depth=0):
        c = rng.random()
        if depth > 40 or c < 0.3:
            return rng.choice(leaves)
        if c < 0.65:
            return {(rng.choice([1, "k\ud800", None]) if rng.random() < 0.05 else f"k{rng.randint(0, 5)}"): gen(depth + 1)
                    for _ in range(rng.randint(0, 3))}
        return [gen(depth + 1) for _ in range(rng.randint(0, 3))]

    def full_walk(value, depth):
        saved = safety._surely_fine
        safety._surely_fine = lambda *a: False
        try:
            return safety.check_value(value, depth)
        finally:
            safety._surely_fine = saved

    fine = 0
    for _ in range(4000):
        v, depth = gen(), rng.choice([0, 1, 3, 32])
        got = safety.check_value(v, depth)
        assert got == full_walk(v, depth), v
        fine += got is None
    assert 0 < fine < 4000
