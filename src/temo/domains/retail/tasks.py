"""Build retail tasks by code: pick a user, pick 1-3 intents that the user's orders allow, and
execute each reference action on a fresh store as it is chosen, so every task replays cleanly.

Test and training tasks draw from disjoint sets of users (a fixed hash of the user id), so no
reference action list can occur in both splits.

The intent builders live in `intents.py`, the `Plan` they fill in `plan.py`; this module draws the
intents, authenticates the user and assembles the tasks.
"""
from __future__ import annotations

import hashlib
import json
import random
from typing import Any, Optional

from temo.core import EmotionCondition, Task, UserScenario
from temo.env import Database

from .intents import INTENT_BUILDERS
from .plan import Plan

DOMAIN = "retail"
MAX_ACTIONS = 8
# intent kind -> weight when drawing a task's intents
KIND_WEIGHTS = {
    "cancel": 16, "modify_address": 12, "modify_payment": 12, "modify_items": 14,
    "return": 16, "exchange": 16, "user_address": 10,
}
PERSONAS = [
    "a nurse who works night shifts and shops online between them",
    "a graduate student on a tight budget",
    "a small-business owner who orders supplies for the office",
    "a retired teacher who is careful with every purchase",
    "a parent juggling work and two children",
    "a software developer who likes things done precisely",
    "a keen hiker who buys most of their gear online",
    "a freelance designer working from home",
    "a college athlete between training sessions",
    "someone who has just moved to a new city",
    "a restaurant cook on a short break",
    "a first-time customer of this store",
]


def split_of(user_id: str) -> str:
    """Which split may use this user: about 40% of users serve test tasks, the rest training tasks."""
    return "test" if int(hashlib.sha256(user_id.encode()).hexdigest(), 16) % 10 < 4 else "train"


def _draw_kinds(rng: random.Random, n: int) -> list[str]:
    pool = dict(KIND_WEIGHTS)
    out = []
    for _ in range(n):
        kinds = sorted(pool)
        kind = rng.choices(kinds, [pool[x] for x in kinds])[0]
        out.append(kind)
        del pool[kind]
    return out


def _plan_task(db: Database, user: dict[str, Any], rng: random.Random, n: int) -> Optional[Plan]:
    plan = Plan(db, user, rng)
    first, last = user["name"]["first_name"], user["name"]["last_name"]
    if rng.random() < 0.6:
        plan.auth = "email"
        plan.fact("email", user["email"], ["email address", "e-mail", "email"], 0)
        plan.call("find_user_id_by_email", {"email": user["email"]}, 0)
    else:
        plan.auth = "name_zip"
        zip_code = user["address"]["zip"]
        plan.fact("first_name", first, ["first name", "name", "full name"], 0)
        plan.fact("last_name", last, ["last name", "surname", "family name", "name", "full name"], 0)
        plan.fact("zip", zip_code, ["zip code", "postal code", "postcode", "zip"], 0)
        plan.call("find_user_id_by_name_zip", {"first_name": first, "last_name": last, "zip": zip_code}, 0)
    plan.call("get_user_details", {"user_id": user["user_id"]}, 0)
    for kind in _draw_kinds(rng, n):
        k = len(plan.intents)
        if not INTENT_BUILDERS[kind](plan, k):
            return None
        plan.kinds.append(kind)
        if len(plan.actions) > MAX_ACTIONS:
            return None
    return plan


def _instruction(plan: Plan, user: dict[str, Any], persona: str) -> str:
    first, last = user["name"]["first_name"], user["name"]["last_name"]
    if plan.auth == "email":
        who = f"When the agent asks who you are, give your email address, {user['email']}."
    else:
        who = (f"You do not remember which email you used for this store. When the agent asks who you are, "
               f"give your name, {first} {last}, and the zip code of your home address, {user['address']['zip']}.")
    lines = [f"You are {first} {last}, {persona}. You are chatting with the customer-service agent of an online store.", who]
    if len(plan.goals) == 1:
        lines.append(f"What you want: {plan.goals[0]}")
    else:
        lines.append("You want the following, in this order, one after the other:")
        lines.extend(f"{i}. {g}" for i, g in enumerate(plan.goals, 1))
    lines.append(
        "You do not know any internal ids (user id, item ids, product ids, payment method ids); describe items and "
        "payment methods in your own words. Give a piece of information only when the agent asks for it."
    )
    lines.append(
        "Before each change the agent should describe it; answer 'yes' only if it matches exactly what you want. "
        "If the agent proposes anything else, decline and repeat what you want. Do not ask for anything beyond "
        "these requests. When everything is done, end the conversation."
    )
    return "\n".join(lines)


def build_tasks(db: Database, split: str, count: int, seed: int, conditions: list[EmotionCondition]) -> list[Task]:
    """Build `count` retail tasks for `split`; the i-th task gets emotion condition `conditions[i]`."""
    if len(conditions) < count:
        raise ValueError(f"need {count} emotion conditions, got {len(conditions)}")
    rng = random.Random(f"retail-tasks:{split}:{seed}")
    users = [u for _, u in sorted(db.tables["users"].items()) if split_of(u["user_id"]) == split]
    rng.shuffle(users)
    # about 40% one-intent tasks, the rest two or three intents
    n_one, n_two = round(0.4 * count), round(0.35 * count)
    sizes = [1] * n_one + [2] * n_two + [3] * (count - n_one - n_two)
    rng.shuffle(sizes)
    tasks: list[Task] = []
    seen: set[str] = set()
    cursor = 0
    for i, n in enumerate(sizes):
        for _ in range(5000):
            user = users[cursor % len(users)]
            cursor += 1
            plan = _plan_task(db, user, rng, n)
            if plan is None or not 2 <= len(plan.actions) <= MAX_ACTIONS:
                continue
            signature = json.dumps([a.model_dump() for a in plan.actions], sort_keys=True)
            if signature not in seen:
                seen.add(signature)
                break
        else:
            raise RuntimeError(f"could not build a {n}-intent retail task for split {split}")
        persona = rng.choice(PERSONAS)
        prefs = ["Deal with your requests in the order given."] + plan.preferences
        tasks.append(Task(
            id=f"{DOMAIN}-{split}-{i:03d}",
            domain=DOMAIN,
            split=split,
            scenario=UserScenario(persona=persona, known=plan.facts, intents=plan.intents, preferences=prefs),
            actions=plan.actions,
            outputs=[],
            emotion=conditions[i],
            instruction=_instruction(plan, user, persona),
            emotion_instruction="",
            meta={"user_id": user["user_id"], "auth": plan.auth, "intent_kinds": list(plan.kinds)},
        ))
    return tasks
