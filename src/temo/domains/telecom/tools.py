"""Tools of the telecom support desk: 12 read tools (10 domain + the generic calculate and think) and
6 write tools, with the names and arguments of the public environment this domain comes from.

Every rule a tool can check is checked here (see policy.md and README.md): one service per category,
eligibility of senior and business plans, device categories and device limits, one open ticket per
category, closed tickets stay closed, auto-pay only without a balance, payments only today and never
above the balance. A refused call changes nothing (the environment rolls it back).
"""
from __future__ import annotations

import re
from typing import Any, Literal, Optional

from temo.domains.kit.dates import parse_date
from temo.domains.kit.ids import next_id
from temo.domains.kit.lookup import require
from temo.domains.kit.tooling import record_finder, record_reader
from temo.domains.kit.money import money, usd
from temo.env import Store, ToolError, tool
from temo.env.generic import calculate, think

from . import rules as R

TicketCategory = Literal["mobile", "internet", "tv", "billing", "account", "device", "security", "phone"]
Priority = Literal["low", "medium", "high", "urgent"]


# ------------------------------------------------------------------------------------------
# helpers (not tools)
# ------------------------------------------------------------------------------------------
def _customer(db: Store, customer_id: str) -> dict[str, Any]:
    rec = db.get("customers", customer_id)
    if rec is None:
        raise ToolError(f"customer {customer_id!r} not found; customer ids look like 'jane_doe_1234' and come from "
                        "find_customer_by_email or find_customer_by_phone")
    return rec


def _billing(db: Store, customer_id: str) -> dict[str, Any]:
    _customer(db, customer_id)
    return require(db, "billing", customer_id, "billing account of customer")


def _catalog_device(db: Store, device_name: str) -> dict[str, Any]:
    rec = db.get("devices", device_name)
    if rec is None:
        names = ", ".join(repr(k) for k in db.keys("devices"))
        raise ToolError(f"device model {device_name!r} is not in the catalog; use one of: {names}")
    return rec


def _service(db: Store, service_id: str) -> dict[str, Any]:
    rec = db.get("services", service_id)
    if rec is None:
        raise ToolError(f"service {service_id!r} not found; call get_services to see the catalog's service ids")
    return rec


def _ticket(db: Store, ticket_id: str) -> dict[str, Any]:
    rec = db.get("tickets", ticket_id)
    if rec is None:
        raise ToolError(f"ticket {ticket_id!r} not found; ticket ids look like 'TICKET00012'")
    return rec


def _check_eligible(customer: dict[str, Any], service: dict[str, Any]) -> None:
    if service["eligibility"] == "senior" and not R.is_senior(customer):
        raise ToolError(f"{service['name']} is only for customers aged {R.SENIOR_AGE} or older; this customer is "
                        f"{R.age_on(customer['demographics']['date_of_birth'])}")
    if service["eligibility"] == "business" and customer["account"]["account_type"] != "business":
        raise ToolError(f"{service['name']} is only for business accounts; this is a residential account")


def _check_devices(db: Store, customer: dict[str, Any], service: dict[str, Any], devices_ids: list[str]) -> None:
    if len(set(devices_ids)) != len(devices_ids):
        raise ToolError("devices_ids names a device more than once; list each device id once")
    if len(devices_ids) > service["max_devices"]:
        raise ToolError(f"{service['name']} carries at most {service['max_devices']} device(s); "
                        f"{len(devices_ids)} were given")
    owned = {d["device_id"]: d for d in customer["devices"]}
    want = R.DEVICE_CATEGORY[service["category"]]
    for did in devices_ids:
        dev = owned.get(did)
        if dev is None:
            raise ToolError(f"device {did!r} is not on this customer's account; its device ids are "
                            f"{sorted(owned, key=int)} (see get_customer_details)")
        category = db.get("devices", dev["name"])["category"]
        if category != want:
            raise ToolError(f"device {did} ({dev['name']}) is a {category} device and cannot be attached to "
                            f"{service['name']}, which takes {want} devices")
        if dev["service"] is not None:
            raise ToolError(f"device {did} ({dev['name']}) is already attached to {dev['service']}; remove that "
                            "service first (a plan change is a removal followed by an addition)")


def _set_charges(db: Store, customer_id: str, charges: dict[str, float]) -> dict[str, float]:
    bill = db.edit("billing", customer_id)
    bill["monthly_charges"] = R.with_taxes(charges)
    return bill["monthly_charges"]


