"""Telecom domain: database, tools and the rules they enforce, graph, and grounding hooks."""
from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from temo.domains import databases
from temo.domains.kit.split import split_of
from temo.domains.telecom import rules as R
from temo.domains.telecom import tools as T
from temo.domains.telecom.catalog import DEVICES, SERVICES
from temo.domains.telecom.grounding import GROUNDER
from temo.env import Environment, Store
from temo.env.grounding import Ground, GroundingFailed
from temo.tracer.sample import sample

from domain_checks import SECOND_PERSON, assert_in_users_words, assert_paper_graph_shape
from domain_checks import expect_ok as ok
from domain_checks import expect_refused as refused

PAPER_FACTS = Path("/work/shared/paper_facts.json")
PAPER_GRAPHS = Path("/work/shared/sources/paper_graphs.json")


DOMAIN = "telecom"


def customers(db, pred=lambda c, b: True):
    return [c for c in db.tables["customers"].values() if pred(c, db.tables["billing"][c["customer_id"]])]


def one(db, pred=lambda c, b: True):
    found = customers(db, pred)
    assert found, "no customer matches the predicate"
    return found[0]


# ---------------------------------------------------------------------------- database


def test_entity_counts_match_the_paper(db):
    counts = db.counts()
    assert (counts["customers"], counts["services"], counts["tickets"]) == (500, 15, 240)
    assert (counts["billing"], counts["devices"]) == (500, 19)
    if PAPER_FACTS.exists():
        paper = json.loads(PAPER_FACTS.read_text())["domains"]["telecom"]
        assert {k: counts[k] for k in paper["entities"]} == paper["entities"]


def test_every_record_validates(db):
    from temo.domains.telecom.models import TABLE_KEYS, TABLE_MODELS

    assert set(TABLE_MODELS) == set(db.tables)
    for table, model in TABLE_MODELS.items():
        for key, rec in db.tables[table].items():
            model.model_validate(rec)
            assert rec[TABLE_KEYS[table]] == key


def test_database_is_consistent(db):
    services, catalog = db.tables["services"], db.tables["devices"]
    custs = db.tables["customers"].values()
    assert len({c["demographics"]["email"] for c in custs}) == 500
    assert len({R.digits(c["demographics"]["phone"]) for c in custs}) == 500
    for c in custs:
        cats = [services[s]["category"] for s in c["services"]]
        assert c["services"] and len(cats) == len(set(cats))  # one service per category
        for sid in c["services"]:
            s = services[sid]
            if s["eligibility"] == "senior":
                assert R.is_senior(c)
            if s["eligibility"] == "business":
                assert c["account"]["account_type"] == "business"
            attached = [d for d in c["devices"] if d["service"] == sid]
            assert len(attached) <= s["max_devices"]
            assert all(catalog[d["name"]]["category"] == R.DEVICE_CATEGORY[s["category"]] for d in attached)
        assert [d["device_id"] for d in c["devices"]] == [str(n) for n in range(1, len(c["devices"]) + 1)]
        assert all(d["service"] in (None, *c["services"]) for d in c["devices"])
        b = db.tables["billing"][c["customer_id"]]
        assert set(b["monthly_charges"]) == {*c["services"], R.TAXES_KEY}
        assert all(b["monthly_charges"][s] == services[s]["price"] for s in c["services"])
        assert b["monthly_charges"] == R.with_taxes(b["monthly_charges"])
        months = R.CYCLE_MONTHS[b["billing_cycle"]]
        assert b["last_statement"]["amount"] == round(R.monthly_total(b["monthly_charges"]) * months, 2)
        since = sum(p["amount"] for p in b["payment_history"] if p["date"] >= b["last_statement"]["date"])
        assert b["current_balance"] == round(b["last_statement"]["amount"] - since, 2)
        assert b["next_bill_date"] == R.add_months(b["last_statement"]["date"], months) > R.TODAY
        assert b["last_payment"] == b["payment_history"][0] and b["last_payment"]["date"] < R.TODAY
        assert [p["date"] for p in b["payment_history"]] == sorted((p["date"] for p in b["payment_history"]), reverse=True)
        assert c["billing_preferences"] == {k: b[k] for k in ("paperless", "auto_pay", "billing_cycle")}
        assert c["account"]["account_number"] == b["account_number"] and c["account"]["created_date"] < R.TODAY
        if b["auto_pay"]:
            assert b["current_balance"] == 0
    open_keys = Counter((t["customer_id"], t["category"]) for t in db.tables["tickets"].values() if t["status"] == "open")
    assert max(open_keys.values()) == 1
    ordered = sorted(db.tables["tickets"].values(), key=lambda t: t["ticket_id"])
    assert [t["ticket_id"] for t in ordered] == [f"TICKET{n:05d}" for n in range(1, 241)]
    assert [t["created_date"] for t in ordered] == sorted(t["created_date"] for t in ordered)
    assert all(t["customer_id"] in db.tables["customers"] and t["created_date"] < R.TODAY for t in ordered)
    # sensible mixes
    assert 0.1 < sum(R.is_senior(c) for c in custs) / 500 < 0.5
    assert 20 < sum(c["account"]["account_type"] == "business" for c in custs) < 120
    assert 40 < sum(b["current_balance"] > 0 for b in db.tables["billing"].values()) < 200
    assert {b["billing_cycle"] for b in db.tables["billing"].values()} == set(R.CYCLE_MONTHS)
    assert len(Counter(s for c in custs for s in c["services"])) == 15


