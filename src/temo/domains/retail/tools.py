"""Tools of the retail customer-service desk: 9 read tools (6 domain + 3 generic) and 7 write tools."""
from __future__ import annotations

from collections import Counter
from typing import Any, Literal, Optional

from temo.domains.kit.lookup import first_key, require_id
from temo.domains.kit.tooling import record_finder, record_reader
from temo.env import GENERIC_TOOLS, Store, ToolError, tool

# ------------------------------------------------------------------------------------------
# helpers (not tools)
# ------------------------------------------------------------------------------------------


def _money(x: float) -> float:
    return round(x + 0.0, 2)


def _order(db: Store, order_id: str) -> dict[str, Any]:
    return require_id(db, "orders", order_id, prefix="#W", looks_like="order ids look like '#W1234567', with the '#'",
                      missing="order {key} not found{hint}")


def _user(db: Store, user_id: str) -> dict[str, Any]:
    user = db.get("users", user_id)
    if user is None:
        raise ToolError(f"user {user_id} not found")
    return user


def _require_status(order: dict[str, Any], status: str, action: str) -> None:
    if order["status"] != status:
        raise ToolError(f"order {order['order_id']} is '{order['status']}'; only {status} orders can be {action}")


def _user_method(db: Store, user_id: str, payment_method_id: str) -> dict[str, Any]:
    method = _user(db, user_id)["payment_methods"].get(payment_method_id)
    if method is None:
        raise ToolError(f"payment method {payment_method_id} does not belong to user {user_id}")
    return method


def _adjust_gift_card(db: Store, user_id: str, payment_method_id: str, delta: float) -> None:
    """Add `delta` to a gift card balance (negative to charge); ToolError if it would go below zero."""
    method = db.get("users", user_id)["payment_methods"].get(payment_method_id)
    if method is None or method["source"] != "gift_card" or not delta:
        return
    new_balance = _money(method["balance"] + delta)
    if new_balance < 0:
        raise ToolError(
            f"gift card {payment_method_id} has a balance of {method['balance']:.2f}, "
            f"not enough to pay {-delta:.2f}; choose another payment method"
        )
    db.edit("users", user_id)["payment_methods"][payment_method_id]["balance"] = new_balance


def _check_addr(**fields: str) -> dict[str, str]:
    for name in ("address1", "city", "state", "country", "zip"):
        if not fields[name].strip():
            raise ToolError(f"{name} must not be empty")
    return {k: v.strip() for k, v in fields.items()}


def _check_items(order: dict[str, Any], item_ids: list[str], new_item_ids: Optional[list[str]] = None) -> None:
    """Check that `item_ids` names at least one item and only items of the order (each at most as often as
    it occurs there); for a swap, also that `new_item_ids` gives one new item per item."""
    if not item_ids:
        raise ToolError("item_ids must name at least one item")
    if new_item_ids is not None and len(item_ids) != len(new_item_ids):
        raise ToolError("item_ids and new_item_ids must have the same length (one new item per item)")
    in_order = Counter(i["item_id"] for i in order["items"])
    for iid, n in Counter(item_ids).items():
        if in_order[iid] < n:
            raise ToolError(f"item {iid} is not in order {order['order_id']} (or not that many times)")


def _swap_items(db: Store, order: dict[str, Any], item_ids: list[str], new_item_ids: list[str]) -> list[tuple[dict, dict]]:
    """Validate a list of item swaps; returns (copy of the old order item with its index, new variant) pairs."""
    _check_items(order, item_ids, new_item_ids)
    pairs = []
    taken: set[int] = set()
    for old_id, new_id in zip(item_ids, new_item_ids):
        idx = next(n for n, i in enumerate(order["items"]) if i["item_id"] == old_id and n not in taken)
        taken.add(idx)
        old = dict(order["items"][idx], index=idx)  # a copy: the order may be edited in place later
        product = db.get("products", old["product_id"])
        variant = product["variants"].get(new_id) if product else None
        if variant is None:
            raise ToolError(f"new item {new_id} is not a variant of the same product ({old['name']}, {old['product_id']})")
        if new_id == old_id:
            raise ToolError(f"new item {new_id} is the same as the current item")
        if not variant["available"]:
            raise ToolError(f"new item {new_id} is not available")
        pairs.append((old, variant))
    return pairs


def _net_paid(order: dict[str, Any]) -> dict[str, float]:
    net: dict[str, float] = {}
    for p in order["payment_history"]:
        sign = 1 if p["transaction_type"] == "payment" else -1
        net[p["payment_method_id"]] = _money(net.get(p["payment_method_id"], 0.0) + sign * p["amount"])
    return net


# ------------------------------------------------------------------------------------------
# read tools
# ------------------------------------------------------------------------------------------


find_user_id_by_email = record_finder("find_user_id_by_email", "email", "users", "email", "Find a user's id from their email address. Use it to authenticate the user.", "The user's email address, such as 'jane.doe123@example.com'.", missing="no user with email {email}")


