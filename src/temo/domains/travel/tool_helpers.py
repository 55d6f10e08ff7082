"""Checks and state changes shared by the travel tools; each raises a ToolError that says what to do."""
from __future__ import annotations

from typing import Any

from temo.domains.kit.dates import parse_date
from temo.domains.kit.lookup import require
from temo.domains.kit.money import money, usd
from temo.env import Store, ToolError

from . import rules as R


def check_date(text: str, what: str) -> str:
    parse_date(text, what)
    return text


def active_booking(db: Store, booking_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A booking that is still on (confirmed or pending) and whose trip has not started, with its package."""
    booking = require(db, "bookings", booking_id, "booking")
    if booking["status"] not in R.ACTIVE:
        raise ToolError(f"booking {booking_id} is {booking['status']} and can no longer be changed or cancelled")
    if R.days_until(booking["departure_date"]) <= 0:
        raise ToolError(f"the trip of booking {booking_id} departed on {booking['departure_date']}; "
                        "it can no longer be changed or cancelled")
    return booking, db.get("packages", booking["package_id"])


def saved_method(traveler: dict[str, Any], payment_id: str) -> dict[str, Any]:
    method = traveler["payment_methods"].get(payment_id)
    if method is None:
        raise ToolError(f"payment method {payment_id} is not saved on traveler {traveler['traveler_id']}'s profile; "
                        f"saved methods: {', '.join(sorted(traveler['payment_methods']))}")
    return method


def apply_payment(db: Store, traveler_id: str, payment_id: str, amount: float) -> None:
    """Charge ``amount`` (refund when negative) to a saved method; travel credit must cover a charge."""
    method = saved_method(db.get("travelers", traveler_id), payment_id)
    if method["source"] != "travel_credit":
        return
    balance = method["extra_info"]["balance"] or 0.0
    if amount > balance:
        raise ToolError(f"travel credit {payment_id} has {usd(balance)} left, not enough for {usd(amount)}")
    db.edit("travelers", traveler_id)["payment_methods"][payment_id]["extra_info"]["balance"] = money(balance - amount)


def check_travelers(travelers: list[dict[str, Any]]) -> list[dict[str, str]]:
    if not 1 <= len(travelers) <= R.MAX_TRAVELERS:
        raise ToolError(f"a booking has 1 to {R.MAX_TRAVELERS} travelers, not {len(travelers)}")
    out = []
    for t in travelers:
        first, last = t["first_name"].strip(), t["last_name"].strip()
        if not first or not last:
            raise ToolError("every traveler needs a first and a last name")
        parse_date(t["dob"], f"date of birth of {first} {last}")
        if t["dob"] >= R.TODAY:
            raise ToolError(f"the date of birth of {first} {last} must be before {R.TODAY}")
        out.append({"first_name": first, "last_name": last, "dob": t["dob"]})
    return out


def same_traveler_list(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    key = lambda t: (t["first_name"], t["last_name"], t["dob"])  # noqa: E731
    return [key(t) for t in a] == [key(t) for t in b]


def check_rooming(pkg: dict[str, Any], rooming: dict[str, Any], travelers: int) -> dict[str, Any]:
    room, occ = rooming["room_type"], rooming["occupancy"]
    if room not in pkg["room_types"]:
        raise ToolError(f"package {pkg['package_id']} offers only these room types: {', '.join(pkg['room_types'])}")
    cap = min(R.ROOM_CAPACITY[room], travelers)
    if not 1 <= occ <= cap:
        raise ToolError(f"a {room} room takes 1 to {R.ROOM_CAPACITY[room]} people and this booking has {travelers} "
                        f"travelers, so occupancy must be between 1 and {cap}")
    return {"room_type": room, "occupancy": occ}


def check_add_ons(pkg: dict[str, Any], add_ons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    options = {(o["type"], o["description"]): o for o in pkg["add_on_options"]}
    out, seen = [], set()
    for a in add_ons:
        key = (a["type"], a["description"].strip())
        opt = options.get(key)
        if opt is None:
            listed = "; ".join(f"{o['type']}: {o['description']} ({usd(o['price'])})" for o in pkg["add_on_options"])
            raise ToolError(f"{a['description']!r} is not an add-on of package {pkg['package_id']}; its add-ons are: {listed}")
        if money(a["price"]) != opt["price"]:
            raise ToolError(f"the add-on {opt['description']!r} costs {usd(opt['price'])}, not {usd(a['price'])}")
        if key in seen:
            raise ToolError(f"the add-on {opt['description']!r} is listed twice")
        seen.add(key)
        out.append(dict(opt))
    return out


def move_slots(db: Store, package_id: str, date: str, delta: int) -> None:
    """Give back (delta > 0) or take (delta < 0) places on a departure and refresh its status."""
    pkg = db.edit("packages", package_id)
    dep = pkg["departures"][date]
    dep["available_slots"] = min(dep["capacity"], dep["available_slots"] + delta)
    if dep["available_slots"] < 0:
        raise ToolError(f"the {date} departure has no room left")
    dep["status"] = R.departure_status(date, dep["available_slots"])