def test_frozen_database_is_reproduced_byte_for_byte():
    assert databases.check("telecom", databases.build("telecom")) == []


# ---------------------------------------------------------------------------- tools


def test_tool_counts_and_schemas(domain):
    kinds = Counter(t.kind for t in domain.tools.values())
    assert (kinds["read"], kinds["write"]) == (12, 6)
    assert {"calculate", "think"} <= set(domain.tools) and "transfer_to_human_agents" not in domain.tools
    assert set(T.AUTH_TOOLS) == {"find_customer_by_email", "find_customer_by_phone"}
    args = {n: set(t.openai_schema()["function"]["parameters"]["properties"]) for n, t in domain.tools.items()}
    assert args["manage_service"] == {"customer_id", "action", "service_id", "devices_ids"}
    assert args["manage_billing"] == {"customer_id", "paperless", "auto_pay", "billing_cycle"}
    assert args["record_payment"] == {"customer_id", "amount", "method", "date"}
    assert args["modify_support_ticket"] == {"ticket_id", "status", "priority"}
    assert args["create_support_ticket"] == {"customer_id", "category", "priority"}
    assert args["get_services"] == set() and args["get_senior_discount"] == {"original_price"}
    for t in domain.tools.values():
        fn = t.openai_schema()["function"]
        assert fn["description"]
        assert all(p.get("description") for p in fn["parameters"]["properties"].values()), t.name
        if t.kind == "read" and t.name not in ("calculate", "think"):
            assert t.name.startswith(("get_", "find_", "troubleshoot_"))


def test_identity_lookups(env, db):
    c = one(db)
    demo = c["demographics"]
    assert ok(env, "find_customer_by_email", {"email": demo["email"].upper()}) == c["customer_id"]
    area, mid, last = demo["phone"].split("-")
    assert ok(env, "find_customer_by_phone", {"phone": f"({area}) {mid}-{last}"}) == c["customer_id"]
    assert ok(env, "find_customer_by_phone", {"phone": f"+1 {area}{mid}{last}"}) == c["customer_id"]
    refused(env, "find_customer_by_email", {"email": "nobody@nowhere.test"}, "no customer")
    refused(env, "find_customer_by_phone", {"phone": "555-0100"}, "10-digit")
    refused(env, "find_customer_by_phone", {"phone": "999-999-9999"}, "no customer")