# ------------------------------------------------------------------------------------------
# read tools
# ------------------------------------------------------------------------------------------
find_customer_by_email = record_finder("find_customer_by_email", "email", "customers", "demographics__email", "Find a customer's id from their email address (not case-sensitive). Use it to identify the customer.", "The customer's email address, such as 'jane.doe42@example.com'.", missing="no customer has the email {email!r}; ask the user to check it, or look them up by phone number")


@tool(kind="read")
def find_customer_by_phone(db: Store, phone: str) -> str:
    """Find a customer's id from their phone number; only the digits are compared, so any formatting works.

    Args:
        phone: The customer's phone number, such as '415-555-0123' or '(415) 555-0123'.
    """
    want = R.digits(phone)
    if len(want) != 10:
        raise ToolError(f"{phone!r} is not a 10-digit phone number; ask the user for the full number")
    hits = [cid for cid, c in db.items("customers") if R.digits(c["demographics"]["phone"]) == want]
    if not hits:
        raise ToolError(f"no customer has the phone number {phone!r}; ask the user to check it, or look them up by email")
    if len(hits) > 1:
        raise ToolError("several customers share this phone number; look the customer up by email instead")
    return hits[0]


get_customer_details = record_reader("get_customer_details", "customer_id", _customer, "Get a customer's profile: name, date of birth, contact details, address, account, services, devices (with the service each is attached to) and billing preferences.", "The customer's id, such as 'jane_doe_1234'.")
get_service_details = record_reader("get_service_details", "service_id", _service, "Get one catalog service: name, category, monthly price, how many devices it carries and who may subscribe.", "The service id, such as 'mobile_unlimited' or 'internet_fiber_1gb'.")
get_device_details = record_reader("get_device_details", "device_name", _catalog_device, "Get the catalog entry of a device model: category, manufacturer and model number.", "The catalog name of the device model, such as 'iPhone 15 Pro' or 'WiFi 6 Router'.")
get_billing_details = record_reader("get_billing_details", "customer_id", _billing, "Get a customer's billing account: current balance, last payment, latest statement, next bill date, monthly charges, payment history, auto-pay, paperless and billing cycle.", "The customer's id, such as 'jane_doe_1234'.")


@tool(kind="read")
def troubleshoot_device(db: Store, device_name: str, issue: Literal["no_service", "slow_speeds", "battery_drain"]) -> dict:
    """Get the troubleshooting steps for a device model and a kind of problem.

    Args:
        device_name: The catalog name of the device model, such as 'iPhone 14' or 'Basic WiFi Router'.
        issue: The problem: 'no_service' (no signal or connection), 'slow_speeds' or 'battery_drain'.
    """
    device = _catalog_device(db, device_name)
    steps = R.GUIDES.get((device["category"], issue))
    if steps is None:
        raise ToolError(f"there is no troubleshooting guide for {issue} on a {device['category']} device "
                        f"({device_name}); offer to open a support ticket instead")
    return {"device_name": device_name, "issue": issue, "steps": list(steps)}


get_support_ticket_details = record_reader("get_support_ticket_details", "ticket_id", _ticket, "Get one support ticket: its customer, category, status, priority and creation date.", "The ticket id, such as 'TICKET00012'.")


@tool(kind="read")
def get_services(db: Store) -> list:
    """List every service in the catalog, with its id, name, category, monthly price, device limit and eligibility."""
    return list(db.values("services"))


@tool(kind="read")
def get_senior_discount(db: Store, original_price: str) -> str:
    """Get the monthly price of a service after the senior discount ($5.00 off, never below zero). It only
    computes a price; it does not apply anything to an account.

    Args:
        original_price: The service's regular monthly price, such as '95.00'.
    """
    if not re.fullmatch(r"\s*\d+(\.\d{1,2})?\s*", original_price):
        raise ToolError(f"original_price {original_price!r} is not a price; give it like '95.00'")
    return f"{max(money(float(original_price) - R.SENIOR_DISCOUNT), 0.0):.2f}"


