"""Seeded synthetic telecom database: 500 customers (each with a billing account), 240 support
tickets, and the catalog of 15 services and 19 device models.

Everything is drawn from ``random.Random(seed)``; the clock is never read (dates are relative to
``rules.TODAY``). The records are consistent by construction: every service and device a customer
has is in the catalog, every device is attached to a service of its own category (or to none), no
subscription carries more devices than it allows, each billing account's monthly charges are its
customer's services plus taxes, its balance is the latest statement minus the payments since, and a
customer has at most one open ticket per category.
"""
from __future__ import annotations

import random
from typing import Any

from temo.domains.kit import people
from temo.domains.kit.dates import add_days
from temo.domains.kit.money import money

from . import rules as R
from .catalog import DEVICES, SERVICES, device_records, service_records

N_CUSTOMERS, N_TICKETS = 500, 240
SEPARATE_TRAIN_DB = False  # test and training tasks share this database; customers are split between them

PHONES = [n for n, (c, _, _) in DEVICES.items() if c == "mobile_phone"]
SENIOR_PHONES = ["iPhone SE (3rd gen)", "Samsung Galaxy A54", "iPhone 12", "iPhone 13", "iPhone 14"]
HOME_ROUTERS = ["Basic WiFi Router", "Standard WiFi Router", "WiFi 6 Router"]
HOME_TVS = ['55" Smart TV', 'Samsung 65" Smart TV']


def _choice(rng: random.Random, weighted: dict[str, float]) -> str:
    return rng.choices(list(weighted), list(weighted.values()))[0]


def _services(rng: random.Random, business: bool, senior: bool) -> list[str]:
    out: list[str] = []
    if business:
        if rng.random() < 0.85:
            out.append(_choice(rng, {"mobile_business_10lines": 0.7, "mobile_unlimited": 0.3}))
        if rng.random() < 0.95:
            out.append(_choice(rng, {"internet_fiber_1gb": 0.4, "internet_fiber_2gb": 0.5, "internet_cable_500mb": 0.1}))
        if rng.random() < 0.3:
            out.append(_choice(rng, {"tv_sports_package": 0.5, "tv_basic": 0.5}))
        if rng.random() < 0.6:
            out.append("business_phone_system")
        if rng.random() < 0.35:
            out.append("home_security")
    else:
        if rng.random() < 0.88:
            mobile = ({"mobile_senior": 0.45, "mobile_basic": 0.2, "mobile_unlimited": 0.2, "mobile_family_4lines": 0.15}
                      if senior else {"mobile_basic": 0.35, "mobile_unlimited": 0.4, "mobile_family_4lines": 0.25})
            out.append(_choice(rng, mobile))
        if rng.random() < 0.8:
            out.append(_choice(rng, {"internet_fiber_1gb": 0.25, "internet_fiber_2gb": 0.1, "internet_fiber_500mb": 0.25,
                                     "internet_cable_500mb": 0.2, "internet_cable_100mb": 0.2}))
        if rng.random() < 0.45:
            out.append(_choice(rng, {"tv_basic": 0.5, "tv_premium": 0.3, "tv_sports_package": 0.2}))
        if rng.random() < 0.15:
            out.append("home_security")
    if not out:
        out.append(_choice(rng, {"internet_cable_100mb": 0.5, "mobile_basic": 0.5}))
    return out


def _devices_for(rng: random.Random, sid: str, business: bool, senior: bool) -> list[str]:
    phones = SENIOR_PHONES if senior else PHONES
    if sid == "mobile_family_4lines":
        return [rng.choice(phones) for _ in range(rng.randint(2, 4))]
    if sid == "mobile_business_10lines":
        return [rng.choice(PHONES) for _ in range(rng.randint(2, 8))]
    category = SERVICES[sid][1]
    if category == "mobile":
        return [rng.choice(phones)]
    if category == "internet":
        return [_choice(rng, {"Enterprise Router": 0.7, "WiFi 6 Router": 0.3})] if business else [rng.choice(HOME_ROUTERS)]
    if category == "tv":
        extra = "Conference Room TV" if business else rng.choice(HOME_TVS)
        return ["HD Cable Box", extra] if rng.random() < 0.5 else ["HD Cable Box"]
    if category == "phone":
        return ["Conference Phone System"] * rng.randint(1, 2)
    return ["Home Security System"]


def _customer_devices(rng: random.Random, services: list[str], business: bool, senior: bool) -> list[dict[str, Any]]:
    pairs: list[tuple[str, str | None]] = [(name, sid) for sid in services for name in _devices_for(rng, sid, business, senior)]
    if rng.random() < 0.2:  # a spare device not attached to anything (an old phone, a second TV...)
        pairs.append((rng.choice([*PHONES, *HOME_TVS, "Standard WiFi Router"]), None))
    return [{"device_id": str(n), "name": name, "service": sid} for n, (name, sid) in enumerate(pairs, 1)]


