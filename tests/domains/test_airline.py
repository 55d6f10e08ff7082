"""Airline domain: database, tools, policy, graph and the code-built task sets."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from temo.core import Task
from temo.domains.airline import rules as R
from temo.domains.airline.models import MODELS
from temo.domains.kit.split import split_of as _split_of
from temo.env import GENERIC_TOOLS, Store

from domain_checks import assert_records_validate, fresh_env

DOMAIN = "airline"  # the domain and db fixtures come from conftest.py
KEYS = {"users": "user_id", "airports": "code", "flights": "flight_number", "reservations": "reservation_id"}


@pytest.fixture(scope="module")
def tasks(domain) -> dict[str, list[Task]]:
    return {s: domain.tasks(s) for s in ("test", "train")}


def strings(value):
    """Every string leaf of a JSON-like value (dict values, not keys)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def enums(schema) -> set[str]:
    out: set[str] = set()
    if isinstance(schema, dict):
        out |= {e for e in schema.get("enum", []) if isinstance(e, str)}
        for v in schema.values():
            out |= enums(v)
    elif isinstance(schema, list):
        for v in schema:
            out |= enums(v)
    return out


# ---------------------------------------------------------------------------- database


def test_database_counts(db):
    counts = db.counts()
    assert counts["users"] == 500
    assert counts["flights"] == 300
    assert counts["reservations"] == 2000
    assert counts["airports"] == 20


def test_every_record_validates(db):
    assert_records_validate(db, MODELS, KEYS)


def test_database_is_consistent(db):
    users, flights, res = db.tables["users"], db.tables["flights"], db.tables["reservations"]
    owned = [rid for u in users.values() for rid in u["reservations"]]
    assert sorted(owned) == sorted(res)
    for r in res.values():
        assert r["reservation_id"] in users[r["user_id"]]["reservations"]
        assert 1 <= len(r["passengers"]) <= R.MAX_PASSENGERS
        assert r["created_at"] <= R.NOW
        for seg in r["flights"]:
            f = flights[seg["flight_number"]]
            assert (f["origin"], f["destination"]) == (seg["origin"], seg["destination"])
            assert seg["date"] in f["dates"]
        for p in r["payment_history"]:
            assert p["payment_id"] in users[r["user_id"]]["payment_methods"]
        assert r["nonfree_baggages"] == R.nonfree_bags(r["total_baggages"], users[r["user_id"]]["membership"],
                                                      r["cabin"], len(r["passengers"]))
    statuses = Counter(d["status"] for f in flights.values() for d in f["dates"].values())
    assert {"available", "landed", "cancelled", "delayed", "on time", "flying"} <= set(statuses)
    for f in flights.values():
        for day, d in f["dates"].items():
            assert (d["status"] == "available") == (d.get("prices") is not None)
            assert d["status"] != "available" or day > R.TODAY


def test_generation_is_deterministic():
    from temo.domains.airline.generate import build_database

    a, b = build_database(0), build_database(0)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


# ---------------------------------------------------------------------------- tools


def test_tool_counts_and_schemas(domain):
    kinds = Counter(t.kind for t in domain.tools.values())
    assert kinds == {"read": 8, "write": 6}
    assert {t.name for t in GENERIC_TOOLS} <= set(domain.tools)
    assert domain.auth_tools == {"get_user_details"}
    for t in domain.tools.values():
        fn = t.openai_schema()["function"]
        assert fn["description"]
        assert fn["parameters"]["additionalProperties"] is False
        for name, prop in fn["parameters"].get("properties", {}).items():
            assert prop.get("description"), f"{t.name}.{name} has no description"
        if t.kind == "read" and t.name not in {g.name for g in GENERIC_TOOLS}:
            assert t.name.startswith(("get_", "list_", "search_", "check_", "find_"))


def test_read_tools(domain, db):
    env = fresh_env(domain, db)
    airports = json.loads(env.execute("list_all_airports", {}).observation)
    assert len(airports) == 20 and {"code", "city"} <= set(airports[0])
    flight = next(f for f in db.tables["flights"].values())
    day = R.add_days(R.TODAY, 3)
    out = env.execute("search_direct_flight", {"origin": flight["origin"], "destination": flight["destination"], "date": day})
    assert out.ok and flight["flight_number"] in out.observation
    out = env.execute("search_direct_flight", {"origin": "XXX", "destination": flight["destination"], "date": day})
    assert not out.ok and "list_all_airports" in out.observation
    out = env.execute("search_direct_flight", {"origin": flight["origin"], "destination": flight["destination"], "date": "May 3"})
    assert not out.ok and "YYYY-MM-DD" in out.observation
    out = env.execute("search_onestop_flight", {"origin": "JFK", "destination": "SEA", "date": day})
    assert out.ok
    for a, b in json.loads(out.observation):
        assert a["destination"] == b["origin"] and a["status"] == b["status"] == "available"
    res = next(iter(db.tables["reservations"].values()))
    out = json.loads(env.execute("get_reservation_details", {"reservation_id": res["reservation_id"]}).observation)
    assert all("flight_status" in s for s in out["flights"])
    assert env.store.hash() == Store(db).hash()


