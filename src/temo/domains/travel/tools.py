"""Tools of the travel agency desk: 9 read tools (3 of them generic) and 7 write tools.

Same names and arguments as the source toolkit (plus the generic ``think``). Tools never read the
clock: today is ``rules.TODAY``. What a tool enforces (see README for the fixes against the source):
departures that exist, are still on sale and have room; the package's change and cancellation
windows; room types the package offers and room capacities; add-ons from the package's own list at
their listed price; payment methods saved on the traveler's profile, exact totals, travel-credit
balances; refunds only to a method that paid for the booking; an agent's free meeting slots.
"""
from __future__ import annotations

from typing import Annotated, Any, Optional

from pydantic import Field
from typing_extensions import TypedDict

from temo.domains.kit.arguments import PersonInfo, payment_part
from temo.domains.kit.ids import next_id
from temo.domains.kit.lookup import fetcher, require
from temo.domains.kit.tooling import record_reader, replace_field
from temo.domains.kit.money import money
from temo.env import GENERIC_TOOLS, Store, ToolError, tool

from . import rules as R
from .rules import AddOnType, Category, InsurancePlan, RoomType
from .tool_helpers import (active_booking, apply_payment, check_add_ons, check_date, check_rooming, check_travelers,
                           move_slots, same_traveler_list, saved_method)


class TravelerInfo(PersonInfo):
    """One person on a booking, as on their passport."""


class RoomingInfo(TypedDict):
    """How the party sleeps: a room type the package offers and the people per room."""

    room_type: Annotated[RoomType, Field(description="Room type, one of the package's room_types.")]
    occupancy: Annotated[int, Field(description="People per room (at most the room type's capacity).")]


class AddOnChoice(TypedDict):
    """An extra from the package's add_on_options, copied exactly."""

    type: Annotated[AddOnType, Field(description="Add-on type.")]
    description: Annotated[str, Field(description="Add-on description, exactly as listed.")]
    price: Annotated[float, Field(description="Add-on price in USD, as listed (charged once per booking).")]


PaymentPart = payment_part("An amount charged to one of the traveler's saved payment methods.",
                           payment_id="Payment method id from the traveler's profile, such as 'PM100012'.",
                           amount="Amount in USD charged to this method.")


# ------------------------------------------------------------------------------------------------ reads
@tool(kind="read")
def get_traveler_details(db: Store, traveler_id: str) -> dict:
    """Get a traveler's profile: name, address, contact, date of birth, passport, preferences, saved payment
    methods (with ids and travel-credit balances), saved companions, memberships and every booking in full.
    Use it first to identify the traveler.

    Args:
        traveler_id: The traveler's id, such as 'TRV00042'.
    """
    trav = require(db, "travelers", traveler_id, "traveler")
    return {**trav, "bookings": [db.get("bookings", b) for b in trav["bookings"]]}


get_agent_details = record_reader("get_agent_details", "agent_id", fetcher("agents", "agent"), "Get a travel agent's profile: name, contact, agency, languages, regions of expertise, managed packages and free meeting slots by date.", "The agent's id, such as 'AGT007'.")
get_package_details = record_reader("get_package_details", "package_id", fetcher("packages", "package"), "Get a package in full: departures by date (status, price per traveler, free places), itinerary, room types, add-on options with prices, change and cancellation policies and its managing agents.", "The package id, such as 'PKG012'.")
get_booking_details = record_reader("get_booking_details", "booking_id", fetcher("bookings", "booking"), "Get one booking: package, departure date, status, travelers, rooming, add-ons, insurance, payment history and total price.", "The booking number, such as 'BK000123'.")


@tool(kind="read")
def search_packages(db: Store, destination_city: Optional[str] = None, destination_country: Optional[str] = None,
                    category: Optional[Category] = None, departure_date: Optional[str] = None) -> list:
    """Search packages that can still be booked, by destination, category and departure date. Returns a summary
    of each match with its bookable departures; use get_package_details for the rest.

    Args:
        destination_city: Only packages visiting this city, such as 'Kyoto'.
        destination_country: Only packages visiting this country, such as 'Japan'.
        category: Only packages of this category.
        departure_date: Only packages with a bookable departure on this date, YYYY-MM-DD.
    """
    if departure_date is not None:
        check_date(departure_date, "departure_date")

    def same(a: str, b: Optional[str]) -> bool:
        return b is None or a.strip().lower() == b.strip().lower()

    out = []
    for pid in sorted(db.keys("packages")):
        pkg = db.get("packages", pid)
        if (destination_city or destination_country) and not any(
                same(d["city"], destination_city) and same(d["country"], destination_country) for d in pkg["destinations"]):
            continue
        if category is not None and pkg["category"] != category:
            continue
        open_deps = {d: {"base_price": v["base_price"], "available_slots": v["available_slots"], "status": v["status"]}
                     for d, v in sorted(pkg["departures"].items()) if v["status"] in R.BOOKABLE}
        if not open_deps or (departure_date is not None and departure_date not in open_deps):
            continue
        out.append({"package_id": pid, "name": pkg["name"], "category": pkg["category"],
                    "destinations": pkg["destinations"], "duration_days": pkg["duration_days"],
                    "bookable_departures": open_deps})
    return out


