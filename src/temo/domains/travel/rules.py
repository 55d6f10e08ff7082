"""The travel agency's fixed rules: today's date, windows, limits, prices and the enums.

Tools, the generator and the grounding hooks all read these, so a rule is stated once. Nothing here
reads the clock: "today" is :data:`TODAY` (also stated in policy.md).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Literal, Optional

from temo.domains.kit.dates import add_days, days_between
from temo.domains.kit.money import money

TODAY = "2024-05-15"
NOW_TEXT = "2024-05-15 15:00 EST"

Category = Literal["adventure", "cultural", "beach", "wildlife", "culinary", "family", "luxury", "wellness"]
CATEGORIES: tuple[str, ...] = Category.__args__  # type: ignore[attr-defined]
RoomType = Literal["single", "double", "twin", "triple", "family", "suite"]
ROOM_CAPACITY = {"single": 1, "double": 2, "twin": 2, "triple": 3, "family": 4, "suite": 2}
AddOnType = Literal["excursion", "transfer", "upgrade", "meal", "equipment", "experience"]
InsurancePlan = Literal["standard", "premium"]
INSURANCE_PER_TRAVELER = {"standard": 50.0, "premium": 100.0}
BookingStatus = Literal["confirmed", "pending", "cancelled"]
ACTIVE = ("confirmed", "pending")
DepartureStatus = Literal["available", "limited", "sold_out", "closed"]
BOOKABLE = ("available", "limited")
PaymentSource = Literal["credit_card", "debit_card", "travel_credit"]
EmploymentStatus = Literal["full_time", "part_time", "contractor"]

LIMITED_AT = 4          # a departure with 1..4 free places shows "limited"
BOOK_MIN_DAYS = 7       # sales close 7 days before a departure
MAX_TRAVELERS = 8       # travelers on one booking
MEETING_SLOTS = ["09:00-10:00", "10:00-11:00", "11:00-12:00", "13:00-14:00", "14:00-15:00",
                 "15:00-16:00", "16:00-17:00"]


@lru_cache(maxsize=4096)
def days_until(date: str) -> int:
    """Days from TODAY to ``date`` (negative once it has passed)."""
    return days_between(TODAY, date)


def departure_status(date: str, slots: int) -> str:
    """The status a departure shows for its date and free places."""
    if days_until(date) < BOOK_MIN_DAYS:
        return "closed"
    if slots <= 0:
        return "sold_out"
    return "limited" if slots <= LIMITED_AT else "available"


def insurance_cost(plan: Optional[str], travelers: int) -> float:
    return money(INSURANCE_PER_TRAVELER.get(plan or "", 0.0) * travelers)


def total_price(base: float, travelers: int, add_ons: Iterable[dict[str, Any]], plan: Optional[str]) -> float:
    """Base price per traveler x travelers + every add-on once + insurance per traveler."""
    return money(base * travelers + sum(a["price"] for a in add_ons) + insurance_cost(plan, travelers))


def net_paid(history: Iterable[dict[str, Any]]) -> dict[str, float]:
    """What each payment method has paid for a booking so far, charges less refunds."""
    out: dict[str, float] = {}
    for p in history:
        out[p["payment_id"]] = money(out.get(p["payment_id"], 0.0) + p["amount"])
    return out


def cancel_deadline(package: dict[str, Any], departure: str) -> Optional[str]:
    """The last day a booking on ``departure`` can be cancelled, or None when the package's
    cancellations are reviewed case by case."""
    days = package["policies"]["cancel_by_days"]
    return None if days is None else add_days(departure, -days)


def can_cancel(package: dict[str, Any], booking: dict[str, Any]) -> bool:
    days = package["policies"]["cancel_by_days"]
    return booking["status"] in ACTIVE and days is not None and days_until(booking["departure_date"]) >= days


def can_change(package: dict[str, Any], booking: dict[str, Any]) -> bool:
    return (booking["status"] in ACTIVE
            and days_until(booking["departure_date"]) >= package["policies"]["change_by_days"])


def can_move_to(package: dict[str, Any], date: str, travelers: int) -> bool:
    dep = package["departures"].get(date)
    return (dep is not None and dep["status"] in BOOKABLE and dep["available_slots"] >= travelers
            and days_until(date) >= max(BOOK_MIN_DAYS, package["policies"]["change_by_days"]))
