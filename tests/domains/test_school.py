"""School domain: database, tools and the rules they enforce, graph, grounding and the built tasks."""
from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from temo.domains import databases
from temo.domains.school import generate
from temo.domains.school import rules as R
from temo.domains.school import tools as school_tools
from temo.domains.school.grounding import GROUNDER
from temo.domains.school.models import KEY_FIELDS, TABLE_MODELS
from temo.tracer.sample import sample
from domain_checks import (assert_aliases_do_not_reveal_later_facts, assert_atomic, assert_graph_follows_the_paper,
                           assert_records_validate, assert_walks_ground_and_replay, expect_ok, expect_refused)

PAPER = {"students": 1000, "courses": 120, "registrations": 1345}
SOURCE_TOOLS = {  # name -> argument names of the released toolkit (think and calculate inferred: 9 reads)
    "get_student_details": ["student_id"], "get_course_details": ["course_id"],
    "get_registration_details": ["registration_id"], "list_departments": [], "list_courses_by_term": ["term"],
    "search_courses": ["term", "department", "campus", "day", "start_after", "end_before", "open_only"],
    "get_course_meeting_status": ["course_id", "date"],
    "register_courses": ["student_id", "term", "course_ids", "study_level", "grading_options", "health_insurance",
                         "payment_methods"],
    "update_registration_courses": ["registration_id", "add_course_ids", "drop_course_ids", "grading_options", "payment_id"],
    "cancel_registration": ["registration_id"], "pay_registration": ["registration_id", "payment"],
    "think": ["thought"], "calculate": ["expression"],
}
GRAPH_NODES = ["get_course_details", "get_registration_details", "list_departments", "list_courses_by_term",
               "search_courses", "get_course_meeting_status", "register_courses", "update_registration_courses",
               "cancel_registration", "pay_registration"]


DOMAIN = "school"


def run(env, name, **args):
    return expect_ok(env, name, args)


def err(env, name, words, **args):
    """A refusal (of the domain's rules or of the arguments) whose text matches the regex ``words``."""
    expect_refused(env, name, args, kind=("domain", "bad_args"), pattern=words)


def regs_of(db, s):
    return [db.tables["registrations"][r] for r in s["registrations"]]


def find_reg(db, pred):
    for reg in db.tables["registrations"].values():
        if pred(reg, db.tables["students"][reg["student_id"]]):
            return reg, db.tables["students"][reg["student_id"]]
    raise AssertionError("no registration matches")


def open_active(reg, _s=None):
    return reg["status"] != "cancelled" and R.window_open(reg["term"])


def addable(db, reg, student, want_charge=True):
    mine = [db.tables["courses"][c["course_id"]] for c in reg["courses"]]
    for c in sorted(db.tables["courses"].values(), key=lambda c: c["course_id"]):
        if c["term"] == reg["term"] and c["capacity"] > c["current_enrollment"] and c not in mine \
                and not any(R.clash(c, m) or c["course_code"] == m["course_code"] for m in mine) \
                and reg["total_credits"] + c["credits"] <= R.credit_cap(student, reg["term"]):
            return c
    return None


# ------------------------------------------------------------------------------------------------ database
def test_entity_counts_are_the_papers(db):
    assert db.counts() == PAPER


def test_every_record_validates(db):
    assert_records_validate(db, TABLE_MODELS, KEY_FIELDS)


