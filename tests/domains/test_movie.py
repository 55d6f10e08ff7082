"""Movie domain: database, tools and the rules they enforce, graph, policy and grounding hooks."""
from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from temo.core import Action
from temo.domains import databases
from temo.domains.kit.money import money
from temo.domains.movie import generate, rules as R
from temo.domains.movie.grounding import GROUNDER
from temo.domains.movie.models import KEY_FIELDS, TABLE_MODELS
from temo.domains.movie.tools import AUTH_TOOLS
from temo.env import Environment, Store
from temo.env.grounding import Ground
from temo.tracer.ground import ground_trace
from temo.tracer.sample import sample
from temo.tracer.verify import ids_in

from domain_checks import SECOND_PERSON, assert_graph_follows_the_paper, assert_records_validate, user_texts

# the paper's numbers for this domain: Table 15 (entities), Table 2 (tools), Figure 14 (graph)
PAPER = {"entities": {"customers": 752, "movies": 51, "theaters": 51, "bookings": 1001},
         "read_tools": 13, "write_tools": 3, "graph": {"tools": 13, "edges": 43}}
# the source environment's tools, less generic helpers: the graph's nodes
GRAPH_NODES = ["list_movies", "list_theaters", "get_movie_details", "get_theater_details", "list_shows", "get_show_details",
               "get_show_status", "get_seat_availability", "price_preview", "create_booking", "cancel_booking",
               "update_booking_seats", "get_booking_details"]


DOMAIN = "movie"


def shows_of(db):
    return {s["show_id"]: (t, s) for t in db.tables["theaters"].values() for d in t["dates"].values() for s in d["shows"]}


def bookings_where(db, status="confirmed", show=lambda s: True):
    idx = shows_of(db)
    return [b for b in db.tables["bookings"].values() if b["status"] == status and show(idx[b["show_id"]][1])]


def is_open(s):
    return s["status"] == "scheduled" and R.minutes_until(s["date"], s["start_time_local"]) >= 120


def ok(env, name, args):
    out = env.execute(name, args)
    assert out.ok, out.observation
    return json.loads(out.observation) if out.observation.startswith(("{", "[")) else out.observation


def err(env, name, args, fragment):
    before = env.store.hash()
    out = env.execute(name, args)
    assert not out.ok, out.observation
    assert fragment in out.observation, out.observation
    assert env.store.hash() == before
    return out.observation


def free_seats(env, b_or_show, n, skip_accessible=True):
    theater_id, show_id = b_or_show
    av = ok(env, "get_seat_availability", {"theater_id": theater_id, "show_id": show_id})
    acc = set(av["wheelchair_accessible_available"])
    return [s for s in av["available"] if not (skip_accessible and s in acc)][:n]


def customer_of(db, b):
    return db.tables["customers"][b["customer_id"]]


def card_of(c):
    return next(m for m in c["payment_methods"].values() if m["source"] != "gift_card")


def booking_args(db, env, theater_id, show_id, customer, n=2, method=None):
    seats = [{"seat_id": s, "ticket_type": "adult"} for s in free_seats(env, (theater_id, show_id), n)]
    total = ok(env, "price_preview", {"theater_id": theater_id, "show_id": show_id, "seats": seats})["totals"]["grand_total"]
    m = method or card_of(customer)
    return {"theater_id": theater_id, "show_id": show_id,
            "customer": {"name": dict(customer["name"]), "email": customer["email"], "phone": customer["phone"]},
            "seats": seats, "delivery_method": "e-ticket",
            "payments": [{"amount": total, "method": {"source": m["source"], "payment_method_id": m["payment_method_id"]}}]}


# ---------------------------------------------------------------------------- database
def test_entity_counts_match_the_paper(db, domain):
    assert db.counts() == PAPER["entities"]
    assert domain.database("train").counts() == PAPER["entities"]


def test_every_record_validates(db, domain):
    for split in ("test", "train"):
        assert_records_validate(domain.database(split), TABLE_MODELS, KEY_FIELDS)


def test_frozen_files_are_reproduced_byte_for_byte():
    assert generate.SEPARATE_TRAIN_DB is True
    assert databases.check("movie", databases.build("movie")) == []


