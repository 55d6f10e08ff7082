"""Retail grounding hooks for Tracer: one per node of the authors' retail graph.

Each hook picks, in the state as it is now, an order, item or product the tool accepts (pending
orders for cancel/modify, delivered ones for return/exchange, variants in stock, payment methods that
cover the amount), fills the arguments and says what the user asks for in their own words. Users know
their email (or name and zip), their order numbers and what they bought; never item, product, user or
payment-method ids.
"""
from __future__ import annotations

from typing import Any

from temo.domains.kit.challenges import challenge_about
from temo.domains.kit.internal_ids import internal_ids_of
from temo.domains.kit.money import money, usd
from temo.domains.kit.people import name_of, persona_of
from temo.domains.kit.vocabulary import aliases
from temo.domains.kit.wording import and_join
from temo.env.grounding import Challenge, Ground, Grounder, GroundingFailed, Step, hook

from .generate import random_address

HOOKS: dict = {}
BRANDS = {"visa": "Visa", "mastercard": "Mastercard", "amex": "American Express", "discover": "Discover"}
CANCEL_REASONS = ["no longer needed", "ordered by mistake"]
ADDRESS_ALIASES = aliases(__file__)["address"]


def item_phrase(item: dict[str, Any]) -> str:
    return f"the {item['name']} ({', '.join(f'{k} {v}' for k, v in item['options'].items())})"


def variant_phrase(name: str, variant: dict[str, Any]) -> str:
    return f"the {name} with {', '.join(f'{k} {v}' for k, v in variant['options'].items())}"


def method_phrase(m: dict[str, Any]) -> str:
    if m["source"] == "credit_card":
        return f"the {BRANDS.get(m['brand'], m['brand'].title())} card ending in {m['last_four']}"
    return "my PayPal account" if m["source"] == "paypal" else "my gift card"


def address_text(a: dict[str, str]) -> str:
    line2 = f", {a['address2']}" if a["address2"] else ""
    return f"{a['address1']}{line2}, {a['city']}, {a['state']} {a['zip']}, {a['country']}"


# -- shared pieces -----------------------------------------------------------------------------------
def orders(g: Ground, status: str, skip: str = "") -> list[dict[str, Any]]:
    out = []
    for oid in g.user["orders"]:
        o = g.store.get("orders", oid)
        if o["status"] == status and oid not in g.used.get(skip, set()):
            out.append(o)
    return out


def order_fact(g: Ground, order: dict[str, Any]):
    return g.fact("order_id", order["order_id"], ["order id", "order number", "which order"])


def new_address(g: Ground) -> dict[str, str]:
    if "address" not in g.notes:
        cur = g.user["address"]
        while True:
            a = random_address(g.rng)
            if a["address1"] != cur["address1"] and a["zip"] != cur["zip"]:
                break
        g.notes["address"] = a
    return dict(g.notes["address"])


def address_facts(g: Ground, a: dict[str, str]) -> list:
    return [g.fact(f"new_{k}", v, ADDRESS_ALIASES[k]) for k, v in a.items() if v]


def methods(g: Ground, need: float = 0.0, exclude: set[str] = frozenset()) -> list[dict[str, Any]]:
    out = []
    for mid, m in sorted(g.user["payment_methods"].items()):
        if mid in exclude or (m["source"] == "gift_card" and m.get("balance", 0) < need):
            continue
        out.append(m)
    return out


def swappable(g: Ground, order: dict[str, Any]) -> list[tuple[dict, list[dict]]]:
    out = []
    for item in order["items"]:
        product = g.store.get("products", item["product_id"])
        alts = [v for iid, v in sorted(product["variants"].items()) if v["available"] and iid != item["item_id"]]
        if alts:
            out.append((item, alts))
    return out


def mark(g: Ground, kind: str, oid: str) -> None:
    g.used.setdefault(kind, set()).add(oid)