@tool(kind="read")
def list_all_destinations(db: Store) -> list:
    """List every destination (city and country) that at least one package visits, sorted by country and city."""
    seen = {(d["country"], d["city"]) for pkg in db.values("packages") for d in pkg["destinations"]}
    return [{"city": city, "country": country} for country, city in sorted(seen)]


# ------------------------------------------------------------------------------------------------ writes
@tool(kind="write")
def book_package(db: Store, traveler_id: str, package_id: str, departure_date: str, travelers: list[TravelerInfo],
                 rooming: RoomingInfo, add_ons: list[AddOnChoice], insurance: Optional[InsurancePlan],
                 payment_methods: list[PaymentPart], agent_id: Optional[str] = None) -> dict:
    """Book a package departure for a traveler and the people traveling with them. The total is the departure's
    price per traveler x travelers + each add-on once + insurance (standard $50, premium $100 per traveler); the
    payments must add up to it exactly.

    Args:
        traveler_id: The booking traveler's id.
        package_id: The package id.
        departure_date: A bookable departure of the package, YYYY-MM-DD.
        travelers: Everyone traveling (the traveler included if they travel), with date of birth.
        rooming: Room type and people per room.
        add_ons: Extras from the package's add_on_options that the traveler asked for (empty list for none).
        insurance: 'standard', 'premium', or null for no insurance.
        payment_methods: How the total is split over saved payment methods.
        agent_id: One of the package's managing agents; default: its first managing agent.
    """
    trav = require(db, "travelers", traveler_id, "traveler")
    pkg = require(db, "packages", package_id, "package")
    check_date(departure_date, "departure_date")
    dep = pkg["departures"].get(departure_date)
    if dep is None:
        raise ToolError(f"package {package_id} has no departure on {departure_date}; its departures are: "
                        f"{', '.join(sorted(pkg['departures']))}")
    people = check_travelers(travelers)
    if dep["status"] not in R.BOOKABLE:
        raise ToolError(f"the {departure_date} departure is {dep['status'].replace('_', ' ')} and cannot be booked")
    if dep["available_slots"] < len(people):
        raise ToolError(f"the {departure_date} departure has {dep['available_slots']} free places, "
                        f"not enough for {len(people)} travelers")
    room = check_rooming(pkg, rooming, len(people))
    extras = check_add_ons(pkg, add_ons)
    agent_id = agent_id if agent_id is not None else pkg["managed_by_agents"][0]
    if agent_id not in pkg["managed_by_agents"]:
        raise ToolError(f"agent {agent_id} does not manage package {package_id}; its agents are "
                        f"{', '.join(pkg['managed_by_agents'])}")
    total = R.total_price(dep["base_price"], len(people), extras, insurance)
    if not payment_methods:
        raise ToolError("give at least one payment method")
    ids = [p["payment_id"] for p in payment_methods]
    if len(set(ids)) != len(ids):
        raise ToolError("use each payment method at most once; put its whole share in one entry")
    for p in payment_methods:
        saved_method(trav, p["payment_id"])
        if p["amount"] <= 0:
            raise ToolError("every payment amount must be positive")
    paid = money(sum(p["amount"] for p in payment_methods))
    if paid != total:
        raise ToolError(f"the payments add up to {paid:.2f} but the total price is {total:.2f}")
    bid = next_id(db, "bookings", "BK", 6)
    history = []
    for p in payment_methods:
        apply_payment(db, traveler_id, p["payment_id"], money(p["amount"]))
        history.append({"payment_id": p["payment_id"], "amount": money(p["amount"])})
    booking = {"booking_id": bid, "traveler_id": traveler_id, "package_id": package_id, "agent_id": agent_id,
               "booking_date": R.TODAY, "departure_date": departure_date, "status": "confirmed", "travelers": people,
               "rooming": room, "add_ons": extras, "insurance": insurance, "payment_history": history,
               "total_price": total, "notes": None}
    db.insert("bookings", bid, booking)
    db.edit("travelers", traveler_id)["bookings"].append(bid)
    move_slots(db, package_id, departure_date, -len(people))
    agent = db.edit("agents", agent_id)
    agent["bookings_handled"].append(bid)
    if traveler_id not in agent["assigned_travelers"]:
        agent["assigned_travelers"].append(traveler_id)
    return booking