def test_read_tools_on_real_records(env, db):
    c = one(db)
    cid = c["customer_id"]
    assert ok(env, "get_customer_details", {"customer_id": cid}) == c
    assert ok(env, "get_billing_details", {"customer_id": cid}) == db.tables["billing"][cid]
    assert ok(env, "get_service_details", {"service_id": "tv_premium"})["price"] == 95.0
    assert ok(env, "get_device_details", {"device_name": 'Samsung 65" Smart TV'})["model"] == "QN65Q80C"
    assert len(ok(env, "get_services", {})) == 15
    tid = next(iter(db.tables["tickets"]))
    assert ok(env, "get_support_ticket_details", {"ticket_id": tid}) == db.tables["tickets"][tid]
    steps = ok(env, "troubleshoot_device", {"device_name": "WiFi 6 Router", "issue": "slow_speeds"})["steps"]
    assert any(R.KEY_STEP[("networking", "slow_speeds")] in s for s in steps)
    assert env.execute("get_senior_discount", {"original_price": "45.00"}).observation == "40.00"
    assert env.execute("get_senior_discount", {"original_price": "3"}).observation == "0.00"
    assert ok(env, "calculate", {"expression": "85 + 60"}) == 145
    for name, args, words in [
        ("get_customer_details", {"customer_id": "nobody_here_0000"}, "not found"),
        ("get_billing_details", {"customer_id": "nobody_here_0000"}, "not found"),
        ("get_service_details", {"service_id": "mobile_infinite"}, "get_services"),
        ("get_device_details", {"device_name": "iPhone 99"}, "not in the catalog"),
        ("get_support_ticket_details", {"ticket_id": "TICKET99999"}, "not found"),
        ("troubleshoot_device", {"device_name": "WiFi 6 Router", "issue": "battery_drain"}, "no troubleshooting guide"),
        ("troubleshoot_device", {"device_name": "Home Security System", "issue": "slow_speeds"}, "support ticket"),
        ("get_senior_discount", {"original_price": "ninety"}, "not a price"),
    ]:
        refused(env, name, args, words)
    assert env.execute("troubleshoot_device", {"device_name": "iPhone 14", "issue": "overheating"}).error == "bad_args"


def test_every_model_and_issue_has_guides_only_where_they_make_sense():
    for name, (category, _, _) in DEVICES.items():
        assert any((category, i) in R.GUIDES for i in R.ISSUES), name
    assert set(R.KEY_STEP) == set(R.GUIDES)
    for key, phrase in R.KEY_STEP.items():
        assert any(phrase in s.lower() or phrase in s for s in R.GUIDES[key])


# ---------------------------------------------------------------------------- services and devices


