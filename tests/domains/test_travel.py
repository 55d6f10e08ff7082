"""Travel domain: database, tools and the rules they enforce, graph, grounding and the built tasks."""
from __future__ import annotations

import copy
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from temo.domains import databases
from temo.domains.kit.money import money
from temo.domains.travel import rules as R
from temo.domains.travel.generate import build_database
from temo.domains.travel.grounding import GROUNDER
from temo.domains.travel.models import KEY_FIELDS, TABLE_MODELS
from temo.domains.travel.tools import AUTH_TOOLS, READ_TOOLS, WRITE_TOOLS
from temo.env import Domain, Environment, Store
from temo.tracer.sample import sample

from domain_checks import (assert_aliases_do_not_reveal_later_facts, assert_graph_follows_the_paper,
                           assert_records_validate, assert_walks_ground_and_replay, expect_ok, expect_refused)

SOURCE_TOOLS = {  # name -> argument names, as in the source toolkit (think is the inferred generic tool)
    "get_traveler_details": {"traveler_id"}, "get_agent_details": {"agent_id"}, "get_package_details": {"package_id"},
    "get_booking_details": {"booking_id"},
    "search_packages": {"destination_city", "destination_country", "category", "departure_date"},
    "list_all_destinations": set(),
    "book_package": {"traveler_id", "package_id", "departure_date", "travelers", "rooming", "add_ons", "insurance",
                     "payment_methods", "agent_id"},
    "cancel_booking": {"booking_id"}, "update_booking_add_ons": {"booking_id", "add_ons", "payment_method_id"},
    "update_booking_departure_date": {"booking_id", "new_departure_date", "payment_method_id"},
    "update_booking_travelers": {"booking_id", "travelers"}, "update_booking_rooming": {"booking_id", "rooming"},
    "schedule_agent_meeting": {"agent_id", "date", "time_range", "traveler_id"},
    "transfer_to_human_agents": {"summary"}, "calculate": {"expression"}, "think": {"thought"},
}
# the rule for graph nodes: the domain's tools less the generic helpers and the identity look-up
GRAPH_NODES = [n for n in SOURCE_TOOLS if n not in ("get_traveler_details", "transfer_to_human_agents", "calculate", "think")]


DOMAIN = "travel"


def ok(env, tool, **args):
    return expect_ok(env, tool, args)


def fails(env, tool, fragment, **args):
    """A refusal of any kind whose text holds ``fragment``."""
    expect_refused(env, tool, args, fragment, kind=None)


def bookings(db, pred):
    pk = db.tables["packages"]
    return [b for _, b in sorted(db.tables["bookings"].items()) if pred(b, pk[b["package_id"]])]


def bookable(db, n=1, status=R.BOOKABLE):
    for pid, p in sorted(db.tables["packages"].items()):
        for d, dep in sorted(p["departures"].items()):
            if dep["status"] in status and dep["available_slots"] >= n:
                yield pid, p, d, dep


def card_of(trav):
    return next(m for m, v in sorted(trav["payment_methods"].items()) if v["source"] != "travel_credit")


def credit_of(trav):
    return next((m for m, v in sorted(trav["payment_methods"].items()) if v["source"] == "travel_credit"), None)


def me(trav):
    return {"first_name": trav["name"]["first_name"], "last_name": trav["name"]["last_name"], "dob": trav["dob"]}


# ------------------------------------------------------------------------------------------------ database
def test_entity_counts_are_the_papers(db):
    counts = db.counts()
    assert (counts["travelers"], counts["packages"], counts["agents"]) == (1000, 87, 87)
    assert 1800 <= counts["bookings"] <= 2600


def test_every_record_validates(domain):
    for split in ("test", "train"):
        assert_records_validate(domain.database(split), TABLE_MODELS, KEY_FIELDS)


