"""How the movie hooks register and what they share: the hook table, the read/write wrappers, and
how a customer refers to a booking."""
from __future__ import annotations

from typing import Any, Callable

from temo.env.grounding import Ground, Step, hook

from . import phrases as P
from . import situation as S

HOOKS: dict = {}


def base_key(key: str) -> str:
    """``seats_2`` -> ``seats`` (Tracer numbers a second fact of the same kind)."""
    head, _, tail = key.rpartition("_")
    return head if head and tail.isdigit() else key


def read_hook(func: Callable[[Ground], Step]) -> Callable[[Ground], Step]:
    """Register a read hook. A read tells the user nothing to say: it has no details; and once the intent's
    write has run, a read only supports it (Tracer drops its outputs), so it needs no facts either."""

    def wrapped(g: Ground) -> Step:
        step = func(g)
        step.details = []
        if any(a.intent == g.intent and g.env.tools[a.name].kind == "write" for a in g.actions):
            step.facts = []
        known = {(base_key(f.key), f.value) for f in g.facts}
        g.notes.setdefault("read_facts", set()).update((g.intent, f.key, f.value) for f in step.facts
                                                       if (f.key, f.value) not in known)
        step.uses = uses_of(g, step.focus)
        return step

    wrapped.__name__ = wrapped.__qualname__ = func.__name__
    wrapped.__doc__ = func.__doc__
    return hook(HOOKS, func.__name__)(wrapped)


def write_hook(func: Callable[[Ground], Step]) -> Callable[[Ground], Step]:
    """Register a write hook. What the reads before it in the same intent asked the user for is not
    needed for the write (the write names its own facts), so those facts are dropped from the task."""

    def wrapped(g: Ground) -> Step:
        step = func(g)
        seen = g.notes.get("read_facts", set())
        g.facts[:] = [f for f in g.facts if f.intent != g.intent or (f.intent, base_key(f.key), f.value) not in seen]
        return step

    wrapped.__name__ = wrapped.__qualname__ = func.__name__
    wrapped.__doc__ = func.__doc__
    return hook(HOOKS, func.__name__)(wrapped)


def uses_of(g: Ground, focus: dict[str, str]) -> dict[str, str]:
    """Entities a step uses, for the even-spread report; a booking made in this task is nobody's choice."""
    return {k: v for k, v in focus.items() if not (k == "booking" and S.created_here(g, v))}


def booking_facts(g: Ground, b: dict[str, Any]) -> list:
    return [] if S.created_here(g, b["booking_id"]) else [P.fact(g, "booking_id", b["booking_id"])]


def booking_ref(g: Ground, b: dict[str, Any]) -> str:
    return "the booking just made" if S.created_here(g, b["booking_id"]) else f"booking {b['booking_id']}"


def drop_other_show(g: Ground, theater_id: str) -> None:
    """A new theater in focus: the show in focus (of another theater) no longer is."""
    sid = g.focus.get("show")
    if sid and S.theater_of_show(g, sid) != theater_id:
        g.focus.pop("show")


def title_of(g: Ground, movie_id: str) -> str:
    return g.store.get("movies", movie_id)["title"]


# -- catalogue and schedule reads ------------------------------------------------------------------