def test_references_resolve_and_money_adds_up(db):
    students, courses, regs = db.tables["students"], db.tables["courses"], db.tables["registrations"]
    assert sorted(r for s in students.values() for r in s["registrations"]) == sorted(regs)
    assert len({s["email"] for s in students.values()}) == len(students)
    enrolled = Counter(c["course_id"] for r in regs.values() for c in r["courses"])
    for c in courses.values():
        assert c["current_enrollment"] == enrolled[c["course_id"]] <= c["capacity"]
        assert c["current_waitlist"] <= c["waitlist_capacity"]
        assert c["scheduled_first_meeting"] == generate.meeting_dates(c["term"], c["meeting_pattern"]["days"])[0]
        for day, m in c["dates"].items():
            assert (m["status"] == "rescheduled") == (m.get("new_date") is not None)
            assert day in generate.meeting_dates(c["term"], c["meeting_pattern"]["days"])
    for reg in regs.values():
        s = students[reg["student_id"]]
        assert reg["registration_id"] in s["registrations"]
        assert all(p["payment_id"] in s["payment_methods"] for p in reg["payment_history"])
        t = R.totals(reg)
        assert t["balance_due"] >= 0
        if reg["status"] == "cancelled":
            assert reg["courses"] == [] and t["amount_paid"] == 0 and reg["total_credits"] == 0
            continue
        assert reg["study_level"] == R.level_of(s)
        lines = [courses[c["course_id"]] for c in reg["courses"]]
        assert all(c["term"] == reg["term"] for c in lines) and R.first_clash(lines) is None
        for line, c in zip(reg["courses"], lines):
            assert line["tuition"] == R.course_tuition(c, reg["study_level"], line["grading_option"])
            assert line["grading_option"] == "letter" or not R.is_major_course(s, c)
        assert reg["total_credits"] <= R.credit_cap(s, reg["term"])
        assert reg["status"] == R.status_for(reg["total_credits"])
    for s in students.values():
        terms = [r["term"] for r in regs_of(db, s) if r["status"] != "cancelled"]
        assert len(terms) == len(set(terms))


def test_values_are_varied(db):
    regs = list(db.tables["registrations"].values())
    assert Counter(r["term"] for r in regs) == Counter(generate.TERM_REGISTRATIONS)
    assert {r["status"] for r in regs} == {"full-time", "part-time", "cancelled"}
    assert {c["grading_option"] for r in regs for c in r["courses"]} == {"letter", "pass/fail", "audit"}
    balances = [R.totals(r)["balance_due"] for r in regs if r["term"] == "2025-FALL"]
    assert 0.25 < sum(b > 0 for b in balances) / len(balances) < 0.6
    statuses = Counter(m["status"] for c in db.tables["courses"].values() for m in c["dates"].values())
    assert statuses["held"] > 1000 and statuses["canceled"] > 50 and statuses["rescheduled"] > 20
    full = [c for c in db.tables["courses"].values() if c["current_enrollment"] >= c["capacity"]]
    assert 5 <= len(full) <= 40 and any(R.window_open(c["term"]) for c in full)
    students = db.tables["students"].values()
    assert {s["program"]["degree"] for s in students} == set(R.DEGREE_LEVEL)
    assert 100 < sum(s["membership"] == "honors" for s in students) < 200
    assert sum(not s["registrations"] for s in students) > 50


def test_frozen_files_are_the_generators(db):
    built = databases.build("school")
    assert databases.check("school", built) == []
    assert generate.SEPARATE_TRAIN_DB
    train = built["db_train"]
    assert {k: len(v) for k, v in train.items()} == PAPER
    names = {(s["name"]["first_name"], s["name"]["last_name"]) for s in db.tables["students"].values()}
    assert len(names & {(s["name"]["first_name"], s["name"]["last_name"]) for s in train["students"].values()}) < 150
    assert generate.build_database(0) == built["db"]


# ------------------------------------------------------------------------------------------------ tools
def test_tools_match_the_source_and_the_papers_counts(domain):
    assert Counter(t.kind for t in domain.tools.values()) == {"read": 9, "write": 4}
    assert set(domain.tools) == set(SOURCE_TOOLS)
    for name, args in SOURCE_TOOLS.items():
        props = domain.tools[name].schema["parameters"]["properties"]
        assert list(props) == args, name
        assert all(p.get("description") for p in props.values()), name
    assert school_tools.AUTH_TOOLS == ["get_student_details"]
    schema = domain.tools["register_courses"].schema["parameters"]["properties"]
    assert schema["health_insurance"]["enum"] == ["yes", "no"]
    assert schema["study_level"]["enum"] == ["undergraduate", "graduate", "continuing_ed"]


