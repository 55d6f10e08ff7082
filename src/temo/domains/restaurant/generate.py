"""Generate the restaurant database: 1,000 patrons, 207 menu items, 1,564 tickets (paper Table 15).

A restaurant group with kitchens in thirty US cities takes dine-in, takeout and delivery tickets.
Deterministic for a seed: everything comes from one `random.Random`, never the clock. The training
database (`seed=1, split="train"`) has the same sizes and shape, with other people and tickets.

Consistency kept here: every ticket is in its patron's `ticket_log` and vice versa; every line points
at a plate of its dish, at that plate's price; today's tickets only hold plates served today; every
charge uses one of the patron's saved instruments; a ticket's food payments minus refunds equal
subtotal + tax + delivery fee (cancelled tickets: everything refunded).
"""
from __future__ import annotations

import itertools
import random
from typing import Any

from temo.domains.kit import people
from temo.domains.kit.dates import add_days
from temo.domains.kit.money import money

from .catalog import CATEGORIES, PORTION_DELTA, PREP_DELTA, PROTEIN_DELTA
from .rules import CANCEL_REASONS, DELIVERY_FEES, TODAY, ZONES, line_label, ticket_amounts

SEPARATE_TRAIN_DB = True
N_PATRONS = 1000
N_TICKETS = 1564

ISSUERS = {
    "credit_card": ["Visa", "Mastercard", "American Express", "Discover"],
    "debit_card": ["Visa", "Mastercard"],
    "digital_wallet": ["Apple Pay", "Google Pay", "PayPal"],
}
STATE_WEIGHTS = {"placed": 33, "in_progress": 17, "ready": 5, "delivered": 37, "cancelled": 8}
MODE_WEIGHTS = {"dine_in": 38, "takeout": 27, "delivery": 35}
TICKETS_PER_PATRON = {0: 10, 1: 47, 2: 24, 3: 12, 4: 5, 5: 2}
HEAT = ["no chili", "extra chili", "mild please"]
SAUCE = ["on the side", "extra sauce", "no sauce"]
SIDE = ["fries", "side salad", "rice", "no side", "garlic bread"]


def _price(x: float) -> float:
    """Menu prices end in .00, .25, .50 or .95 style steps (quarter dollars)."""
    return money(max(2.0, round(x * 4) / 4))


def build_menu(rng: random.Random) -> dict[str, dict[str, Any]]:
    menu: dict[str, dict[str, Any]] = {}
    plate_no = itertools.count(1)
    dish_no = itertools.count(1)
    for category, (titles, dims, (lo, hi)) in CATEGORIES.items():
        for title in titles:
            dish_ref = f"DISH-{next(dish_no):04d}"
            base = rng.uniform(lo, hi)
            keys = sorted(rng.sample(sorted(dims), min(len(dims), rng.choice([2, 2, 3]))))
            combos = list(itertools.product(*(dims[k] for k in keys)))
            n = min(len(combos), rng.choices([2, 3, 4], [3, 4, 3])[0])
            chosen = rng.sample(combos, n)
            selections = {}
            for combo in chosen:
                mods = dict(zip(keys, combo))
                cost = base + PORTION_DELTA.get(mods.get("portion", ""), 0.0) + PROTEIN_DELTA.get(mods.get("protein", ""), 0.0)
                cost += PREP_DELTA.get(mods.get("preparation", ""), 0.0)
                if mods.get("spice_level") == "extra hot":
                    cost += 0.5
                ref = f"PLATE-{next(plate_no):05d}"
                selections[ref] = {"plate_ref": ref, "modifiers": mods, "served_today": rng.random() < 0.85,
                                   "cost": _price(cost)}
            menu[dish_ref] = {"dish_ref": dish_ref, "title": title, "category": category, "selections": selections}
    return menu


def location(rng: random.Random, city: tuple[str, str, str] | None = None) -> dict[str, str]:
    a = people.address(rng)
    if city is not None:
        name, state, prefix = city
        a.update(city=name, state=state, zip=f"{prefix}{rng.randint(0, 99):02d}")
    return {"line_one": a["address1"], "line_two": a["address2"], "municipality": a["city"], "province": a["state"],
            "nation": a["country"], "postal_code": a["zip"]}


def city_of(loc: dict[str, str]) -> tuple[str, str, str]:
    return next(c for c in people.CITIES if c[0] == loc["municipality"] and c[1] == loc["province"])


def build_patrons(rng: random.Random) -> dict[str, dict[str, Any]]:
    patrons: dict[str, dict[str, Any]] = {}
    inst_no = itertools.count(1)
    for i, (given, family) in enumerate(people.unique_names(rng, N_PATRONS), 1):
        ref = f"GUEST-{i:04d}"
        instruments = {}
        tails: set[str] = set()
        for _ in range(rng.choices([1, 2, 3], [35, 45, 20])[0]):
            origin = rng.choices(list(ISSUERS), [55, 25, 20])[0]
            tail = f"{rng.randint(0, 9999):04d}"
            while tail in tails:
                tail = f"{rng.randint(0, 9999):04d}"
            tails.add(tail)
            iref = f"INST-{next(inst_no):05d}"
            instruments[iref] = {"origin": origin, "instrument_ref": iref,
                                 "metadata": {"issuer": rng.choice(ISSUERS[origin]), "tail_digits": tail}}
        patrons[ref] = {"guest_ref": ref, "identity": {"given": given, "family": family}, "location": location(rng),
                        "contact_email": people.email(given, family, i, rng), "saved_instruments": instruments,
                        "ticket_log": []}
    return patrons


