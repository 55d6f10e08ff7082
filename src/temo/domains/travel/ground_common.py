"""What the travel hooks share: the traveler's bookings in the current state, focus, facts and phrasing.

Fact keys are chosen so that no key's words contain another key's last word or aliases (the scripted
user reveals a fact when the agent's question contains one of its aliases, and a key's last word is an
alias too): ``start_date`` / ``new_departure`` / ``meeting_day``; ``package`` / ``travel_agent``;
``rooming`` / ``new_room``; one ``payment_method`` key for every payment.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

from temo.domains.kit.money import money
from temo.domains.kit.vocabulary import aliases
from temo.domains.kit.wording import and_join
from temo.env.grounding import Ground, GroundingFailed

from . import rules as R

ALIASES = aliases(__file__)["facts"]
SOURCE_WORDS = {"credit_card": "credit card", "debit_card": "debit card"}


def fact(g: Ground, key: str, value: Any):
    return g.fact(key, value, ALIASES[key])


# -- state -----------------------------------------------------------------------------------------
def package(g: Ground, pid: str) -> dict[str, Any]:
    return g.store.get("packages", pid)


def my_bookings(g: Ground) -> list[dict[str, Any]]:
    return [g.store.get("bookings", b) for b in g.user["bookings"]]


def changeable(g: Ground, skip: str = "") -> list[dict[str, Any]]:
    """Bookings the change tools accept now, less those this attempt already changed the same way."""
    done = g.used.get(skip, set()) | g.used.get("cancelled", set()) | new_bookings(g)
    return [b for b in my_bookings(g) if b["booking_id"] not in done and R.can_change(package(g, b["package_id"]), b)]


def new_bookings(g: Ground) -> set[str]:
    """Bookings made earlier in this attempt: the traveler has not been told their number yet, and they
    are not changed again (booking and then changing the same trip would contradict itself)."""
    return g.notes.setdefault("new", set())


def mark(g: Ground, kind: str, ident: str) -> None:
    g.used.setdefault(kind, set()).add(ident)


def focus_now(g: Ground, kind: str) -> Optional[str]:
    """The focused entity of ``kind`` if a step of the current intent set it."""
    return g.focus.get(kind) if g.notes.get(("focus", kind)) == g.intent else None


def set_focus(g: Ground, **focus: str) -> dict[str, str]:
    for kind in focus:
        g.notes[("focus", kind)] = g.intent
    return dict(focus)


def choose_booking(g: Ground, cands: list[dict[str, Any]], reason: str) -> dict[str, Any]:
    """The current intent's booking if it fits, else one of the focused package's or agent's, else the
    least used."""
    if not cands:
        raise GroundingFailed(reason)
    fb = focus_now(g, "booking")
    for b in cands:
        if b["booking_id"] == fb:
            return b
    for kind, field in (("package", "package_id"), ("agent", "agent_id")):
        f = focus_now(g, kind)
        sub = [b for b in cands if f is not None and b[field] == f]
        if sub:
            return g.pick("booking", sub, key=lambda b: b["booking_id"], reason=reason)
    return g.pick("booking", cands, key=lambda b: b["booking_id"], reason=reason)


# -- payments --------------------------------------------------------------------------------------
def method_phrase(m: dict[str, Any]) -> str:
    if m["source"] == "travel_credit":
        return "my travel credit"
    info = m["extra_info"]
    return f"the {info['brand']} {SOURCE_WORDS[m['source']]} ending in {info['last_four']}"


def methods_for(g: Ground, booking: Optional[dict[str, Any]], delta: float) -> list[dict[str, Any]]:
    """Saved methods that can take a charge of ``delta`` (> 0) or a refund of it (< 0: only methods that
    paid for ``booking``)."""
    out = []
    paid = R.net_paid(booking["payment_history"]) if booking is not None else {}
    for pid, m in sorted(g.user["payment_methods"].items()):
        if delta < 0 and paid.get(pid, 0.0) <= 0:
            continue
        if delta > 0 and m["source"] == "travel_credit" and (m["extra_info"]["balance"] or 0.0) < delta:
            continue
        out.append(m)
    return out


def credit_of(g: Ground) -> Optional[dict[str, Any]]:
    return next((m for _, m in sorted(g.user["payment_methods"].items()) if m["source"] == "travel_credit"), None)


def cards_of(g: Ground) -> list[dict[str, Any]]:
    return [m for _, m in sorted(g.user["payment_methods"].items()) if m["source"] != "travel_credit"]


# -- phrasing --------------------------------------------------------------------------------------
def person(t: dict[str, Any]) -> str:
    return f"{t['first_name']} {t['last_name']}"


def party_text(people: Iterable[dict[str, Any]]) -> str:
    return and_join([f"{person(t)} (born {t['dob']})" for t in people])


def room_text(room: dict[str, Any]) -> str:
    n = room["occupancy"]
    return f"{room['room_type']} rooms with {n} {'person' if n == 1 else 'people'} per room"


def add_on_text(a: dict[str, Any]) -> str:
    return a["description"][0].lower() + a["description"][1:]


def trip_text(g: Ground, b: dict[str, Any]) -> str:
    return f"the {package(g, b['package_id'])['name']} trip leaving {b['departure_date']}"


def refund_total(b: dict[str, Any]) -> float:
    return money(sum(a for a in R.net_paid(b["payment_history"]).values() if a > 0))