def test_training_database_has_other_people(db, domain):
    train = domain.database("train")
    assert {c["email"] for c in db.tables["customers"].values()}.isdisjoint(
        c["email"] for c in train.tables["customers"].values())


def test_database_is_consistent(db):
    idx = shows_of(db)
    customers, bookings = db.tables["customers"], db.tables["bookings"]
    assert len({c["email"] for c in customers.values()}) == len(customers)
    assert sorted(b for c in customers.values() for b in c["bookings"]) == sorted(bookings)
    assert all(c["bookings"] for c in customers.values())
    held: dict[str, set] = {}
    for b in bookings.values():
        th, s = idx[b["show_id"]]
        c = customers[b["customer_id"]]
        assert b["booking_id"] in c["bookings"] and b["theater_id"] == th["theater_id"] and b["movie_id"] == s["movie_id"]
        assert (b["date"], b["start_time_local"]) == (s["date"], s["start_time_local"])
        assert b["customer"] == {"name": c["name"], "email": c["email"], "phone": c["phone"], "loyalty_id": c["loyalty_id"]}
        seats = R.seat_index(th["auditoriums"][s["auditorium_id"]])
        assert all(x["seat_id"] in seats for x in b["seats"])
        rate = th["pricing_rules"]["tax_rate_percent"]
        assert b["seats"] == R.seat_lines(s, rate, b["seats"])
        expect = R.totals(b["seats"], b["concessions"], th["pricing_rules"]["fees"]["booking_fee"])
        assert {k: b["totals"][k] for k in expect} == expect
        paid = money(sum(p["amount"] for p in b["payment_history"] if p["amount"] > 0))
        assert paid == b["totals"]["grand_total"]
        assert b["totals"]["amount_paid"] == R.net_paid(b["payment_history"])
        for p in b["payment_history"]:
            assert p["method"]["payment_method_id"] in c["payment_methods"]
        assert b["created_at"] <= R.NOW and (b["canceled_at"] or "") <= R.NOW
        if b["status"] == "confirmed":
            assert b["totals"]["amount_paid"] == b["totals"]["grand_total"]
            assert len(b["delivery"]["tickets"]) == len(b["seats"])
            mine = {x["seat_id"] for x in b["seats"]}
            assert not mine & held.setdefault(b["show_id"], set()), "two confirmed bookings share a seat"
            held[b["show_id"]] |= mine
        else:
            assert b["totals"]["amount_paid"] == 0 and b["delivery"]["tickets"] == []
    statuses = Counter(s["status"] for _, s in idx.values())
    assert set(statuses) == {"scheduled", "canceled", "completed"}
    assert {b["status"] for b in bookings.values()} == {"confirmed", "canceled", "refunded"}
    for _, s in idx.values():  # nothing is running at the fixed now, and the past is completed
        started = R.minutes_until(s["date"], s["start_time_local"]) < 0
        assert (s["status"] == "completed") == started or s["status"] == "canceled"


def test_generation_is_deterministic():
    a, b = generate.build_database(seed=3), generate.build_database(seed=3)
    assert databases.db_text(a) == databases.db_text(b)
    assert databases.db_text(a) != databases.db_text(generate.build_database(seed=4))


# ---------------------------------------------------------------------------- tools
def test_tool_counts_and_auth(domain):
    kinds = Counter(t.kind for t in domain.tools.values())
    assert kinds["read"] == PAPER["read_tools"] and kinds["write"] == PAPER["write_tools"]
    assert AUTH_TOOLS == ["get_booking_details"] and set(AUTH_TOOLS) <= set(domain.tools)
    assert {"calculate", "think", "transfer_to_human_agents"} <= set(domain.tools)
    for t in domain.tools.values():
        assert t.openai_schema()["function"]["parameters"]["additionalProperties"] is False