def test_reads(env, db):
    s = next(s for s in db.tables["students"].values() if s["registrations"])
    assert run(env, "get_student_details", student_id=s["student_id"])["email"] == s["email"]
    err(env, "get_student_details", "not found", student_id="S0000000")
    rid = s["registrations"][0]
    out = run(env, "get_registration_details", registration_id=rid)
    assert out["summary"] == R.totals(db.tables["registrations"][rid])
    err(env, "get_registration_details", "not found", registration_id="REG9999")
    cid = sorted(db.tables["courses"])[0]
    assert run(env, "get_course_details", course_id=cid)["course_id"] == cid
    err(env, "get_course_details", "course code", course_id=db.tables["courses"][cid]["course_code"])
    depts = run(env, "list_departments")
    assert depts == sorted(depts) and len(depts) == 22
    for term, n in generate.TERM_COURSES.items():
        assert len(run(env, "list_courses_by_term", term=term)) == n
    err(env, "list_courses_by_term", "term", term="2024-FALL")


def test_search_courses_filters(env, db):
    rows = run(env, "search_courses", term="2025-FALL", department="CS", day="Mon", start_after="09:00",
               end_before="16:00", open_only=True)
    for r in rows:
        c = db.tables["courses"][r["course_id"]]
        assert c["term"] == "2025-FALL" and c["department"] == "Computer Science" and "Mon" in r["days"]
        assert "09:00" <= r["start_time"] and r["end_time"] <= "16:00" and r["seats_left"] > 0
    every = run(env, "search_courses", term="2025-FALL")
    assert len(every) == generate.TERM_COURSES["2025-FALL"]
    assert len(run(env, "search_courses", term="2025-FALL", open_only=True)) < len(every)
    by_name = run(env, "search_courses", term="2025-SPRING", department="biology", campus="main")
    assert by_name and all(r["department"] == "Biology" and r["campus"] == "Main" for r in by_name)
    err(env, "search_courses", "list_departments", term="2025-FALL", department="Astrology")
    err(env, "search_courses", "campus", term="2025-FALL", campus="Moon")
    err(env, "search_courses", "HH:MM", term="2025-FALL", start_after="9am")
    err(env, "search_courses", "day", term="2025-FALL", day="Sunday")


def test_meeting_status(env, db):
    spring = [c for c in db.tables["courses"].values() if c["term"] == "2025-SPRING"]
    seen = set()
    for c in spring:
        for day, m in c["dates"].items():
            if m["status"] not in seen:
                out = run(env, "get_course_meeting_status", course_id=c["course_id"], date=day)
                assert out["status"] == m["status"] and out.get("new_date") == m.get("new_date")
                seen.add(m["status"])
    assert seen == {"held", "canceled", "rescheduled"}
    fall = next(c for c in db.tables["courses"].values() if c["term"] == "2025-FALL")
    future = [d for d in generate.meeting_dates("2025-FALL", fall["meeting_pattern"]["days"]) if d not in fall["dates"]]
    assert run(env, "get_course_meeting_status", course_id=fall["course_id"], date=future[0])["status"] == "scheduled"
    days = fall["meeting_pattern"]["days"]
    off = next(d for d in ("2025-09-07", "2025-09-06", "2025-09-05", "2025-09-04") if generate.WEEKDAY[
        __import__("datetime").date.fromisoformat(d).weekday()] not in days)
    err(env, "get_course_meeting_status", "no meeting", course_id=fall["course_id"], date=off)
    err(env, "get_course_meeting_status", "YYYY-MM-DD", course_id=fall["course_id"], date="09/15/2025")


def _new_registration(db):
    """A student with no fall registration, two fitting fall courses and what they cost."""
    for s in db.tables["students"].values():
        if s["membership"] != "standard" or R.level_of(s) != "undergraduate" or len(s["payment_methods"]) < 2:
            continue
        if any(r["term"] == "2025-FALL" and r["status"] != "cancelled" for r in regs_of(db, s)):
            continue
        fall = [c for c in sorted(db.tables["courses"].values(), key=lambda c: c["course_id"])
                if c["term"] == "2025-FALL" and c["capacity"] > c["current_enrollment"] + 1
                and c["department"] != s["program"]["major"]]
        a = fall[0]
        b = next(c for c in fall[1:] if not R.clash(a, c) and c["course_code"] != a["course_code"])
        return s, a, b
    raise AssertionError


