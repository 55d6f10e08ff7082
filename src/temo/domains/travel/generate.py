"""Seeded generator of the travel agency database at the paper's scale.

Tables (paper Table 15 sizes): ``travelers`` 1,000, ``packages`` 87, ``agents`` 87, plus the supporting
``bookings`` table (about 2,100 bookings; the source nests them in travelers). Everything comes from
``random.Random(seed)``; the clock is never read. The result is internally consistent:

- every booking's package, departure, agent, traveler and payment methods exist;
- a booking's payments add up to its total (cancelled ones net to zero, with refunds);
- every departure's free places are its capacity less the travelers on its active bookings, and its
  status follows from those places and TODAY (``rules.departure_status``);
- agents' ``managed_packages``/``bookings_handled``/``assigned_travelers`` mirror the packages and
  bookings that name them.

``SEPARATE_TRAIN_DB``: the paper gives travel its own training database, ``build_database(1, "train")``.
"""
from __future__ import annotations

import random
from typing import Any

from temo.domains.kit import people
from temo.domains.kit.dates import add_days
from temo.domains.kit.money import money

from . import catalog as C
from .rules import BOOK_MIN_DAYS, MEETING_SLOTS, ROOM_CAPACITY, TODAY, days_until, departure_status, total_price

SEPARATE_TRAIN_DB = True
COUNTS = {"travelers": 1000, "packages": 87, "agents": 87}
CARD_BRANDS = ["Visa", "Mastercard", "American Express", "Discover"]
RELATIONS = ["spouse", "partner", "daughter", "son", "friend", "sister", "brother", "mother", "father", "colleague"]


# ------------------------------------------------------------------------------------------------ agents
def _agents(rng: random.Random, n: int) -> dict[str, dict[str, Any]]:
    out = {}
    regions = list(C.PLACES)
    for i, (first, last) in enumerate(people.unique_names(rng, n), 1):
        aid = f"AGT{i:03d}"
        name, city, state, zip_, tz = rng.choice(C.AGENCIES)
        domain = name.lower().replace(" & co.", "co").replace(" ", "")
        langs = ["English"] + rng.sample(C.LANGUAGES[1:], rng.choice([0, 1, 1, 2]))
        out[aid] = {
            "agent_id": aid, "name": {"first_name": first, "last_name": last},
            "contact": {"email": f"{first.lower()}.{last.lower()}@{domain}.example.com", "phone": people.phone(rng)},
            "agency": {"name": name, "address": {"street": f"{rng.randint(10, 999)} {rng.choice(people.STREETS)} Street",
                                                  "city": city, "state": state, "country": "United States", "zip": zip_}},
            "certifications": sorted(rng.sample(C.CERTIFICATIONS, rng.randint(1, 3))),
            "languages": langs,
            "regions_of_expertise": sorted(rng.sample(regions, rng.randint(1, 3))),
            "commission_rate": rng.choice([0.08, 0.09, 0.1, 0.11, 0.12, 0.13, 0.15]),
            "employment_status": rng.choice(["full_time", "full_time", "full_time", "part_time", "contractor"]),
            "assigned_travelers": [], "managed_packages": [], "bookings_handled": [],
            "availability": _availability(rng, tz), "meetings": [], "notes": rng.choice(C.AGENT_NOTES),
        }
    return out


def _availability(rng: random.Random, tz: str) -> dict[str, dict[str, Any]]:
    days = [add_days(TODAY, d) for d in range(1, 31)]
    out = {}
    for day in sorted(rng.sample(days, rng.randint(5, 9))):
        out[day] = {"slots": sorted(rng.sample(MEETING_SLOTS, rng.randint(1, 4))), "timezone": tz}
    return out


# ------------------------------------------------------------------------------------------------ packages
def _package_name(rng: random.Random, category: str, places: list[tuple[str, str]], taken: set[str]) -> str:
    cities = [c for c, _ in places]
    countries = sorted({k for _, k in places}, key=[k for _, k in places].index)
    where = rng.choice([" and ".join(cities[:2]), cities[0], countries[0]]) if len(cities) > 1 else cities[0]
    for noun in rng.sample(C.NAME_NOUNS[category], len(C.NAME_NOUNS[category])):
        name = f"{where} {noun}"
        if name not in taken:
            return name
    while True:
        name = f"{rng.choice(C.NAME_PREFIXES)} {where} {rng.choice(C.NAME_NOUNS[category])}"
        if name not in taken:
            return name


