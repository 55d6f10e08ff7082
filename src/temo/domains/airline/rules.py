"""Fixed constants and small rule helpers shared by the airline tools, generator and task builder.

The domain never reads the clock: "now" is the constant `NOW`, documented in policy.md.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

AIRLINE = "Skylark Air"
NOW = "2026-05-15 10:00:00"  # Eastern time, the desk's "current time"
TODAY = NOW[:10]
NOW_TIME = NOW[11:]
FIRST_DATE = "2026-05-01"  # first date of the published schedule
LAST_DATE = "2026-06-10"  # last date of the published schedule

CABINS = ("basic_economy", "economy", "business")
MEMBERSHIPS = ("regular", "silver", "gold")
# free checked bags per passenger, by membership tier and cabin
FREE_BAGS = {
    "regular": {"basic_economy": 0, "economy": 1, "business": 2},
    "silver": {"basic_economy": 1, "economy": 2, "business": 3},
    "gold": {"basic_economy": 2, "economy": 3, "business": 4},
}
BAG_FEE = 50  # per extra (non-free) checked bag
INSURANCE_FEE = 30  # per passenger, only when booking
MAX_PASSENGERS = 5
MAX_GIFT_CARDS = 3
MIN_LAYOVER_MIN = 60
COMPENSATION_CANCELLED = 100  # per passenger, when the airline cancelled a flight
COMPENSATION_DELAYED = 50  # per passenger, when a flight is delayed
MAX_CERTIFICATE = 1000
# flight statuses on one date
BOOKABLE = "available"
FLOWN = ("landed", "flying")
COVERED_REASONS = ("health", "weather")  # cancellation reasons travel insurance covers
CANCEL_WINDOW = timedelta(hours=24)


def parse_date(text: str) -> date:
    return datetime.strptime(text, "%Y-%m-%d").date()


def add_days(day: str, n: int) -> str:
    return (parse_date(day) + timedelta(days=n)).isoformat()


def dates_between(first: str, last: str) -> list[str]:
    d, end, out = parse_date(first), parse_date(last), []
    while d <= end:
        out.append(d.isoformat())
        d += timedelta(days=1)
    return out


def minutes(hhmmss: str) -> int:
    h, m = hhmmss.split(":")[:2]
    return int(h) * 60 + int(m)


def hhmmss(total_minutes: int) -> str:
    return f"{total_minutes // 60:02d}:{total_minutes % 60:02d}:00"


def free_bags(membership: str, cabin: str) -> int:
    return FREE_BAGS[membership][cabin]


def nonfree_bags(total: int, membership: str, cabin: str, passengers: int) -> int:
    return max(0, total - free_bags(membership, cabin) * passengers)


def booked_within_window(created_at: str) -> bool:
    created = datetime.strptime(created_at, "%Y-%m-%d %H:%M:%S")
    now = datetime.strptime(NOW, "%Y-%m-%d %H:%M:%S")
    return timedelta(0) <= now - created <= CANCEL_WINDOW


def flight_status(flight: dict[str, Any] | None, day: str) -> str:
    """The status of a flight on a date ('unknown' if it does not operate then)."""
    if flight is None:
        return "unknown"
    info = flight["dates"].get(day)
    return info["status"] if info else "unknown"


def segment_flown(status: str, day: str) -> bool:
    """Whether a booked segment has already been flown (or is in the air)."""
    if status == "cancelled":
        return False
    if day < TODAY:
        return True
    return day == TODAY and status in FLOWN