def test_register_courses_creates_a_paid_registration(env, db):
    s, a, b = _new_registration(db)
    m1, m2 = sorted(s["payment_methods"])[:2]
    total = (a["credits"] + b["credits"]) * 500 + 300
    out = run(env, "register_courses", student_id=s["student_id"], term="2025-FALL", course_ids=[a["course_id"], b["course_id"]],
              study_level="undergraduate", health_insurance="yes",
              payment_methods=[{"payment_id": m1, "amount": 1000}, {"payment_id": m2, "amount": total - 1000}])
    assert out["registration_id"] == "REG1346" and out["created_at"] == R.TODAY
    assert out["summary"]["balance_due"] == 0 and out["summary"]["amount_due"] == total
    assert env.store.get("courses", a["course_id"])["current_enrollment"] == a["current_enrollment"] + 1
    assert env.store.get("students", s["student_id"])["registrations"][-1] == "REG1346"
    err(env, "register_courses", "already has an active", student_id=s["student_id"], term="2025-FALL",
        course_ids=[a["course_id"]], study_level="undergraduate", payment_methods=[{"payment_id": m1, "amount": a["credits"] * 500}])


def test_register_courses_rules(env, db):
    s, a, b = _new_registration(db)
    sid, m1 = s["student_id"], sorted(s["payment_methods"])[0]
    pay = [{"payment_id": m1, "amount": a["credits"] * 500}]
    base = dict(student_id=sid, term="2025-FALL", course_ids=[a["course_id"]], study_level="undergraduate", payment_methods=pay)
    err(env, "register_courses", "deadline", **{**base, "term": "2025-SPRING"})
    err(env, "register_courses", "must be 'undergraduate'", **{**base, "study_level": "graduate"})
    err(env, "register_courses", "paid in full", **{**base, "payment_methods": [{"payment_id": m1, "amount": 100}]})
    err(env, "register_courses", "paid in full", **{**base, "health_insurance": "yes"})
    err(env, "register_courses", "not saved", **{**base, "payment_methods": [{"payment_id": "credit_card_0000000", "amount": pay[0]["amount"]}]})
    err(env, "register_courses", "health_insurance", **{**base, "health_insurance": "maybe"})
    spring = next(c for c in db.tables["courses"].values() if c["term"] == "2025-SPRING")
    err(env, "register_courses", "not in 2025-FALL", **{**base, "course_ids": [spring["course_id"]]})
    full = next(c for c in db.tables["courses"].values() if c["term"] == "2025-FALL" and c["current_enrollment"] >= c["capacity"])
    err(env, "register_courses", "full", **{**base, "course_ids": [full["course_id"]]})
    clash = next(c for c in db.tables["courses"].values() if c["term"] == "2025-FALL" and c is not a and R.clash(a, c))
    err(env, "register_courses", "time conflict", **{**base, "course_ids": [a["course_id"], clash["course_id"]]})
    major = next(c for c in db.tables["courses"].values() if c["term"] == "2025-FALL" and c["department"] == s["program"]["major"]
                 and c["capacity"] > c["current_enrollment"])
    err(env, "register_courses", "letter grade", **{**base, "course_ids": [major["course_id"]],
                                                    "grading_options": {major["course_id"]: "pass/fail"}})
    err(env, "register_courses", "not on the registration", **{**base, "grading_options": {b["course_id"]: "audit"}})
    # seven non-clashing fall courses go over the 18-credit limit of a standard student
    many: list = []
    for c in sorted(db.tables["courses"].values(), key=lambda c: c["course_id"]):
        if c["term"] == "2025-FALL" and c["capacity"] > c["current_enrollment"] and c["department"] != s["program"]["major"] \
                and not any(R.clash(c, x) or c["course_code"] == x["course_code"] for x in many):
            many.append(c)
        if sum(x["credits"] for x in many) > 18:
            break
    err(env, "register_courses", "over the limit of 18", **{**base, "course_ids": [c["course_id"] for c in many]})
    audit = {c["course_id"]: "audit" for c in many}
    cost = sum(c["credits"] * 250 for c in many)
    out = env.execute("register_courses", {**base, "course_ids": [c["course_id"] for c in many], "grading_options": audit,
                                           "payment_methods": [{"payment_id": m1, "amount": cost}]})
    assert out.ok, out.observation  # audited courses earn no credit and cost half
    assert json.loads(out.observation)["total_credits"] == 0


