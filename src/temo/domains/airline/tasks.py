"""Code-built airline tasks: one to three intents per user, each checked by replaying it as it is built.

Every task starts with `get_user_details(user_id)`. Each intent generator looks at the current state of
the task's own store (so later intents see earlier changes), picks a situation where the policy allows
the request, writes the reference actions a careful agent would take (reads it needs, then the write),
and the facts the user must supply. Every string argument of a reference action is either a fact value,
text that an earlier reference action returned, or an enum value of the tool's schema.

Test and training tasks use disjoint sets of users, so their reference action lists never coincide.
"""
from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import dataclass, field
from typing import Callable, Optional

from temo.core import Action, EmotionCondition, Fact, Intent, Task, UserScenario
from temo.env import Database, Environment, Store

from . import rules as R
from .generate import FIRST_NAMES, LAST_NAMES
from .tools import TOOLS

DOMAIN = "airline"
MAX_ACTIONS = 8
TOOL_MAP = {t.name: t for t in TOOLS}

ALIASES = {
    "user_id": ["user id", "user ID", "account id", "username", "customer id", "member id"],
    "reservation_id": ["reservation id", "reservation code", "reservation number", "confirmation code",
                       "confirmation number", "booking reference", "booking code", "reservation"],
    "cancellation_reason": ["reason", "why", "reason for cancelling", "cancellation reason"],
    "bags": ["bags", "checked bags", "baggage", "luggage", "suitcases", "how many bags", "number of bags"],
    "payment_method": ["payment", "payment method", "pay with", "which card", "credit card", "gift card",
                       "certificate", "method of payment", "charge"],
    "new_date": ["new date", "which date", "what date", "new travel date", "move it to", "which day"],
    "cabin": ["cabin", "class", "fare class", "seat class", "upgrade to"],
    "origin": ["origin", "departure airport", "departing from", "leaving from", "flying from", "departure city",
               "where from"],
    "destination": ["destination", "arrival airport", "going to", "flying to", "arriving", "arrival city"],
    "departure_date": ["departure date", "travel date", "which date", "what date", "which day", "outbound date",
                       "leaving on"],
    "return_date": ["return date", "coming back", "return flight", "fly back"],
    "trip_type": ["trip type", "one way", "round trip", "one-way", "round-trip", "return ticket"],
    "passengers": ["passengers", "who is travelling", "who is traveling", "travellers", "travelers", "how many people",
                   "passenger names", "who will fly"],
    "insurance": ["travel insurance", "insurance", "coverage"],
    "passenger_first_name": ["first name", "new passenger", "passenger's name", "name of the passenger"],
    "passenger_last_name": ["last name", "surname", "family name"],
    "passenger_dob": ["date of birth", "birth date", "birthday", "dob", "born"],
    "passenger_to_change": ["which passenger", "whose", "passenger to change", "which traveller", "which traveler"],
}
WEIGHTS = {"cancel": 2.0, "bags": 2.0, "change_date": 2.0, "upgrade": 1.5, "passengers": 1.5, "book": 2.2,
           "compensation": 1.6, "refuse_cancel": 0.6}
CABIN_WORDS = {"basic_economy": "basic economy", "economy": "economy", "business": "business"}
PREFS = {
    "earliest": ("the earliest departure that day", lambda f: R.minutes(f["scheduled_departure_time_est"])),
    "latest": ("the latest departure that day", lambda f: -R.minutes(f["scheduled_departure_time_est"])),
    "cheapest": ("the cheapest option in your cabin", None),
}


# ---- building blocks -----------------------------------------------------------------------

@dataclass
class Plan:
    """One intent: what the user says, the facts it needs, and the reference actions."""

    kind: str
    request: str
    goal: str
    actions: list[tuple[str, dict]]
    facts: list[tuple[str, str]] = field(default_factory=list)  # (base key, value)
    details: list[str] = field(default_factory=list)
    preferences: list[str] = field(default_factory=list)
    limits: list[str] = field(default_factory=list)
    reservation: Optional[str] = None
    writes: bool = True