def test_service_add_and_remove_update_devices_and_charges(env, db):
    c = one(db, lambda c, b: "internet_cable_100mb" in c["services"] and "tv_basic" not in c["services"]
            and "tv_premium" not in c["services"] and "tv_sports_package" not in c["services"])
    cid = c["customer_id"]
    router = next(d["device_id"] for d in c["devices"] if d["service"] == "internet_cable_100mb")
    out = ok(env, "manage_service", {"customer_id": cid, "action": "remove", "service_id": "internet_cable_100mb"})
    assert router in out["devices_detached"]
    bill = env.store.get("billing", cid)
    assert "internet_cable_100mb" not in bill["monthly_charges"]
    assert bill["monthly_charges"] == R.with_taxes(bill["monthly_charges"])
    assert out["monthly_total"] == R.monthly_total(bill["monthly_charges"])
    # the swap: the freed router goes onto the new plan
    out = ok(env, "manage_service", {"customer_id": cid, "action": "add", "service_id": "internet_fiber_2gb",
                                     "devices_ids": [router]})
    cust = env.store.get("customers", cid)
    assert "internet_fiber_2gb" in cust["services"]
    assert next(d for d in cust["devices"] if d["device_id"] == router)["service"] == "internet_fiber_2gb"
    assert env.store.get("billing", cid)["monthly_charges"]["internet_fiber_2gb"] == 120.0
    listed = ok(env, "manage_service", {"customer_id": cid, "action": "list"})
    assert [s["service_id"] for s in listed["services"]] == cust["services"]
    refused(env, "manage_service", {"customer_id": cid, "action": "list", "service_id": "tv_basic"}, "takes no")
    refused(env, "manage_service", {"customer_id": cid, "action": "add", "service_id": "internet_fiber_2gb"}, "already has")
    refused(env, "manage_service", {"customer_id": cid, "action": "add", "service_id": "internet_fiber_1gb"}, "one per category")
    refused(env, "manage_service", {"customer_id": cid, "action": "remove", "service_id": "tv_basic"}, "does not have")
    refused(env, "manage_service", {"customer_id": cid, "action": "remove", "service_id": "internet_fiber_2gb",
                                    "devices_ids": [router]}, "only used when adding")
    refused(env, "manage_service", {"customer_id": cid, "action": "add"}, "required")
    refused(env, "manage_service", {"customer_id": cid, "action": "add", "service_id": "tv_platinum"}, "not found")
    refused(env, "manage_service", {"customer_id": cid, "action": "add", "service_id": "tv_basic",
                                    "devices_ids": [router]}, "cannot be attached")
    refused(env, "manage_service", {"customer_id": cid, "action": "add", "service_id": "tv_basic",
                                    "devices_ids": ["99"]}, "not on this customer's account")


def test_eligibility_of_senior_and_business_plans(env, db):
    young = one(db, lambda c, b: not R.is_senior(c) and not any(SERVICES[s][1] == "mobile" for s in c["services"])
                and c["account"]["account_type"] == "residential")
    refused(env, "manage_service", {"customer_id": young["customer_id"], "action": "add", "service_id": "mobile_senior"},
            "aged 65")
    refused(env, "manage_service", {"customer_id": young["customer_id"], "action": "add",
                                    "service_id": "mobile_business_10lines"}, "business accounts")
    if "business_phone_system" not in young["services"]:
        refused(env, "manage_service", {"customer_id": young["customer_id"], "action": "add",
                                        "service_id": "business_phone_system"}, "business accounts")
    senior = one(db, lambda c, b: R.is_senior(c) and not any(SERVICES[s][1] == "mobile" for s in c["services"]))
    ok(env, "manage_service", {"customer_id": senior["customer_id"], "action": "add", "service_id": "mobile_senior"})


