"""Travel grounding hooks for the write tools of the graph.

Every hook looks at the traveler's bookings *as they are now* and picks one the tool accepts (active,
outside the package's change or cancellation window, a departure with room, a saved payment method
that may take the charge or the refund), so the call succeeds and changes the state. A booking one
step of the attempt changed in some way is not changed the same way again, and a cancelled one is left
alone.
"""
from __future__ import annotations

from typing import Any

from temo.domains.kit.ids import next_id
from temo.domains.kit.money import money, usd
from temo.domains.kit.people import FIRST_NAMES, LAST_NAMES, birth_date
from temo.env.grounding import Ground, GroundingFailed, Step, hook

from . import rules as R
from .ground_common import (add_on_text, cards_of, changeable, choose_booking, credit_of, fact, focus_now, mark,
                            method_phrase, methods_for, my_bookings, package, party_text, person, refund_total,
                            new_bookings, room_text, set_focus, trip_text)

HOOKS: dict = {}


def _rooms_for(pkg: dict[str, Any], n: int) -> list[dict[str, Any]]:
    """Sensible rooming choices: full rooms of a type the package offers, or singles."""
    out = []
    for room in pkg["room_types"]:
        occ = min(R.ROOM_CAPACITY[room], n)
        if room == "single" or R.ROOM_CAPACITY[room] <= max(n, 2):
            out.append({"room_type": room, "occupancy": occ})
    return out


def _payment_step(g: Ground, booking: dict[str, Any] | None, delta: float) -> tuple[str, list]:
    ms = methods_for(g, booking, delta)
    if not ms:
        raise GroundingFailed("no_payment_method_for_difference")
    m = g.rng.choice(ms)
    return m["payment_method_id"], [fact(g, "payment_method", method_phrase(m))]


# -- book ------------------------------------------------------------------------------------------
def _party(g: Ground) -> tuple[list[dict[str, str]], str]:
    u = g.user
    me = {"first_name": u["name"]["first_name"], "last_name": u["name"]["last_name"], "dob": u["dob"]}
    comps = u["saved_companions"]
    if "party" not in g.notes:
        g.notes["party"] = g.rng.sample(range(len(comps)), g.rng.randint(0, min(3, len(comps))))
    chosen = [comps[i] for i in g.notes["party"]]
    people = [me] + [{"first_name": c["first_name"], "last_name": c["last_name"], "dob": c["dob"]} for c in chosen]
    who = "just me" if not chosen else "me and my " + " and my ".join(c["relationship"] for c in chosen)
    return people, who


