"""Tools of the Silverscreen Cinemas help desk: 13 read tools (10 domain + 3 generic) and 3 write tools.

Names and arguments follow the source environment (ToolOrchestra's movie domain); see README.md for
what was changed and why (payment ids and times are assigned by the desk, concession prices come from
the theater's menu, cancellations of finished shows and late changes are refused).
"""
from __future__ import annotations

import copy
from typing import Annotated, Any, Literal, Optional

from pydantic import ConfigDict, Field, with_config
from typing_extensions import NotRequired, TypedDict

from temo.domains.kit.dates import parse_date
from temo.domains.kit.ids import next_id
from temo.domains.kit.money import money, usd
from temo.env import GENERIC_TOOLS, Store, ToolError, tool

from . import checks as K
from . import rules as R

TicketType = Literal["adult", "child", "senior"]
_FORBID = ConfigDict(extra="forbid")


@with_config(_FORBID)
class SeatChoice(TypedDict):
    """One seat and the ticket type for it."""

    seat_id: Annotated[str, Field(description="Seat id from the auditorium's seat map, such as 'F7'.")]
    ticket_type: Annotated[TicketType, Field(description="'adult', 'child' or 'senior'.")]


@with_config(_FORBID)
class ConcessionChoice(TypedDict):
    """A snack or drink from the theater's menu."""

    item_id: Annotated[str, Field(description="Menu item id, such as 'CON-POP'.")]
    name: Annotated[str, Field(description="The item's name on the menu, such as 'Popcorn'.")]
    size: Annotated[str, Field(description="A size the item comes in, such as 'large' or 'regular'.")]
    quantity: Annotated[int, Field(description="How many.")]
    price_each: Annotated[float, Field(description="The menu price of one item of that size.")]


@with_config(_FORBID)
class PersonName(TypedDict):
    first_name: Annotated[str, Field(description="First name.")]
    last_name: Annotated[str, Field(description="Last name.")]


@with_config(_FORBID)
class CustomerInfo(TypedDict):
    """The customer the booking is for, as on their profile."""

    name: PersonName
    email: Annotated[str, Field(description="The customer's email address.")]
    phone: Annotated[str, Field(description="The customer's phone number, such as '512-555-0142'.")]
    loyalty_id: NotRequired[Annotated[str, Field(description="Loyalty member id, such as 'SSC12345678', if the customer has one.")]]


@with_config(_FORBID)
class ExtraInfo(TypedDict):
    brand: NotRequired[Annotated[str, Field(description="Card brand, such as 'visa'.")]]
    last_four: NotRequired[Annotated[str, Field(description="Last four digits of the card or gift card.")]]
    provider: NotRequired[Annotated[str, Field(description="Wallet provider, such as 'Apple Pay'.")]]


@with_config(_FORBID)
class PaymentMethodRef(TypedDict):
    source: Annotated[Literal["card", "wallet", "cash", "gift_card"], Field(description="Kind of payment method.")]
    payment_method_id: Annotated[str, Field(description="Id of a payment method on file, as shown in the payment history of the customer's bookings, such as 'pm_123456'.")]
    extra_info: NotRequired[ExtraInfo]


@with_config(_FORBID)
class PaymentPart(TypedDict):
    """An amount charged to one payment method on file."""

    amount: Annotated[float, Field(description="Amount in dollars, such as 31.75.")]
    method: PaymentMethodRef


def _movie_title(db: Store, movie_id: str) -> str:
    m = db.get("movies", movie_id)
    return m["title"] if m else ""


def _show_view(db: Store, th: dict[str, Any], s: dict[str, Any]) -> dict[str, Any]:
    return {**copy.deepcopy(s), "theater_id": th["theater_id"], "movie_title": _movie_title(db, s["movie_id"]),
            "auditorium_name": th["auditoriums"][s["auditorium_id"]]["name"]}


# ---- read tools ----------------------------------------------------------------------------------
@tool(kind="read")
def list_movies(db: Store) -> list:
    """List every movie in the catalogue: its id and title."""
    return [{"movie_id": m["movie_id"], "title": m["title"]} for m in db.values("movies")]


@tool(kind="read")
def list_theaters(db: Store) -> list:
    """List every theater of the chain: its id and name (the name ends with the city)."""
    return [{"theater_id": t["theater_id"], "name": t["name"]} for t in db.values("theaters")]