def test_bad_arguments_are_error_observations(domain, db):
    env = fresh_env(domain, db)
    h = env.store.hash()
    for name, args, kind in [
        ("get_user_details", {"user_id": 42}, "bad_args"),
        ("get_user_details", {}, "bad_args"),
        ("get_user_details", {"user_id": "x", "email": "y"}, "bad_args"),
        ("get_user_details", "{not json", "bad_json"),
        ("cancel_reservation", {"reservation_id": "NOPE00"}, "domain"),
        ("update_reservation_baggages", {"reservation_id": "NOPE00", "total_baggages": "2", "nonfree_baggages": 0,
                                         "payment_id": "x"}, "bad_args"),
        ("book_reservation", {"user_id": "nobody"}, "bad_args"),
        ("fly_me_to_the_moon", {}, "unknown_tool"),
    ]:
        out = env.execute(name, args)
        assert not out.ok and out.error == kind and out.observation.startswith("Error:"), (name, out)
    assert env.store.hash() == h


def _future_res(db, ok):
    for r in db.tables["reservations"].values():
        if r["status"] == "active" and all(
            R.flight_status(db.tables["flights"][s["flight_number"]], s["date"]) == "available" for s in r["flights"]
        ) and ok(r):
            return r
    raise AssertionError("no such reservation")


def test_basic_economy_flights_cannot_change(domain, db):
    res = _future_res(db, lambda r: r["cabin"] == "basic_economy" and r["flight_type"] == "one_way" and len(r["flights"]) == 1)
    seg = res["flights"][0]
    other = next(f for f in db.tables["flights"].values() if f["origin"] == seg["origin"]
                 and f["destination"] == seg["destination"] and f["flight_number"] != seg["flight_number"])
    card = next(p for p in db.tables["users"][res["user_id"]]["payment_methods"].values() if p["source"] == "credit_card")
    env = fresh_env(domain, db)
    h = env.store.hash()
    out = env.execute("update_reservation_flights", {"reservation_id": res["reservation_id"], "cabin": "basic_economy",
                                                     "flights": [{"flight_number": other["flight_number"], "date": seg["date"]}],
                                                     "payment_id": card["id"]})
    assert not out.ok and "basic economy" in out.observation
    assert env.store.hash() == h


def test_failed_booking_is_rolled_back(domain, db):
    """Seats are taken and the first gift card charged before the second one fails: all of it is undone."""
    user = next(u for u in db.tables["users"].values()
                if sum(1 for p in u["payment_methods"].values() if p["source"] == "gift_card" and (p["amount"] or 0) >= 20) >= 2)
    g1, g2 = [p for p in user["payment_methods"].values() if p["source"] == "gift_card" and p["amount"] >= 20][:2]
    day = R.add_days(R.TODAY, 5)
    n = 5
    flight = next(f for f in db.tables["flights"].values()
                  if f["dates"][day]["status"] == "available" and f["dates"][day]["available_seats"]["business"] >= n
                  and f["dates"][day]["prices"]["business"] * n > g1["amount"] + g2["amount"])
    total = flight["dates"][day]["prices"]["business"] * n
    args = {"user_id": user["user_id"], "origin": flight["origin"], "destination": flight["destination"],
            "flight_type": "one_way", "cabin": "business", "flights": [{"flight_number": flight["flight_number"], "date": day}],
            "passengers": [{"first_name": "A", "last_name": f"B{i}", "dob": "1990-01-01"} for i in range(n)],
            "payment_methods": [{"payment_id": g1["id"], "amount": g1["amount"]},
                                {"payment_id": g2["id"], "amount": total - g1["amount"]}],
            "total_baggages": 0, "nonfree_baggages": 0, "insurance": "no"}
    env = fresh_env(domain, db)
    h = env.store.hash()
    out = env.execute("book_reservation", args)
    assert not out.ok and out.error == "domain" and "balance" in out.observation
    assert env.store.hash() == h
    assert env.store.get("flights", flight["flight_number"])["dates"][day]["available_seats"]["business"] == \
        flight["dates"][day]["available_seats"]["business"]
    assert env.store.get("users", user["user_id"])["payment_methods"][g1["id"]]["amount"] == g1["amount"]
    # the same booking paid by card goes through, and changes the state
    card = next(p for p in user["payment_methods"].values() if p["source"] == "credit_card")
    out = env.execute("book_reservation", dict(args, payment_methods=[{"payment_id": card["id"], "amount": total}]))
    assert out.ok and env.store.hash() != h


