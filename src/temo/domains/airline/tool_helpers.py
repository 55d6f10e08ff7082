"""Helpers of the airline tools (not tools themselves): lookups that raise `ToolError`, date, route,
seat and passenger checks, payments, and the views of records shown to the agent.

Like the tools, they never read the clock; "now" is `rules.NOW`.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any

from temo.env import Store, ToolError

from . import rules as R

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CODE_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


# ---- lookups -------------------------------------------------------------------------------

def _lookup(db: Store, table: str, key: str, missing: str) -> dict:
    """The record `key` of `table`; ToolError(missing) when there is none."""
    record = db.get(table, key)
    if record is None:
        raise ToolError(missing)
    return record


def find_user(db: Store, user_id: str) -> dict:
    """The user record; ToolError if there is none."""
    return _lookup(db, "users", user_id, f"user '{user_id}' not found; ask the user to check their user id")


def find_reservation(db: Store, reservation_id: str) -> dict:
    """The reservation record; ToolError if there is none."""
    return _lookup(db, "reservations", reservation_id,
                   f"reservation '{reservation_id}' not found; ask the user to check the reservation code")


def active_reservation(db: Store, reservation_id: str) -> dict:
    """An active reservation (the only kind that can be changed)."""
    res = find_reservation(db, reservation_id)
    if res["status"] != "active":
        raise ToolError(f"reservation {reservation_id} is {res['status']} and cannot be changed")
    return res


def find_flight(db: Store, number: str) -> dict:
    """The flight record (all its dates); ToolError if there is none."""
    return _lookup(db, "flights", number, f"flight {number} does not exist")


# ---- checks of arguments -------------------------------------------------------------------

def check_date(day: str) -> None:
    """Check that `day` is a real date written YYYY-MM-DD."""
    if not _DATE.match(day):
        raise ToolError(f"date '{day}' must be written YYYY-MM-DD, such as '2026-05-20'")
    try:
        R.parse_date(day)
    except ValueError:
        raise ToolError(f"'{day}' is not a real date") from None


def check_airport(db: Store, code: str) -> None:
    """Check that `code` is an airport the airline serves."""
    if db.get("airports", code) is None:
        raise ToolError(f"unknown airport code '{code}'; list_all_airports gives the codes")


def check_route(db: Store, flights: list[dict], origin: str, destination: str, flight_type: str) -> list[dict]:
    """Resolve the flights into segments and check they form the trip (continuous, right ends)."""
    if not flights:
        raise ToolError("at least one flight is needed")
    if len(flights) > 4:
        raise ToolError("a reservation holds at most four flights")
    segs = []
    for choice in flights:
        check_date(choice["date"])
        f = find_flight(db, choice["flight_number"])
        segs.append({"flight_number": f["flight_number"], "date": choice["date"], "origin": f["origin"], "destination": f["destination"]})
    for a, b in zip(segs, segs[1:]):
        if a["destination"] != b["origin"]:
            raise ToolError(f"flight {b['flight_number']} does not leave from {a['destination']}, where {a['flight_number']} lands")
        if b["date"] < a["date"]:
            raise ToolError("flights must be listed in travel order")
    end = origin if flight_type == "round_trip" else destination
    if segs[0]["origin"] != origin or segs[-1]["destination"] != end:
        raise ToolError(f"a {flight_type} trip must start at {origin} and end at {end}")
    stops = [s["destination"] for s in segs]
    if flight_type == "round_trip" and destination not in stops[:-1]:
        raise ToolError(f"a round trip must reach {destination} before returning")
    if flight_type == "one_way" and destination in stops[:-1]:
        raise ToolError(f"a one-way trip must end at its destination {destination}")
    return segs


def check_passengers(passengers: list[dict]) -> list[dict]:
    """Check 1 to MAX_PASSENGERS named passengers with valid birth dates; returns clean copies."""
    if not 1 <= len(passengers) <= R.MAX_PASSENGERS:
        raise ToolError(f"a reservation holds 1 to {R.MAX_PASSENGERS} passengers")
    out = []
    for p in passengers:
        if not p["first_name"].strip() or not p["last_name"].strip():
            raise ToolError("every passenger needs a first and a last name")
        check_date(p["dob"])
        out.append({"first_name": p["first_name"], "last_name": p["last_name"], "dob": p["dob"]})
    return out


# ---- flights and seats ---------------------------------------------------------------------

def segment_status(db: Store, seg: dict) -> str:
    """The current status of a booked segment's flight on its date."""
    return R.flight_status(db.get("flights", seg["flight_number"]), seg["date"])