def test_references_resolve_and_money_adds_up(db):
    trav, pk, ag, bk = (db.tables[t] for t in ("travelers", "packages", "agents", "bookings"))
    assert sorted(b for t in trav.values() for b in t["bookings"]) == sorted(bk)
    active = Counter()
    for bid, b in bk.items():
        assert bid in trav[b["traveler_id"]]["bookings"]
        p = pk[b["package_id"]]
        assert b["departure_date"] in p["departures"] and b["agent_id"] in p["managed_by_agents"]
        assert b["booking_date"] < b["departure_date"] and b["booking_date"] < R.TODAY
        assert all(x["payment_id"] in trav[b["traveler_id"]]["payment_methods"] for x in b["payment_history"])
        assert all(a in p["add_on_options"] for a in b["add_ons"]) and b["rooming"]["room_type"] in p["room_types"]
        assert b["total_price"] == R.total_price(p["departures"][b["departure_date"]]["base_price"], len(b["travelers"]),
                                                 b["add_ons"], b["insurance"])
        paid = money(sum(x["amount"] for x in b["payment_history"]))
        assert paid == (0 if b["status"] == "cancelled" else b["total_price"])
        if b["status"] != "cancelled":
            active[(b["package_id"], b["departure_date"])] += len(b["travelers"])
        assert bid in ag[b["agent_id"]]["bookings_handled"] and b["traveler_id"] in ag[b["agent_id"]]["assigned_travelers"]
    for pid, p in pk.items():
        for d, dep in p["departures"].items():
            assert dep["available_slots"] == dep["capacity"] - active[(pid, d)]
            assert dep["status"] == R.departure_status(d, dep["available_slots"])
        assert all(pid in ag[a]["managed_packages"] for a in p["managed_by_agents"])
    for aid, a in ag.items():
        assert a["managed_packages"] and all(aid in pk[p]["managed_by_agents"] for p in a["managed_packages"])
        assert sorted(a["bookings_handled"]) == sorted(b for b, x in bk.items() if x["agent_id"] == aid)
    assert len({(t["name"]["first_name"], t["name"]["last_name"]) for t in trav.values()}) == 1000
    assert len({p["name"] for p in pk.values()}) == 87


def test_values_are_varied(db):
    bk, pk, trav = db.tables["bookings"], db.tables["packages"], db.tables["travelers"]
    assert {b["status"] for b in bk.values()} == {"confirmed", "pending", "cancelled"}
    assert {d["status"] for p in pk.values() for d in p["departures"].values()} == {"available", "limited", "sold_out", "closed"}
    assert len({p["category"] for p in pk.values()}) == 8
    assert len({d["country"] for p in pk.values() for d in p["destinations"]}) >= 25
    assert {m["source"] for t in trav.values() for m in t["payment_methods"].values()} == {"credit_card", "debit_card", "travel_credit"}
    assert {b["insurance"] for b in bk.values()} == {None, "standard", "premium"}
    assert sum(p["policies"]["cancel_by_days"] is None for p in pk.values()) >= 3
    sizes = Counter(len(b["travelers"]) for b in bk.values())
    assert sizes[1] and sizes[2] and sizes[3] and sizes[4]


def test_frozen_files_are_the_generators_and_train_is_its_own(db, domain):
    built = databases.build("travel")
    assert databases.check("travel", built) == []
    train = built["db_train"]
    assert {t: len(v) for t, v in train.items() if t != "bookings"} == {"travelers": 1000, "packages": 87, "agents": 87}
    names = lambda tables: {(t["name"]["first_name"], t["name"]["last_name"]) for t in tables["travelers"].values()}  # noqa: E731
    assert len(names(train) & names(built["db"])) < 200
    assert build_database(0) == built["db"]


# ------------------------------------------------------------------------------------------------ tools
def test_tools_match_the_source_and_the_papers_counts(domain):
    assert {n: set(t.args_model.model_fields) for n, t in domain.tools.items()} == SOURCE_TOOLS
    kinds = Counter(t.kind for t in domain.tools.values())
    assert (kinds["read"], kinds["write"]) == (9, 7)
    assert {t.name for t in WRITE_TOOLS} == {n for n, t in domain.tools.items() if t.kind == "write"}
    assert AUTH_TOOLS == ["get_traveler_details"] and len(READ_TOOLS) == 6