def test_read_tools_on_real_records(env, db):
    movies = ok(env, "list_movies", {})
    theaters = ok(env, "list_theaters", {})
    assert len(movies) == 51 and len(theaters) == 51 and {"movie_id", "title"} == set(movies[0])
    m = ok(env, "get_movie_details", {"movie_id": movies[0]["movie_id"]})
    assert m["title"] == movies[0]["title"]
    err(env, "get_movie_details", {"movie_id": "MOV999"}, "not found")
    th = ok(env, "get_theater_details", {"theater_id": theaters[0]["theater_id"]})
    assert th["concessions_menu"] and all(isinstance(v, list) for v in th["dates"].values())
    err(env, "get_theater_details", {"theater_id": "12"}, "list_theaters")
    b = bookings_where(db, show=is_open)[0]
    tid, sid = b["theater_id"], b["show_id"]
    shows = ok(env, "list_shows", {"theater_id": tid, "date": b["date"]})
    assert sid in {s["show_id"] for s in shows}
    only = ok(env, "list_shows", {"theater_id": tid, "date": b["date"], "movie_id": b["movie_id"]})
    assert only and all(s["movie_id"] == b["movie_id"] for s in only)
    assert ok(env, "list_shows", {"theater_id": tid, "date": "2023-01-01"}) == []
    err(env, "list_shows", {"theater_id": tid, "date": "15/05/2024"}, "YYYY-MM-DD")
    s = ok(env, "get_show_details", {"theater_id": tid, "show_id": sid, "date": b["date"]})
    assert s["movie_title"] == db.tables["movies"][b["movie_id"]]["title"]
    err(env, "get_show_details", {"theater_id": tid, "show_id": sid, "date": "2024-01-01"}, "not on")
    err(env, "get_show_details", {"theater_id": tid, "show_id": "SHW99999"}, "list_shows")
    assert ok(env, "get_show_status", {"theater_id": tid, "show_id": sid})["status"] == "scheduled"
    av = ok(env, "get_seat_availability", {"theater_id": tid, "show_id": sid})
    assert {x["seat_id"] for x in b["seats"]} <= set(av["booked"]) and not set(av["booked"]) & set(av["available"])
    got = ok(env, "get_booking_details", {"booking_id": b["booking_id"]})
    assert got == b
    err(env, "get_booking_details", {"booking_id": "0042"}, "BKG0123")
    assert ok(env, "calculate", {"expression": "(12 + 3) * 2"}) == "30"
    assert ok(env, "transfer_to_human_agents", {"summary": "wants compensation"}) == "Transfer successful"


def test_price_preview_breaks_down_the_price(env, db):
    b = bookings_where(db, show=is_open)[0]
    th = db.tables["theaters"][b["theater_id"]]
    item = next(iter(th["concessions_menu"].values()))
    size, price = next(iter(item["sizes"].items()))
    seats = [{"seat_id": x, "ticket_type": t} for x, t in zip(free_seats(env, (b["theater_id"], b["show_id"]), 2), ["adult", "child"])]
    out = ok(env, "price_preview", {"theater_id": b["theater_id"], "show_id": b["show_id"], "seats": seats,
                                    "concessions": [{"item_id": item["item_id"], "name": item["name"], "size": size,
                                                     "quantity": 2, "price_each": price}]})
    rate, fee = th["pricing_rules"]["tax_rate_percent"], th["pricing_rules"]["fees"]
    line = out["seats"][0]
    assert line["tax"] == money((line["price"] + line["convenience_fee"]) * rate / 100)
    assert out["booking_fee"] == fee["booking_fee"]
    t = out["totals"]
    assert t["grand_total"] == money(t["tickets_subtotal"] + t["concessions_subtotal"] + t["fees_total"] + t["tax_total"])
    base = {"theater_id": b["theater_id"], "show_id": b["show_id"]}
    err(env, "price_preview", {**base, "seats": seats, "concessions": [{"item_id": item["item_id"], "name": item["name"],
        "size": size, "quantity": 1, "price_each": price + 1}]}, "costs")
    err(env, "price_preview", {**base, "seats": [{"seat_id": "Z99", "ticket_type": "adult"}]}, "do not exist")
    err(env, "price_preview", {**base, "seats": [{"seat_id": b["seats"][0]["seat_id"], "ticket_type": "adult"}]}, "already booked")
    bad = env.execute("price_preview", {**base, "seats": [{"seat_id": "A3", "ticket_type": "student"}]})
    assert not bad.ok and "ticket_type" in bad.observation