def is_flown(db: Store, seg: dict) -> bool:
    """Whether a booked segment has already been flown (or is in the air)."""
    return R.segment_flown(segment_status(db, seg), seg["date"])


def bookable_day(db: Store, number: str, day: str, cabin: str, seats: int) -> dict:
    """The flight's record for `day`, checking that `seats` seats can be sold in `cabin`."""
    check_date(day)
    flight = find_flight(db, number)
    info = flight["dates"].get(day)
    if info is None:
        raise ToolError(f"flight {number} does not operate on {day}")
    if info["status"] != R.BOOKABLE:
        raise ToolError(f"flight {number} on {day} is {info['status']} and cannot be booked")
    if info["available_seats"][cabin] < seats:
        raise ToolError(f"flight {number} on {day} has only {info['available_seats'][cabin]} seat(s) left in {cabin}")
    return info


def take_seats(db: Store, number: str, day: str, cabin: str, seats: int) -> None:
    """Sell `seats` seats in `cabin` on the flight's date."""
    info = db.edit("flights", number)["dates"][day]
    info["available_seats"][cabin] -= seats


def release_seats(db: Store, number: str, day: str, cabin: str, seats: int) -> None:
    """Give `seats` seats in `cabin` back, if the flight can still be booked that day."""
    flight = db.get("flights", number)
    if flight is not None and R.flight_status(flight, day) == R.BOOKABLE:
        db.edit("flights", number)["dates"][day]["available_seats"][cabin] += seats


# ---- payments ------------------------------------------------------------------------------

def user_payment_method(user: dict, payment_id: str) -> dict:
    """The user's payment method `payment_id`; ToolError if it is not theirs."""
    method = user["payment_methods"].get(payment_id)
    if method is None:
        raise ToolError(f"payment method '{payment_id}' does not belong to user {user['user_id']}")
    return method


def change_payment_method(db: Store, user_id: str, payment_id: str) -> dict:
    """A payment method that may pay for a change or bags: the user's, and not a certificate."""
    method = user_payment_method(db.get("users", user_id), payment_id)
    if method["source"] == "certificate":
        raise ToolError("travel certificates can only pay for new bookings; use a credit card or gift card")
    return method


def charge(db: Store, user_id: str, payment_id: str, amount: float) -> None:
    """Charge (amount > 0) or refund (amount < 0) a method; gift cards and certificates hold a balance."""
    user = db.get("users", user_id)
    method = user_payment_method(user, payment_id)
    if method["source"] == "credit_card" or amount == 0:
        return
    balance = method.get("amount") or 0
    if amount > balance + 1e-9:
        raise ToolError(f"{payment_id} has a balance of {balance:g}, less than the {amount:g} to charge")
    db.edit("users", user_id)["payment_methods"][payment_id]["amount"] = round(balance - amount, 2)


# ---- new codes and views -------------------------------------------------------------------

def new_code(db: Store, *parts: Any) -> str:
    """A reservation code derived from `parts` (no clock, no RNG) that is not taken yet."""
    n = 0
    while True:
        digest = hashlib.sha256(":".join(map(str, (*parts, n))).encode()).digest()
        code = "".join(_CODE_CHARS[b % len(_CODE_CHARS)] for b in digest[:6])
        if not db.has("reservations", code):
            return code
        n += 1


def view_reservation(db: Store, res: dict) -> dict:
    """A reservation as shown to the agent: the record plus each flight's current status."""
    out = dict(res)
    out["flights"] = [dict(seg, flight_status=segment_status(db, seg)) for seg in res["flights"]]
    return out


def flight_on(flight: dict, day: str) -> dict:
    """A flight on one date as a search result; seats and prices only while it can be booked."""
    info = flight["dates"].get(day, {})
    out = {k: flight[k] for k in ("flight_number", "origin", "destination", "scheduled_departure_time_est", "scheduled_arrival_time_est")}
    out["date"] = day
    out["status"] = info.get("status", "unknown")
    if info.get("status") == R.BOOKABLE:
        out["available_seats"] = info["available_seats"]
        out["prices"] = info["prices"]
    return out