def test_reads(env, db):
    trav = db.tables["travelers"]["TRV00001"]
    out = ok(env, "get_traveler_details", traveler_id="TRV00001")
    assert [b["booking_id"] for b in out["bookings"]] == trav["bookings"]
    b = out["bookings"][0]
    assert ok(env, "get_booking_details", booking_id=b["booking_id"]) == b
    assert ok(env, "get_package_details", package_id=b["package_id"])["package_id"] == b["package_id"]
    assert ok(env, "get_agent_details", agent_id=b["agent_id"])["agent_id"] == b["agent_id"]
    fails(env, "get_traveler_details", "not found", traveler_id="TRV99999")
    fails(env, "get_booking_details", "not found", booking_id="TAU001")
    dests = ok(env, "list_all_destinations")
    assert dests == sorted(dests, key=lambda d: (d["country"], d["city"])) and len(dests) == len({tuple(d.values()) for d in dests})
    assert len(dests) == len({(d["city"], d["country"]) for p in db.tables["packages"].values() for d in p["destinations"]})
    assert ok(env, "calculate", expression="2 * (1299 + 50)") == 2698


def test_search_packages_filters(env, db):
    pid, p, date, _ = next(bookable(db))
    city, country = p["destinations"][0]["city"], p["destinations"][0]["country"]
    hits = ok(env, "search_packages", destination_city=city.upper())
    assert pid in [h["package_id"] for h in hits]
    for h in ok(env, "search_packages", destination_country=country, category=p["category"]):
        assert h["category"] == p["category"] and any(d["country"] == country for d in h["destinations"])
        assert all(v["status"] in R.BOOKABLE for v in h["bookable_departures"].values())
    dated = ok(env, "search_packages", departure_date=date)
    assert pid in [h["package_id"] for h in dated] and all(date in h["bookable_departures"] for h in dated)
    assert ok(env, "search_packages", destination_city="Atlantis") == []
    fails(env, "search_packages", "category", category="space")
    fails(env, "search_packages", "YYYY-MM-DD", departure_date="24-06-01")


def _book_args(db, n=2):
    """A traveler with companions and a bookable departure for ``n`` people, as valid book_package arguments."""
    trav = next(t for _, t in sorted(db.tables["travelers"].items()) if len(t["saved_companions"]) >= n - 1 and credit_of(t))
    pid, p, date, dep = next((x for x in bookable(db, n) if "double" in x[1]["room_types"]))
    people = [me(trav)] + [{k: c[k] for k in ("first_name", "last_name", "dob")} for c in trav["saved_companions"][: n - 1]]
    extra = p["add_on_options"][0]
    total = money(dep["base_price"] * n + extra["price"] + 50 * n)
    return trav, p, date, {"traveler_id": trav["traveler_id"], "package_id": pid, "departure_date": date,
                           "travelers": people, "rooming": {"room_type": "double", "occupancy": 2}, "add_ons": [extra],
                           "insurance": "standard", "payment_methods": [{"payment_id": card_of(trav), "amount": total}]}