class Ctx:
    """The task under construction: its own store, the user, and what earlier intents used."""

    def __init__(self, db: Database, rng: random.Random, user_id: str):
        self.store = Store(db)
        self.env = Environment(TOOL_MAP, self.store)
        self.rng = rng
        self.user_id = user_id
        self.used: set[str] = set()

    @property
    def user(self) -> dict:
        return self.store.get("users", self.user_id)

    def reservations(self, ok: Callable[[dict], bool]) -> list[dict]:
        out = []
        for rid in self.user["reservations"]:
            res = self.store.get("reservations", rid)
            if rid not in self.used and res["status"] == "active" and ok(res):
                out.append(res)
        return out

    def status(self, seg: dict) -> str:
        return R.flight_status(self.store.get("flights", seg["flight_number"]), seg["date"])

    def all_bookable(self, res: dict) -> bool:
        return all(self.status(s) == R.BOOKABLE for s in res["flights"])

    def flight_day(self, number: str, day: str) -> dict:
        return self.store.get("flights", number)["dates"].get(day, {})

    def city(self, code: str) -> str:
        return self.store.get("airports", code)["city"]

    def run(self, name: str, args: dict) -> str:
        out = self.env.execute(name, args)
        if not out.ok:
            raise AssertionError(f"reference action {name}({args}) failed: {out.observation}")
        return out.observation


def _pay_text(m: dict) -> str:
    if m["source"] == "credit_card":
        return f"my {m['brand']} credit card ending in {m['last_four']}"
    tail = m["id"][-4:]
    return f"my gift card ending in {tail}" if m["source"] == "gift_card" else f"my travel certificate ending in {tail}"


def _yours(text: str) -> str:
    """The user's words ("my card") as the instruction says them ("your card")."""
    return re.sub(r"\bmy\b", "your", text)


def _change_payment(ctx: Ctx, amount: float) -> Optional[dict]:
    """A credit card, or a gift card that can cover `amount`, for a change or bag fee."""
    methods = sorted(ctx.user["payment_methods"].values(), key=lambda m: m["id"])
    cards = [m for m in methods if m["source"] == "credit_card"]
    gifts = [m for m in methods if m["source"] == "gift_card" and (m["amount"] or 0) >= max(amount, 1)]
    if gifts and ctx.rng.random() < 0.3:
        return ctx.rng.choice(gifts)
    return ctx.rng.choice(cards) if cards else None


def _trip_text(ctx: Ctx, res: dict) -> str:
    kind = "round trip" if res["flight_type"] == "round_trip" else "one-way trip"
    return f"{kind} from {ctx.city(res['origin'])} to {ctx.city(res['destination'])} on {res['flights'][0]['date']}"


def _pick(ctx: Ctx, ok: Callable[[dict], bool]) -> Optional[dict]:
    found = ctx.reservations(ok)
    return ctx.rng.choice(found) if found else None


def _choose(options: list[dict], pref: str, cabin: str) -> Optional[dict]:
    """The unique best flight for the preference, or None when there is a tie."""
    key = (lambda f: f["prices"][cabin]) if pref == "cheapest" else PREFS[pref][1]
    if not options:
        return None
    ranked = sorted(options, key=key)
    if len(ranked) > 1 and key(ranked[0]) == key(ranked[1]):
        return None
    return ranked[0]


def _direct_options(ctx: Ctx, origin: str, dest: str, day: str, cabin: str, seats: int) -> list[dict]:
    out = []
    for f in ctx.store.values("flights"):
        if f["origin"] == origin and f["destination"] == dest:
            info = f["dates"].get(day, {})
            if info.get("status") == R.BOOKABLE and info["available_seats"][cabin] >= seats:
                out.append({**f, "prices": info["prices"]})
    return out


# ---- intent generators ---------------------------------------------------------------------

def _cancel_reason(ctx: Ctx, res: dict) -> Optional[tuple[str, str]]:
    """Why this reservation may be cancelled, and how the user words their reason."""
    if any(ctx.status(s) == "cancelled" for s in res["flights"]):
        return "airline", "the airline cancelled one of my flights"
    if R.booked_within_window(res["created_at"]):
        return "24h", ctx.rng.choice(["I booked it by mistake yesterday", "my plans changed right after booking"])
    if res["cabin"] == "business":
        return "business", ctx.rng.choice(["my plans changed", "the meeting I was flying to was called off"])
    if res["insurance"] == "yes":
        return "insurance", ctx.rng.choice(["I have the flu and my doctor told me not to fly",
                                            "a passenger broke a leg and cannot travel",
                                            "a big storm is forecast and the trip is too risky because of the weather"])
    return None


def _cancellable(ctx: Ctx, res: dict) -> bool:
    flown = any(R.segment_flown(ctx.status(s), s["date"]) for s in res["flights"])
    return not flown and _cancel_reason(ctx, res) is not None


def _comp_eligible(ctx: Ctx, res: dict) -> bool:
    return ctx.user["membership"] in ("silver", "gold") or res["insurance"] == "yes" or res["cabin"] == "business"


