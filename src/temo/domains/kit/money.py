"""Money: round half up to cents, and format for people."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def money(x: float | int | str) -> float:
    """Round to cents, half up (2.675 -> 2.68), as a float."""
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def usd(x: float | int) -> str:
    """``$1,234.50``"""
    return f"${money(x):,.2f}"
