"""The bank's fixed facts and limits, shared by the generator, the tools, the grounding hooks and the policy.

Nothing here reads the clock: TODAY is fixed (and stated in policy.md), and every transaction a tool
creates is stamped NOW.
"""
from __future__ import annotations

import datetime as _dt
import re

TODAY = "2025-05-20"
NOW = f"{TODAY}T15:00:00Z"
BANK_NAME = "Lakeshore Bank"
ROUTING_NUMBER = "071926184"  # the bank's own routing number, on every client account

WIRE_FEE_DOMESTIC = 25.0
WIRE_FEE_INTERNATIONAL = 40.0
MAX_DAILY_LIMIT = 25000.0  # the highest daily limit a beneficiary may be given
MAX_RECENT = 50  # get_recent_transactions returns at most this many

TX_PREFIX, TX_WIDTH = "tx_", 7
BEN_PREFIX, BEN_WIDTH = "ben_", 4

MASK = re.compile(r"^\*{4}(\d{4})$")


def add_months(day: str, months: int) -> str:
    """``YYYY-MM-DD`` plus whole months; the day is kept (every generated day is at most 28)."""
    d = _dt.date.fromisoformat(day)
    y, m = divmod(d.month - 1 + months, 12)
    return _dt.date(d.year + y, m + 1, min(d.day, 28)).isoformat()


def stamp(day: str, hour: int = 12, minute: int = 0) -> str:
    """An ISO UTC timestamp on ``day``."""
    return f"{day}T{hour:02d}:{minute:02d}:00Z"


def mask(number: str) -> str:
    """``****1234`` from an account number given in full or already masked."""
    return "****" + number[-4:]


def iban_ok(iban: str) -> bool:
    """Format and ISO 13616 mod-97 check of an IBAN (spaces allowed, upper case required after strip)."""
    s = iban.replace(" ", "")
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", s):
        return False
    moved = s[4:] + s[:4]
    digits = "".join(str(int(c, 36)) for c in moved)
    return int(digits) % 97 == 1


def iban_with_check(country: str, bban: str) -> str:
    """A valid IBAN for ``country`` and ``bban`` (check digits computed)."""
    digits = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(digits) % 97
    return f"{country}{check:02d}{bban}"


def routing_ok(number: str) -> bool:
    """Nine digits with a valid ABA checksum."""
    if not re.fullmatch(r"\d{9}", number):
        return False
    d = [int(c) for c in number]
    return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 == 0


def routing_with_check(first8: str) -> str:
    """Complete eight digits to an ABA routing number with a valid check digit."""
    d = [int(c) for c in first8]
    partial = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5])
    return first8 + str((10 - partial % 10) % 10)


SWIFT = re.compile(r"^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$")
