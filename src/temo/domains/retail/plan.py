"""The task under construction in the retail task builder: a `Plan` holds the task's own store, runs
each reference action on it as it is added (so every task replays cleanly), and collects the facts,
intents, goals and preferences that the intent builders (`intents.py`) write.
"""
from __future__ import annotations

import random
from typing import Any, Optional

from temo.core import Action, Fact, Intent
from temo.env import Database, Environment, Store

from .generate import random_address
from .tools import TOOLS

TOOL_MAP = {t.name: t for t in TOOLS}
ADDRESS_FIELDS = ["address1", "address2", "city", "state", "country", "zip"]
# new-address field -> words an agent may use to ask for it
ADDRESS_ALIASES = {
    "address1": ["new street address", "new address line 1", "street address", "street", "new address"],
    "address2": ["new address line 2", "apartment", "suite", "unit", "address line 2"],
    "city": ["new city", "city"],
    "state": ["new state", "state"],
    "country": ["new country", "country"],
    "zip": ["new zip code", "zip code of the new address", "new postal code", "new zip"],
}


class Plan:
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
