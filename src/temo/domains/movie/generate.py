"""Generate the movie database: 752 customers, 51 movies, 51 theaters, 1,001 bookings (paper Table 15).

Shows live inside their theaters (``dates[date].shows``), from 2024-05-08 to 2024-05-26 around the
fixed today (2024-05-15 15:00): earlier shows are completed, later ones scheduled, a few of either
canceled by the theater. Every booking's seats exist in its auditorium, confirmed bookings of one
show never share a seat, prices follow the show's price schema, and payments add up to the totals.
Deterministic for a seed: everything comes from one ``random.Random``, never the clock.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from temo.domains.kit import people
from temo.domains.kit.dates import add_days, days_between, parse_date
from temo.domains.kit.money import money

from . import catalog as C
from . import rules as R

SEPARATE_TRAIN_DB = True
N_CUSTOMERS = 752
N_MOVIES = 51
N_THEATERS = 51
N_BOOKINGS = 1001
FIRST_DATE, LAST_DATE = "2024-05-08", "2024-05-26"
SLOTS = ["10:30", "11:15", "12:45", "13:30", "15:30", "15:45", "16:15", "17:00", "18:30", "19:15", "19:45",
         "21:00", "21:30"]
TRAILERS = 15  # minutes of trailers before the film; a hall needs 15 more to clean
BRANDS_CARD = ["visa", "mastercard", "amex", "discover"]
WALLETS = ["Apple Pay", "Google Pay", "PayPal"]
TAX_RATES = [5.5, 6.0, 6.25, 7.0, 7.5, 8.25, 8.875]
NOW_DT = dt.datetime.fromisoformat(R.NOW)


def _stamp(minutes_from_now: int) -> str:
    return (NOW_DT + dt.timedelta(minutes=minutes_from_now)).strftime("%Y-%m-%dT%H:%M:00")


def _dates() -> list[str]:
    return [add_days(FIRST_DATE, i) for i in range(days_between(FIRST_DATE, LAST_DATE) + 1)]


# ---- movies --------------------------------------------------------------------------------------
def _movie(rng: random.Random, n: int, film: tuple) -> dict[str, Any]:
    title, genres, rating, runtime = film
    release = add_days("2024-03-08", rng.randint(0, 75))
    formats = ["2D"] + [f for f, p in (("3D", 0.3), ("IMAX", 0.35), ("Dolby", 0.3)) if rng.random() < p]
    audio = [rng.choice(C.AUDIO)]
    if audio[0] == "English" and rng.random() < 0.2:
        audio.append("Spanish")
    subs = list(rng.choice(C.SUBTITLE_CHOICES)) if audio[0] == "English" else ["English"]
    names = people.unique_names(rng, 7)
    full = [f"{a} {b}" for a, b in names]
    synopsis = (rng.choice(C.SYNOPSIS_OPENINGS).format(who=rng.choice(C.WHO), does=rng.choice(C.DOES))
                + rng.choice(C.ENDINGS))
    return {
        "movie_id": f"MOV{n:03d}", "title": title, "genres": list(genres), "runtime_minutes": runtime,
        "mpaa_rating": rating, "languages_audio": audio, "subtitles": subs, "formats": formats,
        "release_date": release, "end_of_run_est": add_days(release, rng.randint(56, 90)),
        "cast": [{"name": full[i], "role": f"{rng.choice(people.FIRST_NAMES)} ({part})"}
                 for i, part in enumerate(["lead", "lead", "supporting"][: rng.randint(2, 3)])],
        "crew": {"director": full[3], "writer": full[4], "producer": full[5], "music": full[6]},
        "synopsis": synopsis[0].upper() + synopsis[1:],
    }


# ---- theaters ------------------------------------------------------------------------------------
def _auditorium(rng: random.Random, n: int, kind: str) -> dict[str, Any]:
    rows = rng.randint(5, 8) if kind != "IMAX" else rng.randint(8, 10)
    width = rng.randint(8, 12) if kind != "IMAX" else rng.randint(12, 14)
    letters = [chr(ord("A") + i) for i in range(rows)]
    seat_map = {}
    for i, row in enumerate(letters):
        count = width + (2 if i == rows - 1 else 0)
        if kind == "recliner":
            stype = "recliner"
        else:
            stype = "premium" if rows // 2 - 1 <= i <= rows // 2 else "standard"
        accessible = [f"{row}1", f"{row}{count}"] if i == 0 else ([f"{row}1", f"{row}2"] if i == rows - 1 and rows >= 7 else [])
        seat_map[row] = {"seat_count": count, "seat_type": stype, "wheelchair_accessible": accessible}
    features = {"IMAX": ["IMAX laser", "stadium seating"], "Dolby": ["Dolby Atmos", "Dolby Vision"],
                "3D": ["3D capable"], "recliner": ["heated recliners"], "plain": []}[kind]
    formats = {"IMAX": ["IMAX", "2D"], "Dolby": ["Dolby", "2D"], "3D": ["3D", "2D"], "recliner": ["2D"], "plain": ["2D"]}[kind]
    return {"auditorium_id": f"AUD{n}", "name": rng.choice(C.AUDITORIUM_NAMES).format(n=n) if kind not in ("IMAX", "Dolby")
            else f"{kind} Hall {n}", "capacity": sum(r["seat_count"] for r in seat_map.values()),
            "features": features, "formats": formats, "seat_map": {"rows": seat_map}}


def _theater(rng: random.Random, n: int, place: str, city: tuple[str, str, str]) -> dict[str, Any]:
    brand = rng.choice(C.BRANDS)
    name = f"{brand} {place}, {city[0]}"
    slug = f"{place}-{city[0]}".lower().replace(" ", "-")
    kinds = ["plain"] * rng.randint(2, 4)
    if rng.random() < 0.45:
        kinds.insert(0, "IMAX")
    if rng.random() < 0.4:
        kinds.insert(1, "Dolby")
    if rng.random() < 0.6:
        kinds.append("3D")
    if brand == "Silverscreen Luxe":
        kinds.append("recliner")
    auditoriums = {f"AUD{i}": _auditorium(rng, i, k) for i, k in enumerate(kinds, 1)}
    adult = 12.0 + 0.25 * rng.randint(0, 18)
    menu = {}
    for item_id, (iname, sizes) in C.CONCESSIONS.items():
        if rng.random() < 0.85:
            bump = rng.choice([0.0, 0.0, 0.25, 0.5])
            menu[item_id] = {"item_id": item_id, "name": iname, "sizes": {s: money(p + bump) for s, p in sizes.items()}}
    addr = people.address(rng)
    return {
        "theater_id": f"TH{n:03d}", "name": name,
        "address": {"address1": addr["address1"], "city": city[0], "state": city[1],
                    "zip": f"{city[2]}{rng.randint(0, 99):02d}", "country": "USA"},
        "contact": {"phone": people.phone(rng), "email": f"{slug}@silverscreen.example.com",
                    "website": f"https://silverscreen.example.com/{slug}"},
        "amenities": sorted(rng.sample(C.AMENITIES, rng.randint(3, 5))),
        "auditoriums": auditoriums,
        "pricing_rules": {
            "base": {"adult": money(adult), "child": money(adult - rng.choice([3.0, 3.5, 4.0])),
                     "senior": money(adult - rng.choice([2.0, 2.5, 3.0]))},
            "format_surcharges": {"2D": 0.0, "3D": rng.choice([2.5, 3.0, 3.5]), "IMAX": rng.choice([5.0, 5.5, 6.0, 6.5]),
                                  "Dolby": rng.choice([4.0, 4.5, 5.0])},
            "time_based": {"matinee_discount": rng.choice([2.0, 2.5, 3.0]), "peak_surcharge": rng.choice([1.0, 1.5, 2.0])},
            "fees": {"convenience_fee": rng.choice([1.25, 1.5, 1.75, 2.0]), "booking_fee": rng.choice([0.75, 1.0, 1.25, 1.5])},
            "tax_rate_percent": rng.choice(TAX_RATES),
        },
        "concessions_menu": menu,
        "dates": {},
    }


def _schedule(rng: random.Random, theater: dict[str, Any], movies: list[dict[str, Any]], counter: list[int]) -> None:
    """Fill ``theater["dates"]``: two or three shows a day in halls that can play the format, never overlapping."""
    program = rng.sample(movies, rng.randint(8, 12))
    halls = theater["auditoriums"]
    for date in _dates():
        playing = [m for m in program if m["release_date"] <= date <= m["end_of_run_est"]]
        if not playing:
            continue
        busy: dict[str, list[tuple[int, int]]] = {h: [] for h in halls}
        shows = []
        for start in sorted(rng.sample(SLOTS, rng.randint(2, 3)), key=R.clock_minutes):
            movie = rng.choice(playing)
            s = R.clock_minutes(start)
            e = s + TRAILERS + movie["runtime_minutes"]
            if e >= 24 * 60 or (date == R.TODAY and R.minutes_until(date, start) < 0 < R.minutes_until(date, R.hhmm(e))):
                continue  # past midnight, or running at this very moment
            options = []
            for hid, hall in halls.items():
                free = all(e + 15 <= a or b + 15 <= s for a, b in busy[hid])
                fmts = [f for f in movie["formats"] if f in hall["formats"]]
                if free and fmts:
                    options.append((hid, fmts))
            if not options:
                continue
            hid, fmts = rng.choice(options)
            premium = [f for f in fmts if f != "2D"]
            fmt = rng.choice(premium) if premium and rng.random() < 0.6 else rng.choice(fmts)
            busy[hid].append((s, e))
            counter[0] += 1
            status = "completed" if R.minutes_until(date, start) < 0 else "scheduled"
            if rng.random() < (0.04 if status == "completed" else 0.06):
                status = "canceled"
            language = rng.choice(movie["languages_audio"])
            subs = rng.choice([None, *movie["subtitles"]]) if movie["subtitles"] else None
            shows.append({
                "show_id": f"SHW{counter[0]:05d}", "movie_id": movie["movie_id"], "auditorium_id": hid, "date": date,
                "start_time_local": start, "end_time_local": R.hhmm(e), "format": fmt, "language": language,
                "subtitles": subs if subs != language else None, "status": status,
                "price_schema": R.show_prices(theater, fmt, date, start, parse_date(date).weekday()),
            })
        if shows:
            theater["dates"][date] = {"shows": shows}


# ---- customers and bookings ----------------------------------------------------------------------
def _customers(rng: random.Random) -> dict[str, dict[str, Any]]:
    out = {}
    used_pm: set[str] = set()

    def pm_id() -> str:
        while True:
            pid = f"pm_{rng.randint(100000, 999999)}"
            if pid not in used_pm:
                used_pm.add(pid)
                return pid

    for n, (first, last) in enumerate(people.unique_names(rng, N_CUSTOMERS), 1):
        methods: dict[str, dict[str, Any]] = {}
        kinds = ["card"] if rng.random() < 0.8 else ["wallet"]
        if rng.random() < 0.35:
            kinds.append("card" if kinds[0] == "wallet" else rng.choice(["card", "wallet"]))
        if rng.random() < 0.3:
            kinds.append("gift_card")
        for kind in kinds:
            pid = pm_id()
            rec: dict[str, Any] = {"payment_method_id": pid, "source": kind}
            if kind == "card":
                rec.update(brand=rng.choice(BRANDS_CARD), last_four=f"{rng.randint(0, 9999):04d}")
            elif kind == "wallet":
                rec["provider"] = rng.choice(WALLETS)
            else:
                rec.update(last_four=f"{rng.randint(0, 9999):04d}", balance=money(rng.choice([10, 15, 20, 25, 40, 50, 75]) + rng.choice([0, 0, 0.5, 2.25])))
            methods[pid] = rec
        cid = f"CUS{n:04d}"
        out[cid] = {"customer_id": cid, "name": {"first_name": first, "last_name": last},
                    "email": people.email(first, last, n, rng), "phone": people.phone(rng),
                    "loyalty_id": f"SSC{rng.randint(10_000_000, 99_999_999)}" if rng.random() < 0.45 else None,
                    "payment_methods": methods, "bookings": []}
    return out


def _method_ref(m: dict[str, Any]) -> dict[str, Any]:
    extra = {k: m[k] for k in ("brand", "last_four", "provider") if m.get(k) is not None}
    return {"source": m["source"], "payment_method_id": m["payment_method_id"], "extra_info": extra}


def _pick_seats(rng: random.Random, hall: dict[str, Any], taken: set[str], n: int) -> list[str] | None:
    rows = list(hall["seat_map"]["rows"].items())
    for _ in range(12):
        row, spec = rng.choice(rows)
        avoid = set(spec["wheelchair_accessible"]) | taken
        start = rng.randint(1, max(1, spec["seat_count"] - n + 1))
        ids = [f"{row}{k}" for k in range(start, start + n)]
        if start + n - 1 <= spec["seat_count"] and not avoid.intersection(ids):
            return ids
    return None


def _ticket_types(rng: random.Random, n: int) -> list[str]:
    if n >= 3 and rng.random() < 0.45:
        kids = rng.randint(1, n - 1)
        return ["adult"] * (n - kids) + ["child"] * kids
    if rng.random() < 0.15:
        return ["senior"] * n
    if n == 2 and rng.random() < 0.15:
        return ["adult", "senior"]
    return ["adult"] * n


def _booking(rng: random.Random, customer: dict[str, Any], theater: dict[str, Any], show: dict[str, Any],
             status: str, seats: list[str]) -> dict[str, Any]:
    rate = theater["pricing_rules"]["tax_rate_percent"]
    lines = R.seat_lines(show, rate, [{"seat_id": s, "ticket_type": t} for s, t in zip(seats, _ticket_types(rng, len(seats)))])
    snacks = []
    if rng.random() < 0.3 and theater["concessions_menu"]:
        for item in rng.sample(sorted(theater["concessions_menu"]), min(len(theater["concessions_menu"]), rng.randint(1, 2))):
            menu = theater["concessions_menu"][item]
            size = rng.choice(sorted(menu["sizes"]))
            snacks.append({"item_id": item, "name": menu["name"], "size": size, "quantity": rng.randint(1, max(1, len(seats))),
                           "price_each": menu["sizes"][size]})
    snack_lines = R.concession_lines(rate, snacks)
    tot = R.totals(lines, snack_lines, theater["pricing_rules"]["fees"]["booking_fee"])
    start_in = R.minutes_until(show["date"], show["start_time_local"])
    created = min(start_in, 0) - rng.randint(30, 12 * 24 * 60)
    methods = list(customer["payment_methods"].values())
    gift = [m for m in methods if m["source"] == "gift_card"]
    other = [m for m in methods if m["source"] != "gift_card"]
    grand = tot["grand_total"]
    if gift and other and rng.random() < 0.35 and grand > 6:
        part = money(min(gift[0]["balance"], rng.randint(5, int(grand) - 1)))
        plan = [(gift[0], part), (rng.choice(other), money(grand - part))]
    else:
        plan = [(rng.choice(other or methods), grand)]
    history = [{"payment_id": f"P{k}", "amount": amount, "method": _method_ref(m), "created_at": _stamp(created)}
               for k, (m, amount) in enumerate(plan, 1)]
    canceled_at = None
    if status != "confirmed":
        when = created + rng.randint(10, max(11, min(start_in, 0) - created - 5))
        canceled_at = _stamp(when)
        history += [{"payment_id": f"R{k}", "amount": -p["amount"], "method": p["method"], "created_at": canceled_at}
                    for k, p in enumerate(list(history), 1)]
    return {
        "_created": created, "customer_id": customer["customer_id"], "theater_id": theater["theater_id"],
        "movie_id": show["movie_id"], "show_id": show["show_id"], "date": show["date"],
        "start_time_local": show["start_time_local"], "status": status, "created_at": _stamp(created),
        "canceled_at": canceled_at,
        "customer": {"name": dict(customer["name"]), "email": customer["email"], "phone": customer["phone"],
                     "loyalty_id": customer["loyalty_id"]},
        "seats": lines, "concessions": snack_lines, "promotions_applied": [], "payment_history": history,
        "totals": {**tot, "amount_paid": R.net_paid(history), "amount_due": 0.0},
        "delivery": {"method": rng.choices(R.DELIVERY_METHODS, [0.6, 0.2, 0.2])[0], "tickets": []},
        "special_requests": rng.choice(C.SPECIAL_REQUESTS) if rng.random() < 0.1 else None,
    }


def _status_for(rng: random.Random, show: dict[str, Any]) -> str:
    if show["status"] == "canceled":
        past = R.minutes_until(show["date"], show["start_time_local"]) < 0
        return "refunded" if rng.random() < (0.7 if past else 0.4) else "confirmed"
    return "confirmed" if rng.random() < (0.85 if show["status"] == "scheduled" else 0.88) else "canceled"


def _bookings(rng: random.Random, customers: dict[str, dict[str, Any]], theaters: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    shows = [(t, s) for t in theaters.values() for day in t["dates"].values() for s in day["shows"]]
    by_status = {st: [x for x in shows if x[1]["status"] == st] for st in R.SHOW_STATUSES}
    cids = list(customers)
    owners = cids + [rng.choice(cids) for _ in range(N_BOOKINGS - len(cids))]
    rng.shuffle(owners)
    taken: dict[str, set[str]] = {}
    drafts = []
    for cid in owners:
        while True:
            kind = rng.choices(["scheduled", "completed", "canceled"], [0.52, 0.38, 0.10])[0]
            theater, show = rng.choice(by_status[kind])
            n = rng.choices([1, 2, 3, 4, 5, 6], [18, 42, 14, 16, 6, 4])[0]
            status = _status_for(rng, show)
            held = taken.setdefault(show["show_id"], set())
            seats = _pick_seats(rng, theater["auditoriums"][show["auditorium_id"]], held, n)
            if seats is not None:
                break
        if status == "confirmed":
            held.update(seats)
        drafts.append(_booking(rng, customers[cid], theater, show, status, seats))
    drafts.sort(key=lambda b: (b["_created"], b["customer_id"], b["show_id"]))
    out = {}
    for n, b in enumerate(drafts, 1):
        bid = f"BKG{n:04d}"
        del b["_created"]
        for p in b["payment_history"]:
            p["payment_id"] = f"{bid}-{p['payment_id']}"
        if b["status"] == "confirmed":
            b["delivery"]["tickets"] = R.tickets_for(bid, b["seats"])
        out[bid] = {"booking_id": bid, **b}
        customers[b["customer_id"]]["bookings"].append(bid)
    return out


def build_database(seed: int = 0, split: str = "test") -> dict[str, dict[str, Any]]:
    """The movie tables for one split (seed 0: evaluation, seed 1: training, other people and records)."""
    rng = random.Random(seed)
    films = rng.sample(C.FILMS, N_MOVIES)
    movies = {f"MOV{n:03d}": _movie(rng, n, film) for n, film in enumerate(films, 1)}
    sites = [(p, c) for c in people.CITIES for p in C.PLACES]
    theaters: dict[str, dict[str, Any]] = {}
    counter = [0]
    for n, (place, city) in enumerate(rng.sample(sites, N_THEATERS), 1):
        th = _theater(rng, n, place, city)
        _schedule(rng, th, list(movies.values()), counter)
        theaters[th["theater_id"]] = th
    customers = _customers(rng)
    bookings = _bookings(rng, customers, theaters)
    return {"customers": customers, "movies": movies, "theaters": theaters, "bookings": bookings}
