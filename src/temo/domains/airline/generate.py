"""Seeded synthetic airline database: 500 users, 300 flights, 2,000 reservations (+ 20 airports)."""
from __future__ import annotations

import random
import string
from typing import Any

from temo.domains.kit import people

from . import rules as R

AIRPORT_CITIES = {  # IATA code -> city; the city's state comes from the kit's table of US cities
    "ATL": "Atlanta", "BOS": "Boston", "ORD": "Chicago", "DFW": "Dallas", "DEN": "Denver", "DTW": "Detroit",
    "IAH": "Houston", "LAS": "Las Vegas", "LAX": "Los Angeles", "MIA": "Miami", "MSP": "Minneapolis",
    "JFK": "New York", "EWR": "Newark", "MCO": "Orlando", "PHL": "Philadelphia", "PHX": "Phoenix",
    "PDX": "Portland", "SFO": "San Francisco", "SEA": "Seattle", "SLC": "Salt Lake City",
}
AIRPORTS = [(code, city, people.US_CITIES[city][0]) for code, city in AIRPORT_CITIES.items()]
FIRST_NAMES = [
    "Mia", "Noah", "Ava", "Liam", "Sofia", "Ethan", "Chloe", "Mason", "Amara", "Lucas", "Isabel", "Omar", "Priya",
    "Mateo", "Hana", "Yusuf", "Elena", "Kai", "Nora", "Diego", "Lena", "Ravi", "Zoe", "Felix", "Aisha", "Hugo",
    "Ingrid", "Tariq", "Maya", "Jonas", "Leila", "Arjun", "Clara", "Emeka", "Freya", "Kenji", "Lucia", "Malik",
    "Nadia", "Oscar", "Rosa", "Samir", "Tessa", "Victor", "Yara", "Bruno", "Daria", "Idris", "June", "Marco",
]
LAST_NAMES = [
    "Li", "Garcia", "Okafor", "Nguyen", "Schmidt", "Patel", "Rossi", "Kowalski", "Haddad", "Silva", "Tanaka",
    "Moreau", "Ivanova", "Johansson", "Mensah", "Khan", "Cohen", "Dubois", "Fischer", "Santos", "Novak", "Ahmed",
    "Bauer", "Costa", "Eriksen", "Flores", "Gupta", "Hoffman", "Jensen", "Kim", "Lopez", "Murphy", "Nakamura",
    "Oliveira", "Park", "Quinn", "Reyes", "Sato", "Torres", "Usman", "Vargas", "Walsh", "Yilmaz", "Zhang", "Brooks",
    "Chen", "Diaz", "Evans", "Ferreira", "Gomez",
]
STREETS = ["Maple", "Cedar", "Harbor", "Elm", "Lakeview", "Sunset", "Willow", "Ridge", "Park", "Mill", "River", "Oak"]
BRANDS = ["Visa", "Mastercard", "American Express", "Discover"]
CODE_CHARS = string.ascii_uppercase + string.digits

N_USERS, N_FLIGHTS, N_RESERVATIONS = 500, 300, 2000


def _dob(rng: random.Random, lo: int = 1950, hi: int = 2008) -> str:
    return f"{rng.randint(lo, hi)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _airports() -> dict[str, dict]:
    return {c: {"code": c, "city": city, "state": st} for c, city, st in AIRPORTS}


