"""Generate the school database: 1,000 students, 120 courses, 1,345 registrations (paper Table 15).

Deterministic for a seed: everything comes from one `random.Random`, never the clock. The paper gives
school its own training database: seed 0 builds the evaluation database, seed 1 the training one
(same sizes and shape, other people and records).

The catalogue keeps the released size (120 course offerings) spread over three terms: spring 2025
(finished, with a meeting log), summer and fall 2025 (open for registration). Enrolment counts are
the number of active registrations holding each course, and every balance is tuition + fees - aid -
payments, so the tools and the data always agree.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from temo.domains.kit import people

from . import catalog as C
from . import rules as R

SEPARATE_TRAIN_DB = True
N_STUDENTS = 1000
N_COURSES = 120
N_REGISTRATIONS = 1345
TERM_COURSES = {"2025-SPRING": 56, "2025-SUMMER": 20, "2025-FALL": 44}
TERM_REGISTRATIONS = {"2025-SPRING": 640, "2025-SUMMER": 150, "2025-FALL": 555}
CANCELLED_SHARE = {"2025-SPRING": 0.04, "2025-SUMMER": 0.04, "2025-FALL": 0.04}
BALANCE_SHARE = {"2025-SPRING": 0.05, "2025-SUMMER": 0.35, "2025-FALL": 0.45}
CREATED = {"2025-SPRING": ("2024-11-01", "2025-01-20"), "2025-SUMMER": ("2025-03-01", "2025-05-14"),
           "2025-FALL": ("2025-04-01", "2025-05-14")}
DEGREES = [("BSc", 35), ("BA", 33), ("MSc", 10), ("MA", 5), ("MBA", 4), ("PhD", 4), ("Certificate", 9)]
assert sum(TERM_COURSES.values()) == N_COURSES and sum(TERM_REGISTRATIONS.values()) == N_REGISTRATIONS


def _day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


WEEKDAY = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def meeting_dates(term: str, days: list[str]) -> list[str]:
    """Every date of the term on one of ``days`` (closed days included: they show as cancelled)."""
    t = R.TERMS[term]
    d, end, out = _day(t["start"]), _day(t["end"]), []
    while d <= end:
        if WEEKDAY[d.weekday()] in days:
            out.append(d.isoformat())
        d += dt.timedelta(days=1)
    return out


def _random_date(rng: random.Random, lo: str, hi: str) -> str:
    span = (_day(hi) - _day(lo)).days
    return (_day(lo) + dt.timedelta(days=rng.randint(0, span))).isoformat()


def _round_to(x: float, step: int) -> int:
    return int(round(x / step)) * step


# -- people ------------------------------------------------------------------------------------------
def _payment_methods(rng: random.Random) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    kinds = rng.sample(["credit_card", "debit_card", "bank_account"], rng.choices([1, 2, 3], [35, 45, 20])[0])
    if rng.random() < 0.15 and "credit_card" in kinds:
        kinds.append("credit_card")  # a second credit card
    for kind in kinds:
        while True:
            pid = f"{kind}_{rng.randint(1000000, 9999999)}"
            if pid not in out:
                break
        brand = rng.choice(C.BANKS) if kind == "bank_account" else rng.choice(C.CARD_BRANDS if kind == "credit_card" else ["Visa", "Mastercard"])
        out[pid] = {"source": kind, "payment_method_id": pid,
                    "extra_info": {"brand": brand, "last_four": f"{rng.randint(0, 9999):04d}"}}
    return out


def _student(rng: random.Random, sid: str, first: str, last: str, n: int) -> dict[str, Any]:
    degree = rng.choices([d for d, _ in DEGREES], [w for _, w in DEGREES])[0]
    level = R.DEGREE_LEVEL[degree]
    major = rng.choice(sorted(C.DEPARTMENTS))
    minor = None
    if level == "undergraduate" and rng.random() < 0.4:
        minor = rng.choice([d for d in sorted(C.DEPARTMENTS) if d != major])
    lo, hi = {"undergraduate": (1997, 2006), "graduate": (1985, 2001), "continuing_ed": (1962, 1996)}[level]
    a = people.address(rng)
    street = a["address1"] + (f", {a['address2']}" if a["address2"] else "")
    contacts = []
    for _ in range(rng.choices([0, 1, 2], [40, 45, 15])[0]):
        cf, _cl = people.full_name(rng)
        contacts.append({"name": f"{cf} {last if rng.random() < 0.6 else _cl}", "relationship": rng.choice(C.RELATIONSHIPS),
                         "phone": people.phone(rng)})
    return {
        "student_id": sid,
        "name": {"first_name": first, "last_name": last},
        "address": {"street": street, "city": a["city"], "state": a["state"], "country": a["country"], "zip": a["zip"]},
        "email": f"{first.lower()}.{last.lower()}{n}@crestview.example.edu",
        "dob": people.birth_date(rng, lo, hi),
        "payment_methods": _payment_methods(rng),
        "saved_contacts": contacts,
        "program": {"school": C.DEPARTMENTS[major][1], "degree": degree, "major": major, "minor": minor},
        "membership": "honors" if level == "undergraduate" and rng.random() < 0.15 else "standard",
        "registrations": [],
    }


# -- courses -----------------------------------------------------------------------------------------
def _instructors(rng: random.Random) -> dict[str, list[dict[str, str]]]:
    out = {}
    for dept in sorted(C.DEPARTMENTS):
        pool = []
        for first, last in people.unique_names(rng, 3):
            pool.append({"first_name": first, "last_name": last,
                         "email": f"{first[0].lower()}{last.lower()}@crestview.example.edu"})
        out[dept] = pool
    return out


def _meeting_log(rng: random.Random, term: str, days: list[str], start: str, end: str, campus: str) -> dict[str, Any]:
    closed = R.TERMS[term]["closed"]
    log: dict[str, Any] = {}
    dates = meeting_dates(term, days)
    announced = rng.random() < 0.25
    for d in dates:
        if d in closed:
            log[d] = {"status": "canceled", "reason": closed[d]}
        elif d == C.WEATHER_CLOSURE[0] and campus == C.WEATHER_CLOSURE[1]:
            log[d] = {"status": "canceled", "reason": C.WEATHER_CLOSURE[2]}
        elif d < R.TODAY:
            roll = rng.random()
            if roll < 0.05:
                log[d] = {"status": "canceled", "reason": rng.choice(C.CANCEL_REASONS)}
            elif roll < 0.08:
                new = _reschedule(d, days, closed, term)
                log[d] = {"status": "rescheduled", "new_date": new, "new_start_time": start, "new_end_time": end}
                if new is None:
                    log[d] = {"status": "held"}
            else:
                log[d] = {"status": "held"}
        elif announced and d > R.TODAY and rng.random() < 0.08:
            log[d] = {"status": "canceled", "reason": "instructor at a conference"}
            announced = False
    return log


def _reschedule(d: str, days: list[str], closed: dict[str, str], term: str) -> str | None:
    base = _day(d)
    for k in range(1, 7):
        cand = base + dt.timedelta(days=k)
        name = WEEKDAY[cand.weekday()]
        if name not in days and name != "Sun" and cand.isoformat() not in closed and cand.isoformat() <= R.TERMS[term]["end"]:
            return cand.isoformat()
    return None


def _courses(rng: random.Random) -> dict[str, dict[str, Any]]:
    teachers = _instructors(rng)
    numbers = rng.sample(range(1001, 1001 + N_COURSES), N_COURSES)
    out: dict[str, dict[str, Any]] = {}
    depts = sorted(C.DEPARTMENTS)
    for term, n in TERM_COURSES.items():
        order = depts[:]
        rng.shuffle(order)
        used: set[tuple[str, int]] = set()
        picked: list[tuple[str, tuple[int, str, int]]] = []
        i = 0
        while len(picked) < n:
            dept = order[i % len(order)]
            i += 1
            options = [c for c in C.DEPARTMENTS[dept][2] if (dept, c[0]) not in used]
            if term == "2025-SUMMER":
                options = [c for c in options if c[0] < 3000] or options
            if not options:
                continue
            c = rng.choice(options)
            used.add((dept, c[0]))
            picked.append((dept, c))
        slots = C.SUMMER_SLOTS if term == "2025-SUMMER" else C.REGULAR_SLOTS
        for dept, (num, title, credits) in picked:
            cid = f"C{numbers.pop()}"
            days, start, end = rng.choice(slots)
            evening = start >= "18:00"
            campus = rng.choices(C.CAMPUSES, [20, 20, 60] if evening else [60, 28, 12])[0]
            if dept in ("Mechanical Engineering", "Electrical Engineering", "Computer Science") and not evening:
                campus = rng.choice(["North", "North", "Main"])
            dates = meeting_dates(term, days)
            out[cid] = {
                "course_id": cid, "department": dept, "course_code": f"{C.DEPARTMENTS[dept][0]}-{num}",
                "section": "001", "title": title, "credits": credits, "term": term,
                "instructor": dict(rng.choice(teachers[dept])),
                "location": {"campus": campus, "building": rng.choice(C.BUILDINGS[campus]),
                             "room": str(rng.choice([1, 1, 2, 3]) * 100 + rng.randint(1, 40))},
                "scheduled_first_meeting": dates[0], "scheduled_last_meeting": dates[-1],
                "meeting_pattern": {"days": list(days), "start_time": start, "end_time": end},
                "dates": _meeting_log(rng, term, list(days), start, end, campus),
                "capacity": 0, "waitlist_capacity": rng.choice([0, 5, 10, 15]),
                "current_enrollment": 0, "current_waitlist": 0,
            }
    return dict(sorted(out.items()))


# -- registrations -----------------------------------------------------------------------------------
def _target_credits(rng: random.Random, student: dict[str, Any], term: str) -> int:
    level = R.level_of(student)
    if term == "2025-SUMMER":
        return rng.randint(3, 8)
    if level == "undergraduate":
        if rng.random() < 0.2:
            return rng.randint(3, 9)
        top = 20 if student["membership"] == "honors" else 17
        return rng.randint(12, top)
    if level == "graduate":
        return rng.randint(6, 12)
    return rng.randint(3, 7)


def _pick_courses(rng: random.Random, student: dict[str, Any], term_courses: list[dict[str, Any]], term: str) -> list[tuple[dict, str]]:
    target = _target_credits(rng, student, term)
    cap = R.credit_cap(student, term)
    major = student["program"]["major"]
    pool = term_courses[:]
    rng.shuffle(pool)
    pool.sort(key=lambda c: 0 if c["department"] == major and rng.random() < 0.6 else 1)
    chosen: list[tuple[dict, str]] = []
    credits = 0
    for course in pool:
        if credits >= target:
            break
        if any(R.clash(course, c) or course["course_code"] == c["course_code"] for c, _ in chosen):
            continue
        option = "letter"
        if course["department"] != major:
            roll = rng.random()
            option = "pass/fail" if roll < 0.08 else "audit" if roll < 0.11 else "letter"
        value = R.credit_value(course["credits"], option)
        if credits + value > cap:
            continue
        chosen.append((course, option))
        credits += value
    return chosen


def _aid(rng: random.Random, level: str, tuition: int) -> dict[str, int]:
    aid = {"scholarships": 0, "grants": 0, "loans": 0}
    if level == "undergraduate" and rng.random() < 0.35:
        aid = {"scholarships": rng.choice([0, 1000, 1500, 2500]), "grants": rng.choice([0, 500, 1500]),
               "loans": rng.choice([0, 0, 2000, 3500])}
    elif level == "graduate" and rng.random() < 0.2:
        aid["scholarships"] = rng.choice([1000, 2000, 4000])
    while sum(aid.values()) > tuition * 0.6:
        biggest = max(sorted(aid), key=lambda k: aid[k])
        aid[biggest] = max(0, aid[biggest] - 500)
    return aid


def _payments(rng: random.Random, methods: list[str], amount: int) -> list[dict[str, Any]]:
    if amount <= 0:
        return []
    if len(methods) > 1 and amount >= 1000 and rng.random() < 0.3:
        a, b = rng.sample(methods, 2)
        first = _round_to(amount * rng.uniform(0.3, 0.7), 100)
        return [{"payment_id": a, "amount": first}, {"payment_id": b, "amount": amount - first}]
    return [{"payment_id": rng.choice(methods), "amount": amount}]


def _registration(rng: random.Random, student: dict[str, Any], term: str, courses: list[dict[str, Any]],
                  advisors: dict[str, list[str]]) -> dict[str, Any]:
    level = R.level_of(student)
    methods = sorted(student["payment_methods"])
    major = student["program"]["major"]
    reg: dict[str, Any] = {
        "registration_id": "", "student_id": student["student_id"], "campus": "Main",
        "program": f"{student['program']['degree']} {major}", "study_level": level, "term": term,
        "status": "part-time", "courses": [], "advisors": advisors[major][: 2 if level == "graduate" else 1],
        "payment_history": [], "created_at": _random_date(rng, *CREATED[term]), "total_credits": 0,
        "overload_credits": 0, "financial_aid": {"scholarships": 0, "grants": 0, "loans": 0},
        "health_insurance": "yes" if rng.random() < 0.45 else "no",
    }
    chosen = _pick_courses(rng, student, courses, term)
    if rng.random() < CANCELLED_SHARE[term] or not chosen:
        paid = sum(R.course_tuition(c, level, o) for c, o in chosen) + (R.INSURANCE_FEE if reg["health_insurance"] == "yes" else 0)
        pay = _payments(rng, methods, paid)
        reg["payment_history"] = pay + [{"payment_id": p["payment_id"], "amount": -p["amount"]} for p in pay]
        reg["status"] = "cancelled"
        return reg
    reg["courses"] = [R.course_line(c, level, o) for c, o in chosen]
    campuses = [c["location"]["campus"] for c, _ in chosen]
    reg["campus"] = max(C.CAMPUSES, key=lambda k: (campuses.count(k), k == "Main"))
    R.recount(reg)
    reg["financial_aid"] = _aid(rng, level, sum(c["tuition"] for c in reg["courses"]))
    due = R.totals(reg)["amount_due"]
    if due >= 800 and rng.random() < BALANCE_SHARE[term]:
        paid = max(200, _round_to(due * rng.uniform(0.2, 0.6), 50))
        reg["payment_history"] = _payments(rng, methods, min(paid, due - 100))
    else:
        reg["payment_history"] = _payments(rng, methods, due)
    for c, _ in chosen:
        c["current_enrollment"] += 1
    return reg


def _set_capacity(rng: random.Random, course: dict[str, Any]) -> None:
    e = course["current_enrollment"]
    full_share = 0.3 if course["term"] == "2025-SPRING" else 0.14
    if e >= 8 and rng.random() < full_share:
        course["capacity"] = e
        course["current_waitlist"] = rng.randint(0, course["waitlist_capacity"])
    else:
        course["capacity"] = max(e + rng.randint(3, 30), 12)


def build_database(seed: int = 0, split: str = "test") -> dict[str, dict[str, Any]]:
    rng = random.Random(seed)
    courses = _courses(rng)
    ids = sorted(rng.sample(range(2000000, 2600000), N_STUDENTS))
    rng.shuffle(ids)
    names = people.unique_names(rng, N_STUDENTS)
    students = {}
    for n, (num, (first, last)) in enumerate(zip(ids, names)):
        sid = f"S{num}"
        students[sid] = _student(rng, sid, first, last, n)
    advisors = {d: [f"Dr. {f} {l}" for f, l in people.unique_names(rng, 2)] for d in sorted(C.DEPARTMENTS)}
    order = sorted(students)
    regs: list[dict[str, Any]] = []
    for term, n in TERM_REGISTRATIONS.items():
        term_courses = [c for c in courses.values() if c["term"] == term]
        for sid in sorted(rng.sample(order, n)):
            regs.append(_registration(rng, students[sid], term, term_courses, advisors))
    regs.sort(key=lambda r: (r["created_at"], r["student_id"], r["term"]))
    registrations = {}
    for i, reg in enumerate(regs, 1):
        reg["registration_id"] = f"REG{i:04d}"
        registrations[reg["registration_id"]] = reg
        students[reg["student_id"]]["registrations"].append(reg["registration_id"])
    for course in courses.values():
        _set_capacity(rng, course)
    return {"students": dict(sorted(students.items())), "courses": courses, "registrations": registrations}
