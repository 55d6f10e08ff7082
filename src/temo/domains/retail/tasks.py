"""Build retail tasks by code: pick a user, pick 1-3 intents that the user's orders allow, and
execute each reference action on a fresh store as it is chosen, so every task replays cleanly.

Test and training tasks draw from disjoint sets of users (a fixed hash of the user id), so no
reference action list can occur in both splits.
"""
from __future__ import annotations

import hashlib
import json
import random
from typing import Any, Callable, Optional

from temo.core import Action, EmotionCondition, Fact, Intent, Task, UserScenario
from temo.env import Database, Environment, Store

from .generate import random_address
from .tools import TOOLS

DOMAIN = "retail"
TOOL_MAP = {t.name: t for t in TOOLS}
MAX_ACTIONS = 8
CANCEL_REASONS = ["no longer needed", "ordered by mistake"]
# intent kind -> weight when drawing a task's intents
KIND_WEIGHTS = {
    "cancel": 16, "modify_address": 12, "modify_payment": 12, "modify_items": 14,
    "return": 16, "exchange": 16, "user_address": 10,
}
ADDRESS_FIELDS = ["address1", "address2", "city", "state", "country", "zip"]
ADDRESS_ALIASES = {
    "address1": ["new street address", "new address line 1", "street address", "street", "new address"],
    "address2": ["new address line 2", "apartment", "suite", "unit", "address line 2"],
    "city": ["new city", "city"],
    "state": ["new state", "state"],
    "country": ["new country", "country"],
    "zip": ["new zip code", "zip code of the new address", "new postal code", "new zip"],
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
BRANDS = {"visa": "Visa", "mastercard": "Mastercard", "amex": "American Express", "discover": "Discover"}


def split_of(user_id: str) -> str:
    """Which split may use this user: about 40% of users serve test tasks, the rest training tasks."""
    return "test" if int(hashlib.sha256(user_id.encode()).hexdigest(), 16) % 10 < 4 else "train"


def item_phrase(item: dict[str, Any]) -> str:
    opts = ", ".join(f"{k} {v}" for k, v in item["options"].items())
    return f"the {item['name']} ({opts})"


def variant_phrase(name: str, variant: dict[str, Any]) -> str:
    opts = ", ".join(f"{k} {v}" for k, v in variant["options"].items())
    return f"the {name} with {opts}"


def join_phrases(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def method_phrase(method: dict[str, Any]) -> str:
    if method["source"] == "credit_card":
        return f"the {BRANDS.get(method['brand'], method['brand'].title())} card ending in {method['last_four']}"
    if method["source"] == "paypal":
        return "my PayPal account"
    return "my gift card"


class _Plan:
    """One task under construction; every action runs on its own store as it is added."""

    def __init__(self, db: Database, user: dict[str, Any], rng: random.Random):
        self.rng = rng
        self.store = Store(db)
        self.env = Environment(TOOL_MAP, self.store)
        self.user_id = user["user_id"]
        self.actions: list[Action] = []
        self.facts: list[Fact] = []
        self.intents: list[Intent] = []
        self.goals: list[str] = []
        self.preferences: list[str] = []
        self.kinds: list[str] = []
        self.read_orders: set[str] = set()
        self.read_products: set[str] = set()
        self.order_roles: dict[str, set[str]] = {}
        self.order_keys: dict[str, str] = {}
        self.new_address: Optional[dict[str, str]] = None
        self.auth = ""

    # ---- plumbing -----------------------------------------------------------------------
    def call(self, name: str, args: dict[str, Any], intent: int) -> str:
        out = self.env.execute(name, args)
        if not out.ok:
            raise RuntimeError(f"reference action {name}({args}) failed: {out.observation}")
        self.actions.append(Action(name=name, arguments=args, intent=intent))
        return out.observation

    def fact(self, key: str, value: str, aliases: list[str], intent: int) -> str:
        for f in self.facts:
            if f.key == key and f.value == value:
                return key
        base, n = key, 2
        while any(f.key == key for f in self.facts):
            key = f"{base}_{n}"
            n += 1
        self.facts.append(Fact(key=key, value=value, aliases=list(aliases), intent=intent))
        return key

    @property
    def user(self) -> dict[str, Any]:
        return self.store.get("users", self.user_id)

    def orders(self, status: str, allowed_roles: set[str] = frozenset(), exclude_role: str = "") -> list[dict]:
        out = []
        for oid in self.user["orders"]:
            o = self.store.get("orders", oid)
            roles = self.order_roles.get(oid, set())
            if o["status"] == status and roles <= allowed_roles and exclude_role not in roles:
                out.append(o)
        return out

    def read_order(self, order: dict[str, Any], intent: int) -> None:
        oid = order["order_id"]
        if oid not in self.read_orders:
            self.call("get_order_details", {"order_id": oid}, intent)
            self.read_orders.add(oid)

    def read_product(self, product_id: str, intent: int) -> None:
        if product_id not in self.read_products:
            self.call("get_product_details", {"product_id": product_id}, intent)
            self.read_products.add(product_id)

    def order_fact(self, order: dict[str, Any], intent: int) -> str:
        oid = order["order_id"]
        if oid not in self.order_keys:
            nth = len(self.order_keys)
            aliases = ["order id", "order number", "which order"]
            if nth:
                aliases = [f"{('second', 'third', 'fourth')[nth - 1]} order", "other order"] + aliases
            self.order_keys[oid] = self.fact("order_id", oid, aliases, intent)
        return self.order_keys[oid]

    def address_facts(self, intent: int) -> dict[str, str]:
        if self.new_address is None:
            cur = self.user["address"]
            while True:
                addr = random_address(self.rng)
                if addr["address1"] != cur["address1"] and addr["zip"] != cur["zip"]:
                    break
            self.new_address = addr
        for field in ADDRESS_FIELDS:
            self.fact(f"new_{field}", self.new_address[field], ADDRESS_ALIASES[field], intent)
        return dict(self.new_address)

    def method_options(self, exclude: set[str] = frozenset(), need: float = 0.0) -> list[dict[str, Any]]:
        out = []
        for mid in sorted(self.user["payment_methods"]):
            m = self.user["payment_methods"][mid]
            if mid in exclude:
                continue
            if m["source"] == "gift_card" and m["balance"] < need:
                continue
            out.append(m)
        return out

    def swappable(self, order: dict[str, Any]) -> list[tuple[dict, list[dict]]]:
        """Items of the order with at least one other available variant of the same product."""
        out = []
        for item in order["items"]:
            product = self.store.get("products", item["product_id"])
            alts = [v for iid, v in sorted(product["variants"].items()) if v["available"] and iid != item["item_id"]]
            if alts:
                out.append((item, alts))
        return out

    # ---- intents ------------------------------------------------------------------------
    def cancel(self, k: int) -> bool:
        cands = self.orders("pending")
        if not cands:
            return False
        order = self.rng.choice(cands)
        reason = self.rng.choice(CANCEL_REASONS)
        oid, items = order["order_id"], join_phrases([item_phrase(i) for i in order["items"]])
        self.order_fact(order, k)
        self.fact("cancel_reason", reason, ["reason", "why", "reason for cancelling"], k)
        self.read_order(order, k)
        self.call("cancel_pending_order", {"order_id": oid, "reason": reason}, k)
        self.order_roles.setdefault(oid, set()).add("cancel")
        self.intents.append(Intent(
            request=self.rng.choice([
                "I want to cancel an order that hasn't shipped yet.",
                "Please cancel one of my recent orders.",
                "I need to call off an order I placed.",
            ]),
            details=[f"The order is {oid}; it contains {items}.", f"The reason is: {reason}."],
        ))
        self.goals.append(f"Cancel your order {oid} (it contains {items}). If asked for a reason, say '{reason}'.")
        return True

    def modify_address(self, k: int) -> bool:
        cands = self.orders("pending", {"modify_payment", "modify_items", "user_address"}, "modify_address")
        if not cands:
            return False
        order = self.rng.choice(cands)
        oid = order["order_id"]
        self.order_fact(order, k)
        addr = self.address_facts(k)
        self.read_order(order, k)
        self.call("modify_pending_order_address", {"order_id": oid, **addr}, k)
        self.order_roles.setdefault(oid, set()).add("modify_address")
        text = f"{addr['address1']}, {addr['address2']}, {addr['city']}, {addr['state']} {addr['zip']}, {addr['country']}"
        self.intents.append(Intent(
            request=self.rng.choice([
                "I need one of my pending orders shipped to a different address.",
                "Please change the shipping address on an order I placed.",
            ]),
            details=[f"The order is {oid}.", f"The new address is {text}."],
        ))
        self.goals.append(f"Have your pending order {oid} shipped to {text} instead.")
        return True

    def user_address(self, k: int) -> bool:
        if "user_address" in self.kinds:
            return False
        addr = self.address_facts(k)
        self.call("modify_user_address", {"user_id": self.user_id, **addr}, k)
        text = f"{addr['address1']}, {addr['address2']}, {addr['city']}, {addr['state']} {addr['zip']}, {addr['country']}"
        self.intents.append(Intent(
            request=self.rng.choice([
                "I've moved and want to update the default address on my account.",
                "Please update my account's default address.",
            ]),
            details=[f"The new address is {text}."],
        ))
        self.goals.append(f"Update the default address on your account to {text}.")
        return True

    def modify_payment(self, k: int) -> bool:
        options = []
        for order in self.orders("pending", {"modify_address", "modify_items"}, "modify_payment"):
            total = round(sum(i["price"] for i in order["items"]), 2)
            original = order["payment_history"][0]["payment_method_id"]
            methods = self.method_options({original}, need=total)
            if methods:
                options.append((order, methods))
        if not options:
            return False
        order, methods = self.rng.choice(options)
        method = self.rng.choice(methods)
        oid, phrase = order["order_id"], method_phrase(method)
        self.order_fact(order, k)
        self.fact("new_payment_method", phrase, ["new payment method", "payment method", "pay with", "which card"], k)
        self.read_order(order, k)
        self.call("modify_pending_order_payment", {"order_id": oid, "payment_method_id": method["id"]}, k)
        self.order_roles.setdefault(oid, set()).add("modify_payment")
        self.intents.append(Intent(
            request=self.rng.choice([
                "I'd like to pay for one of my pending orders with a different payment method.",
                "Can I switch the payment method on an order I haven't received yet?",
            ]),
            details=[f"The order is {oid}.", f"I want to pay with {phrase}."],
        ))
        self.goals.append(f"Switch the payment of your pending order {oid} to {phrase}.")
        return True

    def _swap(self, k: int, order: dict[str, Any], kind: str) -> Optional[tuple[list, list, dict, str, str]]:
        swappable = self.swappable(order)
        picked = self.rng.sample(swappable, min(len(swappable), self.rng.choice([1, 1, 2])))
        pairs = [(item, self.rng.choice(alts)) for item, alts in picked]
        diff = round(sum(v["price"] - i["price"] for i, v in pairs), 2)
        original = order["payment_history"][0]["payment_method_id"]
        methods = self.method_options(need=max(diff, 0.0))
        if not methods:
            return None
        first = [m for m in methods if m["id"] == original]
        method = first[0] if first and self.rng.random() < 0.5 else self.rng.choice(methods)
        old_text = join_phrases([item_phrase(i) for i, _ in pairs])
        new_text = join_phrases([variant_phrase(i["name"], v) for i, v in pairs])
        return pairs, [i["item_id"] for i, _ in pairs], method, old_text, new_text

    def modify_items(self, k: int) -> bool:
        cands = [o for o in self.orders("pending", {"modify_address", "modify_payment"}, "modify_items")
                 if not o.get("items_modified") and self.swappable(o)]
        if not cands:
            return False
        order = self.rng.choice(cands)
        got = self._swap(k, order, "modify_items")
        if got is None:
            return False
        pairs, item_ids, method, old_text, new_text = got
        oid, phrase = order["order_id"], method_phrase(method)
        self.order_fact(order, k)
        self.fact("items_to_change", old_text, ["which items", "which item", "items to change", "item to modify"], k)
        self.fact("new_item_choice", new_text, ["new item", "which option", "which variant", "what would you like instead", "color", "size"], k)
        self.fact("price_difference_payment", phrase, ["price difference", "payment method", "pay the difference", "refund the difference"], k)
        self.read_order(order, k)
        for item, _ in pairs:
            self.read_product(item["product_id"], k)
        self.call("modify_pending_order_items", {"order_id": oid, "item_ids": item_ids,
                                                 "new_item_ids": [v["item_id"] for _, v in pairs],
                                                 "payment_method_id": method["id"]}, k)
        self.order_roles.setdefault(oid, set()).add("modify_items")
        self.intents.append(Intent(
            request=self.rng.choice([
                "I ordered the wrong variant of something and want to change it before it ships.",
                "I'd like to change some items in an order that hasn't shipped yet.",
            ]),
            details=[f"The order is {oid}.", f"Change {old_text}.", f"I want {new_text} instead.",
                     f"Any price difference goes to {phrase}."],
        ))
        self.goals.append(f"In your pending order {oid}, change {old_text} to {new_text}; settle any price difference with {phrase}.")
        self.preferences.append(f"For order {oid}, only change exactly these items; do not change any other item.")
        return True

    def returns(self, k: int) -> bool:
        cands = self.orders("delivered")
        if not cands:
            return False
        order = self.rng.choice(cands)
        items = self.rng.sample(order["items"], self.rng.randint(1, min(2, len(order["items"]))))
        original = order["payment_history"][0]["payment_method_id"]
        methods = [m for m in self.method_options() if m["id"] == original or m["source"] == "gift_card"]
        if not methods:
            return False
        method = self.rng.choice(methods)
        oid, phrase = order["order_id"], method_phrase(method)
        text = join_phrases([item_phrase(i) for i in items])
        self.order_fact(order, k)
        self.fact("items_to_return", text, ["which items", "which item", "items to return", "return"], k)
        self.fact("refund_method", phrase, ["refund", "refund method", "where should the refund go", "payment method"], k)
        self.read_order(order, k)
        self.call("return_delivered_order_items", {"order_id": oid, "item_ids": [i["item_id"] for i in items],
                                                   "payment_method_id": method["id"]}, k)
        self.order_roles.setdefault(oid, set()).add("return")
        self.intents.append(Intent(
            request=self.rng.choice([
                "I want to send back something I received.",
                "I'd like to return items from a delivered order.",
            ]),
            details=[f"The order is {oid}.", f"Return {text}.", f"Refund to {phrase}."],
        ))
        self.goals.append(f"Return {text} from your delivered order {oid}, with the refund going to {phrase}.")
        self.preferences.append(f"For order {oid}, keep every item you do not mention; the refund must go to {phrase}, nowhere else.")
        return True

    def exchange(self, k: int) -> bool:
        cands = [o for o in self.orders("delivered") if self.swappable(o)]
        if not cands:
            return False
        order = self.rng.choice(cands)
        got = self._swap(k, order, "exchange")
        if got is None:
            return False
        pairs, item_ids, method, old_text, new_text = got
        oid, phrase = order["order_id"], method_phrase(method)
        self.order_fact(order, k)
        self.fact("items_to_exchange", old_text, ["which items", "which item", "items to exchange", "exchange"], k)
        self.fact("exchange_item_choice", new_text, ["new item", "which option", "which variant", "what would you like instead", "color", "size"], k)
        self.fact("exchange_payment", phrase, ["price difference", "payment method", "pay the difference", "refund the difference"], k)
        self.read_order(order, k)
        for item, _ in pairs:
            self.read_product(item["product_id"], k)
        self.call("exchange_delivered_order_items", {"order_id": oid, "item_ids": item_ids,
                                                     "new_item_ids": [v["item_id"] for _, v in pairs],
                                                     "payment_method_id": method["id"]}, k)
        self.order_roles.setdefault(oid, set()).add("exchange")
        self.intents.append(Intent(
            request=self.rng.choice([
                "Something I received isn't quite right and I want to exchange it.",
                "I'd like to swap items from a delivered order for a different size or version.",
            ]),
            details=[f"The order is {oid}.", f"Exchange {old_text}.", f"I want {new_text} instead.",
                     f"Any price difference goes to {phrase}."],
        ))
        self.goals.append(f"Exchange {old_text} from your delivered order {oid} for {new_text}; settle any price difference with {phrase}.")
        self.preferences.append(f"For order {oid}, accept only exactly {new_text}; no other variant or product.")
        return True


INTENT_BUILDERS: dict[str, Callable[[_Plan, int], bool]] = {
    "cancel": _Plan.cancel, "modify_address": _Plan.modify_address, "modify_payment": _Plan.modify_payment,
    "modify_items": _Plan.modify_items, "return": _Plan.returns, "exchange": _Plan.exchange,
    "user_address": _Plan.user_address,
}


def _draw_kinds(rng: random.Random, n: int) -> list[str]:
    pool = dict(KIND_WEIGHTS)
    out = []
    for _ in range(n):
        kinds = sorted(pool)
        kind = rng.choices(kinds, [pool[x] for x in kinds])[0]
        out.append(kind)
        del pool[kind]
    return out


def _plan_task(db: Database, user: dict[str, Any], rng: random.Random, n: int) -> Optional[_Plan]:
    plan = _Plan(db, user, rng)
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


def _instruction(plan: _Plan, user: dict[str, Any], persona: str) -> str:
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