def _policies(rng: random.Random) -> dict[str, Any]:
    change = rng.choice([7, 10, 14])
    cancel = None if rng.random() < 0.1 else rng.choice([d for d in (14, 21, 30, 45, 60) if d >= change])
    if cancel is None:
        text = ("Cancellations for this package are reviewed case by case by the operations team, who decide "
                "on any refund; the online desk cannot cancel it.")
    else:
        text = (f"Bookings can be cancelled until {cancel} days before departure, with a full refund to the payment "
                f"methods used. From {cancel} days before departure a cancellation is no longer possible.")
    return {"cancellation_policy": text,
            "change_policy": (f"Departure date, add-ons, rooming and traveler details can be changed until {change} days "
                              "before departure; a price difference is charged or refunded to one saved payment method."),
            "refund_policy": "Refunds go back to the payment methods that paid; the issuer decides how long it takes.",
            "cancel_by_days": cancel, "change_by_days": change}


def _departure_dates(rng: random.Random) -> list[str]:
    """6-9 departures from mid-February to December 2024, one or two of them already past; about half
    the packages also leave within two weeks of today (inside most change windows)."""
    day, want, dates = add_days(TODAY, -rng.randint(45, 90)), rng.randint(6, 9), []
    while len(dates) < want and day < "2024-12-20":
        dates.append(day)
        day = add_days(day, rng.randint(14, 35))
    if rng.random() < 0.5 and not any(0 < days_until(d) < 14 for d in dates):
        dates.append(add_days(TODAY, rng.randint(BOOK_MIN_DAYS + 1, 13)))
    return sorted(set(dates))