def test_device_limits_and_attached_devices(env, db):
    c = one(db, lambda c, b: "mobile_family_4lines" in c["services"])
    cid = c["customer_id"]
    on_plan = [d["device_id"] for d in c["devices"] if d["service"] == "mobile_family_4lines"]
    refused(env, "manage_service", {"customer_id": cid, "action": "remove", "service_id": "mobile_family_4lines",
                                    "devices_ids": on_plan}, "only used when adding")
    ok(env, "manage_service", {"customer_id": cid, "action": "remove", "service_id": "mobile_family_4lines"})
    new_ids = [ok(env, "add_device", {"customer_id": cid, "device_name": "Google Pixel 8"})["device"]["device_id"]
               for _ in range(5)]
    assert new_ids == [str(len(c["devices"]) + n) for n in range(1, 6)]
    refused(env, "manage_service", {"customer_id": cid, "action": "add", "service_id": "mobile_family_4lines",
                                    "devices_ids": new_ids}, "at most 4")
    refused(env, "manage_service", {"customer_id": cid, "action": "add", "service_id": "mobile_family_4lines",
                                    "devices_ids": [new_ids[0], new_ids[0]]}, "more than once")
    ok(env, "manage_service", {"customer_id": cid, "action": "add", "service_id": "mobile_family_4lines",
                               "devices_ids": new_ids[:4]})
    other = one(db, lambda c, b: "mobile_unlimited" in c["services"] and "internet_cable_100mb" not in c["services"]
                and not any(SERVICES[s][1] == "internet" for s in c["services"]))
    phone = next(d["device_id"] for d in other["devices"] if d["service"] == "mobile_unlimited")
    refused(env, "manage_service", {"customer_id": other["customer_id"], "action": "add",
                                    "service_id": "internet_cable_100mb", "devices_ids": [phone]}, "cannot be attached")
    c2 = one(db, lambda c, b: "mobile_basic" in c["services"] and any(d["service"] == "mobile_basic" for d in c["devices"]))
    busy = next(d["device_id"] for d in c2["devices"] if d["service"] == "mobile_basic")
    ok(env, "manage_service", {"customer_id": c2["customer_id"], "action": "remove", "service_id": "mobile_basic"})
    ok(env, "manage_service", {"customer_id": c2["customer_id"], "action": "add", "service_id": "mobile_unlimited",
                               "devices_ids": [busy]})
    assert next(d for d in env.store.get("customers", c2["customer_id"])["devices"]
                if d["device_id"] == busy)["service"] == "mobile_unlimited"
    refused(env, "add_device", {"customer_id": cid, "device_name": "Nokia 3310"}, "not in the catalog")
    refused(env, "add_device", {"customer_id": "nobody_here_0000", "device_name": "iPhone 14"}, "not found")


def test_a_device_on_another_service_must_be_freed_first(env, db):
    c = one(db, lambda c, b: "mobile_unlimited" in c["services"])
    phone = next(d["device_id"] for d in c["devices"] if d["service"] == "mobile_unlimited")
    env.store.edit("customers", c["customer_id"])["services"].remove("mobile_unlimited")  # category free, device still held
    refused(env, "manage_service", {"customer_id": c["customer_id"], "action": "add", "service_id": "mobile_basic",
                                    "devices_ids": [phone]}, "already attached")


# ---------------------------------------------------------------------------- tickets


def test_tickets_open_once_per_category_and_closed_ones_stay_closed(env, db):
    tickets = db.tables["tickets"].values()
    t_open = next(t for t in tickets if t["status"] == "open")
    cid = t_open["customer_id"]
    refused(env, "create_support_ticket", {"customer_id": cid, "category": t_open["category"]}, t_open["ticket_id"])
    free = next(c for c in R.TICKET_CATEGORIES
                if not any(t["customer_id"] == cid and t["category"] == c and t["status"] == "open" for t in tickets))
    rec = ok(env, "create_support_ticket", {"customer_id": cid, "category": free, "priority": "urgent"})
    assert rec == {"ticket_id": "TICKET00241", "customer_id": cid, "category": free, "status": "open",
                   "priority": "urgent", "created_date": R.TODAY}
    other = next(c for c in db.tables["customers"]
                 if not any(t["customer_id"] == c and t["status"] == "open" for t in tickets))
    assert ok(env, "create_support_ticket", {"customer_id": other, "category": "account"}) == {
        "ticket_id": "TICKET00242", "customer_id": other, "category": "account", "status": "open", "priority": "medium",
        "created_date": R.TODAY}
    refused(env, "create_support_ticket", {"customer_id": "nobody_here_0000", "category": "tv"}, "not found")
    assert env.execute("create_support_ticket", {"customer_id": cid, "category": "weather"}).error == "bad_args"
    out = ok(env, "modify_support_ticket", {"ticket_id": t_open["ticket_id"], "status": "open", "priority": "low"
                                            if t_open["priority"] != "low" else "high"})
    assert out["status"] == "open"
    refused(env, "modify_support_ticket", {"ticket_id": t_open["ticket_id"], "status": "open",
                                           "priority": out["priority"]}, "nothing to change")
    ok(env, "modify_support_ticket", {"ticket_id": t_open["ticket_id"], "status": "closed", "priority": out["priority"]})
    refused(env, "modify_support_ticket", {"ticket_id": t_open["ticket_id"], "status": "open", "priority": "urgent"},
            "cannot be changed or reopened")
    closed = next(t for t in tickets if t["status"] == "closed")
    refused(env, "modify_support_ticket", {"ticket_id": closed["ticket_id"], "status": "closed", "priority": "low"},
            "closed")
    refused(env, "modify_support_ticket", {"ticket_id": "TICKET99999", "status": "closed", "priority": "low"}, "not found")
    # once closed, a new ticket in that category may be opened again
    ok(env, "create_support_ticket", {"customer_id": cid, "category": t_open["category"]})