def test_update_registration_courses(env, db):
    reg, s = find_reg(db, lambda r, s: open_active(r) and len(r["courses"]) >= 3 and addable(db, r, s)
                      and R.totals(r)["balance_due"] == 0)
    rid, extra = reg["registration_id"], addable(db, reg, s)
    pid = sorted(s["payment_methods"])[0]
    err(env, "update_registration_courses", "rises by", registration_id=rid, add_course_ids=[extra["course_id"]], drop_course_ids=[])
    out = run(env, "update_registration_courses", registration_id=rid, add_course_ids=[extra["course_id"]], drop_course_ids=[], payment_id=pid)
    assert out["charged"] == extra["credits"] * R.RATE_PER_CREDIT[reg["study_level"]] and out["payment_history"][-1]["amount"] == out["charged"]
    assert env.store.get("courses", extra["course_id"])["current_enrollment"] == extra["current_enrollment"] + 1
    drop = reg["courses"][0]
    net = R.net_paid_by_method(env.store.get("registrations", rid))
    unused = next((m for m in s["payment_methods"] if m not in net), None)
    if unused:
        err(env, "update_registration_courses", "paid with", registration_id=rid, add_course_ids=[], drop_course_ids=[drop["course_id"]], payment_id=unused)
    err(env, "update_registration_courses", "refunded", registration_id=rid, add_course_ids=[], drop_course_ids=[drop["course_id"]])
    payer = max(net, key=net.get)
    out = run(env, "update_registration_courses", registration_id=rid, add_course_ids=[], drop_course_ids=[drop["course_id"]], payment_id=payer)
    assert out["refunded"] == drop["tuition"] and out["payment_history"][-1] == {"payment_id": payer, "amount": -drop["tuition"]}
    err(env, "update_registration_courses", "nothing to change", registration_id=rid, add_course_ids=[], drop_course_ids=[])
    err(env, "update_registration_courses", "not on registration", registration_id=rid, add_course_ids=[], drop_course_ids=[drop["course_id"]])
    err(env, "update_registration_courses", "cancel_registration", registration_id=rid, add_course_ids=[],
        drop_course_ids=[c["course_id"] for c in env.store.get("registrations", rid)["courses"]])