def test_create_booking_and_its_rules(env, db):
    b = bookings_where(db, show=is_open)[0]
    c = customer_of(db, b)
    args = booking_args(db, env, b["theater_id"], b["show_id"], c)
    total = args["payments"][0]["amount"]
    err(env, "create_booking", {**args, "payments": [dict(args["payments"][0], amount=total - 1)]}, "grand total")
    err(env, "create_booking", {**args, "payments": [{"amount": total, "method": {"source": "cash", "payment_method_id": "cash"}}]},
        "box office")
    err(env, "create_booking", {**args, "payments": [{"amount": total, "method": {"source": "card", "payment_method_id": "pm_000000"}}]},
        "not on file")
    err(env, "create_booking", {**args, "customer": {**args["customer"], "email": "nobody@example.com"}}, "no customer profile")
    err(env, "create_booking", {**args, "customer": {**args["customer"], "phone": "000-555-0000"}}, "phone")
    err(env, "create_booking", {**args, "customer": {**args["customer"], "name": {"first_name": "X", "last_name": "Y"}}}, "name")
    err(env, "create_booking", {**args, "seats": [{"seat_id": "A3", "ticket_type": "adult"}] * 2}, "twice")
    many = [{"seat_id": s, "ticket_type": "adult"} for s in free_seats(env, (b["theater_id"], b["show_id"]), 11)]
    err(env, "create_booking", {**args, "seats": many}, "at most 10")
    new = ok(env, "create_booking", {**args, "seats": list(reversed(args["seats"]))})
    assert new["booking_id"] == "BKG1002" and new["status"] == "confirmed" and new["created_at"] == R.NOW
    assert [x["seat_id"] for x in new["seats"]] == [x["seat_id"] for x in args["seats"]]  # kept in seat-map order
    assert new["totals"]["grand_total"] == total and len(new["delivery"]["tickets"]) == 2
    assert new["payment_history"][0]["payment_id"] == "BKG1002-P1"
    assert "BKG1002" in env.store.get("customers", c["customer_id"])["bookings"]
    err(env, "create_booking", args, "already booked")  # the same seats are now held


def test_only_scheduled_upcoming_shows_can_be_booked(env, db):
    idx = shows_of(db)
    c = next(iter(db.tables["customers"].values()))
    for status in ("completed", "canceled"):
        th, s = next(v for v in idx.values() if v[1]["status"] == status)
        seats = [{"seat_id": "B3", "ticket_type": "adult"}]
        err(env, "price_preview", {"theater_id": th["theater_id"], "show_id": s["show_id"], "seats": seats}, "only scheduled")
        args = {"theater_id": th["theater_id"], "show_id": s["show_id"], "seats": seats, "delivery_method": "kiosk",
                "customer": {"name": c["name"], "email": c["email"], "phone": c["phone"]},
                "payments": [{"amount": 10.0, "method": {"source": "card", "payment_method_id": "pm_1"}}]}
        err(env, "create_booking", args, "only scheduled")


def test_gift_card_balance_is_a_limit(env, db):
    pairs = [(b, customer_of(db, b)) for b in bookings_where(db, show=is_open)]
    b, c = next((b, c) for b, c in pairs if any(m["source"] == "gift_card" for m in c["payment_methods"].values()))
    gift = next(m for m in c["payment_methods"].values() if m["source"] == "gift_card")
    n = 1
    while True:  # enough seats to cost more than the balance
        args = booking_args(db, env, b["theater_id"], b["show_id"], c, n=n, method=gift)
        if args["payments"][0]["amount"] > gift["balance"] or n == R.MAX_SEATS:
            break
        n += 1
    total = args["payments"][0]["amount"]
    assert total > gift["balance"]
    err(env, "create_booking", args, "left")
    card = card_of(c)
    split = [{"amount": gift["balance"], "method": {"source": "gift_card", "payment_method_id": gift["payment_method_id"]}},
             {"amount": money(total - gift["balance"]), "method": {"source": card["source"], "payment_method_id": card["payment_method_id"]}}]
    new = ok(env, "create_booking", {**args, "payments": split})
    assert env.store.get("customers", c["customer_id"])["payment_methods"][gift["payment_method_id"]]["balance"] == 0
    out = ok(env, "cancel_booking", {"booking_id": new["booking_id"]})
    assert out["refund_total"] == total
    assert env.store.get("customers", c["customer_id"])["payment_methods"][gift["payment_method_id"]]["balance"] == gift["balance"]