def gen_cancel(ctx: Ctx) -> list[Plan]:
    res = _pick(ctx, lambda r: _cancellable(ctx, r))
    if res is None:
        return []
    why, reason = _cancel_reason(ctx, res)
    rid = res["reservation_id"]
    ctx.used.add(rid)
    plan = Plan(
        kind="cancel",
        request=f"I want to cancel my {_trip_text(ctx, res)} and get my money back.",
        goal=f"Cancel reservation {rid} (your {_trip_text(ctx, res)}) with a full refund. Your reason: {reason}.",
        actions=[("get_reservation_details", {"reservation_id": rid}), ("cancel_reservation", {"reservation_id": rid})],
        facts=[("reservation_id", rid), ("cancellation_reason", reason)],
        details=[f"The reservation code is {rid}.", f"The reason: {reason}."],
        limits=["You want the whole reservation cancelled, not changed, and no travel certificate instead of a refund."],
        reservation=rid,
    )
    plans = [plan]
    if why == "airline" and _comp_eligible(ctx, res) and ctx.rng.random() < 0.6:
        n = len(res["passengers"])
        plans.append(Plan(
            kind="compensation",
            request="Also, having my flight cancelled on me was a real hassle. Is there any compensation for that?",
            goal="After the cancellation, complain that the airline cancelled your flight and ask for compensation.",
            actions=[("send_certificate", {"user_id": ctx.user_id, "amount": R.COMPENSATION_CANCELLED * n})],
            details=["You ask for compensation because the airline cancelled your flight."],
            limits=["Accept a travel certificate as compensation."],
            reservation=rid,
        ))
    return plans


def gen_refuse_cancel(ctx: Ctx) -> list[Plan]:
    def ok(r: dict) -> bool:
        return ctx.all_bookable(r) and _cancel_reason(ctx, r) is None

    res = _pick(ctx, ok)
    if res is None:
        return []
    rid = res["reservation_id"]
    ctx.used.add(rid)
    return [Plan(
        kind="refuse_cancel",
        request=f"I'd like to cancel my {_trip_text(ctx, res)}; my plans changed.",
        goal=f"Ask to cancel reservation {rid} (your {_trip_text(ctx, res)}) because your plans changed.",
        actions=[("get_reservation_details", {"reservation_id": rid})],
        facts=[("reservation_id", rid), ("cancellation_reason", "my plans changed")],
        details=[f"The reservation code is {rid}.", "The reason: your plans changed. Nobody is ill and there is no bad weather."],
        limits=["If the agent explains that this reservation cannot be cancelled under the airline's rules, accept it "
                "and move on; do not ask for a human agent and do not invent another reason."],
        reservation=rid,
        writes=False,
    )]


def gen_bags(ctx: Ctx) -> list[Plan]:
    res = _pick(ctx, ctx.all_bookable)
    if res is None:
        return []
    rid, n_pax, cabin = res["reservation_id"], len(res["passengers"]), res["cabin"]
    add = ctx.rng.choice([1, 1, 2, 2, 3])
    total = res["total_baggages"] + add
    nonfree = max(res["nonfree_baggages"], R.nonfree_bags(total, ctx.user["membership"], cabin, n_pax))
    fee = (nonfree - res["nonfree_baggages"]) * R.BAG_FEE
    method = _change_payment(ctx, fee)
    if method is None:
        return []
    ctx.used.add(rid)
    pay = _pay_text(method)
    word = "bag" if add == 1 else "bags"
    return [Plan(
        kind="bags",
        request=f"I need to add checked {word} to my {_trip_text(ctx, res)}.",
        goal=f"Add {add} checked {word} to reservation {rid} (your {_trip_text(ctx, res)}), paying any fee with {_yours(pay)}.",
        actions=[("get_reservation_details", {"reservation_id": rid}),
                 ("update_reservation_baggages", {"reservation_id": rid, "total_baggages": total,
                                                  "nonfree_baggages": nonfree, "payment_id": method["id"]})],
        facts=[("reservation_id", rid), ("bags", str(add)), ("payment_method", pay)],
        details=[f"The reservation code is {rid}.", f"You want to add {add} more checked {word}.", f"Pay with {_yours(pay)}."],
        limits=[f"You want exactly {add} additional {word}; you do not want to remove any bags."],
        reservation=rid,
    )]