@tool(kind="read")
def get_movie_details(db: Store, movie_id: str) -> dict:
    """Get one movie: genres, runtime, rating, audio languages, subtitles, formats, run dates, cast, crew and synopsis.

    Args:
        movie_id: The movie id, such as 'MOV001'.
    """
    return copy.deepcopy(K.movie(db, movie_id))


@tool(kind="read")
def get_theater_details(db: Store, theater_id: str) -> dict:
    """Get one theater: address, contact, amenities, auditoriums with seat maps, pricing rules, the
    concessions menu and its schedule in brief (per date: show id, movie id, start time, status).

    Args:
        theater_id: The theater id, such as 'TH001'.
    """
    th = copy.deepcopy(K.theater(db, theater_id))
    th["dates"] = {d: [{"show_id": s["show_id"], "movie_id": s["movie_id"], "start_time_local": s["start_time_local"],
                        "status": s["status"]} for s in day["shows"]] for d, day in th["dates"].items()}
    return th


@tool(kind="read")
def list_shows(db: Store, theater_id: str, date: str, movie_id: Optional[str] = None) -> list:
    """List a theater's shows on one date (every status), optionally only those of one movie.

    Args:
        theater_id: The theater id, such as 'TH001'.
        date: The date, YYYY-MM-DD.
        movie_id: Only shows of this movie, such as 'MOV001' (optional).
    """
    th = K.theater(db, theater_id)
    parse_date(date)
    if movie_id is not None:
        K.movie(db, movie_id)
    shows = th["dates"].get(date, {"shows": []})["shows"]
    return [_show_view(db, th, s) for s in shows if movie_id is None or s["movie_id"] == movie_id]


@tool(kind="read")
def get_show_details(db: Store, theater_id: str, show_id: str, date: Optional[str] = None) -> dict:
    """Get one show: movie, auditorium, date, start and end time, format, language, subtitles, status and prices.

    Args:
        theater_id: The theater id, such as 'TH001'.
        show_id: The show id, such as 'SHW00012'.
        date: The show's date, YYYY-MM-DD (optional; when given it must be the show's date).
    """
    th, s = K.show(db, theater_id, show_id)
    if date is not None and parse_date(date) and date != s["date"]:
        raise ToolError(f"show {show_id} is on {s['date']}, not on {date}")
    return _show_view(db, th, s)


@tool(kind="read")
def get_show_status(db: Store, theater_id: str, show_id: str) -> dict:
    """Get a show's status: 'scheduled', 'canceled' (by the theater) or 'completed'.

    Args:
        theater_id: The theater id, such as 'TH001'.
        show_id: The show id, such as 'SHW00012'.
    """
    _, s = K.show(db, theater_id, show_id)
    return {"theater_id": theater_id, "show_id": show_id, "date": s["date"], "start_time_local": s["start_time_local"],
            "status": s["status"]}


@tool(kind="read")
def get_seat_availability(db: Store, theater_id: str, show_id: str) -> dict:
    """List a show's free and booked seat ids (only confirmed bookings hold seats), and which free seats
    are wheelchair accessible.

    Args:
        theater_id: The theater id, such as 'TH001'.
        show_id: The show id, such as 'SHW00012'.
    """
    th, s = K.show(db, theater_id, show_id)
    seats = R.seat_list(th["auditoriums"][s["auditorium_id"]])
    taken = K.taken_seats(db, show_id)
    free = [x["seat_id"] for x in seats if x["seat_id"] not in taken]
    return {"show_id": show_id, "status": s["status"], "available": free,
            "booked": [x["seat_id"] for x in seats if x["seat_id"] in taken],
            "wheelchair_accessible_available": [x["seat_id"] for x in seats if x["wheelchair_accessible"] and x["seat_id"] not in taken]}


