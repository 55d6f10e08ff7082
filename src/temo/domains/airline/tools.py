"""Tools of the Skylark Air reservation desk: 8 read tools (3 generic) and 6 write tools.

Tools never read the clock; "now" is `rules.NOW`. Hard state rules (seats, ownership of payment
methods, balances, reservation status, route shape) raise `ToolError`; softer policy rules
(who may cancel, compensation) are the agent's job and are described in policy.md.
"""
from __future__ import annotations

import hashlib
from typing import Annotated, Literal

from pydantic import Field
from typing_extensions import TypedDict

from temo.domains.kit.arguments import PersonInfo, payment_part
from temo.env import GENERIC_TOOLS, Store, ToolError, tool

from . import rules as R
from .tool_helpers import (
    active_reservation, bookable_day, change_payment_method, charge, check_airport, check_date,
    check_passengers, check_route, find_reservation, find_user, flight_on, is_flown, new_code,
    release_seats, take_seats, user_payment_method, view_reservation,
)

Cabin = Literal["basic_economy", "economy", "business"]


class FlightChoice(TypedDict):
    """One flight on one date."""

    flight_number: Annotated[str, Field(description="Flight number, such as 'SL412'.")]
    date: Annotated[str, Field(description="Date of the flight, YYYY-MM-DD.")]


class PassengerInfo(PersonInfo):
    """A traveller as printed on the ticket."""


PaymentPart = payment_part("An amount charged to one of the user's payment methods.",
                           payment_id="Payment method id from the user's profile, such as 'credit_card_7815826'.",
                           amount="Amount in dollars charged to this method.")


# ---- read tools ----------------------------------------------------------------------------

@tool(kind="read")
def get_user_details(db: Store, user_id: str) -> dict:
    """Get a user's profile: name, contact details, membership tier, payment methods (with ids and
    balances), saved passengers and reservation codes. Use it to identify the user first.

    Args:
        user_id: The user's id, such as 'mia_li_3668'.
    """
    return find_user(db, user_id)


@tool(kind="read")
def get_reservation_details(db: Store, reservation_id: str) -> dict:
    """Get a reservation: trip, cabin, flights (with each flight's current status), passengers,
    bags, insurance, payments, booking time and status.

    Args:
        reservation_id: The six-character reservation code, such as 'ZFA04Y'.
    """
    return view_reservation(db, find_reservation(db, reservation_id))


@tool(kind="read")
def list_all_airports(db: Store) -> list:
    """List every airport the airline serves, with its three-letter code and city."""
    return [{"code": a["code"], "city": a["city"]} for a in sorted(db.values("airports"), key=lambda a: a["code"])]


@tool(kind="read")
def search_direct_flight(db: Store, origin: str, destination: str, date: str) -> list:
    """Search nonstop flights between two airports on a date. Each result gives its status; seats left
    and per-passenger prices by cabin are shown only for flights that can still be booked ('available').

    Args:
        origin: Three-letter code of the departure airport, such as 'JFK'.
        destination: Three-letter code of the arrival airport, such as 'SEA'.
        date: Travel date, YYYY-MM-DD.
    """
    check_airport(db, origin)
    check_airport(db, destination)
    check_date(date)
    found = [f for f in db.where("flights", "origin", origin) if f["destination"] == destination and date in f["dates"]]
    found.sort(key=lambda f: (f["scheduled_departure_time_est"], f["flight_number"]))
    return [flight_on(f, date) for f in found]


@tool(kind="read")
def search_onestop_flight(db: Store, origin: str, destination: str, date: str) -> list:
    """Search bookable connections with exactly one stop on a date: pairs of flights where the second
    leaves the stop at least one hour after the first lands, on the same day.

    Args:
        origin: Three-letter code of the departure airport, such as 'JFK'.
        destination: Three-letter code of the arrival airport, such as 'SEA'.
        date: Travel date, YYYY-MM-DD.
    """
    check_airport(db, origin)
    check_airport(db, destination)
    check_date(date)
    first = [f for f in db.where("flights", "origin", origin) if f["destination"] != destination
             and R.flight_status(f, date) == R.BOOKABLE]
    second: dict[str, list[dict]] = {}
    for f in db.where("flights", "destination", destination):
        if f["origin"] != origin and R.flight_status(f, date) == R.BOOKABLE:
            second.setdefault(f["origin"], []).append(f)
    out = []
    for a in first:
        for b in second.get(a["destination"], []):
            if R.minutes(b["scheduled_departure_time_est"]) >= R.minutes(a["scheduled_arrival_time_est"]) + R.MIN_LAYOVER_MIN:
                out.append((a, b))
    out.sort(key=lambda p: (p[0]["scheduled_departure_time_est"], p[1]["scheduled_departure_time_est"], p[0]["flight_number"]))
    return [[flight_on(a, date), flight_on(b, date)] for a, b in out]