def test_update_rules(env, db):
    reg, s = find_reg(db, lambda r, s: open_active(r) and any(
        R.is_major_course(s, db.tables["courses"][c["course_id"]]) for c in r["courses"])
        and any(not R.is_major_course(s, db.tables["courses"][c["course_id"]]) and c["grading_option"] == "letter" for c in r["courses"]))
    rid = reg["registration_id"]
    major = next(c for c in reg["courses"] if R.is_major_course(s, db.tables["courses"][c["course_id"]]))
    other = next(c for c in reg["courses"] if not R.is_major_course(s, db.tables["courses"][c["course_id"]]) and c["grading_option"] == "letter")
    err(env, "update_registration_courses", "letter grade", registration_id=rid, add_course_ids=[], drop_course_ids=[],
        grading_options={major["course_id"]: "pass/fail"})
    err(env, "update_registration_courses", "leave payment_id empty", registration_id=rid, add_course_ids=[], drop_course_ids=[],
        grading_options={other["course_id"]: "pass/fail"}, payment_id=sorted(s["payment_methods"])[0])
    out = run(env, "update_registration_courses", registration_id=rid, add_course_ids=[], drop_course_ids=[],
              grading_options={other["course_id"]: "pass/fail"})
    assert out["charged"] == out["refunded"] == 0
    assert next(c for c in out["courses"] if c["course_id"] == other["course_id"])["grading_option"] == "pass/fail"
    err(env, "update_registration_courses", "letter", registration_id=rid, add_course_ids=[], drop_course_ids=[],
        grading_options={other["course_id"]: "excellent"})
    mine = [db.tables["courses"][c["course_id"]] for c in reg["courses"]]
    clash = next(c for c in db.tables["courses"].values() if c["term"] == reg["term"] and c not in mine and any(R.clash(c, m) for m in mine))
    err(env, "update_registration_courses", "time conflict|full", registration_id=rid, add_course_ids=[clash["course_id"]], drop_course_ids=[])
    spring, _ = find_reg(db, lambda r, s: r["term"] == "2025-SPRING" and r["status"] != "cancelled")
    err(env, "update_registration_courses", "deadline", registration_id=spring["registration_id"], add_course_ids=[],
        drop_course_ids=[spring["courses"][0]["course_id"]])
    cancelled, _ = find_reg(db, lambda r, s: r["status"] == "cancelled" and R.window_open(r["term"]))
    err(env, "update_registration_courses", "cancelled", registration_id=cancelled["registration_id"], add_course_ids=[], drop_course_ids=[])
    honors, hs = find_reg(db, lambda r, s: open_active(r) and s["membership"] == "honors" and r["total_credits"] >= 15)
    standard, ss = find_reg(db, lambda r, s: open_active(r) and s["membership"] == "standard" and r["term"] == "2025-FALL"
                            and 16 <= r["total_credits"] <= 18)
    extra = [c for c in sorted(db.tables["courses"].values(), key=lambda c: c["course_id"]) if c["term"] == "2025-FALL"
             and c["capacity"] > c["current_enrollment"] and c["course_id"] not in {x["course_id"] for x in standard["courses"]}
             and not any(R.clash(c, db.tables["courses"][x["course_id"]]) or c["course_code"] == x["course_code"] for x in standard["courses"])
             and standard["total_credits"] + c["credits"] > 18]
    assert extra
    err(env, "update_registration_courses", "only honors", registration_id=standard["registration_id"],
        add_course_ids=[extra[0]["course_id"]], drop_course_ids=[], payment_id=sorted(ss["payment_methods"])[0])


def test_cancel_registration_refunds_every_payment(env, db):
    reg, s = find_reg(db, lambda r, s: open_active(r) and len(R.net_paid_by_method(r)) >= 1 and r["financial_aid"]["loans"] == 0)
    rid = reg["registration_id"]
    paid = R.totals(reg)["amount_paid"]
    out = run(env, "cancel_registration", registration_id=rid)
    assert out["status"] == "cancelled" and out["courses"] == [] and out["refunded"] == paid
    assert out["summary"]["amount_paid"] == 0 and out["summary"]["balance_due"] == 0
    for line in reg["courses"]:
        assert env.store.get("courses", line["course_id"])["current_enrollment"] == db.tables["courses"][line["course_id"]]["current_enrollment"] - 1
    err(env, "cancel_registration", "cancelled", registration_id=rid)
    err(env, "pay_registration", "cancelled", registration_id=rid, payment={"payment_id": sorted(s["payment_methods"])[0], "amount": 10})
    spring, _ = find_reg(db, lambda r, s: r["term"] == "2025-SPRING" and r["status"] != "cancelled")
    err(env, "cancel_registration", "2025-02-03", registration_id=spring["registration_id"])
    err(env, "cancel_registration", "not found", registration_id="REG0000")


def test_pay_registration(env, db):
    reg, s = find_reg(db, lambda r, s: open_active(r) and R.totals(r)["balance_due"] >= 300)
    rid, pid, balance = reg["registration_id"], sorted(s["payment_methods"])[0], R.totals(reg)["balance_due"]
    err(env, "pay_registration", "more than the balance", registration_id=rid, payment={"payment_id": pid, "amount": balance + 1})
    err(env, "pay_registration", "positive", registration_id=rid, payment={"payment_id": pid, "amount": -50})
    err(env, "pay_registration", "not saved", registration_id=rid, payment={"payment_id": "debit_card_0000000", "amount": 50})
    err(env, "pay_registration", "payment", registration_id=rid, payment={"payment_id": pid, "amount": "50"})
    assert run(env, "pay_registration", registration_id=rid, payment={"payment_id": pid, "amount": 100})["summary"]["balance_due"] == balance - 100
    assert run(env, "pay_registration", registration_id=rid, payment={"payment_id": pid, "amount": balance - 100})["summary"]["balance_due"] == 0
    err(env, "pay_registration", "nothing to pay", registration_id=rid, payment={"payment_id": pid, "amount": 1})
    spring, ps = find_reg(db, lambda r, s: r["term"] == "2025-SPRING" and R.totals(r)["balance_due"] > 0)
    assert run(env, "pay_registration", registration_id=spring["registration_id"],
               payment={"payment_id": sorted(ps["payment_methods"])[0], "amount": 1})  # a past-due balance can be paid


