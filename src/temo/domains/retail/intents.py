"""Intent builders of the retail task builder, one per kind of request, and the `INTENT_BUILDERS` table.

Each builder looks at the current state of the plan's store (so later intents see earlier changes),
picks an order or the account where the policy allows the request, runs the reference actions on the
plan (the reads a careful agent needs, then the write) and records the facts the user must supply, the
intent, the goal and any preferences. It returns False when the user has nothing suitable.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from temo.core import Intent

from .plan import Plan

CANCEL_REASONS = ["no longer needed", "ordered by mistake"]
BRANDS = {"visa": "Visa", "mastercard": "Mastercard", "amex": "American Express", "discover": "Discover"}


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


def address_text(addr: dict[str, str]) -> str:
    return f"{addr['address1']}, {addr['address2']}, {addr['city']}, {addr['state']} {addr['zip']}, {addr['country']}"


# ---- intent builders -------------------------------------------------------------------------


def cancel(plan: Plan, k: int) -> bool:
    """Cancel a pending order."""
    cands = plan.orders("pending")
    if not cands:
        return False
    order = plan.rng.choice(cands)
    reason = plan.rng.choice(CANCEL_REASONS)
    oid, items = order["order_id"], join_phrases([item_phrase(i) for i in order["items"]])
    plan.order_fact(order, k)
    plan.fact("cancel_reason", reason, ["reason", "why", "reason for cancelling"], k)
    plan.read_order(order, k)
    plan.call("cancel_pending_order", {"order_id": oid, "reason": reason}, k)
    plan.order_roles.setdefault(oid, set()).add("cancel")
    plan.intents.append(Intent(
        request=plan.rng.choice([
            "I want to cancel an order that hasn't shipped yet.",
            "Please cancel one of my recent orders.",
            "I need to call off an order I placed.",
        ]),
        details=[f"The order is {oid}; it contains {items}.", f"The reason is: {reason}."],
    ))
    plan.goals.append(f"Cancel your order {oid} (it contains {items}). If asked for a reason, say '{reason}'.")
    return True


def modify_address(plan: Plan, k: int) -> bool:
    """Ship a pending order to a new address."""
    cands = plan.orders("pending", {"modify_payment", "modify_items", "user_address"}, "modify_address")
    if not cands:
        return False
    order = plan.rng.choice(cands)
    oid = order["order_id"]
    plan.order_fact(order, k)
    addr = plan.address_facts(k)
    plan.read_order(order, k)
    plan.call("modify_pending_order_address", {"order_id": oid, **addr}, k)
    plan.order_roles.setdefault(oid, set()).add("modify_address")
    text = address_text(addr)
    plan.intents.append(Intent(
        request=plan.rng.choice([
            "I need one of my pending orders shipped to a different address.",
            "Please change the shipping address on an order I placed.",
        ]),
        details=[f"The order is {oid}.", f"The new address is {text}."],
    ))
    plan.goals.append(f"Have your pending order {oid} shipped to {text} instead.")
    return True


def user_address(plan: Plan, k: int) -> bool:
    """Change the default address of the account (at most once per task)."""
    if "user_address" in plan.kinds:
        return False
    addr = plan.address_facts(k)
    plan.call("modify_user_address", {"user_id": plan.user_id, **addr}, k)
    text = address_text(addr)
    plan.intents.append(Intent(
        request=plan.rng.choice([
            "I've moved and want to update the default address on my account.",
            "Please update my account's default address.",
        ]),
        details=[f"The new address is {text}."],
    ))
    plan.goals.append(f"Update the default address on your account to {text}.")
    return True


def modify_payment(plan: Plan, k: int) -> bool:
    """Pay for a pending order with another saved method that can cover the total."""
    options = []
    for order in plan.orders("pending", {"modify_address", "modify_items"}, "modify_payment"):
        total = round(sum(i["price"] for i in order["items"]), 2)
        original = order["payment_history"][0]["payment_method_id"]
        methods = plan.method_options({original}, need=total)
        if methods:
            options.append((order, methods))
    if not options:
        return False
    order, methods = plan.rng.choice(options)
    method = plan.rng.choice(methods)
    oid, phrase = order["order_id"], method_phrase(method)
    plan.order_fact(order, k)
    plan.fact("new_payment_method", phrase, ["new payment method", "payment method", "pay with", "which card"], k)
    plan.read_order(order, k)
    plan.call("modify_pending_order_payment", {"order_id": oid, "payment_method_id": method["id"]}, k)
    plan.order_roles.setdefault(oid, set()).add("modify_payment")
    plan.intents.append(Intent(
        request=plan.rng.choice([
            "I'd like to pay for one of my pending orders with a different payment method.",
            "Can I switch the payment method on an order I haven't received yet?",
        ]),
        details=[f"The order is {oid}.", f"I want to pay with {phrase}."],
    ))
    plan.goals.append(f"Switch the payment of your pending order {oid} to {phrase}.")
    return True


def _pick_swaps(plan: Plan, order: dict[str, Any]) -> Optional[tuple[list, list, dict, str, str]]:
    """Draw one or two items of the order to swap, a new variant for each and a payment method for the
    difference; returns (pairs, item ids, method, old items text, new items text), or None without a method."""
    swappable = plan.swappable(order)
    picked = plan.rng.sample(swappable, min(len(swappable), plan.rng.choice([1, 1, 2])))
    pairs = [(item, plan.rng.choice(alts)) for item, alts in picked]
    diff = round(sum(v["price"] - i["price"] for i, v in pairs), 2)
    original = order["payment_history"][0]["payment_method_id"]
    methods = plan.method_options(need=max(diff, 0.0))
    if not methods:
        return None
    first = [m for m in methods if m["id"] == original]
    method = first[0] if first and plan.rng.random() < 0.5 else plan.rng.choice(methods)
    old_text = join_phrases([item_phrase(i) for i, _ in pairs])
    new_text = join_phrases([variant_phrase(i["name"], v) for i, v in pairs])
    return pairs, [i["item_id"] for i, _ in pairs], method, old_text, new_text


@dataclass(frozen=True)
class SwapWording:
    """What differs between changing items of a pending order and exchanging items of a delivered one."""

    kind: str  # the intent kind, also the role the order gets
    tool: str
    fact_keys: tuple[str, str, str]  # the items to swap, the new items, the payment method for the difference
    item_aliases: list[str]  # how an agent may ask which items
    requests: list[str]  # what the user may say first, one drawn per task
    verb: str  # "Change" / "Exchange": the detail that names the items
    goal: str  # templates with {oid}, {old}, {new} and {phrase}
    preference: str


NEW_ITEM_ALIASES = ["new item", "which option", "which variant", "what would you like instead", "color", "size"]
DIFFERENCE_ALIASES = ["price difference", "payment method", "pay the difference", "refund the difference"]
MODIFY_ITEMS = SwapWording(
    kind="modify_items",
    tool="modify_pending_order_items",
    fact_keys=("items_to_change", "new_item_choice", "price_difference_payment"),
    item_aliases=["which items", "which item", "items to change", "item to modify"],
    requests=[
        "I ordered the wrong variant of something and want to change it before it ships.",
        "I'd like to change some items in an order that hasn't shipped yet.",
    ],
    verb="Change",
    goal="In your pending order {oid}, change {old} to {new}; settle any price difference with {phrase}.",
    preference="For order {oid}, only change exactly these items; do not change any other item.",
)
EXCHANGE = SwapWording(
    kind="exchange",
    tool="exchange_delivered_order_items",
    fact_keys=("items_to_exchange", "exchange_item_choice", "exchange_payment"),
    item_aliases=["which items", "which item", "items to exchange", "exchange"],
    requests=[
        "Something I received isn't quite right and I want to exchange it.",
        "I'd like to swap items from a delivered order for a different size or version.",
    ],
    verb="Exchange",
    goal="Exchange {old} from your delivered order {oid} for {new}; settle any price difference with {phrase}.",
    preference="For order {oid}, accept only exactly {new}; no other variant or product.",
)


def _swap_intent(plan: Plan, k: int, cands: list[dict[str, Any]], wording: SwapWording) -> bool:
    """Swap items of one of `cands` for other variants of the same products (modify or exchange)."""
    if not cands:
        return False
    order = plan.rng.choice(cands)
    got = _pick_swaps(plan, order)
    if got is None:
        return False
    pairs, item_ids, method, old_text, new_text = got
    oid, phrase = order["order_id"], method_phrase(method)
    items_key, new_key, payment_key = wording.fact_keys
    plan.order_fact(order, k)
    plan.fact(items_key, old_text, wording.item_aliases, k)
    plan.fact(new_key, new_text, NEW_ITEM_ALIASES, k)
    plan.fact(payment_key, phrase, DIFFERENCE_ALIASES, k)
    plan.read_order(order, k)
    for item, _ in pairs:
        plan.read_product(item["product_id"], k)
    plan.call(wording.tool, {"order_id": oid, "item_ids": item_ids, "new_item_ids": [v["item_id"] for _, v in pairs],
                             "payment_method_id": method["id"]}, k)
    plan.order_roles.setdefault(oid, set()).add(wording.kind)
    plan.intents.append(Intent(
        request=plan.rng.choice(wording.requests),
        details=[f"The order is {oid}.", f"{wording.verb} {old_text}.", f"I want {new_text} instead.",
                 f"Any price difference goes to {phrase}."],
    ))
    texts = {"oid": oid, "old": old_text, "new": new_text, "phrase": phrase}
    plan.goals.append(wording.goal.format(**texts))
    plan.preferences.append(wording.preference.format(**texts))
    return True


def modify_items(plan: Plan, k: int) -> bool:
    """Change items of a pending order, not modified before, for other variants of the same products."""
    cands = [o for o in plan.orders("pending", {"modify_address", "modify_payment"}, "modify_items")
             if not o.get("items_modified") and plan.swappable(o)]
    return _swap_intent(plan, k, cands, MODIFY_ITEMS)


def return_items(plan: Plan, k: int) -> bool:
    """Return one or two items of a delivered order; the refund goes to the original method or a gift card."""
    cands = plan.orders("delivered")
    if not cands:
        return False
    order = plan.rng.choice(cands)
    items = plan.rng.sample(order["items"], plan.rng.randint(1, min(2, len(order["items"]))))
    original = order["payment_history"][0]["payment_method_id"]
    methods = [m for m in plan.method_options() if m["id"] == original or m["source"] == "gift_card"]
    if not methods:
        return False
    method = plan.rng.choice(methods)
    oid, phrase = order["order_id"], method_phrase(method)
    text = join_phrases([item_phrase(i) for i in items])
    plan.order_fact(order, k)
    plan.fact("items_to_return", text, ["which items", "which item", "items to return", "return"], k)
    plan.fact("refund_method", phrase, ["refund", "refund method", "where should the refund go", "payment method"], k)
    plan.read_order(order, k)
    plan.call("return_delivered_order_items", {"order_id": oid, "item_ids": [i["item_id"] for i in items],
                                               "payment_method_id": method["id"]}, k)
    plan.order_roles.setdefault(oid, set()).add("return")
    plan.intents.append(Intent(
        request=plan.rng.choice([
            "I want to send back something I received.",
            "I'd like to return items from a delivered order.",
        ]),
        details=[f"The order is {oid}.", f"Return {text}.", f"Refund to {phrase}."],
    ))
    plan.goals.append(f"Return {text} from your delivered order {oid}, with the refund going to {phrase}.")
    plan.preferences.append(f"For order {oid}, keep every item you do not mention; the refund must go to {phrase}, nowhere else.")
    return True


def exchange(plan: Plan, k: int) -> bool:
    """Exchange items of a delivered order for other variants of the same products."""
    cands = [o for o in plan.orders("delivered") if plan.swappable(o)]
    return _swap_intent(plan, k, cands, EXCHANGE)


# intent kind -> builder
INTENT_BUILDERS: dict[str, Callable[[Plan, int], bool]] = {
    "cancel": cancel, "modify_address": modify_address, "modify_payment": modify_payment,
    "modify_items": modify_items, "return": return_items, "exchange": exchange,
    "user_address": user_address,
}