# ---- write tools ---------------------------------------------------------------------------

@tool(kind="write")
def book_reservation(
    db: Store,
    user_id: str,
    origin: str,
    destination: str,
    flight_type: Literal["one_way", "round_trip"],
    cabin: Cabin,
    flights: list[FlightChoice],
    passengers: list[PassengerInfo],
    payment_methods: list[PaymentPart],
    total_baggages: int,
    nonfree_baggages: int,
    insurance: Literal["yes", "no"],
) -> dict:
    """Book a new reservation for the user. The payments must add up exactly to the total: the sum of
    the flights' prices in the cabin times the passengers, plus travel insurance and extra bags.

    Args:
        user_id: The id of the user who books and pays.
        origin: Code of the airport where the trip starts.
        destination: Code of the trip's destination (for a round trip, the far end).
        flight_type: 'one_way' or 'round_trip'.
        cabin: The cabin for every flight of the reservation.
        flights: Every flight of the trip in travel order, outbound then return.
        passengers: The travellers (at most five), each with first name, last name and date of birth.
        payment_methods: How the total is paid: at most one certificate, one credit card and three gift cards.
        total_baggages: Checked bags for the whole reservation.
        nonfree_baggages: How many of those bags are beyond the free allowance and cost extra.
        insurance: 'yes' to add travel insurance for every passenger, 'no' otherwise.
    """
    user = find_user(db, user_id)
    check_airport(db, origin)
    check_airport(db, destination)
    pax = check_passengers(passengers)
    n = len(pax)
    segs = check_route(db, flights, origin, destination, flight_type)
    if len({(s["flight_number"], s["date"]) for s in segs}) != len(segs):
        raise ToolError("the same flight is listed twice")
    if total_baggages < 0 or not 0 <= nonfree_baggages <= total_baggages:
        raise ToolError("bag counts must satisfy 0 <= nonfree_baggages <= total_baggages")
    for seg in segs:
        info = bookable_day(db, seg["flight_number"], seg["date"], cabin, n)
        seg["price"] = info["prices"][cabin]
    total = sum(s["price"] for s in segs) * n + (R.INSURANCE_FEE * n if insurance == "yes" else 0) + R.BAG_FEE * nonfree_baggages
    ids = [p["payment_id"] for p in payment_methods]
    if len(set(ids)) != len(ids):
        raise ToolError("each payment method may appear once")
    sources = [user_payment_method(user, pid)["source"] for pid in ids]
    if sources.count("certificate") > 1 or sources.count("credit_card") > 1 or sources.count("gift_card") > R.MAX_GIFT_CARDS:
        raise ToolError("use at most one travel certificate, one credit card and three gift cards")
    if any(p["amount"] <= 0 for p in payment_methods):
        raise ToolError("every payment amount must be positive")
    paid = sum(p["amount"] for p in payment_methods)
    if abs(paid - total) > 0.005:
        raise ToolError(f"the payments add up to {paid:g} but the total is {total:g}")
    for seg in segs:
        take_seats(db, seg["flight_number"], seg["date"], cabin, n)
    for p in payment_methods:  # one by one: a failing card undoes the whole booking
        charge(db, user_id, p["payment_id"], p["amount"])
    rid = new_code(db, user_id, len(user["reservations"]), [(s["flight_number"], s["date"]) for s in segs])
    res = {
        "reservation_id": rid, "user_id": user_id, "origin": origin, "destination": destination,
        "flight_type": flight_type, "cabin": cabin, "flights": segs, "passengers": pax,
        "payment_history": [{"payment_id": p["payment_id"], "amount": p["amount"]} for p in payment_methods],
        "created_at": R.NOW, "total_baggages": total_baggages, "nonfree_baggages": nonfree_baggages,
        "insurance": insurance, "status": "active",
    }
    db.insert("reservations", rid, res)
    db.edit("users", user_id)["reservations"].append(rid)
    return res


