"""Records of the retail world: users, products (with their purchasable variants) and orders.

These pydantic models document the shape of every table in `data/db.json[.gz]`; a test validates
every record against them. Tools work on the plain JSON records, not on these classes.
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, Field

from temo.domains.kit.records import CardOrBalance, Name, PostalAddress as Address, Strict as _Strict

ORDER_STATUSES = ("pending", "processed", "delivered", "cancelled", "return requested", "exchange requested")
OrderStatus = Literal["pending", "processed", "delivered", "cancelled", "return requested", "exchange requested"]


class PaymentMethod(CardOrBalance):
    """A saved way to pay. Credit cards carry brand and last four digits; gift cards a balance."""

    id: str
    source: Literal["credit_card", "paypal", "gift_card"]


class User(_Strict):
    user_id: str
    name: Name
    email: str
    address: Address
    payment_methods: dict[str, PaymentMethod]
    orders: list[str] = Field(default_factory=list)


class Variant(_Strict):
    """One purchasable item of a product: a combination of option values with its own price."""

    item_id: str
    options: dict[str, str]
    available: bool
    price: float


class Product(_Strict):
    product_id: str
    name: str
    variants: dict[str, Variant]


class OrderItem(_Strict):
    name: str
    product_id: str
    item_id: str
    price: float
    options: dict[str, str]


class Fulfillment(_Strict):
    tracking_id: list[str]
    item_ids: list[str]


class PaymentEntry(_Strict):
    transaction_type: Literal["payment", "refund"]
    amount: float
    payment_method_id: str


class Order(_Strict):
    order_id: str
    user_id: str
    address: Address
    items: list[OrderItem] = Field(min_length=1)
    status: OrderStatus
    fulfillments: list[Fulfillment] = Field(default_factory=list)
    payment_history: list[PaymentEntry] = Field(min_length=1)
    items_modified: bool = False
    cancel_reason: Optional[Literal["no longer needed", "ordered by mistake"]] = None
    return_items: Optional[list[str]] = None
    return_payment_method_id: Optional[str] = None
    exchange_items: Optional[list[str]] = None
    exchange_new_items: Optional[list[str]] = None
    exchange_payment_method_id: Optional[str] = None
    exchange_price_difference: Optional[float] = None


TABLE_MODELS: dict[str, type[BaseModel]] = {"users": User, "products": Product, "orders": Order}