def test_cancel_rules(env, db):
    b = bookings_where(db, show=is_open)[0]
    out = ok(env, "cancel_booking", {"booking_id": b["booking_id"]})
    assert out["status"] == "canceled" and out["refund_total"] == b["totals"]["grand_total"]
    assert out["totals"]["amount_paid"] == 0 and out["delivery"]["tickets"] == [] and out["canceled_at"] == R.NOW
    assert all(p["amount"] < 0 for p in out["payment_history"][len(b["payment_history"]):])
    err(env, "cancel_booking", {"booking_id": b["booking_id"]}, "already canceled")
    called_off = bookings_where(db, show=lambda s: s["status"] == "canceled")
    assert called_off, "some confirmed bookings are for shows the theater canceled"
    assert ok(env, "cancel_booking", {"booking_id": called_off[0]["booking_id"]})["status"] == "canceled"
    refunded = next(x for x in db.tables["bookings"].values() if x["status"] == "refunded")
    err(env, "cancel_booking", {"booking_id": refunded["booking_id"]}, "already refunded")
    err(env, "cancel_booking", {"booking_id": "BKG9999"}, "not found")


def test_show_status_check_before_cancelling_is_the_agents_job(env, db, domain):
    """The source's cancel tool does not check whether the show took place; that stays agent-side: the tool
    cancels, the policy forbids it, the Tracer's policy check flags such a reference, and tasks ask for it."""
    from temo.core import Action
    from temo.domains.movie.grounding import GROUNDER
    from temo.env.grounding import Ground

    done = bookings_where(db, show=lambda s: s["status"] == "completed")[0]
    assert ok(env, "cancel_booking", {"booking_id": done["booking_id"]})["status"] == "canceled"
    assert "get_show_status" in domain.policy and "already taken place" in domain.policy
    g = Ground(db, env.tools, done["customer_id"], None, "test", user_table="customers")
    auth = Action(name="get_booking_details", arguments={"booking_id": done["booking_id"]})
    cancel = Action(name="cancel_booking", arguments={"booking_id": done["booking_id"]})
    assert "cancel_after_show" in GROUNDER.check_policy([auth, cancel], g)
    fine = bookings_where(db, show=is_open)[0]
    g = Ground(db, env.tools, fine["customer_id"], None, "test", user_table="customers")
    assert GROUNDER.check_policy([Action(name="get_booking_details", arguments={"booking_id": fine["booking_id"]}),
                                  Action(name="cancel_booking", arguments={"booking_id": fine["booking_id"]})], g) == []
    assert "no_cancel_after_show" in {t.meta.get("challenge_rule") for t in domain.tasks("test")}


def test_change_window_closes_an_hour_before_the_show(env, db):
    idx = shows_of(db)
    th, s = next(v for v in idx.values() if v[1]["status"] == "scheduled"
                 and 0 < R.minutes_until(v[1]["date"], v[1]["start_time_local"]) < R.CHANGE_CUTOFF_MINUTES)
    c = next(iter(db.tables["customers"].values()))
    new = ok(env, "create_booking", booking_args(db, env, th["theater_id"], s["show_id"], c, n=1))
    err(env, "cancel_booking", {"booking_id": new["booking_id"]}, "minutes before the show")
    other = free_seats(env, (th["theater_id"], s["show_id"]), 1)
    err(env, "update_booking_seats", {"booking_id": new["booking_id"], "seats": [{"seat_id": other[0], "ticket_type": "adult"}]},
        "minutes before the show")