def gen_change_date(ctx: Ctx) -> list[Plan]:
    def ok(r: dict) -> bool:
        one = r["flight_type"] == "one_way" and len(r["flights"]) == 1
        two = r["flight_type"] == "round_trip" and len(r["flights"]) == 2
        return r["cabin"] != "basic_economy" and (one or two) and ctx.all_bookable(r)

    cands = ctx.reservations(ok)
    ctx.rng.shuffle(cands)
    for res in cands[:4]:
        rid, cabin, n = res["reservation_id"], res["cabin"], len(res["passengers"])
        which = 0 if res["flight_type"] == "one_way" else ctx.rng.choice([0, 1])
        seg = res["flights"][which]
        lo = R.add_days(R.TODAY, 1) if which == 0 else R.add_days(res["flights"][0]["date"], 1)
        hi = R.LAST_DATE if (which == 1 or len(res["flights"]) == 1) else R.add_days(res["flights"][1]["date"], -1)
        days = [d for d in R.dates_between(lo, hi) if d != seg["date"]] if lo <= hi else []
        ctx.rng.shuffle(days)
        pref = ctx.rng.choice(list(PREFS))
        for day in days[:6]:
            chosen = _choose(_direct_options(ctx, seg["origin"], seg["destination"], day, cabin, n), pref, cabin)
            if chosen is None:
                continue
            new = [{"flight_number": s["flight_number"], "date": s["date"]} for s in res["flights"]]
            new[which] = {"flight_number": chosen["flight_number"], "date": day}
            diff = (chosen["prices"][cabin] - seg["price"]) * n
            method = _change_payment(ctx, diff)
            if method is None:
                return []
            ctx.used.add(rid)
            pay = _pay_text(method)
            leg = "flight" if res["flight_type"] == "one_way" else ("outbound flight" if which == 0 else "return flight")
            return [Plan(
                kind="change_date",
                request=f"I need to move my {leg} ({ctx.city(seg['origin'])} to {ctx.city(seg['destination'])}) to another day.",
                goal=(f"Move the {leg} of reservation {rid} ({ctx.city(seg['origin'])} to {ctx.city(seg['destination'])}, "
                      f"now on {seg['date']}) to {day}, same cabin, on {PREFS[pref][0]}. Pay or receive any fare "
                      f"difference with {_yours(pay)}."),
                actions=[("get_reservation_details", {"reservation_id": rid}),
                         ("search_direct_flight", {"origin": seg["origin"], "destination": seg["destination"], "date": day}),
                         ("update_reservation_flights", {"reservation_id": rid, "cabin": cabin, "flights": new,
                                                         "payment_id": method["id"]})],
                facts=[("reservation_id", rid), ("new_date", day), ("payment_method", pay)],
                details=[f"The reservation code is {rid}.", f"Move the {leg} to {day}; everything else stays the same.",
                         f"On that day you want {PREFS[pref][0]} (nonstop).", f"Use {_yours(pay)} for any price difference."],
                preferences=[f"For the new {leg}, you want {PREFS[pref][0]}, nonstop, in your current cabin."],
                limits=["Do not change the cabin, the passengers or the other flights."],
                reservation=rid,
            )]
    return []