def test_book_package_creates_a_paid_booking(env, db):
    trav, p, date, args = _book_args(db)
    before = p["departures"][date]["available_slots"]
    credit = credit_of(trav)
    bal = trav["payment_methods"][credit]["extra_info"]["balance"]
    total = args["payment_methods"][0]["amount"]
    part = min(bal, 100.0)
    args["payment_methods"] = [{"payment_id": credit, "amount": part},
                               {"payment_id": card_of(trav), "amount": money(total - part)}]
    b = ok(env, "book_package", **args)
    assert b["booking_id"] == f"BK{len(db.tables['bookings']) + 1:06d}" and b["booking_date"] == R.TODAY
    assert b["status"] == "confirmed" and b["total_price"] == total and b["agent_id"] == p["managed_by_agents"][0]
    dep = env.store.get("packages", p["package_id"])["departures"][date]
    assert dep["available_slots"] == before - 2 and dep["status"] == R.departure_status(date, before - 2)
    t = env.store.get("travelers", trav["traveler_id"])
    assert t["bookings"][-1] == b["booking_id"] and t["payment_methods"][credit]["extra_info"]["balance"] == money(bal - part)
    agent = env.store.get("agents", b["agent_id"])
    assert b["booking_id"] in agent["bookings_handled"] and trav["traveler_id"] in agent["assigned_travelers"]
    second = ok(env, "book_package", **{**args, "payment_methods": [{"payment_id": card_of(trav), "amount": total}]})
    assert int(second["booking_id"][2:]) == int(b["booking_id"][2:]) + 1  # derived from the state, never a fixed list


def test_book_package_rules(env, db):
    trav, p, date, args = _book_args(db)
    total = args["payment_methods"][0]["amount"]
    fails(env, "book_package", "add up", **{**args, "payment_methods": [{"payment_id": card_of(trav), "amount": total - 1}]})
    other = next(m for t in db.tables["travelers"].values() if t is not trav for m in t["payment_methods"])
    fails(env, "book_package", "not saved", **{**args, "payment_methods": [{"payment_id": other, "amount": total}]})
    fails(env, "book_package", "not an add-on", **{**args, "add_ons": [{"type": "meal", "description": "Free dinner", "price": 1.0}]})
    fails(env, "book_package", "costs", **{**args, "add_ons": [{**args["add_ons"][0], "price": 1.0}]})
    fails(env, "book_package", "occupancy", **{**args, "rooming": {"room_type": "double", "occupancy": 3}})
    missing = next(r for r in R.ROOM_CAPACITY if r not in p["room_types"])
    fails(env, "book_package", "offers only", **{**args, "rooming": {"room_type": missing, "occupancy": 1}})
    stranger = next(a for a in sorted(db.tables["agents"]) if a not in p["managed_by_agents"])
    fails(env, "book_package", "does not manage", **{**args, "agent_id": stranger})
    fails(env, "book_package", "1 to 8", **{**args, "travelers": [args["travelers"][0]] * 9})
    fails(env, "book_package", "insurance", **{**args, "insurance": "gold"})  # the source charged unknown labels nothing
    fails(env, "book_package", "no departure", **{**args, "departure_date": "2024-12-31"})
    sold = next(x for x in bookable(db, 0, ("sold_out",)))
    fails(env, "book_package", "sold out", **{**args, "package_id": sold[0], "departure_date": sold[2]})
    closed = next(x for x in bookable(db, 0, ("closed",)))
    fails(env, "book_package", "closed", **{**args, "package_id": closed[0], "departure_date": closed[2]})
    tight = next(x for x in bookable(db, 1, ("limited",)))
    crowd = [args["travelers"][0]] * (tight[3]["available_slots"] + 1)
    fails(env, "book_package", "free places", **{**args, "package_id": tight[0], "departure_date": tight[2], "travelers": crowd})
    credit = credit_of(trav)
    fails(env, "book_package", "travel credit", **{**args, "payment_methods": [{"payment_id": credit, "amount": total}]})


