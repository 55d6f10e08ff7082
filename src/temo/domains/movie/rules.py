"""The movie desk's fixed clock, limits and price arithmetic, shared by the generator, tools and hooks.

Everything here is pure: no clock, no randomness. The policy states the same numbers.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any, Iterable

from temo.domains.kit.dates import days_between
from temo.domains.kit.money import money

CHAIN = "Silverscreen Cinemas"
TODAY = "2024-05-15"
NOW_TIME = "15:00"
NOW = f"{TODAY}T{NOW_TIME}:00"  # Eastern time, as every show time is local Eastern time
CHANGE_CUTOFF_MINUTES = 60  # re-seating and cancelling close this long before a show starts
MAX_SEATS = 10  # seats per booking; larger groups go to group sales (a human)
MAX_CONCESSION_QUANTITY = 20

TICKET_TYPES = ("adult", "child", "senior")
FORMATS = ("2D", "3D", "IMAX", "Dolby")
DELIVERY_METHODS = ("e-ticket", "box-office", "kiosk")
PAYMENT_SOURCES = ("card", "wallet", "cash", "gift_card")
SHOW_STATUSES = ("scheduled", "canceled", "completed")
BOOKING_STATUSES = ("confirmed", "canceled", "refunded")


# ---- time ----------------------------------------------------------------------------------------
def clock_minutes(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


@lru_cache(maxsize=4096)
def _days_from_today(date: str) -> int:
    return days_between(TODAY, date)


def minutes_until(date: str, hhmm: str) -> int:
    """Minutes from NOW until ``date`` at ``hhmm`` (negative when it is in the past)."""
    return _days_from_today(date) * 24 * 60 + clock_minutes(hhmm) - clock_minutes(NOW_TIME)


def hhmm(minutes: int) -> str:
    minutes %= 24 * 60
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


# ---- seats ---------------------------------------------------------------------------------------
def seat_list(auditorium: dict[str, Any]) -> list[dict[str, Any]]:
    """Every seat of an auditorium in row order: ``{"seat_id", "type", "wheelchair_accessible"}``."""
    out = []
    for row, spec in auditorium["seat_map"]["rows"].items():
        accessible = set(spec["wheelchair_accessible"])
        for n in range(1, spec["seat_count"] + 1):
            sid = f"{row}{n}"
            out.append({"seat_id": sid, "type": spec["seat_type"], "wheelchair_accessible": sid in accessible})
    return out


def seat_index(auditorium: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["seat_id"]: s for s in seat_list(auditorium)}


# ---- prices --------------------------------------------------------------------------------------
def show_prices(theater: dict[str, Any], fmt: str, date: str, start: str, weekday: int) -> dict[str, Any]:
    """A show's price schema from the theater's pricing rules (``weekday``: Monday 0 ... Sunday 6)."""
    rules = theater["pricing_rules"]
    extra = rules["format_surcharges"][fmt]
    minutes = clock_minutes(start)
    if minutes < clock_minutes("16:00"):
        extra -= rules["time_based"]["matinee_discount"]
    elif weekday in (4, 5) and minutes >= clock_minutes("18:00"):
        extra += rules["time_based"]["peak_surcharge"]
    prices = {t: money(max(rules["base"][t] + extra, 1.0)) for t in TICKET_TYPES}
    return {**prices, "fees": {"convenience_fee": rules["fees"]["convenience_fee"]}}


def seat_lines(show: dict[str, Any], tax_rate_percent: float, seats: Iterable[dict[str, str]]) -> list[dict[str, Any]]:
    """Priced seat lines: the ticket price, the per-ticket convenience fee and the tax on both."""
    fee = show["price_schema"]["fees"]["convenience_fee"]
    out = []
    for s in seats:
        price = show["price_schema"][s["ticket_type"]]
        out.append({"seat_id": s["seat_id"], "ticket_type": s["ticket_type"], "price": price,
                    "convenience_fee": fee, "tax": money((price + fee) * tax_rate_percent / 100)})
    return out


def concession_lines(tax_rate_percent: float, items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for c in items:
        tax_each = money(c["price_each"] * tax_rate_percent / 100)
        out.append({"item_id": c["item_id"], "name": c["name"], "size": c["size"], "quantity": c["quantity"],
                    "price_each": c["price_each"], "tax_each": tax_each,
                    "total": money((c["price_each"] + tax_each) * c["quantity"])})
    return out


def totals(seats: list[dict[str, Any]], concessions: list[dict[str, Any]], booking_fee: float) -> dict[str, float]:
    """Subtotals and the grand total of priced seat and concession lines plus one booking fee."""
    tickets = money(sum(s["price"] for s in seats))
    snacks = money(sum(c["price_each"] * c["quantity"] for c in concessions))
    fees = money(sum(s["convenience_fee"] for s in seats) + booking_fee)
    tax = money(sum(s["tax"] for s in seats) + sum(c["tax_each"] * c["quantity"] for c in concessions))
    return {"tickets_subtotal": tickets, "concessions_subtotal": snacks, "fees_total": fees, "tax_total": tax,
            "grand_total": money(tickets + snacks + fees + tax)}


def net_paid(history: list[dict[str, Any]]) -> float:
    return money(sum(p["amount"] for p in history))


def tickets_for(booking_id: str, seats: list[dict[str, Any]], issue: int = 1) -> list[dict[str, str]]:
    """Delivery tickets, one per seat; barcodes derived from the booking, the seat and the issue number."""
    out = []
    for n, s in enumerate(seats, 1):
        digest = hashlib.sha256(f"{booking_id}:{s['seat_id']}:{issue}".encode()).hexdigest()
        out.append({"ticket_id": f"{booking_id}-T{n}", "seat_id": s["seat_id"],
                    "barcode": str(int(digest[:12], 16)).zfill(15)[-12:]})
    return out