@hook(HOOKS)
def book_package(g: Ground) -> Step:
    people, who = _party(g)
    n = len(people)

    def departures(pkg: dict[str, Any]) -> list[str]:
        return [d for d, v in sorted(pkg["departures"].items()) if v["status"] in R.BOOKABLE and v["available_slots"] >= n]

    fa, fp = focus_now(g, "agent"), focus_now(g, "package")
    booked = {b["package_id"] for b in my_bookings(g) if b["status"] in R.ACTIVE}
    if fp is not None and departures(package(g, fp)):
        pid = fp
    else:
        pool = sorted(g.store.keys("packages"))
        if fa is not None:
            pool = [p for p in g.store.get("agents", fa)["managed_packages"] if departures(package(g, p))] or pool
        pid = g.pick("package", [p for p in pool if departures(package(g, p)) and p not in booked], reason="no_bookable_package")
    pkg = package(g, pid)
    date = g.rng.choice(departures(pkg))
    dep = pkg["departures"][date]
    rooms = _rooms_for(pkg, n)
    if not rooms:
        raise GroundingFailed("no_rooming")
    room = g.rng.choice(rooms)
    extras = [dict(a) for a in g.rng.sample(pkg["add_on_options"], 1)] if g.rng.random() < 0.4 else []
    plan = g.rng.choice([None, None, "standard", "premium"])
    total = R.total_price(dep["base_price"], n, extras, plan)
    credit, cards = credit_of(g), cards_of(g)
    balance = (credit or {}).get("extra_info", {}).get("balance") or 0.0
    if credit is not None and balance >= total and g.rng.random() < 0.5:
        payments, pay_words = [{"payment_id": credit["payment_method_id"], "amount": total}], "the whole amount with my travel credit"
    elif credit is not None and 0 < balance < total and g.rng.random() < 0.5:
        card = g.rng.choice(cards)
        payments = [{"payment_id": credit["payment_method_id"], "amount": money(balance)},
                    {"payment_id": card["payment_method_id"], "amount": money(total - balance)}]
        pay_words = f"with all of my travel credit, and the rest on {method_phrase(card)}"
    else:
        card = g.rng.choice(cards)
        payments, pay_words = [{"payment_id": card["payment_method_id"], "amount": total}], f"all of it on {method_phrase(card)}"
    args: dict[str, Any] = {"traveler_id": g.user_id, "package_id": pid, "departure_date": date, "travelers": people,
                            "rooming": room, "add_ons": extras, "insurance": plan, "payment_methods": payments}
    facts = [fact(g, "package", pkg["name"]), fact(g, "start_date", date), fact(g, "travelers", party_text(people)),
             fact(g, "rooming", room_text(room)), fact(g, "insurance", plan or "no insurance"),
             fact(g, "payment_method", pay_words)]
    details = [f"I'd like the departure on {date}.", f"Traveling: {party_text(people)}.",
               f"For the rooms: {room_text(room)}.",
               f"I'd like the {plan} insurance." if plan else "I don't want any insurance.",
               f"Please pay {pay_words}."]
    if extras:
        facts.append(fact(g, "extras", extras[0]["description"]))
        details.insert(3, f"Please add the {add_on_text(extras[0])}.")
    else:
        details.insert(3, "No add-ons for me, thanks.")
    if fa is not None and fa in pkg["managed_by_agents"]:
        args["agent_id"] = fa
        agent = g.store.get("agents", fa)
        facts.append(fact(g, "travel_agent", person(agent["name"])))
        details.append(f"I'd like {person(agent['name'])} to be the agent on it.")
    ask = g.rng.choice([f"I want to book the {pkg['name']} for {who}.", f"Could I book a place on the {pkg['name']}? It's for {who}.",
                        f"I'd like to reserve the {pkg['name']} trip, {who}."])
    bid = next_id(g.store, "bookings", "BK", 6)
    mark(g, "booked", pid)
    new_bookings(g).add(bid)
    return Step(args=args, ask=ask, details=details, facts=facts, outputs=[usd(total)],
                output_from=lambda rec: [rec["booking_id"]],
                preferences=["Only the add-ons and insurance stated should be on the booking."],
                focus=set_focus(g, booking=bid, package=pid, agent=args.get("agent_id", pkg["managed_by_agents"][0])),
                uses={"package": pid})


# -- cancel ----------------------------------------------------------------------------------------
@hook(HOOKS)
def cancel_booking(g: Ground) -> Step:
    done = set().union(*g.used.values(), new_bookings(g))
    cands = [b for b in my_bookings(g) if b["booking_id"] not in done and R.can_cancel(package(g, b["package_id"]), b)]
    b = choose_booking(g, cands, "no_cancellable_booking")
    bid = b["booking_id"]
    mark(g, "cancelled", bid)
    ask = g.rng.choice([f"I need to cancel booking {bid}; we can't make the trip after all.",
                        f"Please cancel my booking {bid}.", f"Plans changed, so I'd like to call off booking {bid}."])
    return Step(args={"booking_id": bid}, ask=ask, details=[f"It's {trip_text(g, b)}."], facts=[fact(g, "booking_id", bid)],
                outputs=[usd(refund_total(b))], focus=set_focus(g, booking=bid, package=b["package_id"], agent=b["agent_id"]))


