"""Travel grounding hooks for the read tools of the graph.

Each read picks what the current intent is about (the booking, package or agent a previous step of
the same intent focused, else something of the traveler's own), and says what the traveler wants to
learn; as the last step of a read-only intent its output is the value the agent must tell.
"""
from __future__ import annotations

from typing import Any

from temo.domains.kit.money import usd
from temo.env.grounding import Ground, GroundingFailed, Step, hook

from . import rules as R
from .ground_common import (changeable, fact, focus_now, my_bookings, new_bookings, package, person, set_focus,
                            trip_text)

HOOKS: dict = {}


@hook(HOOKS)
def get_booking_details(g: Ground) -> Step:
    mine = my_bookings(g)
    fb = focus_now(g, "booking")
    booking = next((b for b in mine if b["booking_id"] == fb), None)
    if booking is None:
        fa = focus_now(g, "agent")
        pool = ([b for b in mine if fa is not None and b["agent_id"] == fa and b["status"] in R.ACTIVE]
                or [b for b in changeable(g) if b["package_id"] == focus_now(g, "package")] or changeable(g) or mine)
        booking = g.pick("booking", pool, key=lambda b: b["booking_id"])
    bid = booking["booking_id"]
    if bid in new_bookings(g):  # made a moment ago: the traveler does not know its number yet
        ref, facts = "the booking I just made", []
    else:
        ref, facts = f"booking {bid}", [fact(g, "booking_id", bid)]
    kind = g.rng.choice(["status", "total", "date"])
    if kind == "status":
        ask = g.rng.choice([f"Could I get the current status of {ref}?", f"Is {ref} confirmed yet, or still pending?",
                            f"I'd like to check where {ref} stands."])
        out = booking["status"]
    elif kind == "total":
        ask = g.rng.choice([f"How much does {ref} come to in total now?", f"What is the total price on {ref}?",
                            f"I need the current total for {ref}, please."])
        out = usd(booking["total_price"])
    else:
        ask = g.rng.choice([f"Which date does the trip on {ref} leave?", f"Remind me of the departure date on {ref}.",
                            f"When do I leave on {ref}?"])
        out = booking["departure_date"]
    return Step(args={"booking_id": bid}, ask=ask, facts=facts, outputs=[out],
                focus=set_focus(g, booking=bid, package=booking["package_id"], agent=booking["agent_id"]))


