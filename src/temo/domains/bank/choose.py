"""Choosing entities for grounding hooks: the client's records as they are now, filtered by what a tool
accepts, preferring what the trace is already about (``g.focus``) and what no write of this attempt has
touched yet (``g.used``)."""
from __future__ import annotations

from typing import Any, Callable, Iterable, Optional

from temo.env.grounding import Ground, GroundingFailed

ROUND_AMOUNTS = [20, 25, 40, 50, 75, 100, 120, 150, 200, 250, 300, 350, 400, 500, 600, 750, 800, 1000, 1200, 1500,
                 2000, 2500, 3000]


def used(g: Ground, kind: str) -> set[str]:
    return g.used.setdefault(kind, set())


def mark(g: Ground, kind: str, ident: str) -> None:
    used(g, kind).add(ident)


def accounts(g: Ground, status: Iterable[str] = ("active",), kinds: Iterable[str] = ("checking", "savings", "credit"),
             skip_used: bool = False) -> list[dict[str, Any]]:
    status, kinds = set(status), set(kinds)
    out = [a for _, a in sorted(g.user["accounts"].items()) if a["status"] in status and a["type"] in kinds]
    if skip_used:
        out = [a for a in out if a["account_id"] not in used(g, "account")]
    return out


def cards(g: Ground, status: Iterable[str] = ("active", "blocked", "expired")) -> list[dict[str, Any]]:
    status = set(status)
    return [c for _, c in sorted(g.user["cards"].items()) if c["status"] in status]


def loans(g: Ground, status: Iterable[str] = ("active", "delinquent", "closed", "default")) -> list[dict[str, Any]]:
    status = set(status)
    out = [g.store.get("loans", lid) for lid in g.user["loan_ids"]]
    return [loan for loan in out if loan["status"] in status]


def payees(g: Ground) -> list[dict[str, Any]]:
    return [g.store.get("beneficiaries", bid) for bid in g.user["beneficiary_ids"]]


def choose(g: Ground, kind: str, items: list[Any], key: Callable[[Any], str], reason: str,
           related: Optional[Callable[[Any], bool]] = None) -> Any:
    """``g.pick`` after narrowing to the items related to the trace's focus, when there are any."""
    if related is not None:
        near = [it for it in items if related(it)]
        if near:
            items = near
    return g.pick(kind, items, key=key, reason=reason)


def round_amount(g: Ground, cap: float, low: float = 20.0) -> float:
    """A round amount a client would choose, at most ``cap`` (drops the attempt when nothing fits)."""
    options = [a for a in ROUND_AMOUNTS if low <= a <= cap]
    if not options:
        raise GroundingFailed("no_affordable_amount")
    return float(g.rng.choice(options[-6:]) if len(options) > 6 and g.rng.random() < 0.5 else g.rng.choice(options))


def focus_account(g: Ground) -> Optional[str]:
    """The account the trace is about: the focused account, or the account of the focused card."""
    if "account" in g.focus:
        return g.focus["account"]
    cid = g.focus.get("card")
    if cid and cid in g.user["cards"]:
        return g.user["cards"][cid]["linked_account_id"]
    return None