def _flights(rng: random.Random) -> dict[str, dict]:
    codes = [a[0] for a in AIRPORTS]
    pairs = [(a, b) for i, a in enumerate(codes) for b in codes[i + 1:]]
    rng.shuffle(pairs)
    routes = pairs[: N_FLIGHTS // 4]  # 75 city pairs, two flights each way
    numbers = rng.sample(range(100, 1000), N_FLIGHTS)
    dates = R.dates_between(R.FIRST_DATE, R.LAST_DATE)
    flights: dict[str, dict] = {}
    k = 0
    for a, b in routes:
        duration = rng.randint(4, 22) * 15  # 1h to 5h30
        base = {"basic_economy": rng.randint(45, 110), "economy": rng.randint(110, 210), "business": rng.randint(260, 560)}
        scale = 1 + duration / 300
        for origin, dest in ((a, b), (b, a)):
            for _ in range(2):
                dep = rng.randint(20, (23 * 60 - duration) // 15) * 15
                number = f"SL{numbers[k]}"
                k += 1
                per_date = {}
                for day in dates:
                    per_date[day] = _flight_date(rng, day, dep, duration, base, scale)
                flights[number] = {
                    "flight_number": number, "origin": origin, "destination": dest,
                    "scheduled_departure_time_est": R.hhmmss(dep),
                    "scheduled_arrival_time_est": R.hhmmss(dep + duration),
                    "dates": per_date,
                }
    return flights


def _flight_date(rng: random.Random, day: str, dep: int, duration: int, base: dict, scale: float) -> dict:
    now = R.minutes(R.NOW_TIME)
    if day < R.TODAY:
        return {"status": "cancelled" if rng.random() < 0.04 else "landed"}
    if day == R.TODAY:
        if dep + duration <= now:
            return {"status": "landed"}
        if dep <= now:
            return {"status": "flying"}
        return {"status": rng.choices(["on time", "delayed", "cancelled"], [0.6, 0.3, 0.1])[0]}
    if day <= R.add_days(R.TODAY, 14) and rng.random() < 0.05:
        return {"status": "cancelled"}
    seats = {"basic_economy": rng.choice([0, rng.randint(1, 20)]) if rng.random() < 0.1 else rng.randint(1, 20),
             "economy": rng.randint(0, 22), "business": rng.randint(0, 10)}
    prices = {c: int(round(base[c] * scale * rng.uniform(0.85, 1.25))) for c in R.CABINS}
    return {"status": "available", "available_seats": seats, "prices": prices}


def _users(rng: random.Random) -> dict[str, dict]:
    users: dict[str, dict] = {}
    while len(users) < N_USERS:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        uid = f"{first.lower()}_{last.lower()}_{rng.randint(1000, 9999)}"
        if uid in users:
            continue
        ap = rng.choice(AIRPORTS)
        methods: dict[str, dict] = {}

        def new_id(prefix: str) -> str:
            while True:
                pid = f"{prefix}_{rng.randint(1000000, 9999999)}"
                if pid not in methods:
                    return pid

        brands = rng.sample(BRANDS, rng.choice([1, 1, 2]))
        for brand in brands:
            pid = new_id("credit_card")
            methods[pid] = {"source": "credit_card", "id": pid, "brand": brand, "last_four": f"{rng.randint(0, 9999):04d}"}
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            pid = new_id("gift_card")
            methods[pid] = {"source": "gift_card", "id": pid, "amount": rng.randint(0, 60) * 10}
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            pid = new_id("certificate")
            methods[pid] = {"source": "certificate", "id": pid, "amount": rng.choice([100, 150, 200, 250, 500])}
        saved = []
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            saved.append({"first_name": rng.choice(FIRST_NAMES), "last_name": rng.choice([last, rng.choice(LAST_NAMES)]),
                          "dob": _dob(rng, 1945, 2020)})
        users[uid] = {
            "user_id": uid,
            "name": {"first_name": first, "last_name": last},
            "address": {"address1": f"{rng.randint(10, 9999)} {rng.choice(STREETS)} {rng.choice(['St', 'Ave', 'Rd', 'Ln'])}",
                        "address2": rng.choice(["", "", f"Apt {rng.randint(1, 40)}"]), "city": ap[1], "state": ap[2],
                        "zip": f"{rng.randint(10000, 99999)}", "country": "USA"},
            "email": f"{first.lower()}.{last.lower()}{rng.randint(1, 99)}@example.com",
            "dob": _dob(rng),
            "membership": rng.choices(R.MEMBERSHIPS, [0.5, 0.3, 0.2])[0],
            "payment_methods": methods,
            "saved_passengers": saved,
            "reservations": [],
        }
    return users


def _path(rng: random.Random, by_origin: dict[str, list[dict]], origin: str, day: str, stops: int,
          avoid: str | None = None) -> list[dict] | None:
    """A random itinerary of 1 (direct) or 2 (one stop) flights leaving `origin` on `day`."""
    first = rng.choice(by_origin[origin])
    if stops == 0:
        return [first]
    arrive = R.minutes(first["scheduled_arrival_time_est"])
    nxt = [f for f in by_origin[first["destination"]]
           if f["destination"] not in (origin, avoid) and R.minutes(f["scheduled_departure_time_est"]) >= arrive + R.MIN_LAYOVER_MIN]
    return [first, rng.choice(nxt)] if nxt else None


def _price(rng: random.Random, flight: dict, day: str, cabin: str) -> int:
    info = flight["dates"][day]
    if info.get("prices"):
        return info["prices"][cabin]
    dur = R.minutes(flight["scheduled_arrival_time_est"]) - R.minutes(flight["scheduled_departure_time_est"])
    base = {"basic_economy": 80, "economy": 160, "business": 420}[cabin]
    return int(round(base * (1 + dur / 300) * rng.uniform(0.85, 1.2)))


def _reservations(rng: random.Random, users: dict[str, dict], flights: dict[str, dict]) -> dict[str, dict]:
    by_origin: dict[str, list[dict]] = {}
    for f in flights.values():
        by_origin.setdefault(f["origin"], []).append(f)
    user_ids = sorted(users)
    codes = [a[0] for a in AIRPORTS]
    out: dict[str, dict] = {}
    while len(out) < N_RESERVATIONS:
        rid = "".join(rng.choice(CODE_CHARS) for _ in range(6))
        if rid in out or rid.isdigit() or rid.isalpha():
            continue
        user = users[rng.choice(user_ids)]
        origin = rng.choice(codes)
        day = R.add_days(R.FIRST_DATE, rng.randint(0, 36))
        out_path = _path(rng, by_origin, origin, day, rng.choices([0, 1], [0.7, 0.3])[0])
        if out_path is None:
            continue
        dest = out_path[-1]["destination"]
        round_trip = rng.random() < 0.5
        legs = [(f, day) for f in out_path]
        if round_trip:
            back_day = R.add_days(day, rng.randint(1, 7))
            if back_day > R.LAST_DATE:
                continue
            back = None
            for _ in range(20):
                back = _path(rng, by_origin, dest, back_day, rng.choices([0, 1], [0.7, 0.3])[0])
                if back and back[-1]["destination"] == origin and all(f["destination"] != dest for f in back[:-1]):
                    break
                back = None
            if back is None:
                continue
            legs += [(f, back_day) for f in back]
        cabin = rng.choices(R.CABINS, [0.35, 0.45, 0.2])[0]
        npax = rng.choices([1, 2, 3, 4], [0.45, 0.3, 0.15, 0.1])[0]
        pax = [{"first_name": user["name"]["first_name"], "last_name": user["name"]["last_name"], "dob": user["dob"]}]
        pax += list(user["saved_passengers"])
        while len(pax) < npax:
            pax.append({"first_name": rng.choice(FIRST_NAMES), "last_name": rng.choice(LAST_NAMES), "dob": _dob(rng, 1945, 2020)})
        pax = pax[:npax]
        segments = [{"flight_number": f["flight_number"], "date": d, "origin": f["origin"], "destination": f["destination"],
                     "price": _price(rng, f, d, cabin)} for f, d in legs]
        first_day = legs[0][1]
        if first_day > R.TODAY and rng.random() < 0.08:
            created = f"2026-05-{rng.choice([14, 15])} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
            if not R.booked_within_window(created):
                created = f"{R.TODAY} 0{rng.randint(0, 9)}:{rng.randint(10, 59)}:{rng.randint(10, 59)}"
        else:
            booked_on = R.add_days(min(first_day, R.TODAY), -rng.randint(2, 60))
            created = f"{booked_on} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
        insurance = "yes" if rng.random() < 0.3 else "no"
        total_bags = rng.randint(0, 2 * npax)
        nonfree = R.nonfree_bags(total_bags, user["membership"], cabin, npax)
        total = sum(s["price"] for s in segments) * npax + (R.INSURANCE_FEE * npax if insurance == "yes" else 0) + R.BAG_FEE * nonfree
        cards = [p for p in user["payment_methods"].values() if p["source"] == "credit_card"]
        others = [p for p in user["payment_methods"].values() if p["source"] != "credit_card"]
        history = []
        if others and rng.random() < 0.3:
            other = rng.choice(others)
            part = min(total, int(other["amount"] or 0) or 50)
            history.append({"payment_id": other["id"], "amount": part})
            if total - part > 0:
                history.append({"payment_id": rng.choice(cards)["id"], "amount": total - part})
        else:
            history.append({"payment_id": rng.choice(cards)["id"], "amount": total})
        status = "active"
        if rng.random() < 0.07:
            status = "cancelled"
            history += [{"payment_id": p["payment_id"], "amount": -p["amount"]} for p in list(history)]
        out[rid] = {
            "reservation_id": rid, "user_id": user["user_id"], "origin": origin, "destination": dest,
            "flight_type": "round_trip" if round_trip else "one_way", "cabin": cabin, "flights": segments,
            "passengers": pax, "payment_history": history, "created_at": created, "total_baggages": total_bags,
            "nonfree_baggages": nonfree, "insurance": insurance, "status": status,
        }
        user["reservations"].append(rid)
    return out


def build_database(seed: int = 0, split: str = "test") -> dict[str, dict[str, dict[str, Any]]]:
    """The whole database as plain JSON records keyed by id. Deterministic for (seed, split)."""
    rng = random.Random(f"airline:{split}:{seed}")
    airports = _airports()
    flights = _flights(rng)
    users = _users(rng)
    reservations = _reservations(rng, users, flights)
    return {"users": users, "airports": airports, "flights": flights, "reservations": reservations}
