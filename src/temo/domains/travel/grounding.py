"""Travel grounding for Tracer: one hook per node of the travel graph, identity, people, challenges.

Travelers know their traveler id, their booking numbers, the names of their packages and agents, and
their saved cards by brand and last digits; never package, agent or payment-method ids, which the
agent reads from the tools. The hooks live in ``ground_reads`` and ``ground_writes``; the forbidden
requests in ``challenges``.
"""
from __future__ import annotations

from temo.core import Action
from temo.domains.kit.people import name_of, persona_of
from temo.env.grounding import Ground, Grounder

from . import rules as R
from .challenges import CHALLENGES
from .ground_common import fact, new_bookings
from .ground_reads import HOOKS as READ_HOOKS
from .ground_writes import HOOKS as WRITE_HOOKS

def _spread(hook):
    """Count only entities of the frozen database in the even-spread usage (not bookings made in the attempt)."""
    def wrapped(g: Ground):
        step = hook(g)
        if step is not None and step.uses is None:
            step.uses = {k: v for k, v in step.focus.items() if v not in new_bookings(g)}
        return step

    wrapped.__name__ = hook.__name__
    wrapped.__doc__ = hook.__doc__
    return wrapped


HOOKS = {name: _spread(h) for name, h in {**READ_HOOKS, **WRITE_HOOKS}.items()}
TRAVEL_PERSONAS = [
    "a honeymooner planning the first big trip together", "a retiree who travels twice a year",
    "a parent organising a family holiday", "a frequent traveler who knows the agency well",
    "a teacher who can only travel during school holidays", "someone booking a trip for a milestone birthday",
]
CHANGE_TOOLS = {"update_booking_add_ons", "update_booking_departure_date", "update_booking_travelers",
                "update_booking_rooming"}


def authenticate(g: Ground) -> list:
    return [("get_traveler_details", {"traveler_id": g.user_id}, [fact(g, "traveler_id", g.user_id)])]


_POOLS: dict[tuple[int, bool, bool], list[str]] = {}


def candidate_users(db, split: str, trace: list[list[str]]) -> list[str]:
    """Every traveler of the split's database; for traces that change or cancel a booking, only those with
    a booking the tools accept (in the frozen state)."""
    tools = {t for intent in trace for t in intent}
    key = (id(db), bool(tools & CHANGE_TOOLS), "cancel_booking" in tools)
    if key not in _POOLS:
        packages, bookings = db.tables["packages"], db.tables["bookings"]
        out = []
        for tid, trav in sorted(db.tables["travelers"].items()):
            mine = [bookings[b] for b in trav["bookings"]]
            if key[1] and not any(R.can_change(packages[b["package_id"]], b) for b in mine):
                continue
            if key[2] and not any(R.can_cancel(packages[b["package_id"]], b) for b in mine):
                continue
            out.append(tid)
        _POOLS[key] = out
    return list(_POOLS[key])


def internal_ids(db) -> set[str]:
    out = set(db.tables["packages"]) | set(db.tables["agents"])
    for trav in db.tables["travelers"].values():
        out.update(trav["payment_methods"])
    return out


def check_policy(actions: list[Action], g: Ground) -> list[str]:
    """The reference keeps the rules the tools leave to the agent: a booking is cancelled only inside its
    package's cancellation terms (never one reviewed case by case), and only the verified traveler's."""
    problems = []
    for a in actions:
        if a.name != "cancel_booking":
            continue
        b = g.store.get("bookings", a.arguments["booking_id"])
        if b is None:
            continue  # made earlier in the same task: cancelled at once is inside any window
        if b["traveler_id"] != g.user_id:
            problems.append("other_travelers_booking")
        if not R.can_cancel(g.store.get("packages", b["package_id"]), b):
            problems.append("cancel_outside_terms")
    return problems


persona = persona_of(TRAVEL_PERSONAS)




GROUNDER = Grounder(
    user_table="travelers", hooks=HOOKS, authenticate=authenticate, candidate_users=candidate_users,
    persona=persona, name_of=name_of, challenges=list(CHALLENGES), internal_ids=internal_ids, check_policy=check_policy,
    context="the online booking desk of a travel agency", test_share=1.0,
)
