"""Dates as ``YYYY-MM-DD`` strings; every domain has a fixed "today" in its policy, never the clock."""
from __future__ import annotations

import datetime as _dt

from temo.env import ToolError

FORMAT = "%Y-%m-%d"


def parse_date(text: str, what: str = "date") -> _dt.date:
    """Parse ``YYYY-MM-DD`` or raise a ToolError that tells the agent the expected format."""
    try:
        return _dt.datetime.strptime(text, FORMAT).date()
    except (TypeError, ValueError):
        raise ToolError(f"{what} {text!r} is not a date in the form YYYY-MM-DD (for example 2024-05-15)") from None


def fmt(day: _dt.date) -> str:
    return day.strftime(FORMAT)


def add_days(text: str, days: int) -> str:
    return fmt(parse_date(text) + _dt.timedelta(days=days))


def days_between(start: str, end: str) -> int:
    """``end - start`` in days."""
    return (parse_date(end) - parse_date(start)).days


def parse_time(text: str, what: str = "time") -> _dt.time:
    """Parse ``HH:MM`` (24 hours) or raise a ToolError."""
    try:
        return _dt.datetime.strptime(text, "%H:%M").time()
    except (TypeError, ValueError):
        raise ToolError(f"{what} {text!r} is not a time in the form HH:MM (for example 14:30)") from None