@tool(kind="write")
def cancel_reservation(db: Store, reservation_id: str) -> dict:
    """Cancel a whole reservation. Everything paid is refunded to the original payment methods
    (gift cards and certificates at once, credit cards within 5 to 7 business days).

    Args:
        reservation_id: The reservation code, such as 'ZFA04Y'.
    """
    res = find_reservation(db, reservation_id)
    if res["status"] == "cancelled":
        raise ToolError(f"reservation {reservation_id} is already cancelled")
    if any(is_flown(db, s) for s in res["flights"]):
        raise ToolError("part of this trip has already been flown, so it cannot be cancelled")
    rec = db.edit("reservations", reservation_id)
    net: dict[str, float] = {}
    for p in rec["payment_history"]:
        net[p["payment_id"]] = net.get(p["payment_id"], 0) + p["amount"]
    for pid, amount in net.items():
        if amount > 0.005:
            rec["payment_history"].append({"payment_id": pid, "amount": -round(amount, 2)})
            user = db.get("users", rec["user_id"])
            if pid in user["payment_methods"]:
                charge(db, rec["user_id"], pid, -round(amount, 2))
    for seg in rec["flights"]:
        release_seats(db, seg["flight_number"], seg["date"], rec["cabin"], len(rec["passengers"]))
    rec["status"] = "cancelled"
    return view_reservation(db, rec)


@tool(kind="write")
def update_reservation_flights(db: Store, reservation_id: str, cabin: Cabin, flights: list[FlightChoice], payment_id: str) -> dict:
    """Change the flights and/or the cabin of a reservation. Give the complete new list of flights,
    including the ones that stay. Unchanged flights in an unchanged cabin keep their price; every other
    flight is priced at today's fare. The difference for all passengers is charged to, or refunded to,
    the payment method (a credit card or gift card of the user).

    Args:
        reservation_id: The reservation code, such as 'ZFA04Y'.
        cabin: The cabin for every flight after the change (same as before if only flights change).
        flights: All flights of the reservation after the change, in travel order.
        payment_id: The user's credit card or gift card id that pays or receives the difference.
    """
    res = active_reservation(db, reservation_id)
    change_payment_method(db, res["user_id"], payment_id)
    n = len(res["passengers"])
    segs = check_route(db, flights, res["origin"], res["destination"], res["flight_type"])
    old = {(s["flight_number"], s["date"]): s for s in res["flights"]}
    new_keys = [(s["flight_number"], s["date"]) for s in segs]
    if len(set(new_keys)) != len(new_keys):
        raise ToolError("the same flight is listed twice")
    flights_changed = set(new_keys) != set(old)
    if res["cabin"] == "basic_economy" and flights_changed:
        raise ToolError("flights of a basic economy reservation cannot be changed")
    cabin_changed = cabin != res["cabin"]
    if not flights_changed and not cabin_changed:
        raise ToolError("the new flights and cabin are the same as the current ones; nothing to change")
    for key, seg in old.items():
        if (key not in new_keys or cabin_changed) and is_flown(db, seg):
            raise ToolError(f"flight {seg['flight_number']} on {seg['date']} has already been flown and cannot be changed")
    for seg in segs:
        key = (seg["flight_number"], seg["date"])
        if key in old and not cabin_changed:
            seg["price"] = old[key]["price"]
        else:
            seg["price"] = bookable_day(db, seg["flight_number"], seg["date"], cabin, n)["prices"][cabin]
    for key, seg in old.items():
        if key not in new_keys or cabin_changed:
            release_seats(db, seg["flight_number"], seg["date"], res["cabin"], n)
    for seg in segs:
        key = (seg["flight_number"], seg["date"])
        if key not in old or cabin_changed:
            take_seats(db, seg["flight_number"], seg["date"], cabin, n)
    diff = (sum(s["price"] for s in segs) - sum(s["price"] for s in res["flights"])) * n
    rec = db.edit("reservations", reservation_id)
    if diff:
        charge(db, res["user_id"], payment_id, diff)
        rec["payment_history"].append({"payment_id": payment_id, "amount": diff})
    rec["flights"] = segs
    rec["cabin"] = cabin
    return view_reservation(db, rec)


