"""Fixed constants and rule helpers of Crestview University's registration desk.

Shared by the tools, the generator and the grounding hooks, so the three can never disagree about
a price, a deadline or a clash. The desk never reads the clock: "today" is :data:`TODAY`, stated in
policy.md.
"""
from __future__ import annotations

from typing import Any, Iterable, Literal

UNIVERSITY = "Crestview University"
TODAY = "2025-05-15"  # the desk's current date (15:00 Eastern time)

TermName = Literal["2025-SPRING", "2025-SUMMER", "2025-FALL"]
StudyLevel = Literal["undergraduate", "graduate", "continuing_ed"]
GradingOption = Literal["letter", "pass/fail", "audit"]
Weekday = Literal["Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

# The academic calendar. `closed` maps dates without classes to the reason shown in a course's log.
TERMS: dict[str, dict[str, Any]] = {
    "2025-SPRING": {"label": "spring 2025", "start": "2025-01-21", "end": "2025-05-09",
                    "add_drop_deadline": "2025-02-03", "max_credits": 18,
                    "closed": {"2025-03-17": "spring break", "2025-03-18": "spring break",
                               "2025-03-19": "spring break", "2025-03-20": "spring break",
                               "2025-03-21": "spring break"}},
    "2025-SUMMER": {"label": "summer 2025", "start": "2025-06-02", "end": "2025-08-08",
                    "add_drop_deadline": "2025-06-09", "max_credits": 12,
                    "closed": {"2025-07-04": "university holiday"}},
    "2025-FALL": {"label": "fall 2025", "start": "2025-08-25", "end": "2025-12-12",
                  "add_drop_deadline": "2025-09-08", "max_credits": 18,
                  "closed": {"2025-09-01": "university holiday", "2025-11-26": "Thanksgiving break",
                             "2025-11-27": "Thanksgiving break", "2025-11-28": "Thanksgiving break"}},
}
TERM_NAMES = tuple(TERMS)

RATE_PER_CREDIT = {"undergraduate": 500, "graduate": 800, "continuing_ed": 400}
INSURANCE_FEE = 300  # student health insurance, chosen once at registration
FULL_TIME_CREDITS = 12  # at least this many credits is full-time
OVERLOAD_ABOVE = 18  # credits above this count as overload credits
HONORS_MAX_CREDITS = 21  # honors students may overload up to this (fall and spring)
DEGREE_LEVEL = {"BA": "undergraduate", "BSc": "undergraduate", "MA": "graduate", "MSc": "graduate",
                "MBA": "graduate", "PhD": "graduate", "Certificate": "continuing_ed"}
DAY_NAMES = {"Mon": "Monday", "Tue": "Tuesday", "Wed": "Wednesday", "Thu": "Thursday", "Fri": "Friday",
             "Sat": "Saturday"}


def window_open(term: str) -> bool:
    """Registration changes are possible up to and including the term's add/drop deadline."""
    return TODAY <= TERMS[term]["add_drop_deadline"]


def level_of(student: dict[str, Any]) -> str:
    return DEGREE_LEVEL[student["program"]["degree"]]


def credit_cap(student: dict[str, Any], term: str) -> int:
    cap = TERMS[term]["max_credits"]
    if term != "2025-SUMMER" and student.get("membership") == "honors":
        cap = HONORS_MAX_CREDITS
    return cap


def course_tuition(course: dict[str, Any], level: str, option: str) -> int:
    """Whole dollars; an audited course costs half and earns no credit."""
    full = course["credits"] * RATE_PER_CREDIT[level]
    return full // 2 if option == "audit" else full


def credit_value(credits: int, option: str) -> int:
    return 0 if option == "audit" else credits


def clash(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two courses clash when they share a weekday and their HH:MM ranges overlap."""
    pa, pb = a["meeting_pattern"], b["meeting_pattern"]
    if not set(pa["days"]) & set(pb["days"]):
        return False
    return pa["start_time"] < pb["end_time"] and pb["start_time"] < pa["end_time"]


def first_clash(courses: Iterable[dict[str, Any]]) -> tuple[dict, dict] | None:
    items = list(courses)
    for i, a in enumerate(items):
        for b in items[i + 1:]:
            if clash(a, b):
                return a, b
    return None


def is_major_course(student: dict[str, Any], course: dict[str, Any]) -> bool:
    return course["department"] == student["program"]["major"]


def status_for(credits: int) -> str:
    return "full-time" if credits >= FULL_TIME_CREDITS else "part-time"


def totals(reg: dict[str, Any]) -> dict[str, int]:
    """What a registration costs and what is still owed (all whole dollars).

    ``amount_due`` = tuition + fees - financial aid (never below 0); ``amount_paid`` = the sum of the
    payment history (refunds are negative); ``balance_due`` = due - paid.
    """
    active = reg["status"] != "cancelled"
    tuition = sum(c["tuition"] for c in reg["courses"])
    fees = INSURANCE_FEE if active and reg["health_insurance"] == "yes" else 0
    aid = sum(reg["financial_aid"].values()) if active else 0
    due = max(0, tuition + fees - aid)
    paid = sum(p["amount"] for p in reg["payment_history"])
    return {"tuition": tuition, "fees": fees, "financial_aid": aid, "amount_due": due,
            "amount_paid": paid, "balance_due": due - paid}


def net_paid_by_method(reg: dict[str, Any]) -> dict[str, int]:
    """Net amount paid per payment method, in order of first use."""
    out: dict[str, int] = {}
    for p in reg["payment_history"]:
        out[p["payment_id"]] = out.get(p["payment_id"], 0) + p["amount"]
    return out


def recount(reg: dict[str, Any]) -> None:
    """Recompute credits, overload and status of a registration after its courses changed."""
    credits = sum(credit_value(c["credits"], c["grading_option"]) for c in reg["courses"])
    reg["total_credits"] = credits
    reg["overload_credits"] = max(0, credits - OVERLOAD_ABOVE)
    reg["status"] = status_for(credits)


def course_line(course: dict[str, Any], level: str, option: str) -> dict[str, Any]:
    """The entry a registration keeps for one course."""
    return {"course_id": course["course_id"], "course_code": course["course_code"], "section": course["section"],
            "title": course["title"], "credits": course["credits"], "grading_option": option,
            "tuition": course_tuition(course, level, option)}
