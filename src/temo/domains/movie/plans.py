"""What a new booking (or its price preview) is for: an open show, free seats with ticket types, snacks."""
from __future__ import annotations

from typing import Any

from temo.env.grounding import Ground, GroundingFailed

from . import phrases as P
from . import situation as S

def new_show(g: Ground) -> tuple[dict, dict]:
    """An open show for a new booking: the focused one, else the focused movie (same theater first), else any."""
    left = g.notes.get("left_shows", set())  # shows of bookings canceled in this task: rebook another time
    fs = S.focus_show(g)
    if fs and S.open_show(fs[1]) and fs[1]["show_id"] not in left:
        return fs
    tid, mid = g.focus.get("theater"), g.focus.get("movie")
    for options in (S.bookable_shows(g, tid, mid), S.bookable_shows(g, None, mid), S.bookable_shows(g, tid), S.bookable_shows(g)):
        options = [x for x in options if x[1]["show_id"] not in left]
        if options:
            return g.pick("show", options, key=lambda x: x[1]["show_id"])
    raise GroundingFailed("no_open_show")


def snacks(g: Ground, th: dict[str, Any], n: int) -> list[dict[str, Any]]:
    menu = th["concessions_menu"]
    if not menu or g.rng.random() >= 0.25:
        return []
    item = menu[g.rng.choice(sorted(menu))]
    size = g.rng.choice(sorted(item["sizes"]))
    return [{"item_id": item["item_id"], "name": item["name"], "size": size, "quantity": g.rng.randint(1, max(1, min(n, 3))),
             "price_each": item["sizes"][size]}]


def fresh_plan(g: Ground, th: dict, s: dict) -> dict[str, Any]:
    n = g.rng.choice([1, 2, 2, 2, 3, 4])
    ids = S.seat_block(g, th, s, n)
    if ids is None:
        raise GroundingFailed("no_free_seats")
    seats = [{"seat_id": i, "ticket_type": t} for i, t in zip(ids, S.ticket_types(g, n))]
    return {"theater": th["theater_id"], "show": s["show_id"], "seats": seats, "concessions": snacks(g, th, n), "booking": None}


def plan_details(g: Ground, plan: dict[str, Any]) -> tuple[list[str], list]:
    many = len(plan["seats"]) > 1
    details = [f"I'd like seat{'s' if many else ''} {P.seats_text(plan['seats'])}.", P.types_detail(plan["seats"])]
    facts = [P.fact(g, "seats", P.seats_text(plan["seats"])), P.fact(g, "ticket_types", P.types_text(plan["seats"]))]
    if plan["concessions"]:
        details.append(f"I'd also like {P.concessions_text(plan['concessions'])} with that.")
        facts.append(P.fact(g, "concessions", P.concessions_text(plan["concessions"])))
    return details, facts


def plan_args(plan: dict[str, Any]) -> dict[str, Any]:
    args = {"theater_id": plan["theater"], "show_id": plan["show"], "seats": [dict(x) for x in plan["seats"]]}
    if plan["concessions"]:
        args["concessions"] = [dict(c) for c in plan["concessions"]]
    return args
