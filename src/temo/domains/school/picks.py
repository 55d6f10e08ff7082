"""State queries and phrasing shared by the school grounding hooks and challenges.

Everything reads the state *as it is now* (``g.store``), so a hook sees what earlier steps of the
trace did. Phrases are the student's own words: course codes and titles, terms, card brands and
last digits; never course, registration or payment-method ids.
"""
from __future__ import annotations

import copy
from typing import Any, Optional

from temo.domains.kit.vocabulary import aliases
from temo.domains.kit.wording import and_join
from temo.env.grounding import Ground

from . import rules as R

OPEN_TERMS = [t for t in R.TERM_NAMES if R.window_open(t)]
_ALIASES = aliases(__file__)
SOURCE_WORDS = {"credit_card": "credit card", "debit_card": "debit card", "bank_account": "bank account"}


# -- reading the state -------------------------------------------------------------------------------
def registrations(g: Ground, active: bool = True, open_only: bool = False) -> list[dict[str, Any]]:
    out = []
    for rid in g.user["registrations"]:
        reg = g.store.get("registrations", rid)
        if active and reg["status"] == "cancelled":
            continue
        if open_only and not R.window_open(reg["term"]):
            continue
        out.append(reg)
    return out


def reg_for_term(g: Ground, term: str) -> Optional[dict[str, Any]]:
    return next((r for r in registrations(g) if r["term"] == term), None)


def free_terms(g: Ground) -> list[str]:
    """Open terms in which the student has no active registration (so a new one can be made)."""
    return [t for t in OPEN_TERMS if reg_for_term(g, t) is None]


def courses_in(g: Ground, term: str) -> list[dict[str, Any]]:
    return [c for c in g.store.values("courses") if c["term"] == term]


def course(g: Ground, cid: str) -> dict[str, Any]:
    return g.store.get("courses", cid)


def seats(c: dict[str, Any]) -> int:
    return c["capacity"] - c["current_enrollment"]


def reg_courses(g: Ground, reg: dict[str, Any]) -> list[dict[str, Any]]:
    return [course(g, line["course_id"]) for line in reg["courses"]]


def fits(c: dict[str, Any], others: list[dict[str, Any]]) -> bool:
    """A course with a seat, not clashing with and not repeating any of ``others``."""
    return seats(c) > 0 and not any(R.clash(c, o) or c["course_code"] == o["course_code"] for o in others)


def touched(g: Ground, rid: str) -> set[str]:
    """Course ids a write of this attempt already added, dropped or regraded on a registration."""
    return g.notes.setdefault("touched", {}).setdefault(rid, set())


def mark(g: Ground, kind: str, ident: str) -> None:
    g.used.setdefault(kind, set()).add(ident)


def preview(reg: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, int]:
    """What an update to ``lines`` would charge or refund, computed the way the tool does."""
    before = R.totals(reg)
    after_reg = copy.deepcopy(reg)
    after_reg["courses"] = lines
    R.recount(after_reg)
    after = R.totals(after_reg)
    charge = after["amount_due"] - before["amount_due"]
    refund = max(0, after["amount_paid"] - after["amount_due"]) if charge < 0 else 0
    return {"charge": max(0, charge), "refund": refund, "credits": after_reg["total_credits"]}


def credits_of(lines: list[dict[str, Any]]) -> int:
    return sum(R.credit_value(line["credits"], line["grading_option"]) for line in lines)


# -- words ------------------------------------------------------------------------------------------
def term_words(term: str) -> str:
    return R.TERMS[term]["label"]


def course_words(c: dict[str, Any]) -> str:
    return f"{c['course_code']} ({c['title']})"


def course_detail(c: dict[str, Any]) -> str:
    return f"It's {course_words(c)} in {term_words(c['term'])}."


def codes(cs: list[dict[str, Any]]) -> str:
    return and_join([c["course_code"] for c in cs])


def method_words(g: Ground, pid: str) -> str:
    m = g.user["payment_methods"][pid]
    info = m["extra_info"]
    return f"the {info['brand']} {SOURCE_WORDS[m['source']]} ending in {info['last_four']}"


def day_words(days: list[str]) -> str:
    return and_join([R.DAY_NAMES[d] + "s" for d in days])


def option_words(option: str) -> str:
    return {"letter": "a letter grade", "pass/fail": "pass/fail", "audit": "audit only"}[option]


# -- facts ------------------------------------------------------------------------------------------
# Alias hygiene: an alias never repeats the words of any fact key (a key's own words and its last word
# count as aliases already). Otherwise asking for one fact ("term") would also reveal a later intent's
# fact with the same base ("term_2"), and asking for that one later would count as a repeated question.
def term_fact(g: Ground, term: str):
    return g.fact("term", term, _ALIASES["term"])


def course_fact(g: Ground, c: dict[str, Any], key: str = "course_code"):
    return g.fact(key, c["course_code"], _ALIASES["course"])


def method_fact(g: Ground, pid: str, key: str = "payment_method"):
    return g.fact(key, method_words(g, pid), _ALIASES["payment"][key])
