"""Code-built airline tasks: one to three intents per user, each checked by replaying it as it is built.

Every task starts with `get_user_details(user_id)`. Each intent generator looks at the current state of
the task's own store (so later intents see earlier changes), picks a situation where the policy allows
the request, writes the reference actions a careful agent would take (reads it needs, then the write),
and the facts the user must supply. Every string argument of a reference action is either a fact value,
text that an earlier reference action returned, or an enum value of the tool's schema.

The generators live in `intents.py` (and `booking.py` for new trips), their shared `Plan` / `Ctx`
building blocks in `plan.py`; this module draws the intents and assembles the tasks.

Test and training tasks use disjoint sets of users, so their reference action lists never coincide.
"""
from __future__ import annotations

import re

import hashlib
import json
import random

from temo.core import Action, EmotionCondition, Fact, Intent, Task, UserScenario
from temo.env import Database

from . import rules as R
from .intents import GENERATORS
from .plan import Ctx, Plan

DOMAIN = "airline"
MAX_ACTIONS = 8

# fact key -> words an agent may use to ask for it
ALIASES = {
    "user_id": ["user id", "user ID", "account id", "username", "customer id", "member id"],
    "reservation_id": ["reservation id", "reservation code", "reservation number", "confirmation code",
                       "confirmation number", "booking reference", "booking code", "reservation"],
    "cancellation_reason": ["reason", "why", "reason for cancelling", "cancellation reason"],
    "bags": ["bags", "checked bags", "baggage", "luggage", "suitcases", "how many bags", "number of bags"],
    "payment_method": ["payment", "payment method", "pay with", "which card", "credit card", "gift card",
                       "certificate", "method of payment", "charge"],
    "new_date": ["new date", "which date", "what date", "new travel date", "move it to", "which day"],
    "cabin": ["cabin", "class", "fare class", "seat class", "upgrade to"],
    "origin": ["origin", "departure airport", "departing from", "leaving from", "flying from", "departure city",
               "where from"],
    "destination": ["destination", "arrival airport", "going to", "flying to", "arriving", "arrival city"],
    "departure_date": ["departure date", "travel date", "which date", "what date", "which day", "outbound date",
                       "leaving on"],
    "return_date": ["return date", "coming back", "return flight", "fly back"],
    "trip_type": ["trip type", "one way", "round trip", "one-way", "round-trip", "return ticket"],
    "passengers": ["passengers", "who is travelling", "who is traveling", "travellers", "travelers", "how many people",
                   "passenger names", "who will fly"],
    "insurance": ["travel insurance", "insurance", "coverage"],
    "passenger_first_name": ["first name", "new passenger", "passenger's name", "name of the passenger"],
    "passenger_last_name": ["last name", "surname", "family name"],
    "passenger_dob": ["date of birth", "birth date", "birthday", "dob", "born"],
    "passenger_to_change": ["which passenger", "whose", "passenger to change", "which traveller", "which traveler"],
}
# intent kind -> weight when drawing a task's intents
WEIGHTS = {"cancel": 2.0, "bags": 2.0, "change_date": 2.0, "upgrade": 1.5, "passengers": 1.5, "book": 2.2,
           "compensation": 1.6, "refuse_cancel": 0.6}


# ---- assembling tasks ----------------------------------------------------------------------


_VOICE = [(r"\bYou want\b", "I want"), (r"\byou want\b", "I want"), (r"\bYou do\b", "I do"),
          (r"\bYou ask\b", "I ask"), (r"\byou and\b", "me and"), (r"\bjust you\b", "just me"), (r"\byourself\b", "myself"),
          (r"\bYour\b", "My"), (r"\byour\b", "my")]


def first_person(detail: str) -> str:
    """Details are what the user says when asked, so they are in the user's own voice
    ("I want to add 2 bags", "Pay with my Visa"); the plans write them as instructions."""
    for pattern, repl in _VOICE:
        detail = re.sub(pattern, repl, detail)
    return detail

def _split_of(user_id: str) -> str:
    """Users are split 40/60 between test and training tasks, so the splits never share an action list."""
    return "test" if int(hashlib.sha256(user_id.encode()).hexdigest(), 16) % 5 < 2 else "train"