@tool(kind="read")
def find_user_id_by_name_zip(db: Store, first_name: str, last_name: str, zip: str) -> str:
    """Find a user's id from their first name, last name and the zip code of their default address. Use it to authenticate the user when they cannot give an email.

    Args:
        first_name: The user's first name, such as 'Jane'.
        last_name: The user's last name, such as 'Doe'.
        zip: The zip code of the user's default address, such as '78701'.
    """
    return first_key(db, "users", "no user with this name and zip code",
                     name__first_name=first_name, name__last_name=last_name, address__zip=zip)


get_user_details = record_reader("get_user_details", "user_id", _user, "Get a user's profile: name, email, default address, saved payment methods (with gift card balances) and order ids.", "The user id, such as 'jane_doe_1234'.")
get_order_details = record_reader("get_order_details", "order_id", _order, "Get an order: status, owner, shipping address, items (with item and product ids, options, prices), fulfilments and payment history.", "The order id, such as '#W0000000' (with the '#').")


@tool(kind="read")
def get_product_details(db: Store, product_id: str) -> dict:
    """Get a product with all its variants: item id, options, price and whether it is available.

    Args:
        product_id: The product id, such as '6086499569'. It differs from item ids.
    """
    product = db.get("products", product_id)
    if product is None:
        raise ToolError(f"product {product_id} not found (product ids differ from item ids)")
    return product


@tool(kind="read")
def list_all_product_types(db: Store) -> dict:
    """List every product type sold by the store, as a map from product name to product id."""
    return {p["name"]: p["product_id"] for p in sorted(db.values("products"), key=lambda p: p["name"])}


# ------------------------------------------------------------------------------------------
# write tools
# ------------------------------------------------------------------------------------------


@tool(kind="write")
def cancel_pending_order(db: Store, order_id: str, reason: Literal["no longer needed", "ordered by mistake"]) -> dict:
    """Cancel a pending order. Every payment is refunded to the method it came from; gift card refunds are immediate, others take 5 to 7 business days.

    Args:
        order_id: The order id, such as '#W0000000'.
        reason: Why the user cancels: 'no longer needed' or 'ordered by mistake'.
    """
    order = _order(db, order_id)
    _require_status(order, "pending", "cancelled")
    rec = db.edit("orders", order_id)
    for method_id, amount in sorted(_net_paid(order).items()):
        if amount > 0:
            rec["payment_history"].append({"transaction_type": "refund", "amount": amount, "payment_method_id": method_id})
            _adjust_gift_card(db, order["user_id"], method_id, amount)
    rec["status"] = "cancelled"
    rec["cancel_reason"] = reason
    return rec


@tool(kind="write")
def modify_pending_order_address(db: Store, order_id: str, address1: str, address2: str, city: str, state: str,
                                 country: str, zip: str) -> dict:
    """Change the shipping address of a pending order.

    Args:
        order_id: The order id, such as '#W0000000'.
        address1: First address line (house number and street).
        address2: Second address line (apartment, suite or unit).
        city: City.
        state: State, such as 'TX'.
        country: Country, such as 'USA'.
        zip: Zip code.
    """
    order = _order(db, order_id)
    _require_status(order, "pending", "modified")
    rec = db.edit("orders", order_id)
    rec["address"] = _check_addr(address1=address1, address2=address2, city=city, state=state, country=country, zip=zip)
    return rec


@tool(kind="write")
def modify_pending_order_payment(db: Store, order_id: str, payment_method_id: str) -> dict:
    """Pay for a pending order with a different saved payment method. The full order total is charged to the new method and the old payment is refunded.

    Args:
        order_id: The order id, such as '#W0000000'.
        payment_method_id: The id of the user's new payment method, such as 'credit_card_1234567' or 'gift_card_1234567'.
    """
    order = _order(db, order_id)
    _require_status(order, "pending", "modified")
    _user_method(db, order["user_id"], payment_method_id)
    net = {m: a for m, a in _net_paid(order).items() if a > 0}
    if set(net) == {payment_method_id}:
        raise ToolError(f"order {order_id} is already paid with {payment_method_id}; pick a different payment method")
    total = _money(sum(i["price"] for i in order["items"]))
    rec = db.edit("orders", order_id)
    rec["payment_history"].append({"transaction_type": "payment", "amount": total, "payment_method_id": payment_method_id})
    _adjust_gift_card(db, order["user_id"], payment_method_id, -total)
    for method_id, amount in sorted(net.items()):
        rec["payment_history"].append({"transaction_type": "refund", "amount": amount, "payment_method_id": method_id})
        _adjust_gift_card(db, order["user_id"], method_id, amount)
    return rec