@tool(kind="read")
def price_preview(db: Store, theater_id: str, show_id: str, seats: list[SeatChoice],
                  concessions: Optional[list[ConcessionChoice]] = None) -> dict:
    """Compute the full price of seats (and concessions) for a scheduled show without booking anything:
    each ticket's price, convenience fee and tax, the booking fee, and the grand total to pay.

    Args:
        theater_id: The theater id, such as 'TH001'.
        show_id: The show id, such as 'SHW00012'.
        seats: The seats, each with its ticket type.
        concessions: Snacks and drinks from the theater's menu (optional).
    """
    th, s = K.show(db, theater_id, show_id)
    K.bookable(s, "booked")
    chosen = K.seat_request(db, th, s, seats)
    rate = th["pricing_rules"]["tax_rate_percent"]
    lines = R.seat_lines(s, rate, chosen)
    snacks = R.concession_lines(rate, K.concessions(th, concessions or []))
    fee = th["pricing_rules"]["fees"]["booking_fee"]
    return {"show_id": show_id, "seats": lines, "concessions": snacks, "booking_fee": fee,
            "tax_rate_percent": rate, "totals": R.totals(lines, snacks, fee)}


@tool(kind="read")
def get_booking_details(db: Store, booking_id: str) -> dict:
    """Get one booking: show, seats, customer, concessions, payment history, totals, delivery and status.

    Args:
        booking_id: The booking number, such as 'BKG0123'.
    """
    return copy.deepcopy(K.booking(db, booking_id))


# ---- write tools ---------------------------------------------------------------------------------
@tool(kind="write")
def create_booking(db: Store, theater_id: str, show_id: str, customer: CustomerInfo, seats: list[SeatChoice],
                   delivery_method: Literal["e-ticket", "box-office", "kiosk"], payments: list[PaymentPart],
                   concessions: Optional[list[ConcessionChoice]] = None,
                   special_requests: Optional[str] = None) -> dict:
    """Create a confirmed booking for a scheduled show. The payments, on methods the customer has on file,
    must add up exactly to the grand total (see price_preview). Tickets are issued for the delivery method.

    Args:
        theater_id: The theater id, such as 'TH001'.
        show_id: The show id, such as 'SHW00012'.
        customer: The customer's name, email and phone as on their profile (and loyalty id if any).
        seats: The seats (at most 10), each with its ticket type.
        delivery_method: 'e-ticket', 'box-office' (pick up at the counter) or 'kiosk' (print at the theater).
        payments: How the grand total is paid: one or more amounts on payment methods on file.
        concessions: Snacks and drinks from the theater's menu (optional).
        special_requests: A short note for the theater (optional).
    """
    th, s = K.show(db, theater_id, show_id)
    K.bookable(s, "booked")
    chosen = K.seat_request(db, th, s, seats)
    cid, cust = K.check_customer(db, customer)
    if special_requests is not None and len(special_requests) > 200:
        raise ToolError("special_requests must be at most 200 characters")
    if not payments:
        raise ToolError("payments must name at least one payment")
    rate = th["pricing_rules"]["tax_rate_percent"]
    lines = R.seat_lines(s, rate, chosen)
    snacks = R.concession_lines(rate, K.concessions(th, concessions or []))
    tot = R.totals(lines, snacks, th["pricing_rules"]["fees"]["booking_fee"])
    paid = money(sum(p["amount"] for p in payments))
    if abs(paid - tot["grand_total"]) > 0.005:
        raise ToolError(f"the payments add up to {usd(paid)} but the grand total is {usd(tot['grand_total'])}")
    bid = next_id(db, "bookings", "BKG", 4)
    history = [K.charge(db, cid, p, f"{bid}-P{n}") for n, p in enumerate(payments, 1)]
    rec = {
        "booking_id": bid, "customer_id": cid, "theater_id": theater_id, "movie_id": s["movie_id"], "show_id": show_id,
        "date": s["date"], "start_time_local": s["start_time_local"], "status": "confirmed", "created_at": R.NOW,
        "canceled_at": None,
        "customer": {"name": dict(cust["name"]), "email": cust["email"], "phone": cust["phone"], "loyalty_id": cust["loyalty_id"]},
        "seats": lines, "concessions": snacks, "promotions_applied": [], "payment_history": history,
        "totals": {**tot, "amount_paid": R.net_paid(history), "amount_due": 0.0},
        "delivery": {"method": delivery_method, "tickets": R.tickets_for(bid, lines)},
        "special_requests": special_requests.strip() if special_requests else None,
    }
    db.insert("bookings", bid, rec)
    db.edit("customers", cid)["bookings"].append(bid)
    return copy.deepcopy(rec)