# ---------------------------------------------------------------------------- billing and payments


def test_billing_preferences(env, db):
    owing = one(db, lambda c, b: b["current_balance"] > 0 and not b["auto_pay"])
    cid = owing["customer_id"]
    b = db.tables["billing"][cid]
    same = {"customer_id": cid, "paperless": b["paperless"], "auto_pay": b["auto_pay"], "billing_cycle": b["billing_cycle"]}
    refused(env, "manage_billing", same, "nothing to change")
    refused(env, "manage_billing", {**same, "auto_pay": True}, "outstanding")
    out = ok(env, "manage_billing", {**same, "paperless": not b["paperless"], "billing_cycle": "annual"
                                     if b["billing_cycle"] != "annual" else "monthly"})
    assert env.store.get("billing", cid)["paperless"] == out["paperless"] == (not b["paperless"])
    assert env.store.get("customers", cid)["billing_preferences"] == {k: out[k] for k in ("paperless", "auto_pay", "billing_cycle")}
    assert env.execute("manage_billing", {**same, "billing_cycle": "weekly"}).error == "bad_args"
    ok(env, "record_payment", {"customer_id": cid, "amount": b["current_balance"], "method": "credit_card", "date": R.TODAY})
    ok(env, "manage_billing", {**same, "paperless": out["paperless"], "billing_cycle": out["billing_cycle"], "auto_pay": True})
    refused(env, "manage_billing", {**same, "customer_id": "nobody_here_0000"}, "not found")


def test_payments_only_today_and_never_above_the_balance(env, db):
    c = one(db, lambda c, b: b["current_balance"] > 20)
    cid = c["customer_id"]
    balance = db.tables["billing"][cid]["current_balance"]
    pay = {"customer_id": cid, "amount": 10.0, "method": "bank_transfer", "date": R.TODAY}
    refused(env, "record_payment", {**pay, "date": "2025-10-15"}, "only be recorded for today")
    refused(env, "record_payment", {**pay, "date": "2025-09-30"}, "only be recorded for today")
    refused(env, "record_payment", {**pay, "date": "10/01/2025"}, "YYYY-MM-DD")
    refused(env, "record_payment", {**pay, "amount": balance + 0.01}, "cannot exceed")
    refused(env, "record_payment", {**pay, "amount": 0}, "more than 0")
    refused(env, "record_payment", {**pay, "amount": -5.0}, "more than 0")
    assert env.execute("record_payment", {**pay, "method": "cash"}).error == "bad_args"
    out = ok(env, "record_payment", pay)
    assert out["current_balance"] == f"{balance - 10:.2f}"
    bill = env.store.get("billing", cid)
    assert bill["payment_history"][0] == bill["last_payment"] == {"date": R.TODAY, "amount": 10.0, "status": "completed",
                                                                  "method": "bank_transfer"}
    ok(env, "record_payment", {**pay, "amount": float(out["current_balance"])})
    assert env.store.get("billing", cid)["current_balance"] == 0
    refused(env, "record_payment", pay, "no outstanding balance")
    refused(env, "record_payment", {**pay, "customer_id": "nobody_here_0000"}, "not found")


# ---------------------------------------------------------------------------- failed writes change nothing

