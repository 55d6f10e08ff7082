"""How a cinema customer says things: shows, seats, ticket types, snacks, payment methods; and the facts
behind them. Everything is first person and free of internal ids (no movie, theater, show or payment ids)."""
from __future__ import annotations

from typing import Any

from temo.core import Fact
from temo.domains.kit.vocabulary import aliases
from temo.domains.kit.wording import and_join
from temo.env.grounding import Ground

NUMBER = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}
BRANDS = {"visa": "Visa", "mastercard": "Mastercard", "amex": "American Express", "discover": "Discover"}

ALIASES = aliases(__file__)["facts"]  # fact key -> words an agent may use to ask for it


def fact(g: Ground, key: str, value: Any) -> Fact:
    return g.fact(key, value, ALIASES[key])


def count(n: int) -> str:
    return NUMBER.get(n, str(n))


def show_text(g: Ground, theater: dict[str, Any], show: dict[str, Any]) -> str:
    title = g.store.get("movies", show["movie_id"])["title"]
    return f"the {show['start_time_local']} showing of {title} at {theater['name']} on {show['date']}"


def show_facts(g: Ground, theater: dict[str, Any], show: dict[str, Any]) -> list[Fact]:
    title = g.store.get("movies", show["movie_id"])["title"]
    return [fact(g, "movie", title), fact(g, "theater", theater["name"]), fact(g, "show_date", show["date"]),
            fact(g, "show_time", show["start_time_local"])]


def seats_text(seats: list[dict[str, Any]] | list[str]) -> str:
    ids = [s if isinstance(s, str) else s["seat_id"] for s in seats]
    return and_join(ids)


def types_text(seats: list[dict[str, Any]]) -> str:
    """``two adults and one child``"""
    out = []
    for t in ("adult", "child", "senior"):
        n = sum(1 for s in seats if s["ticket_type"] == t)
        if n:
            out.append(f"{count(n)} {t}{'s' if n > 1 and t != 'child' else ''}" if t != "child" else
                       f"{count(n)} {'children' if n > 1 else 'child'}")
    return and_join(out)


def tickets_text(seats: list[dict[str, Any]]) -> str:
    """``one adult ticket and two child tickets``"""
    parts = [f"{count(n)} {t} ticket{'s' if n > 1 else ''}" for t in ("adult", "child", "senior")
             if (n := sum(1 for s in seats if s["ticket_type"] == t))]
    return and_join(parts)


def types_detail(seats: list[dict[str, Any]]) -> str:
    """Which seat gets which ticket type, spelled out so the seat list is unambiguous."""
    kinds = {s["ticket_type"] for s in seats}
    if len(kinds) == 1:
        kind = next(iter(kinds))
        return f"{'It is an' if len(seats) == 1 and kind == 'adult' else 'It is a' if len(seats) == 1 else 'All are'} " \
               f"{kind} ticket{'s' if len(seats) > 1 else ''}."
    return "Ticket types by seat: " + ", ".join(f"{s['seat_id']} {s['ticket_type']}" for s in seats) + "."


def concessions_text(items: list[dict[str, Any]]) -> str:
    """``2 x large popcorn and 1 x nachos``"""
    out = []
    for c in items:
        size = "" if c["size"] == "regular" else f"{c['size']} "
        out.append(f"{c['quantity']} x {size}{c['name'].lower()}")
    return and_join(out)


def method_text(m: dict[str, Any]) -> str:
    if m["source"] == "card":
        return f"my {BRANDS.get(m['brand'], m['brand'].title())} card ending in {m['last_four']}"
    if m["source"] == "wallet":
        return f"my {m['provider']} wallet"
    return f"my Silverscreen gift card ending in {m['last_four']}"
