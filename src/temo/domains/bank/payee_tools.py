"""Write tools for beneficiaries (saved payees): add one, verify one."""
from __future__ import annotations

import re
from typing import Literal, Optional

from temo.domains.kit.ids import next_id
from temo.domains.kit.lookup import require
from temo.domains.kit.money import usd
from temo.env import Store, ToolError, tool

from . import access
from .rules import BEN_PREFIX, BEN_WIDTH, MASK, MAX_DAILY_LIMIT, NOW, SWIFT, iban_ok, mask, routing_ok

Method = Literal["micro_deposits", "document", "instant"]
DOMESTIC = {"usa", "us", "united states", "united states of america"}


def _text(value: Optional[str]) -> Optional[str]:
    """Stripped text, or None for None or blank."""
    if value is None:
        return None
    value = value.strip()
    return value or None


def _account_mask(number: str) -> str:
    s = number.strip().replace(" ", "").replace("-", "")
    if MASK.match(s) or re.fullmatch(r"\d{4,17}", s):
        return mask(s)
    raise ToolError("account_number_masked must be the account number (4 to 17 digits) or its mask such as '****1234'")


def _owned(db: Store, client_id: str, beneficiary_id: str) -> dict:
    ben = require(db, "beneficiaries", beneficiary_id, "beneficiary")
    if ben["client_id"] != client_id:
        raise ToolError(f"beneficiary {beneficiary_id} does not belong to client {client_id}")
    return ben


@tool(kind="write")
def add_beneficiary(db: Store, client_id: str, beneficiary_id: Optional[str] = None, *,
                    beneficiary_type: Literal["individual", "business"], display_name: Optional[str],
                    first_name: Optional[str], last_name: Optional[str], business_name: Optional[str], bank_name: str,
                    account_number_masked: str, routing_number: Optional[str], iban: Optional[str],
                    swift_bic: Optional[str], address1: str, address2: str, city: str, state: str, zip: str,
                    country: str, allowed_from_account_ids: list[str], per_transfer_limit: float, daily_limit: float,
                    verification_method: Method = "document") -> dict:
    """Save a new beneficiary (payee) for the client. It starts active with verification pending, so it cannot be paid until verified. A payee in the USA needs a routing number (no IBAN or SWIFT); a payee abroad needs an IBAN and a SWIFT/BIC code (no routing number). Pass null for the name fields that do not apply. The id is assigned by the bank.

    Args:
        client_id: The client id, such as 'cl_0042'.
        beneficiary_id: Leave out: the next free id is assigned (if given, it must be that id).
        beneficiary_type: individual or business.
        display_name: The name shown in payee lists; null to use the person's or business's name.
        first_name: An individual's first name; null for a business.
        last_name: An individual's last name; null for a business.
        business_name: A business's name; null for an individual.
        bank_name: The payee's bank.
        account_number_masked: The payee's account number, or its mask such as '****1234'; only the last four digits are kept.
        routing_number: The 9-digit US routing number; null for a payee abroad.
        iban: The IBAN of a payee abroad; null for a US payee.
        swift_bic: The SWIFT/BIC code of a payee abroad; null for a US payee.
        address1: The payee's street address.
        address2: Apartment, suite or unit; empty string if none.
        city: The payee's city.
        state: The payee's state (two letters in the USA); empty string abroad if none.
        zip: The payee's zip or postal code.
        country: The payee's country, such as 'USA' or 'Germany'.
        allowed_from_account_ids: The client's own checking or savings accounts this payee may be paid from.
        per_transfer_limit: The largest single transfer allowed, greater than zero.
        daily_limit: The most that may be sent to this payee in one day, at least the per-transfer limit and at most $25,000.
        verification_method: How the payee will be verified: micro_deposits, document (default) or instant (US payees only).
    """
    rec = access.client(db, client_id)
    access.require_kyc(rec)
    expected = next_id(db, "beneficiaries", BEN_PREFIX, BEN_WIDTH)
    if beneficiary_id is not None and beneficiary_id != expected:
        raise ToolError(f"beneficiary ids are assigned by the bank; leave beneficiary_id out (the next one is {expected})")
    first, last, business = _text(first_name), _text(last_name), _text(business_name)
    if beneficiary_type == "individual":
        if not (first and last):
            raise ToolError("an individual beneficiary needs first_name and last_name")
        if business:
            raise ToolError("business_name must be null for an individual beneficiary")
        default_display = f"{first} {last}"
    else:
        if not business:
            raise ToolError("a business beneficiary needs business_name")
        if first or last:
            raise ToolError("first_name and last_name must be null for a business beneficiary")
        default_display = business
    display = _text(display_name) or default_display
    bank = _text(bank_name)
    if not bank:
        raise ToolError("bank_name must not be empty")
    for field, value in (("address1", address1), ("city", city), ("zip", zip), ("country", country)):
        if not value.strip():
            raise ToolError(f"{field} must not be empty")
    domestic = country.strip().lower() in DOMESTIC
    routing, iban_s, swift = _text(routing_number), _text(iban), _text(swift_bic)
    if domestic:
        if not routing or not routing_ok(routing):
            raise ToolError("a payee in the USA needs a valid 9-digit routing_number")
        if iban_s or swift:
            raise ToolError("iban and swift_bic must be null for a payee in the USA")
        if not re.fullmatch(r"[A-Za-z]{2}", state.strip()):
            raise ToolError("state must be the two-letter state code for a payee in the USA")
    else:
        iban_s = iban_s.replace(" ", "").upper() if iban_s else None
        swift = swift.upper() if swift else None
        if not iban_s or not iban_ok(iban_s):
            raise ToolError("a payee abroad needs a valid IBAN (check the letters and digits)")
        if not swift or not SWIFT.match(swift):
            raise ToolError("a payee abroad needs a SWIFT/BIC code of 8 or 11 characters")
        if routing:
            raise ToolError("routing_number must be null for a payee abroad")
        if verification_method == "instant":
            raise ToolError("instant verification is only available for payees in the USA; use micro_deposits or document")
    allowed = sorted(set(allowed_from_account_ids))
    if not allowed:
        raise ToolError("allowed_from_account_ids must name at least one of the client's accounts")
    for aid in allowed:
        acc = access.own_account(db, client_id, aid, "allowed account")
        if acc["type"] == "credit" or acc["status"] == "closed":
            raise ToolError(f"{aid} is a {acc['status']} {acc['type']} account; payees can only be paid from open "
                            "checking or savings accounts")
    per = access.check_amount(per_transfer_limit, "per_transfer_limit")
    daily = access.check_amount(daily_limit, "daily_limit")
    if per > daily:
        raise ToolError("per_transfer_limit cannot be larger than daily_limit")
    if daily > MAX_DAILY_LIMIT:
        raise ToolError(f"daily_limit cannot be above {usd(MAX_DAILY_LIMIT)}")
    masked = _account_mask(account_number_masked)
    for bid in rec["beneficiary_ids"]:
        other = db.get("beneficiaries", bid)
        same_bank = other["bank_details"]["routing_number"] == routing if domestic else other["bank_details"]["iban"] == iban_s
        if other["status"] != "revoked" and same_bank and other["bank_details"]["account_number_masked"] == masked:
            raise ToolError(f"this bank account is already saved as beneficiary {bid} ({other['name']['display_name']})")
    ben = {
        "beneficiary_id": expected, "client_id": client_id,
        "name": {"display_name": display, "first_name": first, "last_name": last, "business_name": business},
        "type": beneficiary_type,
        "bank_details": {"bank_name": bank, "account_number_masked": masked, "routing_number": routing if domestic else None,
                         "iban": None if domestic else iban_s, "swift_bic": None if domestic else swift},
        "address": {"address1": address1.strip(), "address2": address2.strip(), "city": city.strip(),
                    "state": state.strip().upper() if domestic else state.strip(), "zip": zip.strip(),
                    "country": "USA" if domestic else country.strip()},
        "allowed_from_account_ids": allowed,
        "transfer_limits": {"per_transfer_limit": per, "daily_limit": daily},
        "verification": {"status": "pending", "method": verification_method, "verified_at": None},
        "status": "active", "created_at": NOW, "notes": "",
    }
    db.insert("beneficiaries", expected, ben)
    db.edit("clients", client_id)["beneficiary_ids"].append(expected)
    return ben