def _billing(rng: random.Random, cid: str, account: dict[str, Any], services: list[str],
             prefs: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The billing record, and the earliest date it mentions (the account must be older)."""
    charges = R.with_taxes({sid: SERVICES[sid][2] for sid in services})
    months = R.CYCLE_MONTHS[prefs["billing_cycle"]]
    bill = money(R.monthly_total(charges) * months)
    statement = R.add_months(f"2025-09-{rng.randint(2, 28):02d}", -rng.randrange(months))
    last_day = add_days(R.TODAY, -1)
    history: list[dict[str, Any]] = []
    method = account["payment_method"]
    r = rng.random()
    if prefs["auto_pay"] or r < 0.72:  # paid in full (auto-pay pays on the statement date)
        delay = 0 if prefs["auto_pay"] else rng.randint(0, 12)
        history.append({"date": min(add_days(statement, delay), last_day), "amount": bill, "status": "completed",
                        "method": method})
    elif r < 0.84:  # paid in part
        history.append({"date": min(add_days(statement, rng.randint(0, 10)), last_day),
                        "amount": money(round(bill * rng.uniform(0.3, 0.8))), "status": "completed", "method": method})
    paid = money(sum(p["amount"] for p in history))
    earlier = rng.randint(2, 5) if months == 1 else rng.randint(1, 3)  # earlier statements, all paid
    for k in range(1, earlier + 1):
        late = not prefs["auto_pay"] and rng.random() < 0.1
        day = add_days(R.add_months(statement, -months * k), rng.randint(16, 24) if late else rng.randint(0, 9))
        history.append({"date": day, "amount": bill, "status": "late" if late else "completed", "method": method})
    record = {
        "customer_id": cid,
        "account_number": account["account_number"],
        "current_balance": money(bill - paid),
        "last_payment": dict(history[0]),
        "last_statement": {"date": statement, "amount": bill},
        "next_bill_date": R.add_months(statement, months),
        "monthly_charges": charges,
        "payment_history": history,
        "auto_pay": prefs["auto_pay"],
        "paperless": prefs["paperless"],
        "billing_cycle": prefs["billing_cycle"],
    }
    return record, min(statement, *(p["date"] for p in history))


def _customers(rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    customers: dict[str, Any] = {}
    billing: dict[str, Any] = {}
    phones: set[str] = set()
    emails: set[str] = set()
    for i, (first, last) in enumerate(people.unique_names(rng, N_CUSTOMERS)):
        while True:
            cid = f"{first.lower()}_{last.lower()}_{rng.randint(0, 9999):04d}"
            if cid not in customers:
                break
        while (phone := people.phone(rng)) in phones:
            pass
        while (email := people.email(first, last, rng.randint(1, 999), rng)) in emails:
            pass
        phones.add(phone)
        emails.add(email)
        business = rng.random() < 0.12
        senior = rng.random() < 0.3
        dob = people.birth_date(rng, 1936, 1959) if senior else people.birth_date(rng, 1961, 2004)
        services = _services(rng, business, senior)
        prefs = {"paperless": rng.random() < 0.6, "auto_pay": rng.random() < 0.4,
                 "billing_cycle": _choice(rng, {"monthly": 0.75, "quarterly": 0.15, "annual": 0.1})}
        account = {"account_number": f"ACC{1_000_000 + i:09d}", "account_type": "business" if business else "residential",
                   "created_date": "", "credit_score": rng.randint(560, 850),
                   "payment_method": _choice(rng, {"credit_card": 0.6, "bank_transfer": 0.4})}
        bill, earliest = _billing(rng, cid, account, services, prefs)
        account["created_date"] = add_days(earliest, -rng.randint(20, 2500))
        customers[cid] = {
            "customer_id": cid,
            "name": {"first_name": first, "last_name": last},
            "demographics": {"date_of_birth": dob, "phone": phone, "email": email},
            "address": people.address(rng),
            "account": account,
            "services": services,
            "devices": _customer_devices(rng, services, business, senior),
            "billing_preferences": dict(prefs),
        }
        billing[cid] = bill
    return customers, billing


def _tickets(rng: random.Random, customers: dict[str, Any]) -> dict[str, Any]:
    owners = list(customers)
    rng.shuffle(owners)
    drafts: list[dict[str, Any]] = []
    open_keys: set[tuple[str, str]] = set()
    for cid in owners:
        if len(drafts) >= N_TICKETS:
            break
        cust = customers[cid]
        topics = [R.SERVICE_CATEGORY[DEVICES[d["name"]][0]] for d in cust["devices"]]
        topics = sorted({*(SERVICES[s][1] for s in cust["services"]), *topics}) + ["billing", "account", "device"]
        for _ in range(min(rng.choice([1, 1, 1, 2, 2, 3]), N_TICKETS - len(drafts))):
            category = rng.choice(topics)
            recent = rng.random() < 0.4
            created = add_days(R.TODAY, -rng.randint(1, 60) if recent else -rng.randint(61, 365))
            status = "open" if rng.random() < (0.65 if recent else 0.05) else "closed"
            if status == "open" and (cid, category) in open_keys:
                status = "closed"
            if status == "open":
                open_keys.add((cid, category))
            drafts.append({"customer_id": cid, "category": category, "status": status, "created_date": created,
                           "priority": _choice(rng, {"low": 0.25, "medium": 0.45, "high": 0.22, "urgent": 0.08})})
    drafts.sort(key=lambda t: (t["created_date"], t["customer_id"], t["category"]))
    out = {}
    for n, t in enumerate(drafts, 1):
        tid = f"TICKET{n:05d}"
        out[tid] = {"ticket_id": tid, **t}
    return out


def build_database(seed: int = 0, split: str = "test") -> dict[str, dict[str, Any]]:
    """The telecom tables for ``seed`` (``split`` is accepted for the common interface; both splits
    share this one database)."""
    rng = random.Random(seed)
    customers, billing = _customers(rng)
    return {
        "customers": customers,
        "billing": billing,
        "services": service_records(),
        "devices": device_records(),
        "tickets": _tickets(rng, customers),
    }
