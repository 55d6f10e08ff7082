"""Pieces the restaurant grounding hooks and challenges share: the patron's tickets as they are now,
the facts a patron gives (ticket numbers, cards), and the marks that keep one trace from writing the
same ticket twice in conflicting ways."""
from __future__ import annotations

from typing import Any

from temo.domains.kit.dates import days_between
from temo.domains.kit.vocabulary import aliases
from temo.env.grounding import Ground

from .phrases import TICKET_ALIASES, instrument_phrase
from .rules import TIP_WINDOW_DAYS, TODAY, tip_room

PLACED_WRITES = {"cancel_placed_ticket", "modify_placed_ticket_dropoff", "modify_placed_ticket_table",
                 "modify_placed_ticket_items", "modify_placed_ticket_instrument"}


def my_tickets(g: Ground, state: str | None = None, mode: str | None = None, skip: str = "") -> list[dict[str, Any]]:
    out = []
    for ref in g.user["ticket_log"]:
        t = g.store.get("tickets", ref)
        if (state is None or t["state"] == state) and (mode is None or t["service_mode"] == mode) \
                and ref not in g.used.get(skip, set()):
            out.append(t)
    return out


def ticket_fact(g: Ground, ticket: dict[str, Any], key: str = "ticket_ref"):
    return g.fact(key, ticket["ticket_ref"], TICKET_ALIASES)


def mark(g: Ground, kind: str, ref: str) -> None:
    g.used.setdefault(kind, set()).add(ref)
    g.used.setdefault("written", set()).add(ref)


def instruments(g: Ground) -> list[dict[str, Any]]:
    return [inst for _, inst in sorted(g.user["saved_instruments"].items())]


PAY_ALIASES = aliases(__file__)["payment"]


def pay_fact(g: Ground, key: str, inst: dict[str, Any]):
    return g.fact(key, instrument_phrase(inst), [*PAY_ALIASES[key], "payment method", "which card", "instrument"])


def read_ask(g: Ground, own: str) -> str:
    """A read's request, prefixed by the earlier reads of the same intent, so the intent's last read
    asks for every result the intent reports."""
    asks = g.notes.setdefault("read_asks", [])
    earlier = [a for i, a in asks if i == g.intent]
    asks.append((g.intent, own))
    return " ".join([*earlier, own])


def tip_ok(t: dict[str, Any]) -> bool:
    return t["state"] != "cancelled" and days_between(t["placed_on"], TODAY) <= TIP_WINDOW_DAYS and tip_room(t) >= 1