def _package(rng: random.Random, pid: str, taken: set[str]) -> dict[str, Any]:
    region = rng.choices(list(C.REGION_WEIGHTS), list(C.REGION_WEIGHTS.values()))[0]
    category = rng.choice(C.REGION_CATEGORIES[region])
    pool = C.PLACES[region]
    country = rng.choice(pool)[1]
    local = [p for p in pool if p[1] == country]
    places = rng.sample(local, min(len(local), rng.choice([1, 2, 2, 3])))
    if len(places) == 1 and rng.random() < 0.4:
        places += rng.sample([p for p in pool if p not in places], 1)
    name = _package_name(rng, category, places, taken)
    taken.add(name)
    nights = [rng.randint(2, 5) for _ in places]
    duration = sum(nights) + 1
    lo, hi = C.BASE_PRICE[category]
    base = rng.randint(lo, hi)
    departures = {}
    for d in _departure_dates(rng):
        price = max(499.0, round(base * rng.choice([0.9, 0.95, 1.0, 1.0, 1.1, 1.2]) / 10) * 10 - 1.0)
        departures[d] = {"status": "available", "base_price": price, "currency": "USD", "capacity": 0,
                         "available_slots": 0, "early_bird_deadline": add_days(d, -rng.choice([60, 75, 90]))}
    itinerary, day = [], 1
    for (city, ctry), n, act in zip(places, nights, rng.sample(C.ACTIVITIES[category], len(places))):
        itinerary.append({"day": day, "title": f"{'Arrive in' if day == 1 else 'On to'} {city}",
                          "description": f"{n} nights in {city}, including a {act.lower()}.",
                          "location": {"city": city, "country": ctry}, "included_meals": ["breakfast"] + (["dinner"] if day == 1 else [])})
        day += n
    itinerary.append({"day": duration, "title": "Journey home", "description": "Transfer to the airport for the flight home.",
                      "location": {"city": places[-1][0], "country": places[-1][1]}, "included_meals": ["breakfast"]})
    kind = C.ACCOMMODATION_TYPES[category]
    options = []
    for typ, desc, a, b in [*C.COMMON_ADD_ONS[: rng.choice([1, 2])], *rng.sample(C.CATEGORY_ADD_ONS[category], rng.choice([2, 3]))]:
        options.append({"type": typ, "description": desc, "price": float(rng.randint(a // 5, b // 5) * 5)})
    rooms = C.ROOM_SETS.get(category, C.ROOM_SETS["default"])
    return {
        "package_id": pid, "name": name, "category": category,
        "description": f"A {duration}-day {category} trip through {' and '.join(c for c, _ in places)}.",
        "destinations": [{"city": c, "country": k} for c, k in places], "duration_days": duration,
        "departure_points": [{"city": g, "country": "United States"} for g in sorted(rng.sample(C.GATEWAYS, rng.randint(1, 3)))],
        "departures": departures, "itinerary": itinerary,
        "inclusions": rng.sample(C.INCLUSIONS, rng.randint(3, 5)), "exclusions": rng.sample(C.EXCLUSIONS, rng.randint(2, 3)),
        "accommodations": [{"name": f"{rng.choice(C.HOTEL_WORDS)} {c} {kind.split()[-1].title()}", "type": kind,
                            "location": {"city": c, "country": k}, "nights": n} for (c, k), n in zip(places, nights)],
        "room_types": rooms[: rng.randint(3, len(rooms))], "add_on_options": options,
        "transportation": {k: rng.choice(v) for k, v in C.TRANSPORT.items()},
        "activities": [{"name": a, "description": f"{a} with a local guide.", "day": rng.randint(1, duration)}
                       for a in rng.sample(C.ACTIVITIES[category], rng.randint(2, 3))],
        "policies": _policies(rng), "notes": rng.choice(C.PACKAGE_NOTES), "managed_by_agents": [],
        "_region": region,
    }


def _assign_agents(rng: random.Random, packages: dict[str, Any], agents: dict[str, Any]) -> None:
    """Every agent manages at least one package; about half the packages have a second agent, preferably
    one with the region among their expertise."""
    order = list(agents)
    rng.shuffle(order)
    for pid, aid in zip(sorted(packages), order):
        packages[pid]["managed_by_agents"].append(aid)
    for pid, pkg in sorted(packages.items()):
        if rng.random() < 0.5:
            experts = [a for a in sorted(agents) if pkg["_region"] in agents[a]["regions_of_expertise"]
                       and a not in pkg["managed_by_agents"]]
            pkg["managed_by_agents"].append(rng.choice(experts or [a for a in sorted(agents) if a not in pkg["managed_by_agents"]]))
    for pid, pkg in sorted(packages.items()):
        for aid in pkg["managed_by_agents"]:
            agents[aid]["managed_packages"].append(pid)
        if pkg["_region"] not in agents[pkg["managed_by_agents"][0]]["regions_of_expertise"]:
            agents[pkg["managed_by_agents"][0]]["regions_of_expertise"] = sorted(
                {*agents[pkg["managed_by_agents"][0]]["regions_of_expertise"], pkg["_region"]})


# ------------------------------------------------------------------------------------------------ travelers
def _passport(rng: random.Random) -> dict[str, str]:
    return {"number": f"{rng.choice('ABCEFGHKLMNPRSTXYZ')}{rng.randint(10000000, 99999999)}",
            "nationality": rng.choice(C.NATIONALITIES),
            "expiry": f"{rng.randint(2024, 2033)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"}


def _traveler(rng: random.Random, i: int, first: str, last: str, pm_counter: list[int]) -> dict[str, Any]:
    tid = f"TRV{i:05d}"
    addr = people.address(rng)
    street = addr["address1"] + (f", {addr['address2']}" if addr["address2"] else "")
    methods = {}
    sources = ["credit_card"] + rng.sample(["credit_card", "debit_card", "travel_credit"], rng.choice([0, 1, 1, 2]))
    for src in sources:
        pm_counter[0] += 1
        pm = f"PM{pm_counter[0]:06d}"
        if src == "travel_credit":
            info = {"brand": None, "last_four": None, "balance": float(rng.choice([150, 200, 250, 300, 400, 500, 750, 1000]))}
        else:
            info = {"brand": rng.choice(CARD_BRANDS[:2] if src == "debit_card" else CARD_BRANDS),
                    "last_four": f"{rng.randint(0, 9999):04d}", "balance": None}
        methods[pm] = {"source": src, "payment_method_id": pm, "extra_info": info}
    companions = []
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3])):
        rel = rng.choice(RELATIONS)
        cfirst = rng.choice(people.FIRST_NAMES)
        clast = last if rel in ("spouse", "daughter", "son", "sister", "brother", "mother", "father") else rng.choice(people.LAST_NAMES)
        lo, hi = {"daughter": (2005, 2018), "son": (2005, 2018), "mother": (1940, 1965), "father": (1940, 1965)}.get(rel, (1950, 2003))
        if any(c["first_name"] == cfirst for c in companions) or cfirst == first:
            continue
        companions.append({"first_name": cfirst, "last_name": clast, "dob": people.birth_date(rng, lo, hi),
                           "relationship": rel, "passport": _passport(rng) if rng.random() < 0.7 else None})
    return {
        "traveler_id": tid, "name": {"first_name": first, "last_name": last},
        "address": {"street": street, "city": addr["city"], "state": addr["state"], "country": "United States", "zip": addr["zip"]},
        "contact": {"email": people.email(first, last, i, rng), "phone": people.phone(rng)},
        "dob": people.birth_date(rng, 1948, 2002), "passport": _passport(rng) if rng.random() < 0.85 else None,
        "preferences": {"dietary": rng.choice(C.DIETARY), "accessibility": rng.choice(C.ACCESSIBILITY),
                        "room_type": rng.choice([None, "double", "twin", "single", "suite"]),
                        "bed_preference": rng.choice(C.BED_PREFERENCES), "other": rng.choice(C.OTHER_PREFERENCES)},
        "payment_methods": methods, "saved_companions": companions,
        "memberships": sorted(rng.sample(C.MEMBERSHIPS, rng.choice([0, 0, 1, 1, 2]))), "bookings": [],
    }


# ------------------------------------------------------------------------------------------------ bookings
def _typo(rng: random.Random, name: str) -> str:
    if len(name) < 4:
        return name + name[-1]
    i = rng.randint(1, len(name) - 2)
    return name[:i] + name[i + 1] + name[i] + name[i + 2:] if name[i] != name[i + 1] else name[:i] + name[i + 1:]


def _booking(rng: random.Random, bid: str, trav: dict[str, Any], pkg: dict[str, Any], date: str) -> dict[str, Any]:
    party = [{"first_name": trav["name"]["first_name"], "last_name": trav["name"]["last_name"], "dob": trav["dob"]}]
    comps = trav["saved_companions"]
    for c in rng.sample(comps, rng.randint(0, len(comps))):
        party.append({"first_name": c["first_name"], "last_name": c["last_name"], "dob": c["dob"]})
    if len(party) > 1 and rng.random() < 0.08:  # a spelling slip made when the booking was taken
        party[-1]["last_name"] = _typo(rng, party[-1]["last_name"])
    n = len(party)
    rooms = [r for r in pkg["room_types"] if ROOM_CAPACITY[r] <= n or r == "single"] or pkg["room_types"][:1]
    room = rng.choice(rooms)
    occupancy = min(ROOM_CAPACITY[room], n)
    add_ons = [dict(a) for a in rng.sample(pkg["add_on_options"], rng.choice([0, 0, 1, 1, 2]))]
    insurance = rng.choice([None, None, "standard", "standard", "premium"])
    dep = pkg["departures"][date]
    total = total_price(dep["base_price"], n, add_ons, insurance)
    methods = trav["payment_methods"]
    cards = [m for m, v in sorted(methods.items()) if v["source"] != "travel_credit"]
    credit = next((m for m, v in sorted(methods.items()) if v["source"] == "travel_credit"), None)
    if credit and rng.random() < 0.35 and methods[credit]["extra_info"]["balance"] > 0:
        part = money(min(methods[credit]["extra_info"]["balance"], total, rng.choice([100, 150, 200])))
        methods[credit]["extra_info"]["balance"] = money(methods[credit]["extra_info"]["balance"] - part)
        history = [{"payment_id": credit, "amount": part}]
        if total - part > 0:
            history.append({"payment_id": rng.choice(cards), "amount": money(total - part)})
    else:
        history = [{"payment_id": rng.choice(cards), "amount": total}]
    lead = rng.randint(20, 200)
    booked = min(add_days(date, -lead), add_days(TODAY, -rng.randint(1, 20)))
    return {"booking_id": bid, "traveler_id": trav["traveler_id"], "package_id": pkg["package_id"],
            "agent_id": rng.choice(pkg["managed_by_agents"]), "booking_date": booked, "departure_date": date,
            "status": "confirmed", "travelers": party, "rooming": {"room_type": room, "occupancy": occupancy},
            "add_ons": add_ons, "insurance": insurance, "payment_history": history, "total_price": total,
            "notes": rng.choice(C.BOOKING_NOTES)}


def _cancel(rng: random.Random, booking: dict[str, Any], trav: dict[str, Any]) -> None:
    booking["status"] = "cancelled"
    for p in list(booking["payment_history"]):
        booking["payment_history"].append({"payment_id": p["payment_id"], "amount": -p["amount"]})
        info = trav["payment_methods"][p["payment_id"]]["extra_info"]
        if info["balance"] is not None:
            info["balance"] = money(info["balance"] + p["amount"])


def build_database(seed: int = 0, split: str = "test") -> dict[str, dict[str, Any]]:
    rng = random.Random(seed)
    agents = _agents(rng, COUNTS["agents"])
    taken: set[str] = set()
    packages = {f"PKG{i:03d}": _package(rng, f"PKG{i:03d}", taken) for i in range(1, COUNTS["packages"] + 1)}
    _assign_agents(rng, packages, agents)
    pm_counter = [100000 * (seed + 1)]
    names = people.unique_names(rng, COUNTS["travelers"])
    travelers = {}
    for i, (first, last) in enumerate(names, 1):
        t = _traveler(rng, i, first, last, pm_counter)
        travelers[t["traveler_id"]] = t
    bookings: dict[str, dict[str, Any]] = {}
    booked: dict[tuple[str, str], int] = {}
    pids = sorted(packages)
    for tid, trav in travelers.items():
        for _ in range(rng.choices([1, 2, 3, 4], [30, 35, 25, 10])[0]):
            pkg = packages[rng.choice(pids)]
            past = [d for d in pkg["departures"] if d < TODAY]
            future = [d for d in pkg["departures"] if d > TODAY]
            date = rng.choice(past if past and rng.random() < 0.3 else future)
            bid = f"BK{len(bookings) + 1:06d}"
            b = _booking(rng, bid, trav, pkg, date)
            if rng.random() < (0.12 if date < TODAY else 0.14):
                _cancel(rng, b, trav)
            elif date > TODAY and rng.random() < 0.15:
                b["status"] = "pending"
            if b["status"] != "cancelled":
                booked[(pkg["package_id"], date)] = booked.get((pkg["package_id"], date), 0) + len(b["travelers"])
            bookings[bid] = b
            trav["bookings"].append(bid)
            agent = agents[b["agent_id"]]
            agent["bookings_handled"].append(bid)
            if tid not in agent["assigned_travelers"]:
                agent["assigned_travelers"].append(tid)
    for pid, pkg in packages.items():
        del pkg["_region"]
        for date, dep in pkg["departures"].items():
            taken_slots = booked.get((pid, date), 0)
            r = rng.random()
            free = 0 if r < 0.1 else rng.randint(1, 4) if r < 0.3 else rng.randint(5, 18)
            dep["capacity"] = max(taken_slots + free, 1)
            dep["available_slots"] = dep["capacity"] - taken_slots
            dep["status"] = departure_status(date, dep["available_slots"])
    return {"travelers": travelers, "packages": packages, "agents": agents, "bookings": bookings}
