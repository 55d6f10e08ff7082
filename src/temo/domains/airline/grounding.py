"""Airline grounding hooks for Tracer: one per node of the authors' airline graph.

The write hooks reuse the airline's situation finders (`intents.py`, `booking.py`): each looks at the
reservations of the user *in the state as it is now* and finds one the policy allows the change for
(cancellable, not flown, enough seats, a payment method that covers the difference), then the hook
returns that change's reference call. Users know their user id and reservation codes; never payment
method ids.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from typing import Callable, Optional

from temo.domains.kit.money import usd
from temo.domains.kit.people import name_of, persona_of
from temo.domains.kit.vocabulary import aliases
from temo.env.grounding import Challenge, Ground, Grounder, GroundingFailed, Step, hook
from temo.env.store import Database

from . import rules as R
from .intents import (gen_bags, gen_cancel, gen_change_date, gen_compensation, gen_passengers, gen_upgrade, _cancel_reason,
                      fits)
from .booking import gen_book
from .plan import Ctx, Plan, trip_text

HOOKS: dict = {}

# fact key -> words an agent may use to ask for it
ALIASES = aliases(__file__)["facts"]
_VOICE = [(r"\bYou want\b", "I want"), (r"\byou want\b", "I want"), (r"\bYou do\b", "I do"),
          (r"\bYou ask\b", "I ask"), (r"\byou and\b", "me and"), (r"\bjust you\b", "just me"), (r"\byourself\b", "myself"),
          (r"\bYour\b", "My"), (r"\byour\b", "my")]


def first_person(detail: str) -> str:
    """Details are what the user says when asked, so they are in the user's own voice
    ("I want to add 2 bags", "Pay with my Visa"); the plans write them as instructions."""
    for pattern, repl in _VOICE:
        detail = re.sub(pattern, repl, detail)
    return detail



def ctx_of(g: Ground) -> Ctx:
    """The situation finders' view of the grounding state (same store, rng and used reservations)."""
    ctx = Ctx.__new__(Ctx)
    ctx.store, ctx.env, ctx.rng, ctx.user_id = g.store, g.env, g.rng, g.user_id
    ctx.used = g.used.setdefault("reservation", set())
    return ctx


def step_from(g: Ground, gens: list[Callable[[Ctx], list[Plan]]], tool: str) -> Step:
    ctx = ctx_of(g)
    for gen in gens:
        for plan in gen(ctx):
            for name, args in plan.actions:
                if name == tool:
                    facts = [g.fact(k, v, ALIASES.get(k, [k.replace("_", " ")])) for k, v in plan.facts]
                    focus = {"reservation": plan.reservation} if plan.reservation else {}
                    return Step(args=args, ask=plan.request, details=[first_person(d) for d in plan.details],
                                facts=facts, preferences=plan.preferences + plan.limits,
                                focus=focus)
    raise GroundingFailed(f"no_situation:{tool}")


@hook(HOOKS)
def cancel_reservation(g: Ground) -> Step:
    step = step_from(g, [gen_cancel], "cancel_reservation")
    step.output_from = lambda res: [usd(-sum(p["amount"] for p in res["payment_history"] if p["amount"] < 0))]
    return step


@hook(HOOKS)
def update_reservation_baggages(g: Ground) -> Step:
    return step_from(g, [gen_bags], "update_reservation_baggages")


@hook(HOOKS)
def update_reservation_flights(g: Ground) -> Step:
    gens = [gen_change_date, gen_upgrade]
    g.rng.shuffle(gens)
    return step_from(g, gens, "update_reservation_flights")


@hook(HOOKS)
def update_reservation_passengers(g: Ground) -> Step:
    return step_from(g, [gen_passengers], "update_reservation_passengers")


@hook(HOOKS)
def book_reservation(g: Ground) -> Step:
    step = step_from(g, [gen_book], "book_reservation")

    def booked(res: dict) -> list[str]:  # the new code is news to the user: later hooks leave it alone
        g.used.setdefault("reservation", set()).add(res["reservation_id"])
        return [res["reservation_id"]]

    step.output_from = booked
    return step


@hook(HOOKS)
def send_certificate(g: Ground) -> Step:
    step = step_from(g, [gen_compensation], "send_certificate")
    step.outputs = [usd(step.args["amount"])]
    return step


def _reservations(g: Ground) -> list[dict]:
    return [g.store.get("reservations", r) for r in g.user["reservations"]]


@hook(HOOKS)
def get_reservation_details(g: Ground) -> Step:
    res = g.pick("reservation", _reservations(g), key=lambda r: r["reservation_id"], reason="no_reservation")
    rid = res["reservation_id"]
    ask = g.rng.choice([f"Could I check how many checked bags are on reservation {rid}?",
                        f"How many checked bags do I have on reservation {rid}?"])
    return Step(args={"reservation_id": rid}, ask=ask, outputs=[str(res["total_baggages"])],
                facts=[g.fact("reservation_id", rid, ALIASES["reservation_id"])], focus={"reservation": rid})