WRITE_NAMES = [t.name for t in T.WRITE_TOOLS]


@st.composite
def bad_write(draw, cids, tids):
    name = draw(st.sampled_from(WRITE_NAMES))
    cid = draw(st.one_of(st.sampled_from(cids), st.text(max_size=12)))
    junk = st.one_of(st.none(), st.integers(), st.text(max_size=8), st.booleans(), st.lists(st.text(max_size=3), max_size=3))
    if name == "manage_service":
        args = {"customer_id": cid, "action": draw(st.sampled_from(["add", "remove", "list", "swap"])),
                "service_id": draw(st.one_of(st.sampled_from(sorted(SERVICES)), st.text(max_size=10), st.none())),
                "devices_ids": draw(st.one_of(st.none(), st.lists(st.sampled_from(["1", "2", "3", "9", "x"]), max_size=6)))}
    elif name == "create_support_ticket":
        args = {"customer_id": cid, "category": draw(st.sampled_from([*R.TICKET_CATEGORIES, "weather"])),
                "priority": draw(st.sampled_from([*R.PRIORITIES, "asap"]))}
    elif name == "add_device":
        args = {"customer_id": cid, "device_name": draw(st.one_of(st.sampled_from(sorted(DEVICES)), st.text(max_size=10)))}
    elif name == "manage_billing":
        args = {"customer_id": cid, "paperless": draw(st.booleans()), "auto_pay": draw(st.booleans()),
                "billing_cycle": draw(st.sampled_from(["monthly", "quarterly", "annual", "weekly"]))}
    elif name == "record_payment":
        args = {"customer_id": cid, "amount": draw(st.floats(-100, 5000, allow_nan=False)),
                "method": draw(st.sampled_from(["credit_card", "bank_transfer", "cash"])),
                "date": draw(st.sampled_from([R.TODAY, "2025-10-02", "2025-13-01", "yesterday"]))}
    else:
        args = {"ticket_id": draw(st.one_of(st.sampled_from(tids), st.text(max_size=12))),
                "status": draw(st.sampled_from(["open", "closed", "pending"])),
                "priority": draw(st.sampled_from([*R.PRIORITIES, "asap"]))}
    if draw(st.booleans()) and draw(st.booleans()):  # sometimes a wrong type or an unknown argument
        key = draw(st.sampled_from([*args, "extra"]))
        args[key] = draw(junk)
    return name, args


@pytest.fixture(scope="module")
def ids(db):
    return sorted(db.tables["customers"])[:40], sorted(db.tables["tickets"])[:60]


def test_failed_writes_leave_the_state_unchanged(domain, db, ids):
    cids, tids = ids
    failures = Counter()

    @settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
    @given(st.lists(bad_write(cids, tids), min_size=1, max_size=4))
    def run(calls):
        env = Environment(domain.tools, Store(db))
        for name, args in calls:
            before = env.store.hash()
            out = env.execute(name, args)
            if not out.ok:
                failures[out.error] += 1
                assert env.store.hash() == before, (name, args, out.observation)
            assert out.error != "internal", out.observation

    run()
    assert failures["domain"] > 20 and failures["bad_args"] > 20


# ---------------------------------------------------------------------------- graph


def test_graph_is_the_released_one(domain):
    g = domain.graph
    assert (len(g.nodes), len(g.edges)) == (13, 53)
    assert_paper_graph_shape(g)
    writes = {t.name for t in T.WRITE_TOOLS}
    assert set(g.nodes) == {t.name for t in domain.tools.values()} - {"calculate", "think", "get_customer_details",
                                                                         *T.AUTH_TOOLS}
    assert writes <= set(g.nodes) and "modify_support_ticket" not in g.roots
    if PAPER_GRAPHS.exists():
        paper = json.loads(PAPER_GRAPHS.read_text())["graphs"]["telecom"]
        assert g.nodes == paper["nodes"] and [list(e) for e in g.edges] == paper["edges"] and g.roots == paper["roots"]