def test_cancel_refunds_what_each_method_paid(env, db):
    b = bookings(db, lambda b, p: R.can_cancel(p, b) and len({x["payment_id"] for x in b["payment_history"]}) == 2)[0]
    trav = db.tables["travelers"][b["traveler_id"]]
    pkg = db.tables["packages"][b["package_id"]]
    slots = pkg["departures"][b["departure_date"]]["available_slots"]
    out = ok(env, "cancel_booking", booking_id=b["booking_id"])
    assert out["status"] == "cancelled" and money(sum(x["amount"] for x in out["payment_history"])) == 0
    assert len(out["payment_history"]) == 2 * len(b["payment_history"])
    assert env.store.get("packages", pkg["package_id"])["departures"][b["departure_date"]]["available_slots"] == slots + len(b["travelers"])
    credit = credit_of(trav)
    if credit in {x["payment_id"] for x in b["payment_history"]}:
        paid = sum(x["amount"] for x in b["payment_history"] if x["payment_id"] == credit)
        assert env.store.get("travelers", trav["traveler_id"])["payment_methods"][credit]["extra_info"]["balance"] == \
            money(trav["payment_methods"][credit]["extra_info"]["balance"] + paid)
    fails(env, "cancel_booking", "cancelled", booking_id=b["booking_id"])  # no second refund


def test_cancellation_terms_are_the_agents_job(env, db):
    """The source leaves a package's cancellation terms to the agent: the tool cancels a booking past its
    deadline (or one reviewed case by case), the policy forbids it, and the policy check of the Tracer
    flags such a reference, so the tasks that ask for it test the agent."""
    from temo.core import Action
    from temo.env.grounding import Ground

    late = bookings(db, lambda b, p: b["status"] in R.ACTIVE and p["policies"]["cancel_by_days"] is not None
                    and 0 < R.days_until(b["departure_date"]) < p["policies"]["cancel_by_days"])[0]
    review = bookings(db, lambda b, p: b["status"] in R.ACTIVE and p["policies"]["cancel_by_days"] is None
                      and R.days_until(b["departure_date"]) > 0)[0]
    fine = bookings(db, lambda b, p: R.can_cancel(p, b))[0]
    for b in (late, review):
        assert ok(env, "cancel_booking", booking_id=b["booking_id"])["status"] == "cancelled"
    policy = (Domain.load("travel").policy).lower()
    assert "cancel_by_days" in policy and "case by case" in policy
    for b, expected in ((late, ["cancel_outside_terms"]), (review, ["cancel_outside_terms"]), (fine, [])):
        g = Ground(db, env.tools, b["traveler_id"], None, "test", user_table="travelers")
        assert GROUNDER.check_policy([Action(name="cancel_booking", arguments={"booking_id": b["booking_id"]})], g) == expected
    other = next(t for t in db.tables["travelers"] if t != fine["traveler_id"])
    g = Ground(db, env.tools, other, None, "test", user_table="travelers")
    assert "other_travelers_booking" in GROUNDER.check_policy(
        [Action(name="cancel_booking", arguments={"booking_id": fine["booking_id"]})], g)
    past = bookings(db, lambda b, p: b["status"] in R.ACTIVE and b["departure_date"] < R.TODAY)[0]
    fails(env, "cancel_booking", "departed", booking_id=past["booking_id"])
    asked = {t.meta.get("challenge_rule") for t in Domain.load("travel").tasks("test")}
    assert {"cancel_window", "case_by_case_cancellation"} & asked  # some test tasks ask for it


def test_update_add_ons(env, db):
    b = bookings(db, lambda b, p: R.can_change(p, b) and b["add_ons"] and len(p["add_on_options"]) > len(b["add_ons"]))[0]
    pkg, trav = db.tables["packages"][b["package_id"]], db.tables["travelers"][b["traveler_id"]]
    add = next(a for a in pkg["add_on_options"] if a not in b["add_ons"])
    out = ok(env, "update_booking_add_ons", booking_id=b["booking_id"], add_ons=[*b["add_ons"], add], payment_method_id=card_of(trav))
    assert out["total_price"] == money(b["total_price"] + add["price"])
    assert out["payment_history"][-1] == {"payment_id": card_of(trav), "amount": add["price"]}
    fails(env, "update_booking_add_ons", "already", booking_id=b["booking_id"], add_ons=out["add_ons"], payment_method_id=card_of(trav))
    never = [m for m in trav["payment_methods"] if m not in {x["payment_id"] for x in out["payment_history"]}]
    if never:
        fails(env, "update_booking_add_ons", "paid for this booking", booking_id=b["booking_id"], add_ons=[],
              payment_method_id=never[0])
    refund = ok(env, "update_booking_add_ons", booking_id=b["booking_id"], add_ons=[], payment_method_id=card_of(trav))
    assert refund["total_price"] == money(b["total_price"] - sum(a["price"] for a in b["add_ons"]))
    close = bookings(db, lambda b, p: b["status"] in R.ACTIVE and 0 < R.days_until(b["departure_date"]) < p["policies"]["change_by_days"])[0]
    fails(env, "update_booking_add_ons", "too close", booking_id=close["booking_id"], add_ons=[],
          payment_method_id=card_of(db.tables["travelers"][close["traveler_id"]]))