def _instruction(ctx: Ctx, plans: list[Plan], known: list[Fact]) -> str:
    u = ctx.user
    name = f"{u['name']['first_name']} {u['name']['last_name']}"
    lines = [f"You are {name}, a {u['membership']} member of {R.AIRLINE}, living in {u['address']['city']}. "
             f"You are chatting with the airline's reservation desk. Today is {R.TODAY}.",
             f"When asked for your user id, give {ctx.user_id}.", "", "What you want, in this order:"]
    lines += [f"{i}. {p.goal}" for i, p in enumerate(plans, 1)]
    lines += ["", "What you know and will say when asked:"]
    lines += [f"- {f.key.replace('_', ' ')}: {f.value}" for f in known]
    prefs = [x for p in plans for x in p.preferences]
    if prefs:
        lines += ["", "Your preferences:"] + [f"- {x}" for x in prefs]
    limits = [x for p in plans for x in p.limits] + [
        "Give one request at a time, and bring up the next one only when the current one is settled.",
        "Confirm an action only when the agent's summary matches what you want.",
        "Do not make up information you were not given here; if asked for something you do not know, say so.",
    ]
    lines += ["", "Rules for you:"] + [f"- {x}" for x in limits]
    return "\n".join(lines)


def _task(ctx: Ctx, plans: list[Plan], split: str, i: int, cond: EmotionCondition) -> Task:
    actions = [Action(name="get_user_details", arguments={"user_id": ctx.user_id}, intent=0)]
    known = [Fact(key="user_id", value=ctx.user_id, aliases=ALIASES["user_id"], intent=0)]
    taken = {"user_id"}
    intents = []
    for k, p in enumerate(plans):
        actions += [Action(name=n, arguments=a, intent=k) for n, a in p.actions]
        for base, value in p.facts:
            if any(f.value == value and f.key.rstrip("_0123456789") == base for f in known):
                continue  # already known from an earlier intent
            key, j = base, 2
            while key in taken:
                key, j = f"{base}_{j}", j + 1
            taken.add(key)
            known.append(Fact(key=key, value=value, aliases=ALIASES[base], intent=k))
        intents.append(Intent(request=p.request, details=[first_person(d) for d in p.details]))
    u = ctx.user
    persona = (f"{u['name']['first_name']} {u['name']['last_name']}, {u['membership']} member of {R.AIRLINE}, "
               f"lives in {u['address']['city']}")
    return Task(
        id=f"{DOMAIN}-{split}-{i:03d}", domain=DOMAIN, split=split,
        scenario=UserScenario(persona=persona, known=known, intents=intents,
                              preferences=[x for p in plans for x in p.preferences]),
        actions=actions, outputs=[], emotion=cond, instruction=_instruction(ctx, plans, known), emotion_instruction="",
        meta={"intents": [p.kind for p in plans]},
    )


def build_tasks(db: Database, split: str, count: int, seed: int, conditions: list[EmotionCondition]) -> list[Task]:
    """Build `count` tasks for `split`; task i gets emotion condition `conditions[i]`."""
    rng = random.Random(f"airline-tasks:{split}:{seed}")
    users = sorted(u for u in db.tables["users"] if _split_of(u) == split)
    seen: set[str] = set()
    tasks: list[Task] = []
    kinds = list(WEIGHTS)
    attempts = 0
    while len(tasks) < count:
        attempts += 1
        if attempts > 200 * count:
            raise RuntimeError(f"airline: could only build {len(tasks)} of {count} {split} tasks")
        want = rng.choices([1, 2, 3], [0.4, 0.4, 0.2])[0]
        ctx = Ctx(db, rng, rng.choice(users))
        ctx.run("get_user_details", {"user_id": ctx.user_id})
        plans: list[Plan] = []
        n_actions = 1
        pool = list(kinds)
        while len(plans) < want and pool:
            kind = rng.choices(pool, [WEIGHTS[k] for k in pool])[0]
            pool.remove(kind)
            if kind == "refuse_cancel" and want == 1:
                continue
            new = GENERATORS[kind](ctx)[: 3 - len(plans)]
            if not new or n_actions + sum(len(p.actions) for p in new) > MAX_ACTIONS:
                for p in new:
                    ctx.used.discard(p.reservation or "")
                continue
            for p in new:
                for name, args in p.actions:
                    ctx.run(name, args)
            n_actions += sum(len(p.actions) for p in new)
            plans += new
        if not plans or not any(p.writes for p in plans) or n_actions < 2:
            continue
        key = json.dumps([[a for a in p.actions] for p in plans], sort_keys=True) + ctx.user_id
        if key in seen:
            continue
        seen.add(key)
        tasks.append(_task(ctx, plans, split, len(tasks), conditions[len(tasks)]))
    return tasks