# ---------------------------------------------------------------------------- grounding


def ground(domain, db, trace, user_id, rng):
    """Authenticate, then run each hook and execute its step; the texts the user would say, or an error."""
    g = Ground(db, domain.tools, user_id, rng, "test", user_table=GROUNDER.user_table)
    texts = []
    for tool, args, _facts in GROUNDER.authenticate(g):
        assert g.env.execute(tool, args).ok
    for i, intent in enumerate(trace):
        g.intent = i
        for tool in intent:
            step = GROUNDER.hooks[tool](g)
            if step is None:
                raise GroundingFailed(f"none:{tool}")
            before = g.store.hash()
            out = g.env.execute(tool, step.args)
            assert out.ok, (trace, tool, step.args, out.observation)  # a hook's call must succeed
            if domain.tools[tool].kind == "write":
                assert g.store.hash() != before, (tool, step.args)  # and a write must change the state
            else:
                assert step.outputs, (tool, "a read hook must give an output")
            if step.output_from is not None:
                assert all(step.output_from(json.loads(out.observation)))
            g.focus.update(step.focus)
            texts += [step.ask, *step.details, *(f.value for f in step.facts)]
            assert all(re.fullmatch(r"[a-z]+(_[a-z0-9]+)*", f.key) and f.aliases for f in step.facts)
    return texts, g


def test_sampled_walks_ground_and_speak_in_the_users_words(domain, db):
    internal = GROUNDER.internal_ids(db)
    assert "tv_basic" in internal and next(iter(db.tables["customers"])) in internal
    traces = [r["trace"] for r in sample(domain.graph, 120, 0, "telecom")]  # the Tracer's own walks
    grounded = 0
    for trace in traces:
        users = GROUNDER.candidate_users(db, "test", trace)
        assert all(split_of(u, GROUNDER.test_share) == "test" for u in users)
        for user_id in random.Random(str(trace)).sample(users, min(20, len(users))):
            try:
                texts, g = ground(domain, db, trace, user_id, random.Random(f"{trace}:{user_id}"))
            except GroundingFailed:
                continue
            grounded += 1
            assert_in_users_words(texts, internal)
            break
    assert grounded / len(traces) > 0.8, grounded


def test_train_and_test_users_are_disjoint(db):
    trace = [["get_billing_details", "record_payment"]]
    test, train = set(GROUNDER.candidate_users(db, "test", trace)), set(GROUNDER.candidate_users(db, "train", trace))
    assert test and train and not test & train
    assert all(db.tables["billing"][u]["current_balance"] > 0 for u in test | train)


def test_challenges_are_refusable_requests_in_the_users_words(domain, db):
    internal = GROUNDER.internal_ids(db)
    seen = set()
    for user_id in sorted(db.tables["customers"])[:60]:
        g = Ground(db, domain.tools, user_id, random.Random(user_id), "test", user_table=GROUNDER.user_table)
        for make in GROUNDER.challenges:
            ch = make(g)
            if ch is None:
                continue
            seen.add(ch.rule)
            for text in (ch.ask, *ch.details):
                assert not SECOND_PERSON.search(text), text
            for text in (ch.ask, ch.press, ch.reason):
                assert not set(re.findall(r"[A-Za-z0-9_#@.\-]+", text)) & internal, text
    assert seen == {"senior_plan_age", "business_only", "payment_limit", "payment_today_only", "own_account_only",
                    "closed_tickets_stay_closed", "one_open_ticket_per_category"}


def test_policy_states_today_and_the_rules_tools_enforce(domain):
    text = domain.policy
    assert R.TODAY in text
    for phrase in ["One service per category", "65 or older", "business accounts", "only one open ticket per category",
                   "closed ticket cannot be reopened", "no outstanding balance", "at most the current balance",
                   "explicit **yes**", "find_customer_by_email", "no transfer to a human"]:
        assert phrase in text, phrase
