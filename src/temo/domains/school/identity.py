"""Who the student is: identity steps, candidate students for a trace, personas and internal ids."""
from __future__ import annotations

from typing import Any

from temo.env import Database
from temo.env.grounding import Ground

from . import rules as R

PERSONAS = [
    "a first-year student who is new to the registration system", "a senior trying to finish a degree on time",
    "a working parent taking evening classes", "a graduate student with a teaching assistantship",
    "a transfer student still learning how things work here", "a student athlete with a tight practice schedule",
    "an international student who plans everything carefully", "a returning adult learner in a certificate program",
    "a commuter who works part-time at a grocery store", "a double major juggling two departments",
    "a student on a scholarship who watches every dollar", "a night-shift nurse taking prerequisite courses",
    "a sophomore who has just changed majors", "a graduate student finishing a thesis",
    "a student who volunteers at the campus food bank", "a veteran starting college after military service",
]
TRACE_WRITES = ("register_courses", "update_registration_courses", "cancel_registration", "pay_registration")


def authenticate(g: Ground) -> list[tuple[str, dict[str, Any], list]]:
    """The student id plus one detail from the record that the agent checks (date of birth or email)."""
    s = g.user
    facts = [g.fact("student_id", g.user_id, ["student number", "id number"])]
    if g.rng.random() < 0.6:
        facts.append(g.fact("date_of_birth", s["dob"], ["birth date", "birthday", "dob"]))
    else:
        facts.append(g.fact("email", s["email"], ["email address", "e-mail"]))
    return [("get_student_details", {"student_id": g.user_id}, facts)]


_FEATURES: dict[int, dict[str, dict[str, int]]] = {}


def _features(db: Database) -> dict[str, dict[str, int]]:
    """Per student: open active registrations, terms still free to register in, balances, registrations."""
    key = id(db)
    if key not in _FEATURES:
        regs = db.tables["registrations"]
        open_terms = [t for t in R.TERM_NAMES if R.window_open(t)]
        out = {}
        for sid, s in db.tables["students"].items():
            mine = [regs[r] for r in s["registrations"]]
            active = [r for r in mine if r["status"] != "cancelled"]
            opened = [r for r in active if r["term"] in open_terms]
            out[sid] = {"open": len(opened), "free": len(open_terms) - len(opened), "regs": len(mine),
                        "balance": sum(1 for r in active if R.totals(r)["balance_due"] > 0)}
        _FEATURES[key] = out
    return _FEATURES[key]


def candidate_users(db: Database, split: str, trace: list[list[str]]) -> list[str]:
    """Every student of the split's own database, narrowed to those whose records can serve the trace.

    Needs are counted in trace order: a registration made earlier in the trace can be changed or
    paid later, and a cancellation frees its term for a new registration.
    """
    flat = [t for intent in trace for t in intent]
    need_open = need_free = need_balance = 0
    made = freed = 0
    for t in flat:
        if t == "register_courses":
            if freed:
                freed -= 1
            else:
                need_free += 1
            made += 1
        elif t == "cancel_registration":
            need_open += 1
            freed += 1
        elif t == "update_registration_courses" and not made:
            need_open = max(need_open, 1)
        elif t == "pay_registration":
            need_balance = 1
    needs_regs = any(t in ("get_registration_details", "get_course_meeting_status") for t in flat) and not made
    feats = _features(db)
    out = []
    for sid in sorted(feats):
        f = feats[sid]
        if f["open"] < min(need_open, 2) or f["free"] < need_free or f["balance"] < need_balance:
            continue
        if needs_regs and not f["regs"]:
            continue
        out.append(sid)
    return out or sorted(feats)


def persona(g: Ground) -> str:
    return g.rng.choice(PERSONAS)


def name_of(g: Ground) -> str:
    n = g.user["name"]
    return f"{n['first_name']} {n['last_name']}"


def internal_ids(db: Database) -> set[str]:
    """Course, registration and payment-method ids. Student ids are not internal: students know them."""
    out = set(db.tables["courses"]) | set(db.tables["registrations"])
    for s in db.tables["students"].values():
        out.update(s["payment_methods"])
    return out