def test_payment_rules(domain, db):
    env = fresh_env(domain, db)
    h = env.store.hash()
    res = _future_res(db, lambda r: True)
    other_user = next(u for u in db.tables["users"].values() if u["user_id"] != res["user_id"])
    foreign = next(iter(other_user["payment_methods"]))
    out = env.execute("update_reservation_baggages", {"reservation_id": res["reservation_id"],
                                                      "total_baggages": res["total_baggages"] + 1,
                                                      "nonfree_baggages": res["nonfree_baggages"] + 1, "payment_id": foreign})
    assert not out.ok and "does not belong" in out.observation
    card = next(p for p in db.tables["users"][res["user_id"]]["payment_methods"].values() if p["source"] == "credit_card")
    out = env.execute("update_reservation_baggages", {"reservation_id": res["reservation_id"], "total_baggages": 0,
                                                      "nonfree_baggages": 0, "payment_id": card["id"]})
    assert not out.ok or res["total_baggages"] == 0
    assert env.store.hash() == h


def test_cancel_then_cancel_again(domain, db):
    res = _future_res(db, lambda r: r["cabin"] == "business")
    env = fresh_env(domain, db)
    h = env.store.hash()
    out = env.execute("cancel_reservation", {"reservation_id": res["reservation_id"]})
    assert out.ok and json.loads(out.observation)["status"] == "cancelled"
    refunds = [p for p in json.loads(out.observation)["payment_history"] if p["amount"] < 0]
    assert refunds and abs(sum(p["amount"] for p in json.loads(out.observation)["payment_history"])) < 0.01
    h2 = env.store.hash()
    assert h2 != h
    out = env.execute("cancel_reservation", {"reservation_id": res["reservation_id"]})
    assert not out.ok and env.store.hash() == h2


def test_flown_reservation_cannot_be_cancelled(domain, db):
    res = next(r for r in db.tables["reservations"].values() if r["status"] == "active" and r["flights"][0]["date"] < R.TODAY
               and R.flight_status(db.tables["flights"][r["flights"][0]["flight_number"]], r["flights"][0]["date"]) == "landed")
    env = fresh_env(domain, db)
    out = env.execute("cancel_reservation", {"reservation_id": res["reservation_id"]})
    assert not out.ok and "flown" in out.observation


def test_certificate_ids_are_deterministic(domain, db):
    uid = next(iter(db.tables["users"]))
    a = fresh_env(domain, db)
    b = fresh_env(domain, db)
    assert a.execute("send_certificate", {"user_id": uid, "amount": 100}).observation == \
        b.execute("send_certificate", {"user_id": uid, "amount": 100.0}).observation
    assert a.store.hash() == b.store.hash()


# ---------------------------------------------------------------------------- policy and graph


def test_policy_mentions_key_rules(domain):
    text = domain.policy.lower()
    for phrase in ["2026-05-15", "user id", "get_user_details", "confirm", "yes", "24 hours", "basic economy",
                   "cannot be changed", "cabin changes apply to every flight", "origin, destination and trip",
                   "number of passengers cannot change", "added but never removed", "insurance cannot be added",
                   "one travel certificate", "one credit card", "three gift cards", "$50", "$30", "$100 per passenger",
                   "silver or gold", "transfer_to_human_agents", "health", "weather", "business"]:
        assert phrase in text, phrase


# ---------------------------------------------------------------------------- tasks


def test_splits_are_disjoint(tasks):
    def key(t):
        return json.dumps([a.model_dump() for a in t.actions], sort_keys=True)

    test_keys = {key(t) for t in tasks["test"]}
    assert len(test_keys) == len(tasks["test"])
    assert not test_keys & {key(t) for t in tasks["train"]}
    assert all(_split_of(t.actions[0].arguments["user_id"]) == t.split for ts in tasks.values() for t in ts)