@tool(kind="write")
def verify_beneficiary(db: Store, client_id: str, beneficiary_id: str, method: Method = "document") -> dict:
    """Mark one of the client's active beneficiaries as verified. A pending verification is completed with the method chosen when the payee was added; after a failed one, any method may be used. Instant verification is for US payees only.

    Args:
        client_id: The client id, such as 'cl_0042'.
        beneficiary_id: The beneficiary id, such as 'ben_0042'.
        method: How it was verified: micro_deposits, document (default) or instant.
    """
    access.client(db, client_id)
    ben = _owned(db, client_id, beneficiary_id)
    if ben["status"] != "active":
        raise ToolError(f"beneficiary {beneficiary_id} is {ben['status']}; only an active beneficiary can be verified")
    if ben["verification"]["status"] == "verified":
        raise ToolError(f"beneficiary {beneficiary_id} is already verified")
    planned = ben["verification"]["method"]
    if ben["verification"]["status"] == "pending" and method != planned:
        raise ToolError(f"beneficiary {beneficiary_id} was set up for {planned} verification; a pending verification "
                        "must be completed with that method (another method can be used only after a failed one)")
    if method == "instant" and ben["bank_details"]["iban"] is not None:
        raise ToolError("instant verification is only available for payees in the USA; use micro_deposits or document")
    rec = db.edit("beneficiaries", beneficiary_id)
    rec["verification"] = {"status": "verified", "method": method, "verified_at": NOW}
    return rec