def test_generic_tools(env):
    assert env.execute("calculate", {"expression": "3 * 500 + 300"}).observation == "1800"
    assert env.execute("think", {"thought": "which term?"}).ok


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_failed_writes_leave_the_state_unchanged(domain, db, data):
    reg, s = find_reg(db, lambda r, s: open_active(r) and R.totals(r)["balance_due"] > 0)
    ids = [s["student_id"], reg["registration_id"], *s["payment_methods"], *[c["course_id"] for c in reg["courses"]],
           "C1001", "C1120", "REG0001", "2025-FALL", "2025-SPRING", "x", ""]
    scalar = st.one_of(st.sampled_from(ids), st.text(max_size=6), st.integers(-10**4, 10**5), st.none(), st.booleans(),
                       st.sampled_from(["yes", "no", "letter", "audit", "undergraduate", "graduate"]))
    value = st.one_of(scalar, st.lists(st.sampled_from(ids), max_size=3),
                      st.dictionaries(st.sampled_from(ids), st.sampled_from(["letter", "pass/fail", "audit", "bad"]), max_size=2),
                      st.fixed_dictionaries({"payment_id": st.sampled_from(ids), "amount": st.integers(-500, 20000)}),
                      st.lists(st.fixed_dictionaries({"payment_id": st.sampled_from(ids), "amount": st.integers(-500, 9000)}), max_size=2))
    tool = data.draw(st.sampled_from([t.name for t in school_tools.WRITE_TOOLS]))
    names = list(domain.tools[tool].schema["parameters"]["properties"])
    args = {n: data.draw(value) for n in names if n == names[0] or data.draw(st.booleans())}
    assert_atomic(domain, db, tool, args)


# ------------------------------------------------------------------------------------------------ graph
def test_graph_shape(domain):
    g = domain.graph
    assert g.nodes == GRAPH_NODES and len(set(map(tuple, g.edges))) == 36
    assert_graph_follows_the_paper(domain, tools=10, edges=36)


# ------------------------------------------------------------------------------------------------ grounding
def test_sampled_walks_ground_and_replay(domain, db):
    grounded = assert_walks_ground_and_replay(domain, sample(domain.graph, 80, 11, "school")[:60], 11, 0.75,
                                              GROUNDER.internal_ids(db), want_challenge=True)
    for g in (r["grounded"] for r in grounded):
        assert g["actions"][0] == {"name": "get_student_details", "arguments": {"student_id": g["user_id"]}, "intent": 0}
    assert sum(1 for r in grounded if r["grounded"]["challenge"]) >= 5


def test_fact_aliases_do_not_leak_into_other_keys(domain):
    """Asking for one fact by its key must not reveal another fact of a different key (see picks.py)."""
    assert_aliases_do_not_reveal_later_facts(domain.tasks("test") + domain.tasks("train")[:100])


def test_candidate_users_need_what_the_trace_uses(db):
    everyone = GROUNDER.candidate_users(db, "test", [["search_courses", "get_course_details"]])
    assert len(everyone) == 1000
    payers = GROUNDER.candidate_users(db, "test", [["pay_registration", "get_registration_details"]])
    assert payers and all(any(r["status"] != "cancelled" and R.totals(r)["balance_due"] > 0 for r in regs_of(db, db.tables["students"][u]))
                          for u in payers)
    cancel = GROUNDER.candidate_users(db, "test", [["cancel_registration", "register_courses"]])
    assert all(any(open_active(r) for r in regs_of(db, db.tables["students"][u])) for u in cancel)
    assert GROUNDER.test_share == 1.0 and GROUNDER.user_table == "students"


# ------------------------------------------------------------------------------------------------ built tasks