def test_update_seats_rules(env, db):
    b = next(x for x in bookings_where(db, show=is_open) if len(x["seats"]) >= 2)
    cur = [{"seat_id": x["seat_id"], "ticket_type": x["ticket_type"]} for x in b["seats"]]
    bid = b["booking_id"]
    err(env, "update_booking_seats", {"booking_id": bid, "seats": cur}, "nothing would change")
    err(env, "update_booking_seats", {"booking_id": bid, "seats": []}, "at least one seat")
    taken = set(ok(env, "get_seat_availability", {"theater_id": b["theater_id"], "show_id": b["show_id"]})["booked"]) - {x["seat_id"] for x in cur}
    if taken:
        err(env, "update_booking_seats", {"booking_id": bid, "seats": cur[:-1] + [{"seat_id": sorted(taken)[0], "ticket_type": "adult"}]},
            "already booked")
    extra = free_seats(env, (b["theater_id"], b["show_id"]), 1)[0]
    grown = cur + [{"seat_id": extra, "ticket_type": "adult"}]
    need = err(env, "update_booking_seats", {"booking_id": bid, "seats": grown}, "more; a payment")
    diff = float(re.search(r"\$([\d.]+) more", need).group(1))
    m = b["payment_history"][0]["method"]
    pay = {"amount": diff, "method": {"source": m["source"], "payment_method_id": m["payment_method_id"]}}
    err(env, "update_booking_seats", {"booking_id": bid, "seats": grown, "payment": dict(pay, amount=diff + 1)}, "exactly the difference")
    out = ok(env, "update_booking_seats", {"booking_id": bid, "seats": grown, "payment": pay})
    assert out["price_difference"] == diff and len(out["seats"]) == len(cur) + 1 and len(out["delivery"]["tickets"]) == len(cur) + 1
    assert out["totals"]["amount_paid"] == out["totals"]["grand_total"]
    err(env, "update_booking_seats", {"booking_id": bid, "seats": cur, "payment": pay}, "no payment is needed")
    back = ok(env, "update_booking_seats", {"booking_id": bid, "seats": cur})
    assert back["price_difference"] == -diff and back["totals"]["grand_total"] == b["totals"]["grand_total"]
    assert back["payment_history"][-1]["amount"] == -diff and back["payment_history"][-1]["payment_id"].startswith(bid + "-R")
    done = bookings_where(db, show=lambda s: s["status"] == "completed")[0]
    err(env, "update_booking_seats", {"booking_id": done["booking_id"], "seats": [{"seat_id": "A3", "ticket_type": "adult"}]},
        "only scheduled")
    gone = next(x for x in db.tables["bookings"].values() if x["status"] == "canceled")
    err(env, "update_booking_seats", {"booking_id": gone["booking_id"], "seats": [{"seat_id": "A3", "ticket_type": "adult"}]},
        "only confirmed")


SEAT = st.fixed_dictionaries({"seat_id": st.sampled_from(["A1", "B3", "Z9", "", "C4", "a2"]),
                              "ticket_type": st.sampled_from(["adult", "child", "senior", "student", 3])})
PAY = st.fixed_dictionaries({"amount": st.one_of(st.floats(-5, 500, allow_nan=False), st.just("ten")),
                             "method": st.fixed_dictionaries({"source": st.sampled_from(["card", "wallet", "cash", "gift_card", "cheque"]),
                                                              "payment_method_id": st.sampled_from(["pm_000001", "", "cash"])})})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_failed_writes_leave_the_state_unchanged(domain, db, data):
    store = Store(db)
    env = Environment(domain.tools, store)
    bid = data.draw(st.sampled_from(sorted(db.tables["bookings"])[:60] + ["BKG9999", "bkg0001", ""]))
    b = db.tables["bookings"].get(bid) or next(iter(db.tables["bookings"].values()))
    name = data.draw(st.sampled_from(["create_booking", "cancel_booking", "update_booking_seats"]))
    if name == "cancel_booking":
        args = {"booking_id": data.draw(st.sampled_from(["BKG9999", "", 7, None])) if data.draw(st.booleans()) else
                next(x["booking_id"] for x in db.tables["bookings"].values() if x["status"] != "confirmed")}
    elif name == "update_booking_seats":
        args = {"booking_id": bid, "seats": data.draw(st.lists(SEAT, max_size=12))}
        if data.draw(st.booleans()):
            args["payment"] = data.draw(PAY)
    else:
        c = customer_of(db, b)
        args = {"theater_id": b["theater_id"], "show_id": data.draw(st.sampled_from([b["show_id"], "SHW00000"])),
                "customer": {"name": c["name"], "email": data.draw(st.sampled_from([c["email"], "x@y.z"])), "phone": c["phone"]},
                "seats": data.draw(st.lists(SEAT, min_size=1, max_size=12)),
                "delivery_method": data.draw(st.sampled_from(["e-ticket", "post", "kiosk"])),
                "payments": data.draw(st.lists(PAY, min_size=1, max_size=2))}
    before = store.hash()
    out = env.execute(name, args)
    if not out.ok:
        assert store.hash() == before
        assert out.observation.startswith("Error:")


