"""What the grounding hooks ask of the state as it is now: which bookings can still be changed or
canceled, which shows can be booked, which seats are free, which payment methods the agent has seen."""
from __future__ import annotations

from typing import Any, Optional

from temo.env.grounding import Ground, GroundingFailed

from . import checks as K
from . import rules as R

# a show counts as bookable for a task when it starts at least this long after now, so later steps of
# the same task (re-seating, cancelling) are still inside their window
LEAD_MINUTES = R.CHANGE_CUTOFF_MINUTES + 30


def show_of(g: Ground, theater_id: str, show_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return K.show(g.store, theater_id, show_id)


def booking_show(g: Ground, b: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    return show_of(g, b["theater_id"], b["show_id"])


def open_show(s: dict[str, Any]) -> bool:
    return s["status"] == "scheduled" and R.minutes_until(s["date"], s["start_time_local"]) >= LEAD_MINUTES


def my_bookings(g: Ground) -> list[dict[str, Any]]:
    return [g.store.get("bookings", b) for b in g.user["bookings"]]


def used(g: Ground) -> set[str]:
    return g.used.setdefault("booking", set())


def cancellable(g: Ground, b: dict[str, Any]) -> bool:
    if b["status"] != "confirmed" or b["booking_id"] in used(g):
        return False
    _, s = booking_show(g, b)
    return s["status"] == "canceled" or open_show(s)


def reseatable(g: Ground, b: dict[str, Any]) -> bool:
    if b["status"] != "confirmed" or b["booking_id"] in used(g):
        return False
    return open_show(booking_show(g, b)[1])


def created_here(g: Ground, booking_id: str) -> bool:
    return booking_id in g.notes.get("created", set())


def free_seats(g: Ground, th: dict[str, Any], s: dict[str, Any], skip: str = "") -> list[dict[str, Any]]:
    """Free seats that are not wheelchair accessible, in seat-map order."""
    taken = K.taken_seats(g.store, s["show_id"], skip)
    return [x for x in R.seat_list(th["auditoriums"][s["auditorium_id"]])
            if x["seat_id"] not in taken and not x["wheelchair_accessible"]]


def seat_block(g: Ground, th: dict[str, Any], s: dict[str, Any], n: int, avoid: set[str] = frozenset()) -> Optional[list[str]]:
    """``n`` free, adjacent, not accessible seats in one row (a random row first), or None."""
    free = {x["seat_id"] for x in free_seats(g, th, s)} - set(avoid)
    rows = list(th["auditoriums"][s["auditorium_id"]]["seat_map"]["rows"].items())
    g.rng.shuffle(rows)
    for row, spec in rows:
        starts = list(range(1, spec["seat_count"] - n + 2))
        g.rng.shuffle(starts)
        for a in starts:
            ids = [f"{row}{k}" for k in range(a, a + n)]
            if all(i in free for i in ids):
                return ids
    return None


def neighbour(g: Ground, th: dict[str, Any], s: dict[str, Any], seats: list[str], skip: str) -> Optional[str]:
    """A free seat right next to the given ones (same row), or None."""
    free = {x["seat_id"] for x in free_seats(g, th, s, skip)} - set(seats)
    options = []
    for sid in seats:
        row, num = K.seat_order(sid)
        options += [f"{row}{num - 1}", f"{row}{num + 1}"]
    options = [o for o in options if o in free]
    return g.rng.choice(options) if options else None


def ticket_types(g: Ground, n: int) -> list[str]:
    r = g.rng.random()
    if n >= 2 and r < 0.35:
        kids = g.rng.randint(1, n - 1) if n > 2 else 1
        return ["adult"] * (n - kids) + ["child"] * kids
    if r < 0.5:
        return ["senior"] * n if n <= 2 else ["adult"] * (n - 1) + ["senior"]
    return ["adult"] * n


def bookable_shows(g: Ground, theater_id: str | None = None, movie_id: str | None = None) -> list[tuple[dict, dict]]:
    out = []
    theaters = [g.store.get("theaters", theater_id)] if theater_id else list(g.store.values("theaters"))
    for th in theaters:
        for day in th["dates"].values():
            for s in day["shows"]:
                if open_show(s) and (movie_id is None or s["movie_id"] == movie_id):
                    out.append((th, s))
    return out


def seen(g: Ground) -> list[str]:
    """Bookings the agent has looked up in this task (their payment history shows the methods' ids)."""
    return g.notes.setdefault("seen", [])


def see(g: Ground, booking_id: str) -> None:
    if booking_id not in seen(g):
        seen(g).append(booking_id)


def visible_methods(g: Ground, need: float, prefer: str | None = None) -> list[dict[str, Any]]:
    """Payment methods on file that the agent can find in a booking it looked up, able to pay ``need``."""
    ids: list[str] = []
    for bid in ([prefer] if prefer else []) + seen(g):
        b = g.store.get("bookings", bid)
        if b is None or b["customer_id"] != g.user_id:
            continue
        for p in b["payment_history"]:
            pid = p["method"]["payment_method_id"]
            if pid not in ids:
                ids.append(pid)
    out = []
    for pid in ids:
        m = g.user["payment_methods"].get(pid)
        if m is not None and (m["source"] != "gift_card" or m["balance"] + 0.005 >= need):
            out.append(m)
    return out


def pay_with(g: Ground, need: float, prefer: str | None = None) -> dict[str, Any]:
    methods = visible_methods(g, need, prefer)
    if not methods:
        raise GroundingFailed("no_visible_payment_method")
    return methods[0] if prefer and g.rng.random() < 0.7 else g.rng.choice(methods)


def method_arg(m: dict[str, Any]) -> dict[str, Any]:
    return {"source": m["source"], "payment_method_id": m["payment_method_id"]}


_WHERE: dict[int, tuple[Any, dict[str, str]]] = {}


def theater_of_show(g: Ground, show_id: str) -> str:
    """The theater a show belongs to (shows never move, so the frozen database answers)."""
    base = g.store.base
    if id(base) not in _WHERE or _WHERE[id(base)][0] is not base:
        _WHERE[id(base)] = (base, {s["show_id"]: t["theater_id"] for t in base.tables["theaters"].values()
                                   for d in t["dates"].values() for s in d["shows"]})
    return _WHERE[id(base)][1][show_id]


def focus_show(g: Ground) -> Optional[tuple[dict, dict]]:
    """The show the conversation is about (the focused show), or None."""
    sid = g.focus.get("show")
    return show_of(g, theater_of_show(g, sid), sid) if sid else None


def show_focus(th: dict[str, Any], s: dict[str, Any]) -> dict[str, str]:
    return {"theater": th["theater_id"], "show": s["show_id"], "movie": s["movie_id"]}


def fresh_kinds(g: Ground, tool: str, ident: str, kinds: list[str]) -> list[str]:
    """The questions of ``tool`` about ``ident`` not yet asked in this task (so intents do not repeat)."""
    done = g.notes.setdefault("asked", set())
    return [k for k in kinds if (tool, ident, k) not in done]


def mark_asked(g: Ground, tool: str, ident: str, kind: str = "") -> None:
    g.notes.setdefault("asked", set()).add((tool, ident, kind))


def was_asked(g: Ground, tool: str, ident: str, kind: str = "") -> bool:
    return (tool, ident, kind) in g.notes.get("asked", set())