def gen_upgrade(ctx: Ctx) -> list[Plan]:
    def ok(r: dict) -> bool:
        return r["cabin"] != "business" and len(r["flights"]) <= 2 and ctx.all_bookable(r)

    cands = ctx.reservations(ok)
    ctx.rng.shuffle(cands)
    for res in cands[:4]:
        rid, n = res["reservation_id"], len(res["passengers"])
        new_cabin = "business" if res["cabin"] == "economy" else ctx.rng.choice(["economy", "business"])
        infos = [ctx.flight_day(s["flight_number"], s["date"]) for s in res["flights"]]
        if any(i["available_seats"][new_cabin] < n for i in infos):
            continue
        diff = sum(i["prices"][new_cabin] for i in infos) * n - sum(s["price"] for s in res["flights"]) * n
        if diff <= 0:
            continue
        method = _change_payment(ctx, diff)
        if method is None:
            return []
        ctx.used.add(rid)
        pay = _pay_text(method)
        searches = []
        for s in res["flights"]:
            args = {"origin": s["origin"], "destination": s["destination"], "date": s["date"]}
            if ("search_direct_flight", args) not in searches:
                searches.append(("search_direct_flight", args))
        flights = [{"flight_number": s["flight_number"], "date": s["date"]} for s in res["flights"]]
        budget = (int(diff) // 100 + 1) * 100 + 100
        word = CABIN_WORDS[new_cabin]
        return [Plan(
            kind="upgrade",
            request=f"I'd like to upgrade my {_trip_text(ctx, res)} to {word}.",
            goal=f"Upgrade reservation {rid} (your {_trip_text(ctx, res)}) to {word} on the same flights, paying with {_yours(pay)}.",
            actions=[("get_reservation_details", {"reservation_id": rid}), *searches,
                     ("update_reservation_flights", {"reservation_id": rid, "cabin": new_cabin, "flights": flights,
                                                     "payment_id": method["id"]})],
            facts=[("reservation_id", rid), ("cabin", new_cabin), ("payment_method", pay)],
            details=[f"The reservation code is {rid}.", f"You want {word} for every flight, same flights and dates.",
                     f"Pay the difference with {_yours(pay)}."],
            preferences=[f"You are willing to pay up to ${budget} in total for the upgrade."],
            limits=["Keep the same flights and dates."],
            reservation=rid,
        )]
    return []


def gen_passengers(ctx: Ctx) -> list[Plan]:
    res = _pick(ctx, ctx.all_bookable)
    if res is None:
        return []
    rid = res["reservation_id"]
    pax = [dict(p) for p in res["passengers"]]
    i = ctx.rng.randrange(len(pax))
    old = pax[i]
    old_name = f"{old['first_name']} {old['last_name']}"
    me = ctx.user["name"]
    is_me = (old["first_name"], old["last_name"]) == (me["first_name"], me["last_name"])
    mode = "replace" if is_me else ctx.rng.choice(["replace", "replace", "dob", "last_name"])
    rng = ctx.rng
    if mode == "replace":
        new = {"first_name": rng.choice(FIRST_NAMES), "last_name": rng.choice(LAST_NAMES),
               "dob": f"{rng.randint(1950, 2010)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"}
        facts = [("passenger_first_name", new["first_name"]), ("passenger_last_name", new["last_name"]),
                 ("passenger_dob", new["dob"])]
        whom = f"yourself ({old_name})" if is_me else old_name
        what = f"replace {whom} with {new['first_name']} {new['last_name']} (born {new['dob']})"
        who = "me" if is_me else old_name
        request = f"Someone else will travel instead of {who} on my {_trip_text(ctx, res)}."
    elif mode == "dob":
        y, m, d = old["dob"].split("-")
        new = dict(old, dob=f"{y}-{m}-{(int(d) % 28) + 1:02d}")
        facts = [("passenger_dob", new["dob"])]
        what = f"correct the date of birth of {old_name} to {new['dob']}"
        request = f"The date of birth of one passenger on my {_trip_text(ctx, res)} is wrong."
    else:
        new = dict(old, last_name=rng.choice([n for n in LAST_NAMES if n != old["last_name"]]))
        facts = [("passenger_last_name", new["last_name"])]
        what = f"change the last name of {old_name} to {new['last_name']} (a recent name change)"
        request = f"A passenger on my {_trip_text(ctx, res)} has changed their last name."
    if new in pax:
        return []
    pax[i] = new
    ctx.used.add(rid)
    return [Plan(
        kind="passengers",
        request=request,
        goal=f"On reservation {rid} (your {_trip_text(ctx, res)}), {what}.",
        actions=[("get_reservation_details", {"reservation_id": rid}),
                 ("update_reservation_passengers", {"reservation_id": rid, "passengers": pax})],
        facts=[("reservation_id", rid), ("passenger_to_change", old_name), *facts],
        details=[f"The reservation code is {rid}.", f"You want to {what}.", "All other passengers stay as they are."],
        limits=["Do not add or remove passengers."],
        reservation=rid,
    )]


def gen_compensation(ctx: Ctx) -> list[Plan]:
    def kind(r: dict) -> Optional[str]:
        st = [ctx.status(s) for s in r["flights"] if s["date"] >= R.TODAY]
        if "cancelled" in st and "delayed" not in st:
            return "cancelled"
        if "delayed" in st and "cancelled" not in st:
            return "delayed"
        return None

    res = _pick(ctx, lambda r: kind(r) is not None and _comp_eligible(ctx, r)
                and not any(R.segment_flown(ctx.status(s), s["date"]) for s in r["flights"]))
    if res is None:
        return []
    rid, k, n = res["reservation_id"], kind(res), len(res["passengers"])
    seg = next(s for s in res["flights"] if ctx.status(s) == k)
    amount = (R.COMPENSATION_CANCELLED if k == "cancelled" else R.COMPENSATION_DELAYED) * n
    ctx.used.add(rid)
    what = "was cancelled by the airline" if k == "cancelled" else "is delayed"
    return [Plan(
        kind="compensation",
        request=f"My flight from {ctx.city(seg['origin'])} to {ctx.city(seg['destination'])} on {seg['date']} {what}. "
                "This is really unacceptable and I want some compensation.",
        goal=f"Complain that your flight on reservation {rid} ({ctx.city(seg['origin'])} to {ctx.city(seg['destination'])}, "
             f"{seg['date']}) {what}, and ask for compensation. You do not want to change or cancel the trip.",
        actions=[("get_reservation_details", {"reservation_id": rid}),
                 ("send_certificate", {"user_id": ctx.user_id, "amount": amount})],
        facts=[("reservation_id", rid)],
        details=[f"The reservation code is {rid}.", f"The flight {what}; you want compensation for the trouble.",
                 "You do not want to change or cancel the reservation."],
        limits=["Accept a travel certificate as compensation. Do not ask to cancel or rebook."],
        reservation=rid,
    )]


def gen_book(ctx: Ctx) -> list[Plan]:
    rng, user = ctx.rng, ctx.user
    cabin = rng.choices(list(R.CABINS), [0.25, 0.55, 0.2])[0]
    saved = user["saved_passengers"]
    me = {"first_name": user["name"]["first_name"], "last_name": user["name"]["last_name"], "dob": user["dob"]}
    who = rng.choices(["me", "saved", "new"], [0.55, 0.3 if saved else 0, 0.15])[0]
    facts: list[tuple[str, str]] = []
    pax = [me]
    if who == "saved":
        comp = rng.choice(saved)
        pax.append(dict(comp))
        pax_text = f"you and {comp['first_name']} {comp['last_name']} (saved in your profile)"
        facts.append(("passengers", f"me and {comp['first_name']} {comp['last_name']}, who is saved in my profile"))
    elif who == "new":
        comp = {"first_name": rng.choice(FIRST_NAMES), "last_name": rng.choice(LAST_NAMES),
                "dob": f"{rng.randint(1950, 2010)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"}
        pax.append(comp)
        pax_text = f"you and your friend {comp['first_name']} {comp['last_name']} (born {comp['dob']})"
        facts += [("passengers", f"me and my friend {comp['first_name']} {comp['last_name']}"),
                  ("passenger_first_name", comp["first_name"]), ("passenger_last_name", comp["last_name"]),
                  ("passenger_dob", comp["dob"])]
    else:
        pax_text = "just you"
        facts.append(("passengers", "just me"))
    n = len(pax)
    pref = rng.choice(list(PREFS))
    codes = sorted(a["code"] for a in ctx.store.values("airports"))
    direct = {(f["origin"], f["destination"]) for f in ctx.store.values("flights")}
    actions: list[tuple[str, dict]] = []
    for _ in range(12):
        origin, dest = rng.sample(codes, 2)
        day = R.add_days(R.TODAY, rng.randint(3, 20))
        if (origin, dest) in direct:
            chosen = _choose(_direct_options(ctx, origin, dest, day, cabin, n), pref, cabin)
            if chosen is None:
                continue
            segs = [(chosen, day)]
            actions = [("search_direct_flight", {"origin": origin, "destination": dest, "date": day})]
            round_trip = rng.random() < 0.45
            ret = None
            if round_trip:
                ret = R.add_days(day, rng.randint(2, 6))
                back = _choose(_direct_options(ctx, dest, origin, ret, cabin, n), pref, cabin)
                if back is None:
                    continue
                segs.append((back, ret))
                actions.append(("search_direct_flight", {"origin": dest, "destination": origin, "date": ret}))
        else:
            round_trip, ret = False, None
            pairs = []
            firsts = [f for f in ctx.store.values("flights") if f["origin"] == origin]
            for a in firsts:
                ia = a["dates"].get(day, {})
                if ia.get("status") != R.BOOKABLE or ia["available_seats"][cabin] < n or a["destination"] == dest:
                    continue
                for b in _direct_options(ctx, a["destination"], dest, day, cabin, n):
                    if R.minutes(b["scheduled_departure_time_est"]) >= R.minutes(a["scheduled_arrival_time_est"]) + R.MIN_LAYOVER_MIN:
                        pairs.append(({**a, "prices": ia["prices"]}, b))
            if not pairs:
                continue
            pref = "cheapest"
            pairs.sort(key=lambda p: p[0]["prices"][cabin] + p[1]["prices"][cabin])
            if len(pairs) > 1 and sum(p["prices"][cabin] for p in pairs[0]) == sum(p["prices"][cabin] for p in pairs[1]):
                continue
            segs = [(pairs[0][0], day), (pairs[0][1], day)]
            actions = [("search_direct_flight", {"origin": origin, "destination": dest, "date": day}),
                       ("search_onestop_flight", {"origin": origin, "destination": dest, "date": day})]
        break
    else:
        return []
    bags = rng.randint(0, n + 1)
    nonfree = R.nonfree_bags(bags, user["membership"], cabin, n)
    insurance = rng.choice(["yes", "no", "no"])
    total = sum(f["prices"][cabin] for f, _ in segs) * n + (R.INSURANCE_FEE * n if insurance == "yes" else 0) + R.BAG_FEE * nonfree
    methods = sorted(user["payment_methods"].values(), key=lambda m: m["id"])
    cards = [m for m in methods if m["source"] == "credit_card"]
    gifts_full = [m for m in methods if m["source"] == "gift_card" and (m["amount"] or 0) >= total]
    partial = [m for m in methods if m["source"] in ("gift_card", "certificate") and 0 < (m["amount"] or 0) < total]
    style = rng.choices(["card", "gift", "split"], [0.5, 0.25 if gifts_full else 0, 0.35 if partial else 0])[0]
    if style == "gift":
        g = rng.choice(gifts_full)
        payments = [{"payment_id": g["id"], "amount": total}]
        pay = _pay_text(g)
    elif style == "split":
        p, c = rng.choice(partial), rng.choice(cards)
        payments = [{"payment_id": p["id"], "amount": p["amount"]}, {"payment_id": c["id"], "amount": round(total - p["amount"], 2)}]
        pay = f"use the full balance of {_pay_text(p)} first and put the rest on {_pay_text(c)}"
    else:
        c = rng.choice(cards)
        payments = [{"payment_id": c["id"], "amount": total}]
        pay = _pay_text(c)
    origin, dest = segs[0][0]["origin"], (segs[0][0]["destination"] if round_trip else segs[-1][0]["destination"])
    day = segs[0][1]
    flight_type = "round_trip" if round_trip else "one_way"
    actions.append(("book_reservation", {
        "user_id": ctx.user_id, "origin": origin, "destination": dest, "flight_type": flight_type, "cabin": cabin,
        "flights": [{"flight_number": f["flight_number"], "date": d} for f, d in segs], "passengers": pax,
        "payment_methods": payments, "total_baggages": bags, "nonfree_baggages": nonfree, "insurance": insurance}))
    trip = "a round trip" if round_trip else "a one-way trip"
    when = f"leaving {day}" + (f" and returning {ret}" if ret else "")
    style_text = "nonstop" if len(segs) == 1 or round_trip else "with one stop (there is no nonstop flight)"
    facts = [("trip_type", "round trip" if round_trip else "one way"), ("origin", origin), ("destination", dest),
             ("departure_date", day), *([("return_date", ret)] if ret else []), ("cabin", cabin), *facts,
             ("bags", str(bags)), ("insurance", insurance), ("payment_method", pay)]
    word = CABIN_WORDS[cabin]
    return [Plan(
        kind="book",
        request=f"I want to book {trip} from {ctx.city(origin)} to {ctx.city(dest)}.",
        goal=(f"Book {trip} from {ctx.city(origin)} ({origin}) to {ctx.city(dest)} ({dest}), {when}, in {word}, "
              f"for {pax_text}, with {bags} checked bag(s) in total, {'with' if insurance == 'yes' else 'without'} "
              f"travel insurance. Payment: {_yours(pay)}."),
        actions=actions,
        facts=facts,
        details=[f"Trip: {trip}, {ctx.city(origin)} ({origin}) to {ctx.city(dest)} ({dest}), {when}.",
                 f"Cabin: {word}. Travellers: {pax_text}.", f"Checked bags: {bags} in total.",
                 f"Travel insurance: {insurance}.", f"Payment: {_yours(pay)}."],
        preferences=[f"Flights {style_text}; on each day you want {PREFS[pref][0]}."],
        limits=["Do not accept a different cabin, date or airport."],
    )]


GENERATORS: dict[str, Callable[[Ctx], list[Plan]]] = {
    "cancel": gen_cancel, "bags": gen_bags, "change_date": gen_change_date, "upgrade": gen_upgrade,
    "passengers": gen_passengers, "book": gen_book, "compensation": gen_compensation, "refuse_cancel": gen_refuse_cancel,
}


# ---- assembling tasks ----------------------------------------------------------------------

def _split_of(user_id: str) -> str:
    """Users are split 40/60 between test and training tasks, so the splits never share an action list."""
    return "test" if int(hashlib.sha256(user_id.encode()).hexdigest(), 16) % 5 < 2 else "train"


def _instruction(ctx: Ctx, plans: list[Plan], known: list[Fact]) -> str:
    u = ctx.user
    name = f"{u['name']['first_name']} {u['name']['last_name']}"
    lines = [f"You are {name}, a {u['membership']} member of {R.AIRLINE}, living in {u['address']['city']}. "
             f"You are chatting with the airline's reservation desk. Today is {R.TODAY}.",
             f"When asked for your user id, give {ctx.user_id}.", "", "What you want, in this order:"]
    lines += [f"{i}. {p.goal}" for i, p in enumerate(plans, 1)]
    lines += ["", "What you know and will say when asked:"]
    lines += [f"- {f.key.replace('_', ' ')}: {f.value}" for f in known]
    prefs = [x for p in plans for x in p.preferences]
    if prefs:
        lines += ["", "Your preferences:"] + [f"- {x}" for x in prefs]
    limits = [x for p in plans for x in p.limits] + [
        "Give one request at a time, and bring up the next one only when the current one is settled.",
        "Confirm an action only when the agent's summary matches what you want.",
        "Do not make up information you were not given here; if asked for something you do not know, say so.",
    ]
    lines += ["", "Rules for you:"] + [f"- {x}" for x in limits]
    return "\n".join(lines)


def _task(ctx: Ctx, plans: list[Plan], split: str, i: int, cond: EmotionCondition) -> Task:
    actions = [Action(name="get_user_details", arguments={"user_id": ctx.user_id}, intent=0)]
    known = [Fact(key="user_id", value=ctx.user_id, aliases=ALIASES["user_id"], intent=0)]
    taken = {"user_id"}
    intents = []
    for k, p in enumerate(plans):
        actions += [Action(name=n, arguments=a, intent=k) for n, a in p.actions]
        for base, value in p.facts:
            if any(f.value == value and f.key.rstrip("_0123456789") == base for f in known):
                continue  # already known from an earlier intent
            key, j = base, 2
            while key in taken:
                key, j = f"{base}_{j}", j + 1
            taken.add(key)
            known.append(Fact(key=key, value=value, aliases=ALIASES[base], intent=k))
        intents.append(Intent(request=p.request, details=p.details))
    u = ctx.user
    persona = (f"{u['name']['first_name']} {u['name']['last_name']}, {u['membership']} member of {R.AIRLINE}, "
               f"lives in {u['address']['city']}")
    return Task(
        id=f"{DOMAIN}-{split}-{i:03d}", domain=DOMAIN, split=split,
        scenario=UserScenario(persona=persona, known=known, intents=intents,
                              preferences=[x for p in plans for x in p.preferences]),
        actions=actions, outputs=[], emotion=cond, instruction=_instruction(ctx, plans, known), emotion_instruction="",
        meta={"intents": [p.kind for p in plans]},
    )


def build_tasks(db: Database, split: str, count: int, seed: int, conditions: list[EmotionCondition]) -> list[Task]:
    """Build `count` tasks for `split`; task i gets emotion condition `conditions[i]`."""
    rng = random.Random(f"airline-tasks:{split}:{seed}")
    users = sorted(u for u in db.tables["users"] if _split_of(u) == split)
    seen: set[str] = set()
    tasks: list[Task] = []
    kinds = list(WEIGHTS)
    attempts = 0
    while len(tasks) < count:
        attempts += 1
        if attempts > 200 * count:
            raise RuntimeError(f"airline: could only build {len(tasks)} of {count} {split} tasks")
        want = rng.choices([1, 2, 3], [0.4, 0.4, 0.2])[0]
        ctx = Ctx(db, rng, rng.choice(users))
        ctx.run("get_user_details", {"user_id": ctx.user_id})
        plans: list[Plan] = []
        n_actions = 1
        pool = list(kinds)
        while len(plans) < want and pool:
            kind = rng.choices(pool, [WEIGHTS[k] for k in pool])[0]
            pool.remove(kind)
            if kind == "refuse_cancel" and want == 1:
                continue
            new = GENERATORS[kind](ctx)[: 3 - len(plans)]
            if not new or n_actions + sum(len(p.actions) for p in new) > MAX_ACTIONS:
                for p in new:
                    ctx.used.discard(p.reservation or "")
                continue
            for p in new:
                for name, args in p.actions:
                    ctx.run(name, args)
            n_actions += sum(len(p.actions) for p in new)
            plans += new
        if not plans or not any(p.writes for p in plans) or n_actions < 2:
            continue
        key = json.dumps([[a for a in p.actions] for p in plans], sort_keys=True) + ctx.user_id
        if key in seen:
            continue
        seen.add(key)
        tasks.append(_task(ctx, plans, split, len(tasks), conditions[len(tasks)]))
    return tasks