# ---------------------------------------------------------------------------- policy and graph
def test_policy_states_the_rules(domain):
    text = domain.policy
    for needle in ["2024-05-15, 15:00", "email", "yes", "60 minutes", "at most 10 seats", "wheelchair",
                   "cash", "promotions", "transfer", "already taken place", "exactly the difference"]:
        assert needle in text, needle
    assert R.TODAY in text


def test_graph_shape(domain):
    g = domain.graph
    assert sorted(g.nodes) == sorted(GRAPH_NODES)
    assert_graph_follows_the_paper(domain, PAPER["graph"]["tools"], PAPER["graph"]["edges"])
    reach, todo = set(g.roots), list(g.roots)
    while todo:
        for n in g.successors(todo.pop()):
            if n not in reach:
                reach.add(n)
                todo.append(n)
    assert reach == set(g.nodes)


# ---------------------------------------------------------------------------- grounding
@pytest.fixture(scope="module")
def grounded(domain):
    recs = sample(domain.graph, 70, seed=11, domain="movie")
    usage, drops = Counter(), Counter()
    out = [(r, ground_trace(domain, GROUNDER, r, usage, drops, seed=0,
                            want_challenge=True, max_users=20)) for r in recs]
    return out, drops


def test_walks_ground_and_replay(domain, grounded):
    out, drops = grounded
    done = [g for _, g in out if g]
    assert len(done) / len(out) > 0.9, drops
    for rec in done:
        g = rec["grounded"]
        store = Store(domain.database(rec["split"]))
        env = Environment(domain.tools, store)
        assert g["actions"][0]["name"] in AUTH_TOOLS
        for a in g["actions"]:
            assert env.execute(a["name"], a["arguments"]).ok, a
        assert store.hash() == g["final_hash"]
        ground = Ground(domain.database(rec["split"]), domain.tools, g["user_id"], random.Random(0), rec["split"],
                        user_table="customers")
        assert GROUNDER.check_policy([Action(**a) for a in g["actions"]], ground) == []


def test_user_texts_have_no_internal_ids_and_no_second_person(domain, grounded):
    out, _ = grounded
    internal = {s: GROUNDER.internal_ids(domain.database(s)) for s in ("test", "train")}
    challenges = 0
    for rec in (g for _, g in out if g):
        g = rec["grounded"]
        challenges += bool(g["challenge"])
        for text in user_texts(g):
            assert not ids_in(text, internal[rec["split"]]), text
            assert not SECOND_PERSON.search(text), text
        for f in g["facts"]:
            assert not ids_in(f["value"], internal[rec["split"]]), f
            assert re.fullmatch(r"[a-z][a-z0-9_]*", f["key"]), f
        read_only = all(s["kind"] == "read" for s in g["intents"][-1]["steps"])
        if read_only:
            assert any(s["outputs"] for s in g["intents"][-1]["steps"])
    assert challenges > 0


def test_challenges_cover_several_rules(domain, db):
    rules = set()
    for cid in sorted(db.tables["customers"])[:40]:
        g = Ground(db, domain.tools, cid, random.Random(cid), "test", user_table="customers")
        GROUNDER.authenticate(g)
        for func in GROUNDER.challenges:
            ch = func(g)
            if ch is not None:
                rules.add(ch.rule)
                assert not re.search(r"\b(you|your)\b", ch.ask, re.I)
    assert len(rules) >= 4, rules