def _ticket_counts(rng: random.Random) -> list[int]:
    """Tickets per patron, summing to exactly N_TICKETS."""
    counts = rng.choices(list(TICKETS_PER_PATRON), list(TICKETS_PER_PATRON.values()), k=N_PATRONS)
    while sum(counts) != N_TICKETS:
        i = rng.randrange(N_PATRONS)
        if sum(counts) < N_TICKETS and counts[i] < 6:
            counts[i] += 1
        elif sum(counts) > N_TICKETS and counts[i] > 0:
            counts[i] -= 1
    return counts


def _ticket_date(rng: random.Random, state: str) -> str:
    if state in ("placed", "in_progress", "ready"):
        return TODAY
    back = min(180, int(rng.expovariate(1 / 25)) + (1 if state == "delivered" else 0))
    return add_days(TODAY, -back)


def _lines(rng: random.Random, menu: dict[str, Any], today: bool) -> list[dict[str, Any]]:
    lines = []
    dish_refs = sorted(menu)
    for _ in range(rng.choices([1, 2, 3, 4], [30, 35, 23, 12])[0]):
        dish = menu[rng.choice(dish_refs)]
        plates = [p for _, p in sorted(dish["selections"].items()) if p["served_today"] or not today]
        if not plates:
            continue
        plate = rng.choice(plates)
        mods = {}
        if rng.random() < 0.25:
            mods["heat"] = rng.choice(HEAT)
        if rng.random() < 0.2:
            mods["sauce"] = rng.choice(SAUCE)
        if rng.random() < 0.2:
            mods["side"] = rng.choice(SIDE)
        lines.append({"label": line_label(dish["title"], plate["modifiers"]), "dish_ref": dish["dish_ref"],
                      "plate_ref": plate["plate_ref"], "cost": plate["cost"], "mods": mods})
    return lines


def _batches(rng: random.Random, mode: str, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    refs = [ln["plate_ref"] for ln in lines]
    cut = rng.randint(1, len(refs)) if len(refs) > 1 and rng.random() < 0.4 else len(refs)
    groups = [g for g in (refs[:cut], refs[cut:]) if g]
    if mode == "dine_in":
        return [{"parcel_tags": [f"COURSE-{n}"], "plate_refs": g} for n, g in enumerate(groups, 1)]
    return [{"parcel_tags": [f"BAG-{n}"], "plate_refs": g} for n, g in enumerate(groups, 1)]


def _ticket(rng: random.Random, patron: dict[str, Any], menu: dict[str, Any]) -> dict[str, Any]:
    state = rng.choices(list(STATE_WEIGHTS), list(STATE_WEIGHTS.values()))[0]
    mode = rng.choices(list(MODE_WEIGHTS), list(MODE_WEIGHTS.values()))[0]
    day = _ticket_date(rng, state)
    lines: list[dict[str, Any]] = []
    while not lines:
        lines = _lines(rng, menu, day == TODAY)
    dropoff = table = None
    fee = 0.0
    if mode == "delivery":
        home = patron["location"]
        dropoff = dict(home) if rng.random() < 0.8 else location(rng, city_of(home))
        fee = rng.choice(DELIVERY_FEES)
    elif mode == "dine_in":
        zone = rng.choices(list(ZONES), [45, 20, 10, 15, 10])[0]
        lo, hi, most = ZONES[zone]
        table = {"zone": zone, "table_no": str(rng.randint(lo, hi)), "seat_count": rng.randint(1, most)}
    subtotal = money(sum(ln["cost"] for ln in lines))
    tax, total = ticket_amounts(subtotal, fee)
    inst = rng.choice(sorted(patron["saved_instruments"]))
    charges = [{"kind": "payment", "total": total, "instrument_ref": inst}]
    if state == "delivered" and rng.random() < 0.5:
        tip = money(round(subtotal * rng.choice([0.1, 0.15, 0.18, 0.2])))
        if tip > 0:
            charges.append({"kind": "tip", "total": tip, "instrument_ref": rng.choice(sorted(patron["saved_instruments"]))})
    reason = None
    if state == "cancelled":
        for ch in list(charges):
            charges.append({"kind": "refund", "total": ch["total"], "instrument_ref": ch["instrument_ref"]})
        reason = rng.choice(CANCEL_REASONS)
    batches = _batches(rng, mode, lines) if state in ("in_progress", "ready", "delivered") else []
    return {"guest_ref": patron["guest_ref"], "placed_on": day, "service_mode": mode, "dropoff": dropoff,
            "table_info": table, "line_entries": lines, "state": state, "prep_batches": batches,
            "subtotal": subtotal, "tax": tax, "delivery_fee": fee, "charges": charges, "cancel_reason": reason}


def build_database(seed: int = 0, split: str = "test") -> dict[str, dict[str, Any]]:
    """The whole database for a seed: ``{"patrons", "menu_items", "tickets"}``, keyed by their refs."""
    rng = random.Random(seed)
    menu = build_menu(rng)
    patrons = build_patrons(rng)
    drafts = []
    for ref, n in zip(sorted(patrons), _ticket_counts(rng)):
        drafts.extend(_ticket(rng, patrons[ref], menu) for _ in range(n))
    rng.shuffle(drafts)
    drafts.sort(key=lambda t: t["placed_on"])  # stable: numbers grow with the date
    tickets: dict[str, dict[str, Any]] = {}
    for i, draft in enumerate(drafts, 1):
        ref = f"TCKT-{i:05d}"
        tickets[ref] = {"ticket_ref": ref, **draft}
        patrons[draft["guest_ref"]]["ticket_log"].append(ref)
    return {"patrons": patrons, "menu_items": menu, "tickets": tickets}
