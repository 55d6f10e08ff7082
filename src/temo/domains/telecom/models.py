"""Records of the telecom world: customers, their billing accounts, support tickets, and the catalog
of services and device models.

These pydantic models document the shape of every table in ``data/db.json``; a test validates every
record against them. Tools work on the plain JSON records, not on these classes.
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, Field
from temo.domains.kit.records import (Demographics, IsoDate as Day, Name, PersonKey, PostalAddress, Strict as _Strict,
                                      coded)

ServiceCategory = Literal["mobile", "internet", "tv", "phone", "security"]
DeviceCategory = Literal["mobile_phone", "networking", "tv", "phone", "security"]
TicketCategory = Literal["mobile", "internet", "tv", "billing", "account", "device", "security", "phone"]
Priority = Literal["low", "medium", "high", "urgent"]
Cycle = Literal["monthly", "quarterly", "annual"]
Method = Literal["credit_card", "bank_transfer"]


Address = PostalAddress


class Account(_Strict):
    account_number: str = coded("ACC", 9)
    account_type: Literal["residential", "business"]
    created_date: Day
    credit_score: int = Field(ge=300, le=850)
    payment_method: Method


class OwnedDevice(_Strict):
    """A device on the customer's account: ``device_id`` is its number on this account ('1', '2', ...);
    ``name`` a catalog model; ``service`` the subscription it is attached to, or None."""

    device_id: str = Field(pattern=r"^[1-9]\d*$")
    name: str
    service: Optional[str]


class BillingPreferences(_Strict):
    paperless: bool
    auto_pay: bool
    billing_cycle: Cycle


class Customer(_Strict):
    customer_id: PersonKey
    name: Name
    demographics: Demographics
    address: Address
    account: Account
    services: list[str]
    devices: list[OwnedDevice]
    billing_preferences: BillingPreferences


class Service(_Strict):
    """A catalog subscription. ``max_devices``: how many devices it can carry; ``eligibility``: who may
    subscribe (``senior``: customers aged 65 or more; ``business``: business accounts)."""

    service_id: str
    name: str
    category: ServiceCategory
    price: float = Field(gt=0)
    max_devices: int = Field(ge=1)
    eligibility: Literal["all", "senior", "business"]


class Device(_Strict):
    """A catalog device model, keyed by its name."""

    name: str
    category: DeviceCategory
    manufacturer: str
    model: str


class Payment(_Strict):
    date: Day
    amount: float = Field(gt=0)
    status: Literal["completed", "late"]
    method: Method


class Statement(_Strict):
    """The latest bill: its date and total (monthly total times the months in the billing cycle)."""

    date: Day
    amount: float = Field(ge=0)


class Billing(_Strict):
    """A customer's billing account. ``current_balance`` is the latest statement minus the payments
    made since it; ``monthly_charges`` has one line per service plus ``taxes_fees``."""

    customer_id: str
    account_number: str
    current_balance: float = Field(ge=0)
    last_payment: Payment
    last_statement: Statement
    next_bill_date: Day
    monthly_charges: dict[str, float]
    payment_history: list[Payment] = Field(min_length=1)
    auto_pay: bool
    paperless: bool
    billing_cycle: Cycle


class Ticket(_Strict):
    ticket_id: str = coded("TICKET", 5)
    customer_id: str
    category: TicketCategory
    status: Literal["open", "closed"]
    priority: Priority
    created_date: Day


TABLE_MODELS: dict[str, type[BaseModel]] = {
    "customers": Customer, "billing": Billing, "services": Service, "devices": Device, "tickets": Ticket,
}
TABLE_KEYS = {"customers": "customer_id", "billing": "customer_id", "services": "service_id", "devices": "name",
              "tickets": "ticket_id"}