@tool(kind="write")
def cancel_booking(db: Store, booking_id: str) -> dict:
    """Cancel a confirmed booking and refund everything paid to the original payment methods. For a scheduled
    show it closes 60 minutes before the start. This tool does not check whether the show has already taken
    place: check the show's status first (get_show_status), as the policy says.

    Args:
        booking_id: The booking number, such as 'BKG0123'.
    """
    b = K.booking(db, booking_id)
    if b["status"] != "confirmed":
        raise ToolError(f"booking {booking_id} is already {b['status']}; there is nothing left to cancel")
    _, s = K.show(db, b["theater_id"], b["show_id"])
    if s["status"] == "scheduled":
        K.outside_cutoff(s, "canceled")
    rec = db.edit("bookings", booking_id)
    refunded = K.refund(db, rec, R.net_paid(rec["payment_history"]))
    rec["status"] = "canceled"
    rec["canceled_at"] = R.NOW
    rec["totals"]["amount_paid"] = R.net_paid(rec["payment_history"])
    rec["totals"]["amount_due"] = 0.0
    rec["delivery"]["tickets"] = []
    return {**copy.deepcopy(rec), "refund_total": refunded}


@tool(kind="write")
def update_booking_seats(db: Store, booking_id: str, seats: list[SeatChoice], payment: Optional[PaymentPart] = None) -> dict:
    """Replace the seats of a confirmed booking for a scheduled show (the number of seats and the ticket
    types may change; until 60 minutes before the show). If the new total is higher, `payment` must pay
    exactly the difference; if lower, the difference is refunded to the original payment method.

    Args:
        booking_id: The booking number, such as 'BKG0123'.
        seats: The complete new seat list, each seat with its ticket type.
        payment: The payment for the extra amount when the new total is higher (omit it otherwise).
    """
    b = K.booking(db, booking_id)
    if b["status"] != "confirmed":
        raise ToolError(f"booking {booking_id} is {b['status']}; only confirmed bookings can be changed")
    th, s = K.show(db, b["theater_id"], b["show_id"])
    K.bookable(s, "re-seated")
    K.outside_cutoff(s, "changed")
    chosen = K.seat_request(db, th, s, seats, skip=booking_id)
    old = sorted((x["seat_id"], x["ticket_type"]) for x in b["seats"])
    if sorted((x["seat_id"], x["ticket_type"]) for x in chosen) == old:
        raise ToolError("these are exactly the booking's current seats and ticket types; nothing would change")
    lines = R.seat_lines(s, th["pricing_rules"]["tax_rate_percent"], chosen)
    tot = R.totals(lines, b["concessions"], th["pricing_rules"]["fees"]["booking_fee"])
    diff = money(tot["grand_total"] - b["totals"]["grand_total"])
    if diff > 0:
        if payment is None:
            raise ToolError(f"the new seats cost {usd(diff)} more; a payment of exactly that amount is needed")
        if abs(payment["amount"] - diff) > 0.005:
            raise ToolError(f"the payment must be exactly the difference, {usd(diff)}, not {usd(payment['amount'])}")
    elif payment is not None:
        raise ToolError("no payment is needed: the new total is not higher" +
                        (f"; {usd(-diff)} is refunded automatically" if diff < 0 else ""))
    rec = db.edit("bookings", booking_id)
    if diff > 0:
        n = sum(1 for p in rec["payment_history"] if p["amount"] > 0) + 1
        rec["payment_history"].append(K.charge(db, rec["customer_id"], payment, f"{booking_id}-P{n}"))
    elif diff < 0:
        K.refund(db, rec, -diff)
    issue = sum(1 for p in rec["payment_history"]) + 1
    rec["seats"] = lines
    rec["totals"] = {**tot, "amount_paid": R.net_paid(rec["payment_history"]), "amount_due": 0.0}
    rec["delivery"]["tickets"] = R.tickets_for(booking_id, lines, issue)
    return {**copy.deepcopy(rec), "price_difference": diff}


TOOLS = [
    list_movies, list_theaters, get_movie_details, get_theater_details, list_shows, get_show_details,
    get_show_status, get_seat_availability, price_preview, get_booking_details,
    create_booking, cancel_booking, update_booking_seats, *GENERIC_TOOLS,
]
WRITE_TOOLS = [create_booking, cancel_booking, update_booking_seats]
AUTH_TOOLS = ["get_booking_details"]
