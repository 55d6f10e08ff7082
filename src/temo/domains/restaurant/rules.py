"""The restaurant's fixed rules and the small pure helpers that the generator, the tools and the
grounding hooks share: today's date, tax, tip window and cap, the dining zones, the ledger arithmetic.

Everything here is plain data or a pure function of a record; nothing reads the clock.
"""
from __future__ import annotations

from typing import Any

from temo.domains.kit.money import money

TODAY = "2025-06-12"
TAX_RATE = 0.08            # sales tax on the food subtotal, charged with the payment
TIP_WINDOW_DAYS = 14       # a tip may be added up to 14 days after the ticket's date
TIP_CAP_SHARE = 0.5        # all tips on one ticket together: at most half of its food subtotal
DELIVERY_FEES = (2.99, 3.99, 4.99)
CANCEL_REASONS = ("no longer needed", "ordered by mistake", "change of plans")
STATES = ("placed", "in_progress", "ready", "delivered", "cancelled")
SERVICE_MODES = ("dine_in", "takeout", "delivery")
INSTRUMENT_ORIGINS = ("credit_card", "debit_card", "digital_wallet")

# zone -> (first table number, last table number, most seats at one table of that zone)
ZONES: dict[str, tuple[int, int, int]] = {
    "main hall": (1, 30, 8),
    "patio": (31, 44, 6),
    "bar": (45, 52, 2),
    "window": (53, 60, 4),
    "private room": (61, 64, 12),
}

MODIFIER_WORDS = {"spice_level": "spice", "portion": "portion", "protein": "", "preparation": ""}
MODIFIER_ORDER = ("portion", "protein", "preparation", "spice_level")


def zone_of_table(table_no: str) -> str | None:
    """The zone a table number belongs to, or None for a number no zone has."""
    if not table_no.isdigit():
        return None
    n = int(table_no)
    for zone, (lo, hi, _) in ZONES.items():
        if lo <= n <= hi:
            return zone
    return None


def plate_phrase(modifiers: dict[str, str]) -> str:
    """A person's words for one plate: 'large, chicken, medium spice'."""
    parts = []
    for key in MODIFIER_ORDER:
        if key in modifiers:
            word = MODIFIER_WORDS[key]
            value = modifiers[key]
            parts.append(f"{value} {word}".strip() if key == "spice_level" else value)
    return ", ".join(parts)


def line_label(title: str, modifiers: dict[str, str]) -> str:
    return f"{title} ({plate_phrase(modifiers)})"


def ticket_amounts(subtotal: float, delivery_fee: float) -> tuple[float, float]:
    """(tax, total charged) for a food subtotal."""
    tax = money(subtotal * TAX_RATE)
    return tax, money(subtotal + tax + delivery_fee)


def food_net(ticket: dict[str, Any]) -> dict[str, float]:
    """What each instrument has paid for the food (payments minus refunds), tips left out."""
    net: dict[str, float] = {}
    for ch in ticket["charges"]:
        if ch["kind"] in ("payment", "refund"):
            sign = 1 if ch["kind"] == "payment" else -1
            net[ch["instrument_ref"]] = money(net.get(ch["instrument_ref"], 0.0) + sign * ch["total"])
    return {k: v for k, v in net.items() if v}


def tips_by_instrument(ticket: dict[str, Any]) -> dict[str, float]:
    out: dict[str, float] = {}
    for ch in ticket["charges"]:
        if ch["kind"] == "tip":
            out[ch["instrument_ref"]] = money(out.get(ch["instrument_ref"], 0.0) + ch["total"])
    return out


def tips_total(ticket: dict[str, Any]) -> float:
    return money(sum(tips_by_instrument(ticket).values()))


def net_paid(ticket: dict[str, Any]) -> dict[str, float]:
    """Everything each instrument is out of pocket on this ticket (food and tips, minus refunds)."""
    out = dict(food_net(ticket))
    for ref, amount in tips_by_instrument(ticket).items():
        out[ref] = money(out.get(ref, 0.0) + amount)
    return {k: v for k, v in out.items() if v > 0}


def tip_room(ticket: dict[str, Any]) -> float:
    """How much more tip the ticket may take under the cap."""
    return money(ticket["subtotal"] * TIP_CAP_SHARE - tips_total(ticket))