def test_update_departure_date(env, db):
    def targets(b, p):
        return [d for d in sorted(p["departures"]) if d != b["departure_date"] and R.can_move_to(p, d, len(b["travelers"]))]

    b = bookings(db, lambda b, p: R.can_change(p, b) and targets(b, p))[0]
    pkg, n = db.tables["packages"][b["package_id"]], len(b["travelers"])
    new = targets(b, pkg)[0]
    pm = b["payment_history"][-1]["payment_id"]
    out = ok(env, "update_booking_departure_date", booking_id=b["booking_id"], new_departure_date=new, payment_method_id=pm)
    expect = R.total_price(pkg["departures"][new]["base_price"], n, b["add_ons"], b["insurance"])
    assert out["departure_date"] == new and out["total_price"] == expect
    assert money(sum(x["amount"] for x in out["payment_history"])) == expect
    deps = env.store.get("packages", pkg["package_id"])["departures"]
    assert deps[new]["available_slots"] == pkg["departures"][new]["available_slots"] - n
    assert deps[b["departure_date"]]["available_slots"] == pkg["departures"][b["departure_date"]]["available_slots"] + n
    fails(env, "update_booking_departure_date", "already departs", booking_id=b["booking_id"], new_departure_date=new, payment_method_id=pm)
    fails(env, "update_booking_departure_date", "no departure", booking_id=b["booking_id"], new_departure_date="2025-01-01", payment_method_id=pm)
    sold = bookings(db, lambda b, p: R.can_change(p, b) and any(v["status"] == "sold_out" for v in p["departures"].values()))[0]
    full = next(d for d, v in sorted(db.tables["packages"][sold["package_id"]]["departures"].items()) if v["status"] == "sold_out")
    fails(env, "update_booking_departure_date", "sold out", booking_id=sold["booking_id"], new_departure_date=full,
          payment_method_id=sold["payment_history"][0]["payment_id"])


def test_update_travelers_and_rooming(env, db):
    b = bookings(db, lambda b, p: R.can_change(p, b) and len(b["travelers"]) >= 3 and "double" in p["room_types"])[0]
    people = copy.deepcopy(b["travelers"])
    people[-1] = {"first_name": "Mateo", "last_name": "Rossi", "dob": "1990-02-03"}
    assert ok(env, "update_booking_travelers", booking_id=b["booking_id"], travelers=people)["travelers"] == people
    assert env.store.get("bookings", b["booking_id"])["total_price"] == b["total_price"]
    fails(env, "update_booking_travelers", "must keep", booking_id=b["booking_id"], travelers=people[:-1])
    fails(env, "update_booking_travelers", "already", booking_id=b["booking_id"], travelers=people)
    fails(env, "update_booking_travelers", "before", booking_id=b["booking_id"], travelers=[*people[:-1], {**people[-1], "dob": "2030-01-01"}])
    fails(env, "update_booking_rooming", "occupancy", booking_id=b["booking_id"], rooming={"room_type": "double", "occupancy": 3})
    room = {"room_type": "double", "occupancy": 1} if b["rooming"] != {"room_type": "double", "occupancy": 1} else {"room_type": "double", "occupancy": 2}
    assert ok(env, "update_booking_rooming", booking_id=b["booking_id"], rooming=room)["rooming"] == room
    fails(env, "update_booking_rooming", "already", booking_id=b["booking_id"], rooming=room)
    gone = bookings(db, lambda b, p: b["status"] == "cancelled" and R.days_until(b["departure_date"]) > 0)[0]
    fails(env, "update_booking_rooming", "cancelled", booking_id=gone["booking_id"], rooming=room)