@tool(kind="write")
def modify_pending_order_items(db: Store, order_id: str, item_ids: list[str], new_item_ids: list[str],
                               payment_method_id: str) -> dict:
    """Swap items of a pending order for other available variants of the same products. Allowed once per order, so include every item to change in one call. The price difference is charged to, or refunded to, the given payment method.

    Args:
        order_id: The order id, such as '#W0000000'.
        item_ids: Ids of the items in the order to change, such as ['1008292230'].
        new_item_ids: Ids of the new items, in the same order as item_ids; each a variant of the same product.
        payment_method_id: The user's payment method for the price difference, such as 'paypal_1234567'.
    """
    order = _order(db, order_id)
    _require_status(order, "pending", "modified")
    if order.get("items_modified"):
        raise ToolError(f"the items of order {order_id} have already been modified once; they cannot be modified again")
    pairs = _swap_items(db, order, item_ids, new_item_ids)
    _user_method(db, order["user_id"], payment_method_id)
    rec = db.edit("orders", order_id)
    diff = 0.0
    for old, variant in pairs:
        item = rec["items"][old["index"]]
        diff += variant["price"] - item["price"]
        item.update(item_id=variant["item_id"], price=variant["price"], options=dict(variant["options"]))
    diff = _money(diff)
    rec["items_modified"] = True
    if diff:
        kind = "payment" if diff > 0 else "refund"
        rec["payment_history"].append({"transaction_type": kind, "amount": abs(diff), "payment_method_id": payment_method_id})
        _adjust_gift_card(db, order["user_id"], payment_method_id, -diff)  # raises (and rolls back) if too low
    return rec


@tool(kind="write")
def modify_user_address(db: Store, user_id: str, address1: str, address2: str, city: str, state: str, country: str,
                        zip: str) -> dict:
    """Change the default address of a user. Existing orders keep their own shipping address.

    Args:
        user_id: The user id, such as 'jane_doe_1234'.
        address1: First address line (house number and street).
        address2: Second address line (apartment, suite or unit).
        city: City.
        state: State, such as 'TX'.
        country: Country, such as 'USA'.
        zip: Zip code.
    """
    _user(db, user_id)
    rec = db.edit("users", user_id)
    rec["address"] = _check_addr(address1=address1, address2=address2, city=city, state=state, country=country, zip=zip)
    return rec


@tool(kind="write")
def return_delivered_order_items(db: Store, order_id: str, item_ids: list[str], payment_method_id: str) -> dict:
    """Request the return of items from a delivered order. The refund goes to the original payment method or to one of the user's gift cards; the user receives return instructions by email.

    Args:
        order_id: The order id, such as '#W0000000'.
        item_ids: Ids of the items to return, such as ['1008292230'].
        payment_method_id: Where the refund goes: the order's original payment method or a gift card of the user.
    """
    order = _order(db, order_id)
    _require_status(order, "delivered", "returned")
    _check_items(order, item_ids)
    method = _user_method(db, order["user_id"], payment_method_id)
    original = order["payment_history"][0]["payment_method_id"]
    if payment_method_id != original and method["source"] != "gift_card":
        raise ToolError(f"the refund must go to the original payment method ({original}) or to a gift card")
    rec = db.edit("orders", order_id)
    rec["status"] = "return requested"
    rec["return_items"] = sorted(item_ids)
    rec["return_payment_method_id"] = payment_method_id
    return rec


@tool(kind="write")
def exchange_delivered_order_items(db: Store, order_id: str, item_ids: list[str], new_item_ids: list[str],
                                   payment_method_id: str) -> dict:
    """Request an exchange of items from a delivered order for other available variants of the same products. Allowed once per order, so include every item to exchange in one call. The price difference is settled with the given payment method.

    Args:
        order_id: The order id, such as '#W0000000'.
        item_ids: Ids of the items in the order to exchange, such as ['1008292230'].
        new_item_ids: Ids of the new items, in the same order as item_ids; each a variant of the same product.
        payment_method_id: The user's payment method for the price difference, such as 'gift_card_1234567'.
    """
    order = _order(db, order_id)
    _require_status(order, "delivered", "exchanged")
    pairs = _swap_items(db, order, item_ids, new_item_ids)
    method = _user_method(db, order["user_id"], payment_method_id)
    diff = _money(sum(v["price"] - old["price"] for old, v in pairs))
    if method["source"] == "gift_card" and diff > method["balance"]:
        raise ToolError(f"gift card {payment_method_id} has a balance of {method['balance']:.2f}, not enough for the difference of {diff:.2f}")
    rec = db.edit("orders", order_id)
    rec["status"] = "exchange requested"
    rec["exchange_items"] = sorted(item_ids)
    rec["exchange_new_items"] = sorted(new_item_ids)
    rec["exchange_payment_method_id"] = payment_method_id
    rec["exchange_price_difference"] = diff
    return rec


READ_TOOLS = [find_user_id_by_email, find_user_id_by_name_zip, get_user_details, get_order_details,
              get_product_details, list_all_product_types]
WRITE_TOOLS = [cancel_pending_order, modify_pending_order_address, modify_pending_order_items,
               modify_pending_order_payment, modify_user_address, return_delivered_order_items,
               exchange_delivered_order_items]
TOOLS = [*READ_TOOLS, *WRITE_TOOLS, *GENERIC_TOOLS]
AUTH_TOOLS = ["find_user_id_by_email", "find_user_id_by_name_zip"]