# ------------------------------------------------------------------------------------------
# write tools
# ------------------------------------------------------------------------------------------
@tool(kind="write")
def manage_service(db: Store, customer_id: str, action: Literal["add", "remove", "list"],
                   service_id: Optional[str] = None, devices_ids: Optional[list[str]] = None) -> dict:
    """Add a service to a customer's account (optionally attaching some of their devices to it), remove one
    (its devices are detached), or list the account's services. Monthly charges are updated.

    Args:
        customer_id: The customer's id, such as 'jane_doe_1234'.
        action: 'add', 'remove' or 'list'.
        service_id: The service to add or remove, such as 'mobile_unlimited' (not used by 'list').
        devices_ids: Only for 'add': ids of the customer's devices to attach, such as ['1', '3'].
    """
    customer = _customer(db, customer_id)
    if action == "list":
        if service_id is not None or devices_ids is not None:
            raise ToolError("action 'list' takes no service_id or devices_ids")
        return {"customer_id": customer_id, "services": [_service(db, s) for s in customer["services"]]}
    if not service_id:
        raise ToolError(f"service_id is required to {action} a service")
    service = _service(db, service_id)
    charges = dict(_billing(db, customer_id)["monthly_charges"])
    if action == "remove":
        if devices_ids is not None:
            raise ToolError("devices_ids is only used when adding a service; removing detaches every device of the service")
        if service_id not in customer["services"]:
            raise ToolError(f"customer {customer_id} does not have {service['name']} ({service_id}); "
                            f"their services are {customer['services']}")
        rec = db.edit("customers", customer_id)
        rec["services"].remove(service_id)
        detached = []
        for dev in rec["devices"]:
            if dev["service"] == service_id:
                dev["service"] = None
                detached.append(dev["device_id"])
        charges.pop(service_id, None)
        new = _set_charges(db, customer_id, charges)
        return {"customer_id": customer_id, "removed": service_id, "devices_detached": detached,
                "monthly_charges": new, "monthly_total": R.monthly_total(new)}
    if service_id in customer["services"]:
        raise ToolError(f"customer {customer_id} already has {service['name']} ({service_id})")
    same = [s for s in customer["services"] if db.get("services", s)["category"] == service["category"]]
    if same:
        raise ToolError(f"customer {customer_id} already has a {service['category']} service ({same[0]}); only one per "
                        "category is allowed, so remove it first (a plan change is a removal followed by an addition)")
    _check_eligible(customer, service)
    ids = list(devices_ids or [])
    _check_devices(db, customer, service, ids)
    rec = db.edit("customers", customer_id)
    rec["services"].append(service_id)
    for dev in rec["devices"]:
        if dev["device_id"] in ids:
            dev["service"] = service_id
    charges[service_id] = service["price"]
    new = _set_charges(db, customer_id, charges)
    return {"customer_id": customer_id, "added": service_id, "devices_attached": ids, "monthly_charges": new,
            "monthly_total": R.monthly_total(new)}


@tool(kind="write")
def create_support_ticket(db: Store, customer_id: str, category: TicketCategory, priority: Priority = "medium") -> dict:
    """Open a new support ticket for a customer. A customer can have only one open ticket per category.

    Args:
        customer_id: The customer's id, such as 'jane_doe_1234'.
        category: What the problem is about: 'mobile', 'internet', 'tv', 'billing', 'account', 'device', 'security' or 'phone'.
        priority: 'low' (no hurry), 'medium' (standard, the default), 'high' (badly affected) or 'urgent' (within 24 hours).
    """
    _customer(db, customer_id)
    for t in db.values("tickets"):
        if t["customer_id"] == customer_id and t["category"] == category and t["status"] == "open":
            raise ToolError(f"customer {customer_id} already has open ticket {t['ticket_id']} in category {category}; "
                            "update that ticket instead of opening a second one")
    tid = next_id(db, "tickets", "TICKET", 5)
    rec = {"ticket_id": tid, "customer_id": customer_id, "category": category, "status": "open",
           "priority": priority, "created_date": R.TODAY}
    db.insert("tickets", tid, rec)
    return rec


@tool(kind="write")
def add_device(db: Store, customer_id: str, device_name: str) -> dict:
    """Add a catalog device to a customer's account. It gets the next device number on the account and is not
    attached to any service (attach it with manage_service when adding a service).

    Args:
        customer_id: The customer's id, such as 'jane_doe_1234'.
        device_name: The catalog name of the device model, such as 'Google Pixel 8'.
    """
    _customer(db, customer_id)
    _catalog_device(db, device_name)
    rec = db.edit("customers", customer_id)
    number = max((int(d["device_id"]) for d in rec["devices"]), default=0) + 1
    entry = {"device_id": str(number), "name": device_name, "service": None}
    rec["devices"].append(entry)
    return {"customer_id": customer_id, "device": dict(entry)}