@tool(kind="write")
def update_reservation_passengers(db: Store, reservation_id: str, passengers: list[PassengerInfo]) -> dict:
    """Replace the passengers' details of a reservation. The number of passengers cannot change, so
    give every passenger, changed or not, in the same order.

    Args:
        reservation_id: The reservation code, such as 'ZFA04Y'.
        passengers: All passengers after the update, each with first name, last name and date of birth.
    """
    res = active_reservation(db, reservation_id)
    pax = check_passengers(passengers)
    if len(pax) != len(res["passengers"]):
        raise ToolError(f"the reservation has {len(res['passengers'])} passenger(s); the number cannot change")
    if pax == res["passengers"]:
        raise ToolError("the passengers are unchanged; nothing to update")
    if any(is_flown(db, s) for s in res["flights"]):
        raise ToolError("part of this trip has already been flown; passengers can no longer be changed")
    db.edit("reservations", reservation_id)["passengers"] = pax
    return view_reservation(db, db.get("reservations", reservation_id))


@tool(kind="write")
def update_reservation_baggages(db: Store, reservation_id: str, total_baggages: int, nonfree_baggages: int, payment_id: str) -> dict:
    """Add checked bags to a reservation. Bags can only be added, never removed. Each additional
    non-free bag costs the bag fee, charged to the payment method (a credit card or gift card of the user).

    Args:
        reservation_id: The reservation code, such as 'ZFA04Y'.
        total_baggages: The new total number of checked bags on the reservation.
        nonfree_baggages: The new number of those bags beyond the free allowance.
        payment_id: The user's credit card or gift card id that pays for the extra bags.
    """
    res = active_reservation(db, reservation_id)
    change_payment_method(db, res["user_id"], payment_id)
    if total_baggages < res["total_baggages"] or nonfree_baggages < res["nonfree_baggages"]:
        raise ToolError("bags can only be added, not removed")
    if not 0 <= nonfree_baggages <= total_baggages:
        raise ToolError("nonfree_baggages cannot exceed total_baggages")
    if total_baggages == res["total_baggages"] and nonfree_baggages == res["nonfree_baggages"]:
        raise ToolError("the bag counts are unchanged; nothing to update")
    if any(is_flown(db, s) for s in res["flights"]):
        raise ToolError("part of this trip has already been flown; bags can no longer be added")
    fee = (nonfree_baggages - res["nonfree_baggages"]) * R.BAG_FEE
    rec = db.edit("reservations", reservation_id)
    rec["total_baggages"] = total_baggages
    rec["nonfree_baggages"] = nonfree_baggages
    if fee:
        charge(db, res["user_id"], payment_id, fee)
        rec["payment_history"].append({"payment_id": payment_id, "amount": fee})
    return view_reservation(db, rec)


@tool(kind="write")
def send_certificate(db: Store, user_id: str, amount: float) -> str:
    """Give the user a travel certificate worth `amount` dollars, added to their payment methods.
    Only as compensation the policy allows.

    Args:
        user_id: The id of the user who receives the certificate.
        amount: The certificate's value in dollars.
    """
    user = find_user(db, user_id)
    if not 0 < amount <= R.MAX_CERTIFICATE:
        raise ToolError(f"a certificate must be worth more than 0 and at most {R.MAX_CERTIFICATE} dollars")
    n = 0
    while True:
        digest = hashlib.sha256(f"{user_id}:{len(user['payment_methods'])}:{n}".encode()).hexdigest()
        pid = f"certificate_{int(digest[:12], 16) % 9000000 + 1000000}"
        if pid not in user["payment_methods"]:
            break
        n += 1
    rec = db.edit("users", user_id)
    rec["payment_methods"][pid] = {"source": "certificate", "id": pid, "amount": amount}
    return f"Certificate {pid} worth {amount:g} dollars added to the account of {user_id}"


TOOLS = [
    get_user_details, get_reservation_details, list_all_airports, search_direct_flight, search_onestop_flight,
    book_reservation, cancel_reservation, update_reservation_flights, update_reservation_passengers,
    update_reservation_baggages, send_certificate, *GENERIC_TOOLS,
]
AUTH_TOOLS = ["get_user_details"]