# -- change the add-ons ----------------------------------------------------------------------------
@hook(HOOKS)
def update_booking_add_ons(g: Ground) -> Step:
    cands = [b for b in changeable(g, "add_ons") if package(g, b["package_id"])["add_on_options"]]
    b = choose_booking(g, cands, "no_booking_for_add_ons")
    pkg = package(g, b["package_id"])
    have = [a["description"] for a in b["add_ons"]]
    missing = [a for a in pkg["add_on_options"] if a["description"] not in have]
    if b["add_ons"] and (not missing or g.rng.random() < 0.4):
        drop = g.rng.choice(b["add_ons"])
        new = [a for a in b["add_ons"] if a["description"] != drop["description"]]
        change = f"remove the {add_on_text(drop)}"
    else:
        add = g.rng.choice(missing)
        new = [*b["add_ons"], dict(add)]
        change = f"add the {add_on_text(add)}"
    delta = money(sum(a["price"] for a in new) - sum(a["price"] for a in b["add_ons"]))
    pm, pay_facts = _payment_step(g, b, delta)
    bid = b["booking_id"]
    mark(g, "add_ons", bid)
    ask = g.rng.choice([f"I'd like to change the extras on booking {bid}.", f"Can I update the add-ons on my booking {bid}?",
                        f"About booking {bid}: I want to {change}."])
    money_words = "charge the difference to" if delta > 0 else "refund the difference to"
    return Step(args={"booking_id": bid, "add_ons": new, "payment_method_id": pm}, ask=ask,
                details=[f"I want to {change} and keep everything else.",
                         f"Please {money_words} {pay_facts[0].value}."],
                facts=[fact(g, "booking_id", bid), fact(g, "add_on_change", change), *pay_facts],
                outputs=[usd(abs(delta))], focus=set_focus(g, booking=bid, package=pkg["package_id"]))


# -- move to another departure ---------------------------------------------------------------------
@hook(HOOKS)
def update_booking_departure_date(g: Ground) -> Step:
    options = []
    for b in changeable(g, "date"):
        pkg = package(g, b["package_id"])
        n = len(b["travelers"])
        for d in sorted(pkg["departures"]):
            if d != b["departure_date"] and R.can_move_to(pkg, d, n):
                delta = money(R.total_price(pkg["departures"][d]["base_price"], n, b["add_ons"], b["insurance"]) - b["total_price"])
                if delta and methods_for(g, b, delta):
                    options.append((b, d, delta))
    b = choose_booking(g, [o[0] for o in options], "no_movable_booking")
    _, date, delta = g.rng.choice([o for o in options if o[0]["booking_id"] == b["booking_id"]])
    pm, pay_facts = _payment_step(g, b, delta)
    bid = b["booking_id"]
    mark(g, "date", bid)
    ask = g.rng.choice([f"I'd like to move booking {bid} to a different departure.",
                        f"Could I change the departure date of my booking {bid}?",
                        f"Booking {bid} needs to leave on another date."])
    money_words = "charge the difference to" if delta > 0 else "refund the difference to"
    return Step(args={"booking_id": bid, "new_departure_date": date, "payment_method_id": pm}, ask=ask,
                details=[f"I'd like the {date} departure instead of {b['departure_date']}.",
                         f"Please {money_words} {pay_facts[0].value}."],
                facts=[fact(g, "booking_id", bid), fact(g, "new_departure", date), *pay_facts],
                outputs=[usd(abs(delta))], focus=set_focus(g, booking=bid, package=b["package_id"]))


# -- travelers -------------------------------------------------------------------------------------
def _traveler_change(g: Ground, b: dict[str, Any]) -> tuple[list[dict[str, str]], str, str, str] | None:
    """(new list, fact key, fact value, detail) for a spelling fix or a swap of one companion."""
    u = g.user
    known = [{"first_name": u["name"]["first_name"], "last_name": u["name"]["last_name"], "dob": u["dob"]},
             *[{k: c[k] for k in ("first_name", "last_name", "dob")} for c in u["saved_companions"]]]
    for i, t in enumerate(b["travelers"]):
        for k in known:
            if k["first_name"] == t["first_name"] and k["dob"] == t["dob"] and k["last_name"] != t["last_name"]:
                new = [dict(x) for x in b["travelers"]]
                new[i] = dict(k)
                value = f"{person(t)} should be spelled {person(k)}"
                return new, "name_correction", value, f"The name {person(t)} is misspelled; it should be {person(k)}."
    others = [i for i, t in enumerate(b["travelers"]) if i > 0]
    if not others:
        return None
    i = g.rng.choice(others)
    on = {(t["first_name"], t["last_name"]) for t in b["travelers"]}
    free = [k for k in known[1:] if (k["first_name"], k["last_name"]) not in on]
    if free and g.rng.random() < 0.6:
        sub = dict(g.rng.choice(free))
    else:
        sub = {"first_name": g.rng.choice(FIRST_NAMES), "last_name": g.rng.choice(LAST_NAMES), "dob": birth_date(g.rng, 1950, 2005)}
        if (sub["first_name"], sub["last_name"]) in on:
            return None
    new = [dict(x) for x in b["travelers"]]
    old = new[i]
    new[i] = sub
    value = f"{person(sub)} (born {sub['dob']}) travels instead of {person(old)}"
    return new, "traveler_swap", value, f"{person(old)} can't come, so {person(sub)}, born {sub['dob']}, takes that place."