@tool(kind="write")
def cancel_booking(db: Store, booking_id: str) -> dict:
    """Cancel an active booking whose trip has not started: every payment method is refunded what it paid
    and the places go back on sale. This tool does not check the package's cancellation terms; read them
    first (get_package_details) and cancel only what the policy allows.

    Args:
        booking_id: The booking number.
    """
    active_booking(db, booking_id)
    rec = db.edit("bookings", booking_id)
    for pid, amount in sorted(R.net_paid(rec["payment_history"]).items()):
        if amount > 0:
            apply_payment(db, rec["traveler_id"], pid, -amount)
            rec["payment_history"].append({"payment_id": pid, "amount": -amount})
    rec["status"] = "cancelled"
    move_slots(db, rec["package_id"], rec["departure_date"], len(rec["travelers"]))
    return rec


def _changeable(db: Store, booking_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    booking, pkg = active_booking(db, booking_id)
    days = pkg["policies"]["change_by_days"]
    if R.days_until(booking["departure_date"]) < days:
        raise ToolError(f"changes to this package are possible only until {days} days before departure; "
                        f"the {booking['departure_date']} departure is too close")
    return booking, pkg


def _settle(db: Store, booking_id: str, delta: float, payment_method_id: str) -> dict[str, Any]:
    """Charge (delta > 0) or refund (delta < 0) the difference and record it on the booking."""
    booking = db.get("bookings", booking_id)
    trav = db.get("travelers", booking["traveler_id"])
    saved_method(trav, payment_method_id)
    if delta < 0 and R.net_paid(booking["payment_history"]).get(payment_method_id, 0.0) <= 0:
        raise ToolError("a refund can only go back to a payment method that paid for this booking: "
                        + ", ".join(sorted(p for p, a in R.net_paid(booking["payment_history"]).items() if a > 0)))
    rec = db.edit("bookings", booking_id)
    if delta:
        apply_payment(db, rec["traveler_id"], payment_method_id, delta)
        rec["payment_history"].append({"payment_id": payment_method_id, "amount": delta})
    rec["total_price"] = money(rec["total_price"] + delta)
    return rec


@tool(kind="write")
def update_booking_add_ons(db: Store, booking_id: str, add_ons: list[AddOnChoice], payment_method_id: str) -> dict:
    """Replace a booking's whole add-on list; the price difference is charged to, or refunded to, one saved
    payment method (a refund only to a method that paid for the booking).

    Args:
        booking_id: The booking number.
        add_ons: The complete new list of add-ons (keep the ones that stay).
        payment_method_id: Saved payment method for the difference.
    """
    booking, pkg = _changeable(db, booking_id)
    extras = check_add_ons(pkg, add_ons)
    key = lambda a: (a["type"], a["description"], a["price"])  # noqa: E731
    if sorted(map(key, extras)) == sorted(map(key, booking["add_ons"])):
        raise ToolError("the booking already has exactly these add-ons")
    delta = money(sum(a["price"] for a in extras) - sum(a["price"] for a in booking["add_ons"]))
    rec = _settle(db, booking_id, delta, payment_method_id)
    rec["add_ons"] = extras
    return rec


@tool(kind="write")
def update_booking_departure_date(db: Store, booking_id: str, new_departure_date: str, payment_method_id: str) -> dict:
    """Move a booking to another bookable departure of the same package with room for every traveler; the price
    difference is charged to, or refunded to, one saved payment method.

    Args:
        booking_id: The booking number.
        new_departure_date: The new departure, YYYY-MM-DD.
        payment_method_id: Saved payment method for the difference.
    """
    booking, pkg = _changeable(db, booking_id)
    check_date(new_departure_date, "new_departure_date")
    if new_departure_date == booking["departure_date"]:
        raise ToolError("the booking already departs on that date")
    n = len(booking["travelers"])
    dep = pkg["departures"].get(new_departure_date)
    if dep is None:
        raise ToolError(f"package {pkg['package_id']} has no departure on {new_departure_date}")
    if not R.can_move_to(pkg, new_departure_date, n):
        raise ToolError(f"the {new_departure_date} departure cannot take this booking (status "
                        f"{dep['status'].replace('_', ' ')}, {dep['available_slots']} free places, {n} needed; it must "
                        f"also be at least {max(R.BOOK_MIN_DAYS, pkg['policies']['change_by_days'])} days away)")
    new_total = R.total_price(dep["base_price"], n, booking["add_ons"], booking["insurance"])
    old_date = booking["departure_date"]
    rec = _settle(db, booking_id, money(new_total - booking["total_price"]), payment_method_id)
    rec["departure_date"] = new_departure_date
    move_slots(db, pkg["package_id"], old_date, n)
    move_slots(db, pkg["package_id"], new_departure_date, -n)
    return rec


@tool(kind="write")
def update_booking_travelers(db: Store, booking_id: str, travelers: list[TravelerInfo]) -> dict:
    """Replace the names and dates of birth of the people on a booking (to fix a spelling or swap who travels).
    The number of travelers must stay the same; the price does not change.

    Args:
        booking_id: The booking number.
        travelers: The complete new list of travelers, as many as now.
    """
    booking, _ = _changeable(db, booking_id)
    people = check_travelers(travelers)
    if len(people) != len(booking["travelers"]):
        raise ToolError(f"the booking has {len(booking['travelers'])} travelers and must keep that number; "
                        "to add or remove people, cancel and book again")
    if same_traveler_list(people, booking["travelers"]):
        raise ToolError("the booking already lists exactly these travelers")
    rec = db.edit("bookings", booking_id)
    rec["travelers"] = people
    return rec


@tool(kind="write")
def update_booking_rooming(db: Store, booking_id: str, rooming: RoomingInfo) -> dict:
    """Change a booking's room type and people per room, among the package's room types. The price does not
    change.

    Args:
        booking_id: The booking number.
        rooming: The new room type and people per room.
    """
    booking, pkg = _changeable(db, booking_id)
    room = check_rooming(pkg, rooming, len(booking["travelers"]))
    return replace_field(db, "bookings", booking_id, "rooming", room, "the booking already has this rooming")


@tool(kind="write")
def schedule_agent_meeting(db: Store, agent_id: str, date: str, time_range: str, traveler_id: str) -> dict:
    """Book a planning meeting with a travel agent in one of the agent's free slots; the slot is then taken.

    Args:
        agent_id: The agent's id.
        date: A date on which the agent has free slots, YYYY-MM-DD.
        time_range: One free slot of that date, written HH:MM-HH:MM, such as '10:00-11:00'.
        traveler_id: The traveler meeting the agent.
    """
    agent = require(db, "agents", agent_id, "agent")
    require(db, "travelers", traveler_id, "traveler")
    check_date(date, "date")
    if R.days_until(date) < 1:
        raise ToolError(f"meetings can be booked from the day after today ({R.TODAY}) on")
    day = agent["availability"].get(date)
    if day is None or not day["slots"]:
        free = ", ".join(d for d, v in sorted(agent["availability"].items()) if v["slots"]) or "none"
        raise ToolError(f"agent {agent_id} has no free slot on {date}; dates with free slots: {free}")
    if time_range not in day["slots"]:
        raise ToolError(f"{time_range!r} is not a free slot on {date}; free slots: {', '.join(day['slots'])}")
    rec = db.edit("agents", agent_id)
    rec["availability"][date]["slots"].remove(time_range)
    rec["meetings"].append({"date": date, "time_range": time_range, "traveler_id": traveler_id})
    return {"agent_id": agent_id, "date": date, "time_range": time_range, "timezone": day["timezone"],
            "traveler_id": traveler_id, "status": "scheduled"}


READ_TOOLS = [get_traveler_details, get_agent_details, get_package_details, get_booking_details, search_packages,
              list_all_destinations]
WRITE_TOOLS = [book_package, cancel_booking, update_booking_add_ons, update_booking_departure_date,
               update_booking_travelers, update_booking_rooming, schedule_agent_meeting]
TOOLS = [*READ_TOOLS, *WRITE_TOOLS, *GENERIC_TOOLS]
AUTH_TOOLS = ["get_traveler_details"]