@tool(kind="write")
def manage_billing(db: Store, customer_id: str, paperless: bool, auto_pay: bool,
                   billing_cycle: Literal["monthly", "quarterly", "annual"]) -> dict:
    """Set a customer's billing preferences. All three are set at once: give the current value for any the
    customer does not want to change.

    Args:
        customer_id: The customer's id, such as 'jane_doe_1234'.
        paperless: True for bills by email only, False for paper bills.
        auto_pay: True to pay each bill automatically with the account's payment method.
        billing_cycle: 'monthly', 'quarterly' or 'annual'.
    """
    bill = _billing(db, customer_id)
    if (bill["paperless"], bill["auto_pay"], bill["billing_cycle"]) == (paperless, auto_pay, billing_cycle):
        raise ToolError("these are already the customer's billing preferences; nothing to change")
    if auto_pay and not bill["auto_pay"] and bill["current_balance"] > 0:
        raise ToolError(f"auto-pay cannot be turned on while {usd(bill['current_balance'])} is outstanding; "
                        "the balance must be paid first")
    prefs = {"paperless": paperless, "auto_pay": auto_pay, "billing_cycle": billing_cycle}
    db.edit("billing", customer_id).update(prefs)
    db.edit("customers", customer_id)["billing_preferences"].update(prefs)
    return {"customer_id": customer_id, **prefs}


@tool(kind="write")
def record_payment(db: Store, customer_id: str, amount: float, method: Literal["credit_card", "bank_transfer"],
                   date: str) -> dict:
    """Record a payment made today toward a customer's outstanding balance.

    Args:
        customer_id: The customer's id, such as 'jane_doe_1234'.
        amount: The amount paid in dollars, more than 0 and at most the current balance, such as 52.40.
        method: 'credit_card' or 'bank_transfer'.
        date: The payment date, YYYY-MM-DD; it must be today's date.
    """
    bill = _billing(db, customer_id)
    parse_date(date, "date")
    if date != R.TODAY:
        raise ToolError(f"payments can only be recorded for today ({R.TODAY}), not for {date}")
    amount = money(amount)
    if amount <= 0:
        raise ToolError("amount must be more than 0")
    balance = bill["current_balance"]
    if balance <= 0:
        raise ToolError("this account has no outstanding balance, so there is nothing to pay")
    if amount > balance:
        raise ToolError(f"{usd(amount)} is more than the outstanding balance of {usd(balance)}; a payment cannot exceed it")
    new_balance = money(balance - amount)
    rec = db.edit("billing", customer_id)
    rec["current_balance"] = new_balance
    payment = {"date": date, "amount": amount, "status": "completed", "method": method}
    rec["payment_history"].insert(0, payment)
    rec["last_payment"] = dict(payment)
    return {"customer_id": customer_id, "amount": f"{amount:.2f}", "method": method, "date": date,
            "current_balance": f"{new_balance:.2f}"}


@tool(kind="write")
def modify_support_ticket(db: Store, ticket_id: str, status: Literal["open", "closed"], priority: Priority) -> dict:
    """Set an open ticket's status and priority (both at once: give the current value for the one that stays).
    Closed tickets cannot be changed or reopened.

    Args:
        ticket_id: The ticket id, such as 'TICKET00012'.
        status: 'open' or 'closed'.
        priority: 'low', 'medium', 'high' or 'urgent'.
    """
    ticket = _ticket(db, ticket_id)
    if ticket["status"] == "closed":
        raise ToolError(f"ticket {ticket_id} is closed and cannot be changed or reopened; open a new ticket if the "
                        "problem is back")
    if (ticket["status"], ticket["priority"]) == (status, priority):
        raise ToolError(f"ticket {ticket_id} is already {status} with priority {priority}; nothing to change")
    rec = db.edit("tickets", ticket_id)
    rec["status"], rec["priority"] = status, priority
    return dict(rec)


READ_TOOLS = [find_customer_by_email, find_customer_by_phone, get_customer_details, get_service_details,
              get_device_details, get_billing_details, troubleshoot_device, get_support_ticket_details, get_services,
              get_senior_discount, calculate, think]
WRITE_TOOLS = [manage_service, create_support_ticket, add_device, manage_billing, record_payment, modify_support_ticket]
TOOLS = [*READ_TOOLS, *WRITE_TOOLS]
AUTH_TOOLS = ["find_customer_by_email", "find_customer_by_phone"]