def test_schedule_agent_meeting(env, db):
    aid, agent = next((a, x) for a, x in sorted(db.tables["agents"].items()) if x["availability"])
    date, day = next(iter(sorted(agent["availability"].items())))
    slot = day["slots"][0]
    out = ok(env, "schedule_agent_meeting", agent_id=aid, date=date, time_range=slot, traveler_id="TRV00001")
    assert out["status"] == "scheduled" and out["timezone"] == day["timezone"]
    rec = env.store.get("agents", aid)
    assert slot not in rec["availability"][date]["slots"]
    assert rec["meetings"] == [{"date": date, "time_range": slot, "traveler_id": "TRV00001"}]
    fails(env, "schedule_agent_meeting", "not a free slot", agent_id=aid, date=date, time_range=slot, traveler_id="TRV00002")
    fails(env, "schedule_agent_meeting", "no free slot", agent_id=aid, date="2024-09-01", time_range=slot, traveler_id="TRV00002")
    fails(env, "schedule_agent_meeting", "after today", agent_id=aid, date=R.TODAY, time_range=slot, traveler_id="TRV00002")
    fails(env, "schedule_agent_meeting", "traveler", agent_id=aid, date=date, time_range=slot, traveler_id="TRV00000")


WRITE_NAMES = [t.name for t in WRITE_TOOLS]


def bad_arguments(db, data, tool):
    """Arguments for ``tool`` drawn from real and made-up ids, dates, amounts, people and rooms."""
    bids = sorted(db.tables["bookings"])[:400]
    pms = ["PM000000", *db.tables["travelers"]["TRV00001"]["payment_methods"], *db.tables["travelers"]["TRV00002"]["payment_methods"]]
    dates = ["2024-02-30", "2024-05-10", "2024-06-15",
             *sorted({d for p in db.tables["packages"].values() for d in p["departures"]})[::7]]
    amount = st.floats(min_value=-50, max_value=9000, allow_nan=False).map(lambda x: round(x, 2))
    person = st.fixed_dictionaries({"first_name": st.sampled_from(["Ana", "", " Li "]), "last_name": st.sampled_from(["Silva", "Ng"]),
                                    "dob": st.sampled_from(["1990-01-02", "2031-01-01", "1990-13-01"])})
    room = st.fixed_dictionaries({"room_type": st.sampled_from(list(R.ROOM_CAPACITY)), "occupancy": st.integers(0, 5)})
    pkg = data.draw(st.sampled_from(sorted(db.tables["packages"])))
    extra = {"type": "meal", "description": "Snacks", "price": 5.0}
    add_ons = st.lists(st.sampled_from(db.tables["packages"][pkg]["add_on_options"] + [extra]), max_size=2)
    pay = st.fixed_dictionaries({"payment_id": st.sampled_from(pms), "amount": amount})
    d = lambda strategy: data.draw(strategy)  # noqa: E731
    booking, method = (lambda: d(st.sampled_from(bids + ["BK999999"]))), (lambda: d(st.sampled_from(pms)))
    return {
        "book_package": lambda: {"traveler_id": d(st.sampled_from(["TRV00001", "TRV00002", "TRV01001"])), "package_id": pkg,
                                 "departure_date": d(st.sampled_from(dates)), "travelers": d(st.lists(person, max_size=3)),
                                 "rooming": d(room), "add_ons": d(add_ons), "payment_methods": d(st.lists(pay, max_size=2)),
                                 "insurance": d(st.sampled_from([None, "standard", "premium"]))},
        "cancel_booking": lambda: {"booking_id": booking()},
        "update_booking_add_ons": lambda: {"booking_id": booking(), "add_ons": d(add_ons), "payment_method_id": method()},
        "update_booking_departure_date": lambda: {"booking_id": booking(), "new_departure_date": d(st.sampled_from(dates)),
                                                  "payment_method_id": method()},
        "update_booking_travelers": lambda: {"booking_id": booking(), "travelers": d(st.lists(person, max_size=4))},
        "update_booking_rooming": lambda: {"booking_id": booking(), "rooming": d(room)},
        "schedule_agent_meeting": lambda: {"agent_id": d(st.sampled_from(["AGT001", "AGT002", "AGT100"])),
                                           "date": d(st.sampled_from(["2024-05-16", "2024-05-20", "2024-06-01", "bad"])),
                                           "time_range": d(st.sampled_from(R.MEETING_SLOTS + ["9-10"])), "traveler_id": "TRV00003"},
    }[tool]()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_failed_writes_leave_the_state_unchanged(domain, db, data):
    """A write that fails leaves the state hash exactly as before; one that succeeds changes it."""
    store = Store(db)
    env = Environment(domain.tools, store)
    tool = data.draw(st.sampled_from(WRITE_NAMES))
    args = bad_arguments(db, data, tool)
    before = store.hash()
    out = env.execute(tool, args)
    assert (store.hash() != before) if out.ok else (store.hash() == before), out.observation


