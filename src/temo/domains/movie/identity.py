"""Who the customer is: the identity step, which customers can serve a trace, personas and internal ids."""
from __future__ import annotations

from typing import Any

from temo.domains.kit.people import name_of, persona_of  # noqa: F401  (name_of: for the Grounder)
from temo.env import Database
from temo.env.grounding import Ground

from . import phrases as P
from . import situation as S

MOVIE_PERSONAS = [
    "a film buff who never misses an opening weekend", "a parent planning a family outing to the movies",
    "a student who goes to the cheap matinees", "a retiree who goes to the cinema every week with a friend",
    "someone organising a night out for colleagues", "a couple's date-night planner",
]


def authenticate(g: Ground) -> list[tuple[str, dict[str, Any], list]]:
    """The customer gives one booking number and the email on it; the agent looks the booking up and checks."""
    mine = S.my_bookings(g)
    active = [b for b in mine if S.cancellable(g, b)]
    b = g.rng.choice(active if active and g.rng.random() < 0.8 else mine)
    S.see(g, b["booking_id"])
    g.focus["booking"] = b["booking_id"]
    facts = [P.fact(g, "booking_id", b["booking_id"]), P.fact(g, "email", g.user["email"])]
    return [("get_booking_details", {"booking_id": b["booking_id"]}, facts)]


_FEATURES: dict[int, tuple[Database, dict[str, tuple[int, int]]]] = {}


def features(db: Database) -> dict[str, tuple[int, int]]:
    """Per customer: (bookings that can be canceled, bookings that can be re-seated) in the frozen state."""
    key = id(db)
    if key not in _FEATURES or _FEATURES[key][0] is not db:
        shows = {s["show_id"]: s for t in db.tables["theaters"].values() for d in t["dates"].values() for s in d["shows"]}
        out: dict[str, tuple[int, int]] = {}
        for cid, c in db.tables["customers"].items():
            cancel = reseat = 0
            for bid in c["bookings"]:
                b = db.tables["bookings"][bid]
                if b["status"] != "confirmed":
                    continue
                s = shows[b["show_id"]]
                if S.open_show(s):
                    cancel, reseat = cancel + 1, reseat + 1
                elif s["status"] == "canceled":
                    cancel += 1
            out[cid] = (cancel, reseat)
        _FEATURES[key] = (db, out)
    return _FEATURES[key][1]


def candidate_users(db: Database, split: str, trace: list[list[str]]) -> list[str]:
    """Every customer of the split's own database who has enough open bookings for the trace's changes."""
    flat = [t for intent in trace for t in intent]
    need_reseat = flat.count("update_booking_seats")
    need_total = need_reseat + flat.count("cancel_booking")
    feats = features(db)
    return [cid for cid in sorted(db.tables["customers"])
            if feats[cid][0] >= need_total and feats[cid][1] >= need_reseat]


def internal_ids(db: Database) -> set[str]:
    """Ids a customer never sees: customers, movies, theaters, auditoriums, shows, payment methods, payments,
    tickets and menu items (booking numbers and seat numbers are known to customers)."""
    out = set(db.tables["customers"]) | set(db.tables["movies"]) | set(db.tables["theaters"])
    for c in db.tables["customers"].values():
        out.update(c["payment_methods"])
    for t in db.tables["theaters"].values():
        out.update(t["auditoriums"])
        out.update(t["concessions_menu"])
        for d in t["dates"].values():
            out.update(s["show_id"] for s in d["shows"])
    for b in db.tables["bookings"].values():
        out.update(p["payment_id"] for p in b["payment_history"])
        out.update(x["ticket_id"] for x in b["delivery"]["tickets"])
        out.update(x["barcode"] for x in b["delivery"]["tickets"])
    return out


persona = persona_of(MOVIE_PERSONAS)


