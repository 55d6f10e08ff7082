"""The kit's grounding helpers: a challenge about one drawn entity, a domain's internal ids, list wording."""
from __future__ import annotations

import random

from temo.domains.kit.challenges import challenge_about
from temo.domains.kit.internal_ids import internal_ids_of
from temo.domains.kit.wording import and_join
from temo.env import Database
from temo.env.grounding import Challenge, Ground

DB = Database({
    "users": {"u1": {"payment_methods": {"card_1": {}, "gift_2": {}}}, "u2": {"payment_methods": {}}},
    "products": {"p1": {"variants": ["v1", "v2"]}},
    "orders": {"#W1": {"status": "delivered"}, "#W2": {"status": "pending"}},
})


def _ground(seed: int) -> Ground:
    return Ground(DB, {}, "u1", random.Random(seed), "test")


def _cancel(order_id: str) -> Challenge:
    return Challenge(ask=f"Please cancel {order_id}.", reason="it was delivered", rule="cancel_only_pending")


def test_challenge_about_draws_like_the_hand_written_outline():
    orders = ["#W1", "#W2", "#W3"]
    for seed in range(20):
        by_hand = random.Random(seed)
        want = _cancel(by_hand.choice(orders))
        g = _ground(seed)
        got = challenge_about(g, orders, _cancel)
        assert got == want
        assert g.rng.random() == by_hand.random()  # the same draws were made, so later hooks see the same stream


def test_challenge_about_gives_no_challenge_and_draws_nothing_without_candidates():
    g, fresh = _ground(3), random.Random(3)
    assert challenge_about(g, [], _cancel) is None
    assert challenge_about(g, (o for o in ["#W1"] if o == "#W9"), _cancel) is None
    assert g.rng.random() == fresh.random()


def test_challenge_about_passes_on_a_drawn_entity_that_does_not_fit():
    assert challenge_about(_ground(0), ["#W1"], lambda o: None) is None


def test_internal_ids_are_table_keys_and_the_ids_records_hold():
    ids = internal_ids_of(tables=("users", "products"),
                          held={"users": ("payment_methods",), "products": ("variants",)})(DB)
    assert ids == {"u1", "u2", "p1", "card_1", "gift_2", "v1", "v2"}
    assert "#W1" not in ids  # order numbers are known to users: not listed, not internal
    assert internal_ids_of()(DB) == set()


def test_and_join_reads_as_english():
    assert and_join([]) == ""
    assert and_join(["the blue kettle"]) == "the blue kettle"
    assert and_join(["A1", "A2"]) == "A1 and A2"
    assert and_join(["A1", "", "A2", "A3"]) == "A1, A2 and A3"
    assert and_join(x for x in ["Mondays", "Wednesdays"]) == "Mondays and Wednesdays"