# -- hooks -------------------------------------------------------------------------------------------
@hook(HOOKS)
def get_order_details(g: Ground) -> Step:
    order = g.pick("order", [g.store.get("orders", o) for o in g.user["orders"]], key=lambda o: o["order_id"])
    oid = order["order_id"]
    ask = g.rng.choice([f"I'd like to know where my order {oid} stands.", f"What is the status of my order {oid}?",
                        f"Could I get an update on order {oid}?"])
    return Step(args={"order_id": oid}, ask=ask, facts=[order_fact(g, order)], outputs=[order["status"]],
                focus={"order": oid})


@hook(HOOKS)
def list_all_product_types(g: Ground) -> Step:
    n = len(g.run("list_all_product_types", {}))
    ask = g.rng.choice(["How many different kinds of products does the store sell?",
                        "I'm curious how many product types the store carries."])
    return Step(args={}, ask=ask, outputs=[str(n)])


@hook(HOOKS)
def get_product_details(g: Ground) -> Step:
    oid = g.focus.get("order")
    if oid:
        items = g.store.get("orders", oid)["items"]
        pid = g.pick("product", [i["product_id"] for i in items])
    else:
        pid = g.pick("product", sorted(g.store.keys("products")))
    product = g.store.get("products", pid)
    avail = [v for _, v in sorted(product["variants"].items()) if v["available"]]
    if not avail:
        raise GroundingFailed("no_variant_in_stock")
    v = g.rng.choice(avail)
    phrase = variant_phrase(product["name"], v)
    ask = g.rng.choice([f"How much does {phrase} cost?", f"I'd like the price of {phrase}.",
                        f"What's the current price for {phrase}?"])
    return Step(args={"product_id": pid}, ask=ask, outputs=[usd(v["price"])],
                facts=[g.fact("product_asked_about", phrase, ["which product", "product", "what product"])],
                focus={"product": pid})


@hook(HOOKS)
def cancel_pending_order(g: Ground) -> Step:
    order = g.pick("order", orders(g, "pending"), key=lambda o: o["order_id"], reason="no_pending_order")
    oid, reason = order["order_id"], g.rng.choice(CANCEL_REASONS)
    mark(g, "modified", oid)
    items = and_join([item_phrase(i) for i in order["items"]])
    ask = g.rng.choice([f"I want to cancel my order {oid}; it hasn't shipped yet.", f"Please cancel order {oid}.",
                        f"I need to call off order {oid} before it ships."])
    total = money(sum(i["price"] for i in order["items"]))
    return Step(args={"order_id": oid, "reason": reason}, ask=ask,
                details=[f"It's the one with {items}.", f"The reason is: {reason}."],
                facts=[order_fact(g, order), g.fact("cancel_reason", reason, ["reason", "why", "reason for cancelling"])],
                outputs=[usd(total)], focus={"order": oid})


@hook(HOOKS)
def modify_pending_order_address(g: Ground) -> Step:
    order = g.pick("order", orders(g, "pending"), key=lambda o: o["order_id"], reason="no_pending_order")
    oid, a = order["order_id"], new_address(g)
    ask = g.rng.choice([f"I need order {oid} shipped to a different address.",
                        f"Please change the delivery address on order {oid}."])
    return Step(args={"order_id": oid, **a}, ask=ask, details=[f"The new address is {address_text(a)}."],
                facts=[order_fact(g, order), *address_facts(g, a)], focus={"order": oid})


@hook(HOOKS)
def modify_user_address(g: Ground) -> Step:
    a = new_address(g)
    if g.user["address"] == a:
        raise GroundingFailed("address_unchanged")
    ask = g.rng.choice(["I've moved and want to update the default address on my account.",
                        "Please update the address saved on my account."])
    return Step(args={"user_id": g.user_id, **a}, ask=ask, details=[f"The new address is {address_text(a)}."],
                facts=address_facts(g, a))


