"""Generate beneficiaries (saved payees): people and businesses, domestic (routing number) or international
(IBAN and SWIFT/BIC), with limits, a verification state and, for some, an earlier transfer."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from temo.domains.kit import people
from temo.domains.kit.dates import add_days
from temo.domains.kit.money import money

from . import catalog
from .rules import MAX_DAILY_LIMIT, TODAY, WIRE_FEE_DOMESTIC, WIRE_FEE_INTERNATIONAL, iban_with_check, routing_with_check, stamp

if TYPE_CHECKING:  # pragma: no cover
    from .generate import Builder

PER_TRANSFER = [300.0, 500.0, 1000.0, 1500.0, 2000.0, 2500.0, 5000.0]


def digits(rng: random.Random, n: int) -> str:
    return "".join(str(rng.randint(0, 9)) for _ in range(n))


def bban(rng: random.Random, shape: list[tuple[str, int]]) -> str:
    out = ""
    for kind, n in shape:
        out += "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(n)) if kind == "a" else digits(rng, n)
    return out


def foreign_address(rng: random.Random, country: str, city: str) -> dict[str, str]:
    return {"address1": f"{rng.choice(catalog.FOREIGN_STREETS)} {rng.randint(1, 180)}", "address2": "",
            "city": city, "state": "", "zip": digits(rng, 5), "country": country}


def bank_details(rng: random.Random, international: bool) -> tuple[dict[str, Any], dict[str, str] | None]:
    """(bank details, foreign address or None)."""
    masked = "****" + digits(rng, 4)
    if not international:
        name, prefix = rng.choice(catalog.US_BANKS)
        return ({"bank_name": name, "account_number_masked": masked,
                 "routing_number": routing_with_check(prefix + digits(rng, 4)), "iban": None, "swift_bic": None}, None)
    name, swift, code, country, city, shape = rng.choice(catalog.FOREIGN_BANKS)
    return ({"bank_name": name, "account_number_masked": masked, "routing_number": None,
             "iban": iban_with_check(code, bban(rng, shape)), "swift_bic": swift}, foreign_address(rng, country, city))


def eligible_sources(client: dict[str, Any]) -> list[dict[str, Any]]:
    """Accounts a payee may be paid from: the client's own checking and savings accounts that are not closed."""
    return [a for a in client["accounts"].values() if a["type"] != "credit" and a["status"] != "closed"]


def make_beneficiary(b: "Builder", client: dict[str, Any], ben_id: str) -> dict[str, Any]:
    rng = b.rng
    business = rng.random() < 0.3
    international = rng.random() < 0.15
    taken = {b.beneficiaries[x]["name"]["display_name"] for x in client["beneficiary_ids"]}
    while True:
        if business:
            first = last = None
            display = business_name = rng.choice(catalog.BUSINESS_PAYEES)
        else:
            first, last = people.full_name(rng)
            business_name, display = None, f"{first} {last}"
        if display not in taken:
            break
        business = not business
    details, foreign = bank_details(rng, international)
    sources = eligible_sources(client)
    usd = [a for a in sources if a["currency"] == "USD"] or sources
    allowed = sorted(a["account_id"] for a in rng.sample(usd, rng.randint(1, len(usd))))
    per = rng.choice(PER_TRANSFER)
    daily = min(MAX_DAILY_LIMIT, per * rng.choice([1, 2, 2, 3, 4]))
    vstatus = rng.choices(["verified", "pending", "failed"], [0.7, 0.2, 0.1])[0]
    methods = ["micro_deposits", "document"] if international else ["micro_deposits", "document", "instant"]
    created_day = add_days(TODAY, -rng.randint(5, 900))
    verified_at = stamp(add_days(created_day, rng.randint(0, 4)), 10, 0) if vstatus == "verified" else None
    status = rng.choices(["active", "suspended", "revoked"], [0.88, 0.07, 0.05])[0]
    ben = {
        "beneficiary_id": ben_id, "client_id": client["client_id"],
        "name": {"display_name": display, "first_name": first, "last_name": last, "business_name": business_name},
        "type": "business" if business else "individual", "bank_details": details,
        "address": foreign or people.address(rng), "allowed_from_account_ids": allowed,
        "transfer_limits": {"per_transfer_limit": per, "daily_limit": daily},
        "verification": {"status": vstatus, "method": rng.choice(methods), "verified_at": verified_at},
        "status": status, "created_at": stamp(created_day, rng.randint(8, 20), rng.randint(0, 59)),
        "notes": rng.choice(catalog.PAYEE_NOTES_BUSINESS if business else catalog.PAYEE_NOTES_PERSON),
    }
    if vstatus == "verified" and rng.random() < 0.5:
        src = client["accounts"][rng.choice(allowed)]
        if src["status"] == "active":
            method = "Wire" if international else rng.choices(["ACH", "Wire"], [0.8, 0.2])[0]
            fee = (WIRE_FEE_INTERNATIONAL if international else WIRE_FEE_DOMESTIC) if method == "Wire" else 0.0
            amount = money(min(per, rng.choice([50, 120, 200, 350, 500, 800, 1200])))
            day = add_days(TODAY, -rng.randint(3, 60))
            if day > created_day:
                b.event(client, src, day, "transfer", "debit", amount, f"Transfer to {display}", method,
                        fees=[{"type": "wire_fee", "amount": fee}] if fee else [], beneficiary_id=ben_id)
    return ben


def todays_transfers(b: "Builder", rng: random.Random) -> None:
    """Some verified payees were already paid earlier today, so that one more transfer, though within the
    per-transfer limit, can pass the daily limit: the rule the tools leave to the agent (the source never
    checks it). Drawn from a separate ``rng`` after everything else, and stamped before NOW."""
    for ben_id in sorted(b.beneficiaries):
        ben = b.beneficiaries[ben_id]
        if ben["status"] != "active" or ben["verification"]["status"] != "verified" or rng.random() >= 0.3:
            continue
        client = b.clients[ben["client_id"]]
        sources = [client["accounts"][a] for a in ben["allowed_from_account_ids"]
                   if client["accounts"][a]["status"] == "active"]
        if not sources:
            continue
        src = rng.choice(sources)
        per, daily = ben["transfer_limits"]["per_transfer_limit"], ben["transfer_limits"]["daily_limit"]
        left = money(round(per * rng.uniform(0.15, 0.6) / 10) * 10)  # still allowed today: less than one transfer
        due = money(daily - left)
        parts = max(1, -(-int(due * 100) // int(per * 100)))
        international = ben["bank_details"]["iban"] is not None
        method = "Wire" if international else "ACH"
        fee = WIRE_FEE_INTERNATIONAL if international else 0.0
        for k in range(parts):
            amount = money(due / parts) if k < parts - 1 else money(due - money(due / parts) * (parts - 1))
            b.event(client, src, TODAY, "transfer", "debit", amount, f"Transfer to {ben['name']['display_name']}", method,
                    fees=[{"type": "wire_fee", "amount": fee}] if fee else [], beneficiary_id=ben_id,
                    hour=8 + 2 * k)