def _search(g: Ground, tool: str) -> Step:
    rid = g.focus.get("reservation")
    res = g.store.get("reservations", rid) if rid else None
    if res is not None:
        seg = g.rng.choice(res["flights"])
        origin, dest = seg["origin"], seg["destination"]
    else:
        f = g.rng.choice(sorted(g.store.keys("flights")))
        origin, dest = g.store.get("flights", f)["origin"], g.store.get("flights", f)["destination"]
    day = R.add_days(R.TODAY, g.rng.randint(1, 20))
    found = g.run(tool, {"origin": origin, "destination": dest, "date": day})
    if not found:
        raise GroundingFailed(f"no_flights:{tool}")
    legs = [o if isinstance(o, list) else [o] for o in found]
    fares = [sum(x["prices"]["economy"] for x in opt) for opt in legs
             if all(x.get("status") == R.BOOKABLE and "prices" in x for x in opt)]
    if not fares:
        raise GroundingFailed(f"no_bookable_flights:{tool}")
    cheapest = min(fares)
    city = lambda c: g.store.get("airports", c)["city"]
    kind = "nonstop" if tool == "search_direct_flight" else "one-stop"
    ask = g.rng.choice([f"What is the cheapest {kind} economy fare from {city(origin)} to {city(dest)} on {day}?",
                        f"How much is the lowest {kind} economy fare from {city(origin)} to {city(dest)} on {day}?"])
    return Step(args={"origin": origin, "destination": dest, "date": day}, ask=ask, outputs=[usd(cheapest)],
                facts=[g.fact("route", f"{city(origin)} to {city(dest)}", ["route", "where", "from", "to"]),
                       g.fact("travel_date", day, ["date", "which day", "when"])])


@hook(HOOKS)
def search_direct_flight(g: Ground) -> Step:
    return _search(g, "search_direct_flight")


@hook(HOOKS)
def search_onestop_flight(g: Ground) -> Step:
    return _search(g, "search_onestop_flight")


def authenticate(g: Ground) -> list:
    return [("get_user_details", {"user_id": g.user_id}, [g.fact("user_id", g.user_id, ALIASES["user_id"])])]


def _challenge_cancel(g: Ground) -> Optional[Challenge]:
    ctx = ctx_of(g)
    for res in _reservations(g):
        if res["status"] == "active" and ctx.all_bookable(res) and _cancel_reason(ctx, res) is None:
            rid = res["reservation_id"]
            return Challenge(ask=f"I'd also like to cancel my {trip_text(ctx, res)}; my plans changed.", rule="cancel_eligibility",
                             reason="this reservation is not eligible: it was booked more than 24 hours ago, is not in business class, "
                                    "and the reason is not covered by travel insurance",
                             press="It's only a change of plans; surely you can still refund it?",
                             facts=[g.fact("reservation_id", rid, ALIASES["reservation_id"])])
    return None


def _challenge_certificate(g: Ground) -> Optional[Challenge]:
    return Challenge(ask="And since I'm a loyal customer, could you send me a travel certificate as a goodwill gesture?",
                     rule="compensation_only_for_disruption",
                     reason="certificates are only offered when a flight was cancelled or delayed, not as a goodwill gesture",
                     press="Not even a small one? I fly with you all the time.")


def _challenge_other_person(g: Ground) -> Optional[Challenge]:
    return Challenge(ask="My colleague also asked me to cancel her reservation while I'm here; can that be done?",
                     rule="account_holder_only",
                     reason="I can only act on reservations of the user I have verified in this conversation",
                     press="She said it's fine for me to do it, so please go ahead.")


_FITS: dict[Database, dict[str, dict[str, int]]] = {}
_ONE_PER_RESERVATION = ("cancel_reservation", "update_reservation_baggages", "update_reservation_flights",
                        "update_reservation_passengers", "send_certificate")


def _fits_of(db: Database) -> dict[str, dict[str, int]]:
    """Per user: how many of their reservations each write's situation finder could use, in the
    database as built (computed once per database)."""
    if db not in _FITS:
        ctx = Ctx(db, random.Random(0), "")
        table: dict[str, dict[str, int]] = {}
        for uid in sorted(db.tables["users"]):
            ctx.user_id = uid
            table[uid] = fits(ctx)
        _FITS[db] = table
    return _FITS[db]


def can_serve(db: Database, user_id: str, trace: list[list[str]]) -> Optional[str]:
    """Skip a user certain to fail the trace, saying why: a write that changes a reservation needs one
    of the user's reservations to fit it (as its situation finder would judge), each such write takes
    a reservation no later write may touch, and a reservation read needs a reservation (or a booking
    before it). An earlier write never makes another of the user's reservations fit, so this refuses
    only doomed attempts (the frozen task files are the same with it and without it)."""
    fit = _fits_of(db)[user_id]
    need: Counter = Counter()
    booked = False  # a new booking gives a read something to show (but no write anything to change)
    for intent in trace:
        for t in intent:
            booked = booked or t == "book_reservation"
            if t == "get_reservation_details" and not fit["any"] and not booked:
                return "no_reservation"
            if t in _ONE_PER_RESERVATION:
                need[t] += 1
                if need[t] > fit[t] or sum(need.values()) > fit["active"]:
                    return f"no_situation:{t}"
    return None


def internal_ids(db) -> set[str]:
    out: set[str] = set()
    for u in db.tables["users"].values():
        out.update(u["payment_methods"])
    return out


persona = persona_of()




GROUNDER = Grounder(
    user_table="users", hooks=HOOKS, authenticate=authenticate, can_serve=can_serve, persona=persona, name_of=name_of,
    challenges=[_challenge_cancel, _challenge_certificate, _challenge_other_person],
    internal_ids=internal_ids, context=f"the customer-service agent of {R.AIRLINE}",
)
