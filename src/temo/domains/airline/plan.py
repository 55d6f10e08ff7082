"""Building blocks of the airline task builder: an intent's `Plan`, the task context `Ctx` (its own
store, checked by replaying every reference action), and the phrasing and flight-choice helpers that
the intent generators share.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Callable, Optional

from temo.env import Database, Environment, Store

from . import rules as R
from .generate import FIRST_NAMES, LAST_NAMES
from .tools import TOOLS

TOOL_MAP = {t.name: t for t in TOOLS}
# cabin -> how the user says it
CABIN_WORDS = {"basic_economy": "basic economy", "economy": "economy", "business": "business"}
# flight preference -> (how the user says it, sort key; None: sort by the price in the cabin)
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


def pay_text(m: dict) -> str:
    """A payment method in the user's words ("my visa credit card ending in 1234")."""
    if m["source"] == "credit_card":
        return f"my {m['brand']} credit card ending in {m['last_four']}"
    tail = m["id"][-4:]
    return f"my gift card ending in {tail}" if m["source"] == "gift_card" else f"my travel certificate ending in {tail}"


def yours(text: str) -> str:
    """The user's words ("my card") as the instruction says them ("your card")."""
    return re.sub(r"\bmy\b", "your", text)


def pick_change_payment(ctx: Ctx, amount: float) -> Optional[dict]:
    """A credit card, or a gift card that can cover `amount`, for a change or bag fee."""
    methods = sorted(ctx.user["payment_methods"].values(), key=lambda m: m["id"])
    cards = [m for m in methods if m["source"] == "credit_card"]
    gifts = [m for m in methods if m["source"] == "gift_card" and (m["amount"] or 0) >= max(amount, 1)]
    if gifts and ctx.rng.random() < 0.3:
        return ctx.rng.choice(gifts)
    return ctx.rng.choice(cards) if cards else None


def trip_text(ctx: Ctx, res: dict) -> str:
    """A reservation as the user names it: "round trip from Boston to Denver on 2026-05-20"."""
    kind = "round trip" if res["flight_type"] == "round_trip" else "one-way trip"
    return f"{kind} from {ctx.city(res['origin'])} to {ctx.city(res['destination'])} on {res['flights'][0]['date']}"


def pick_reservation(ctx: Ctx, ok: Callable[[dict], bool]) -> Optional[dict]:
    """A random unused active reservation of the user for which `ok` holds, or None."""
    found = ctx.reservations(ok)
    return ctx.rng.choice(found) if found else None


def choose_flight(options: list[dict], pref: str, cabin: str) -> Optional[dict]:
    """The unique best flight for the preference, or None when there is a tie."""
    key = (lambda f: f["prices"][cabin]) if pref == "cheapest" else PREFS[pref][1]
    if not options:
        return None
    ranked = sorted(options, key=key)
    if len(ranked) > 1 and key(ranked[0]) == key(ranked[1]):
        return None
    return ranked[0]


_ROUTES: dict[int, dict[tuple[str, str], list[str]]] = {}


def routes(store: Store) -> dict[tuple[str, str], list[str]]:
    """Flight numbers by (origin, destination), in table order. Routes never change (no tool adds or
    re-routes a flight), so one index per frozen database serves every store made from it."""
    key = id(store.base)
    if key not in _ROUTES:
        index: dict[tuple[str, str], list[str]] = {}
        for number, f in store.base.tables["flights"].items():
            index.setdefault((f["origin"], f["destination"]), []).append(number)
        _ROUTES[key] = index
    return _ROUTES[key]


def direct_options(ctx: Ctx, origin: str, dest: str, day: str, cabin: str, seats: int) -> list[dict]:
    """Nonstop flights on `day` with `seats` seats left in `cabin`, each with that day's prices."""
    out = []
    for number in routes(ctx.store).get((origin, dest), ()):
        f = ctx.store.get("flights", number)
        if True:
            info = f["dates"].get(day, {})
            if info.get("status") == R.BOOKABLE and info["available_seats"][cabin] >= seats:
                out.append({**f, "prices": info["prices"]})
    return out


def random_person(rng: random.Random) -> dict:
    """A new traveller: a random first and last name and a date of birth between 1950 and 2010."""
    return {"first_name": rng.choice(FIRST_NAMES), "last_name": rng.choice(LAST_NAMES),
            "dob": f"{rng.randint(1950, 2010)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"}