def _package_choice(g: Ground) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(package, the traveler's booking on it or None)."""
    fp, fb = focus_now(g, "package"), focus_now(g, "booking")
    if fb is not None:
        b = g.store.get("bookings", fb)
        return package(g, b["package_id"]), b
    if fp is not None:
        mine = [b for b in my_bookings(g) if b["package_id"] == fp and b["status"] in R.ACTIVE]
        return package(g, fp), (mine[0] if mine else None)
    fa = focus_now(g, "agent")
    if fa is not None:
        managed = g.store.get("agents", fa)["managed_packages"]
        pid = g.pick("package", [p for p in managed if _bookable(package(g, p))] or managed)
        return package(g, pid), None
    pool = changeable(g) or [b for b in my_bookings(g) if b["status"] in R.ACTIVE]
    if pool:
        b = g.pick("booking", pool, key=lambda b: b["booking_id"])
        return package(g, b["package_id"]), b
    pid = g.pick("package", [p for p in sorted(g.store.keys("packages")) if _bookable(package(g, p))])
    return package(g, pid), None


def _bookable(pkg: dict[str, Any]) -> list[str]:
    return [d for d, v in sorted(pkg["departures"].items()) if v["status"] in R.BOOKABLE]


@hook(HOOKS)
def get_package_details(g: Ground) -> Step:
    pkg, booking = _package_choice(g)
    name, pid = pkg["name"], pkg["package_id"]
    focus = {"package": pid}
    if booking is not None and booking["status"] in R.ACTIVE and g.rng.random() < 0.7:
        focus["booking"] = booking["booking_id"]
        deadline = R.cancel_deadline(pkg, booking["departure_date"])
        if deadline is not None and g.rng.random() < 0.6:
            ask = g.rng.choice([f"Until what date could I still cancel {trip_text(g, booking)}?",
                                f"What's the last day to cancel my {name} booking for {booking['departure_date']}?"])
            out = deadline
        else:
            stay = g.rng.choice(pkg["accommodations"])
            city = stay["location"]["city"]
            ask = g.rng.choice([f"How many nights does the {name} spend in {city}?",
                                f"On my {name} trip, how long are we in {city}?"])
            out = str(stay["nights"])
    else:
        dates = _bookable(pkg)
        if not dates:
            raise GroundingFailed("no_bookable_departure")
        date = g.rng.choice(dates)
        dep = pkg["departures"][date]
        if g.rng.random() < 0.5:
            ask = g.rng.choice([f"What does the {name} cost per person for the {date} departure?",
                                f"I'd like the price per traveler of the {name} leaving {date}."])
            out = usd(dep["base_price"])
        else:
            ask = g.rng.choice([f"How many places are still free on the {date} departure of the {name}?",
                                f"Is there much room left on the {name} leaving {date}? How many spots exactly?"])
            out = str(dep["available_slots"])
    return Step(args={"package_id": pid}, ask=ask, facts=[fact(g, "package", name)], outputs=[out],
                focus=set_focus(g, **focus))


@hook(HOOKS)
def get_agent_details(g: Ground) -> Step:
    fa, fb, fp = focus_now(g, "agent"), focus_now(g, "booking"), focus_now(g, "package")
    if fa is not None:
        aid = fa
    elif fb is not None:
        aid = g.store.get("bookings", fb)["agent_id"]
    elif fp is not None:
        aid = g.pick("agent", package(g, fp)["managed_by_agents"])
    else:
        aid = g.pick("agent", sorted({b["agent_id"] for b in my_bookings(g) if b["status"] in R.ACTIVE}
                                     or {b["agent_id"] for b in my_bookings(g)}))
    agent = g.store.get("agents", aid)
    who = person(agent["name"])
    kind = g.rng.choice(["email", "languages", "days"])
    free = [d for d, v in sorted(agent["availability"].items()) if v["slots"] and R.days_until(d) >= 1]
    if kind == "days" and free:
        ask = g.rng.choice([f"Which is the first day {who}, the agent on my trip, has time for a meeting?",
                            f"When is the earliest date I could meet {who}?"])
        out = [free[0]]
    elif kind == "languages":
        ask = g.rng.choice([f"Which languages does {who} speak?", f"Can I find out what languages {who} speaks?"])
        out = list(agent["languages"])
    else:
        ask = g.rng.choice([f"What is the email address of {who}, the agent handling my trip?",
                            f"I'd like to write to {who} directly. What's the email?"])
        out = [agent["contact"]["email"]]
    return Step(args={"agent_id": aid}, ask=ask, facts=[fact(g, "travel_agent", who)], outputs=out,
                focus=set_focus(g, agent=aid))


def _country_of_interest(g: Ground) -> str | None:
    fp = focus_now(g, "package")
    if fp is not None:
        return package(g, fp)["destinations"][0]["country"]
    return g.notes.get(("country", g.intent))


def _search_index(g: Ground) -> dict[tuple[str, ...], list[str]]:
    """Search arguments -> the packages ``search_packages`` returns for them now (as the tool filters)."""
    index: dict[tuple[str, ...], list[str]] = {}
    for pid in sorted(g.store.keys("packages")):
        pkg = package(g, pid)
        if not _bookable(pkg):
            continue
        for key in {*(("country", d["country"]) for d in pkg["destinations"]),
                    *(("country", d["country"], pkg["category"]) for d in pkg["destinations"]),
                    *(("city", d["city"]) for d in pkg["destinations"])}:
            index.setdefault(key, []).append(pid)
    return index


@hook(HOOKS)
def search_packages(g: Ground) -> Step:
    country = _country_of_interest(g)
    index = _search_index(g)
    options = [(k, v) for k, v in sorted(index.items()) if k[0] == "country" and 1 <= len(v) <= 3
               and (country is None or k[1] == country)]
    city = g.notes.get(("city", g.intent))
    if city and 1 <= len(index.get(("city", city), [])) <= 3:  # the traveler named a city just before
        options = [(("city", city), index[("city", city)])]
    if not options:
        raise GroundingFailed("no_small_search")
    key, found = g.pick("search", options, key=lambda o: "/".join(o[0]))
    where, kind = key[1], (key[2] if len(key) > 2 else None)
    args = {"destination_city": where} if key[0] == "city" else {"destination_country": where}
    if kind:
        args["category"] = kind
    trip = f"{kind} trip" if kind else "trip"
    ask = g.rng.choice([f"Which {trip}s can I still book to {where}?", f"I'm looking for a {trip} to {where}. What are the options?",
                        f"What {trip}s are on offer to {where}?"])
    facts = [fact(g, "destination_city" if "destination_city" in args else "destination_country", where)]
    if kind:
        facts.append(fact(g, "trip_category", kind))
    pick = g.pick("package", found)
    return Step(args=args, ask=ask, facts=facts, outputs=[package(g, p)["name"] for p in found],
                focus=set_focus(g, package=pick))


@hook(HOOKS)
def list_all_destinations(g: Ground) -> Step:
    dests = g.run("list_all_destinations", {})
    by_country: dict[str, list[str]] = {}
    for d in dests:
        by_country.setdefault(d["country"], []).append(d["city"])
    options = sorted(c for c, cities in by_country.items() if 2 <= len(cities) <= 4)
    country = g.pick("country", options)
    cities = by_country[country]
    g.notes[("country", g.intent)] = country
    g.notes[("city", g.intent)] = g.rng.choice(cities) if g.rng.random() < 0.5 else None
    ask = g.rng.choice([f"Which cities in {country} do the trips visit?",
                        f"I'm curious which places in {country} are covered by the packages.",
                        f"Where in {country} do the tours go?"])
    return Step(args={}, ask=ask, facts=[fact(g, "destination_country", country)], outputs=cities, uses={"country": country})