@hook(HOOKS)
def modify_pending_order_payment(g: Ground) -> Step:
    options = []
    for order in orders(g, "pending"):
        total = money(sum(i["price"] for i in order["items"]))
        current = order["payment_history"][-1]["payment_method_id"]
        ms = methods(g, need=total, exclude={current})
        if ms:
            options.append((order, ms))
    if not options:
        raise GroundingFailed("no_other_payment_method")
    order, ms = g.pick("order", options, key=lambda x: x[0]["order_id"])
    m = g.rng.choice(ms)
    oid, phrase = order["order_id"], method_phrase(m)
    ask = g.rng.choice([f"I'd like to pay for order {oid} with a different payment method.",
                        f"Can I switch how I'm paying for order {oid}?"])
    return Step(args={"order_id": oid, "payment_method_id": m["id"]}, ask=ask, details=[f"I want to pay with {phrase}."],
                facts=[order_fact(g, order), g.fact("new_payment_method", phrase, ["new payment method", "payment method", "pay with", "which card"])],
                focus={"order": oid})


def _swap(g: Ground, status: str, tool: str, verb: str) -> Step:
    cands = [o for o in orders(g, status, skip="items") if swappable(g, o) and not o.get("items_modified")]
    order = g.pick("order", cands, key=lambda o: o["order_id"], reason=f"no_swappable_{status}_order")
    picked = g.rng.sample(swappable(g, order), min(len(swappable(g, order)), g.rng.choice([1, 1, 2])))
    pairs = [(item, g.rng.choice(alts)) for item, alts in picked]
    diff = money(sum(v["price"] - i["price"] for i, v in pairs))
    ms = methods(g, need=max(diff, 0.0))
    if status == "delivered":
        ms = [m for m in ms if m["source"] != "gift_card" or m.get("balance", 0) >= max(diff, 0.0)]
    if not ms:
        raise GroundingFailed("no_payment_for_difference")
    m = g.rng.choice(ms)
    oid, phrase = order["order_id"], method_phrase(m)
    mark(g, "items", oid)
    old = and_join([item_phrase(i) for i, _ in pairs])
    new = and_join([variant_phrase(i["name"], v) for i, v in pairs])
    ask = (g.rng.choice([f"I'd like to change some items in order {oid} before it ships.",
                         f"I ordered the wrong version of something in order {oid} and want to change it."])
           if status == "pending" else
           g.rng.choice([f"I want to exchange something from order {oid} for a different version.",
                         f"Something in order {oid} isn't right and I'd like to swap it."]))
    return Step(args={"order_id": oid, "item_ids": [i["item_id"] for i, _ in pairs],
                      "new_item_ids": [v["item_id"] for _, v in pairs], "payment_method_id": m["id"]},
                ask=ask, details=[f"{verb} {old}.", f"I want {new} instead.", f"Any price difference goes to {phrase}."],
                facts=[order_fact(g, order), g.fact(f"items_to_{verb.lower()}", old, ["which items", "which item", f"items to {verb.lower()}"]),
                       g.fact("new_item_choice", new, ["new item", "which option", "which variant", "what would you like instead"]),
                       g.fact("difference_payment", phrase, ["price difference", "payment method", "pay the difference", "refund the difference"])],
                outputs=[usd(abs(diff))] if diff else [],
                preferences=[f"Only exactly these items should change, to exactly {new}."],
                focus={"order": oid})


@hook(HOOKS)
def modify_pending_order_items(g: Ground) -> Step:
    return _swap(g, "pending", "modify_pending_order_items", "Change")


@hook(HOOKS)
def exchange_delivered_order_items(g: Ground) -> Step:
    return _swap(g, "delivered", "exchange_delivered_order_items", "Exchange")


@hook(HOOKS)
def return_delivered_order_items(g: Ground) -> Step:
    order = g.pick("order", orders(g, "delivered", skip="items"), key=lambda o: o["order_id"], reason="no_delivered_order")
    items = g.rng.sample(order["items"], g.rng.randint(1, min(2, len(order["items"]))))
    original = order["payment_history"][0]["payment_method_id"]
    ms = [m for m in methods(g) if m["id"] == original or m["source"] == "gift_card"]
    if not ms:
        raise GroundingFailed("no_refund_method")
    m = g.rng.choice(ms)
    oid, phrase = order["order_id"], method_phrase(m)
    mark(g, "items", oid)
    text = and_join([item_phrase(i) for i in items])
    ask = g.rng.choice([f"I want to send back some things from order {oid}.", f"I'd like to return items from order {oid}."])
    return Step(args={"order_id": oid, "item_ids": [i["item_id"] for i in items], "payment_method_id": m["id"]},
                ask=ask, details=[f"Return {text}.", f"The refund should go to {phrase}."],
                facts=[order_fact(g, order), g.fact("items_to_return", text, ["which items", "which item", "items to return"]),
                       g.fact("refund_method", phrase, ["refund", "refund method", "where should the refund go", "payment method"])],
                outputs=[usd(sum(i["price"] for i in items))],
                preferences=["Keep every item not mentioned."], focus={"order": oid})