def test_policy_states_the_rules_the_tools_and_tasks_rely_on(domain):
    text = " ".join(domain.policy.split())
    for needle in ("2024-05-15", "7 days", "$50 per traveler", "$100 per traveler", "change_by_days", "cancel_by_days",
                   "case by case", "1 to 8", "yes", "transfer_to_human_agents", "sold_out", "limited", "Travel credit"):
        assert needle in text, needle


# ------------------------------------------------------------------------------------------------ graph
def test_graph_shape(domain):
    assert sorted(domain.graph.nodes) == sorted(GRAPH_NODES)
    assert_graph_follows_the_paper(domain, tools=12, edges=50)


# ------------------------------------------------------------------------------------------------ grounding
@pytest.mark.parametrize("split", ["test", "train"])
def test_sampled_walks_ground_and_replay(domain, split):
    db = domain.database(split)
    walks = [{**t, "split": split} for t in sample(domain.graph, 70, 3, "travel")[:60]]
    grounded = assert_walks_ground_and_replay(domain, walks, 3, 0.8, GROUNDER.internal_ids(db),
                                              want_challenge=True, max_users=20)
    rules = Counter()
    for g in (r["grounded"] for r in grounded):
        assert g["actions"][0] == {"name": "get_traveler_details", "arguments": {"traveler_id": g["user_id"]}, "intent": 0}
        if g["challenge"]:
            rules[g["challenge"]["rule"]] += 1
        for i in g["intents"]:
            if not any(s["kind"] == "write" for s in i["steps"]):
                assert i["steps"][-1]["outputs"], i["tools"]
    assert len(rules) >= 3, rules


def test_fact_aliases_do_not_reveal_later_facts(domain):
    assert_aliases_do_not_reveal_later_facts(domain.tasks("test") + domain.tasks("train")[:150])


def test_candidate_users_have_what_the_trace_needs(db):
    assert len(GROUNDER.candidate_users(db, "test", [["search_packages", "book_package"]])) == 1000
    pk, bk = db.tables["packages"], db.tables["bookings"]
    for tools, check in (([["cancel_booking"]], R.can_cancel), ([["update_booking_rooming"]], R.can_change)):
        users = GROUNDER.candidate_users(db, "test", tools)
        assert 100 < len(users) < 1000
        for u in users:
            assert any(check(pk[bk[b]["package_id"]], bk[b]) for b in db.tables["travelers"][u]["bookings"])
    assert GROUNDER.test_share == 1.0 and GROUNDER.user_table == "travelers"


# ------------------------------------------------------------------------------------------------ built tasks
