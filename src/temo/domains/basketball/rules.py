"""The basketball desk's fixed rules, shared by the tools, the generator and the grounding hooks.

TODAY is fixed (also stated in policy.md); nothing reads the clock.
"""
from __future__ import annotations

import re

TODAY = "2025-03-15"
CURRENT_SEASON = "2024-25"
SEASONS = ("2023-24", "2024-25")

POINTS = {"2PT": 2, "3PT": 3, "FT": 1}
EVENT_WORDS = {"2PT": "two-point basket", "3PT": "three-pointer", "FT": "free throw"}

# allowed status moves; anything else is refused (final is terminal)
TRANSITIONS = {
    "scheduled": ("in_progress", "postponed"),
    "postponed": ("scheduled",),
    "in_progress": ("final",),
    "final": (),
}

QUARTERS = 4
QUARTER_SECONDS = 600   # four ten-minute quarters
OVERTIME_SECONDS = 300  # five-minute overtime periods
MAX_OVERTIMES = 9

_STAMP = re.compile(r"^(Q[1-4]|OT[1-9]) ([0-9]{2}):([0-9]{2})$")


def period_label(number: int) -> str:
    """1..4 -> Q1..Q4; 5.. -> OT1.."""
    return f"Q{number}" if number <= QUARTERS else f"OT{number - QUARTERS}"


def period_length(number: int) -> int:
    return QUARTER_SECONDS if number <= QUARTERS else OVERTIME_SECONDS


def parse_stamp(text: str) -> tuple[int, int]:
    """``"Q3 04:12"`` -> (period number 3, 252 seconds left on the clock).

    Raises ValueError with a message the agent can act on."""
    m = _STAMP.match(text.strip()) if isinstance(text, str) else None
    if not m:
        raise ValueError(f"timestamp {text!r} must look like 'Q3 04:12' (period Q1-Q4 or OT1-OT9, then the time "
                         "left on the period clock as MM:SS)")
    label, mm, ss = m.groups()
    number = int(label[1:]) if label.startswith("Q") else QUARTERS + int(label[2:])
    minutes, seconds = int(mm), int(ss)
    if seconds >= 60:
        raise ValueError(f"timestamp {text!r}: seconds must be below 60")
    left = minutes * 60 + seconds
    if left > period_length(number):
        raise ValueError(f"timestamp {text!r}: {label} is only {period_length(number) // 60} minutes long")
    return number, left


def stamp(number: int, left: int) -> str:
    return f"{period_label(number)} {left // 60:02d}:{left % 60:02d}"


def game_time(number: int, left: int) -> int:
    """Seconds played since tip-off at this point of the game (for ordering events)."""
    before = sum(period_length(p) for p in range(1, number))
    return before + period_length(number) - left


def stamp_key(text: str) -> int:
    return game_time(*parse_stamp(text))


def season_of(date: str) -> str:
    """The season a date falls in: July to June ('2024-11-02' -> '2024-25')."""
    year, month = int(date[:4]), int(date[5:7])
    start = year if month >= 7 else year - 1
    return f"{start}-{(start + 1) % 100:02d}"


def current_contract(player: dict) -> dict | None:
    """The contract that covers TODAY, if any."""
    for c in player["contracts"].values():
        if c["start_date"] <= TODAY <= c["end_date"]:
            return c
    return None