@hook(HOOKS)
def update_booking_travelers(g: Ground) -> Step:
    cands = [b for b in changeable(g, "travelers") if len(b["travelers"]) > 1
             or any(t["last_name"] != g.user["name"]["last_name"] for t in b["travelers"])]
    b = choose_booking(g, cands, "no_booking_for_traveler_change")
    change = _traveler_change(g, b)
    if change is None:
        raise GroundingFailed("no_traveler_change")
    new, key, value, detail = change
    bid = b["booking_id"]
    mark(g, "travelers", bid)
    ask = (g.rng.choice([f"A name on booking {bid} is spelled wrong and needs fixing.",
                         f"I noticed a typo in a traveler's name on booking {bid}."]) if key == "name_correction" else
           g.rng.choice([f"Someone else is taking one of the places on booking {bid}.",
                         f"I need to swap one of the travelers on booking {bid}."]))
    return Step(args={"booking_id": bid, "travelers": new}, ask=ask, details=[detail],
                facts=[fact(g, "booking_id", bid), fact(g, key, value)],
                preferences=["Everyone else on the booking stays as they are."],
                focus=set_focus(g, booking=bid, package=b["package_id"]))


# -- rooming ---------------------------------------------------------------------------------------
@hook(HOOKS)
def update_booking_rooming(g: Ground) -> Step:
    options = []
    for b in changeable(g, "rooming"):
        rooms = [r for r in _rooms_for(package(g, b["package_id"]), len(b["travelers"])) if r != b["rooming"]]
        if rooms:
            options.append((b, rooms))
    b = choose_booking(g, [o[0] for o in options], "no_booking_for_rooming")
    room = g.rng.choice(next(r for x, r in options if x["booking_id"] == b["booking_id"]))
    bid = b["booking_id"]
    mark(g, "rooming", bid)
    ask = g.rng.choice([f"I'd like different rooms on booking {bid}.", f"Can the room arrangement on booking {bid} be changed?",
                        f"We want to change how we sleep on booking {bid}."])
    return Step(args={"booking_id": bid, "rooming": room}, ask=ask, details=[f"We'd like {room_text(room)}."],
                facts=[fact(g, "booking_id", bid), fact(g, "new_room", room_text(room))],
                focus=set_focus(g, booking=bid, package=b["package_id"]))


# -- meetings --------------------------------------------------------------------------------------
@hook(HOOKS)
def schedule_agent_meeting(g: Ground) -> Step:
    fa, fb, fp = focus_now(g, "agent"), focus_now(g, "booking"), focus_now(g, "package")
    if fa is not None:
        pool = [fa]
    elif fb is not None:
        pool = [g.store.get("bookings", fb)["agent_id"]]
    elif fp is not None:
        pool = list(package(g, fp)["managed_by_agents"])
    else:
        pool = sorted({b["agent_id"] for b in my_bookings(g) if b["status"] in R.ACTIVE})

    def free(aid: str) -> list[tuple[str, str]]:
        av = g.store.get("agents", aid)["availability"]
        return [(d, s) for d, v in sorted(av.items()) if R.days_until(d) >= 1 for s in v["slots"]]

    aid = g.pick("agent", [a for a in pool if free(a)], reason="no_free_agent_slot")
    date, slot = g.rng.choice(free(aid))
    who = person(g.store.get("agents", aid)["name"])
    ask = g.rng.choice([f"I'd like to set up a planning meeting with {who}.", f"Could I book a meeting with {who}, my travel agent?",
                        f"I want to sit down with {who} to go over my plans."])
    return Step(args={"agent_id": aid, "date": date, "time_range": slot, "traveler_id": g.user_id}, ask=ask,
                details=[f"{date} works for me, in the {slot} slot."],
                facts=[fact(g, "travel_agent", who), fact(g, "meeting_day", date), fact(g, "meeting_time", slot)],
                focus=set_focus(g, agent=aid))
