"""How a patron talks about their things: tickets, plates, cards, addresses (first person, no internal refs)."""
from __future__ import annotations

from typing import Any

from temo.domains.kit.people import PERSONAS
from temo.domains.kit.vocabulary import aliases
from temo.domains.kit.wording import and_join

from .rules import plate_phrase

MODE_WORDS = {"dine_in": "dine-in visit", "takeout": "takeout order", "delivery": "delivery"}
ORIGIN_WORDS = {"credit_card": "credit card", "debit_card": "debit card"}
EXTRA_PERSONAS = [
    "a regular who orders takeout every Friday", "a parent planning a birthday dinner",
    "an office manager who orders lunch for the team", "a night-shift worker ordering a late meal",
    "a food blogger who notices every detail", "a student sharing an order with roommates",
    "someone hosting visiting relatives this week", "a commuter ordering on the way home",
]
ADDRESS_ALIASES = aliases(__file__)["address"]
TICKET_ALIASES = aliases(__file__)["ticket"]


def instrument_phrase(inst: dict[str, Any]) -> str:
    meta = inst["metadata"]
    if inst["origin"] == "digital_wallet":
        return f"my {meta['issuer']} wallet (the card ending in {meta['tail_digits']})"
    return f"my {meta['issuer']} {ORIGIN_WORDS[inst['origin']]} ending in {meta['tail_digits']}"


def dish_plate(title: str, plate: dict[str, Any]) -> str:
    return f"the {title} ({plate_phrase(plate['modifiers'])})"


def line_phrase(line: dict[str, Any]) -> str:
    return f"the {line['label']}"


def ticket_summary(ticket: dict[str, Any]) -> str:
    items = and_join([line_phrase(ln) for ln in ticket["line_entries"][:3]])
    more = " and more" if len(ticket["line_entries"]) > 3 else ""
    return f"It's my {MODE_WORDS[ticket['service_mode']]} from {ticket['placed_on']} with {items}{more}."


def address_text(a: dict[str, str]) -> str:
    second = f", {a['line_two']}" if a["line_two"] else ""
    return f"{a['line_one']}{second}, {a['municipality']}, {a['province']} {a['postal_code']}, {a['nation']}"


def state_word(state: str) -> str:
    return state.replace("_", " ")


def personas() -> list[str]:
    return [*PERSONAS, *EXTRA_PERSONAS]