# -- identity, people, challenges -------------------------------------------------------------------
def authenticate(g: Ground) -> list:
    u = g.user
    if g.rng.random() < 0.6:
        steps = [("find_user_id_by_email", {"email": u["email"]}, [g.fact("email", u["email"], ["email address", "e-mail", "email"])])]
    else:
        first, last, z = u["name"]["first_name"], u["name"]["last_name"], u["address"]["zip"]
        steps = [("find_user_id_by_name_zip", {"first_name": first, "last_name": last, "zip": z},
                  [g.fact("first_name", first, ["first name", "full name", "name"]),
                   g.fact("last_name", last, ["last name", "surname", "full name", "name"]),
                   g.fact("zip", z, ["zip code", "postal code", "postcode"])])]
    return steps + [("get_user_details", {"user_id": g.user_id}, [])]


def _challenge_cancel_delivered(g: Ground):
    return challenge_about(g, orders(g, "delivered"), lambda o: Challenge(
        ask=f"I also want to cancel order {o['order_id']}.", rule="cancel_only_pending",
        reason="that order has already been delivered, and only pending orders can be cancelled (a return is possible "
               "instead)",
        press="It was only delivered recently; can't you cancel it anyway?",
        facts=[order_fact(g, o)]))


def _challenge_return_pending(g: Ground):
    return challenge_about(g, orders(g, "pending"), lambda o: Challenge(
        ask=f"And I'd like to return the items in order {o['order_id']} for a refund to a new card I haven't saved.",
        rule="return_only_delivered",
        reason="only delivered orders can be returned, and a refund can only go to the original payment method or a "
               "gift card",
        press="Surely you can just process the refund now?", facts=[order_fact(g, o)]))


def _challenge_other_person(g: Ground):
    return Challenge(ask="While we're at it, please cancel my neighbour's order as well; I have their order number somewhere.",
                     rule="account_holder_only",
                     reason="I can only act on the account of the verified customer I am talking to",
                     press="They asked me to do it for them, so it's fine, isn't it?")


PENDING_TOOLS = {"cancel_pending_order", "modify_pending_order_address", "modify_pending_order_items", "modify_pending_order_payment"}
DELIVERED_TOOLS = {"return_delivered_order_items", "exchange_delivered_order_items"}


def candidate_users(db, split: str, trace: list[list[str]]) -> list[str]:
    """Users with enough pending and delivered orders for the trace's tools."""
    tools = [t for intent in trace for t in intent]
    need_p = min(2, sum(t in PENDING_TOOLS for t in tools))
    need_d = min(2, sum(t in DELIVERED_TOOLS for t in tools))
    out = []
    for uid, u in sorted(db.tables["users"].items()):
        st = [db.tables["orders"][o]["status"] for o in u["orders"]]
        if st.count("pending") >= need_p and st.count("delivered") >= need_d:
            out.append(uid)
    return out


internal_ids = internal_ids_of(tables=("users", "products"),
                               held={"users": ("payment_methods",), "products": ("variants",)})


persona = persona_of()




GROUNDER = Grounder(
    user_table="users", hooks=HOOKS, authenticate=authenticate, persona=persona, name_of=name_of,
    challenges=[_challenge_cancel_delivered, _challenge_return_pending, _challenge_other_person],
    candidate_users=candidate_users, internal_ids=internal_ids, context="the customer-service agent of an online store",
)
