"""Grounding hooks for adding and verifying beneficiaries (saved payees)."""
from __future__ import annotations

from typing import Any

from temo.domains.kit import people
from temo.domains.kit.ids import next_id
from temo.domains.kit.wording import and_join
from temo.env.grounding import Ground, GroundingFailed, Step

from . import catalog
from .choose import accounts, choose, payees
from .payees import bank_details, digits
from .phrases import account_fact, account_phrase, amount_text, payee_fact, role_fact
from .rules import BEN_PREFIX, BEN_WIDTH

NICKNAMES = ["Mom", "Dad", "Roommate", "Babysitter", "Tutor", "Grandma"]
METHOD_WORDS = {"micro_deposits": "micro-deposits", "document": "document", "instant": "instant"}
ADDRESS_NAMES = {"address1": "payee's street address", "address2": "payee's apartment or suite",
                 "city": "payee's city", "state": "payee's state", "zip": "payee's zip or postal code",
                 "country": "payee's country"}


def _new_payee(g: Ground) -> dict[str, Any]:
    """A payee the client does not have yet (names already saved, also earlier in this attempt, are skipped)."""
    rng = g.rng
    taken = {b["name"]["display_name"] for b in payees(g)}
    for _ in range(20):
        business = rng.random() < 0.3
        if business:
            first = last = None
            name = rng.choice(catalog.BUSINESS_PAYEES)
        else:
            first, last = people.full_name(rng)
            name = f"{first} {last}"
        if name not in taken:
            break
    else:
        raise GroundingFailed("no_new_payee_name")
    international = rng.random() < 0.15
    details, foreign = bank_details(rng, international)
    nickname = rng.choice(NICKNAMES) if not business and rng.random() < 0.25 else None
    if nickname in taken:
        nickname = None
    payee = {"business": business, "first": first, "last": last, "name": name, "nickname": nickname,
             "international": international, "bank": details, "account_number": digits(rng, rng.choice([8, 10, 12])),
             "address": foreign or people.address(rng)}
    payee["bank"]["account_number_masked"] = "****" + payee["account_number"][-4:]
    return payee


def add_beneficiary(g: Ground) -> Step:
    if g.user["kyc"]["status"] != "verified":
        raise GroundingFailed("kyc_not_verified")
    sources = [a for a in accounts(g, status=("active", "frozen"), kinds=("checking", "savings")) if a["currency"] == "USD"]
    if not sources:
        raise GroundingFailed("no_source_account")
    p = _new_payee(g)
    rng = g.rng
    allowed = sorted(rng.sample(sources, rng.randint(1, min(2, len(sources)))), key=lambda a: a["account_id"])
    per = float(rng.choice([500, 1000, 1500, 2000, 2500]))
    daily = per * rng.choice([1, 2, 3, 4])
    methods = ["micro_deposits", "document"] if p["international"] else ["micro_deposits", "document", "instant"]
    method = rng.choice(methods)
    bank, addr = p["bank"], p["address"]
    args: dict[str, Any] = {
        "client_id": g.user_id, "beneficiary_type": "business" if p["business"] else "individual",
        "display_name": p["nickname"], "first_name": p["first"], "last_name": p["last"],
        "business_name": p["name"] if p["business"] else None, "bank_name": bank["bank_name"],
        "account_number_masked": p["account_number"], "routing_number": bank["routing_number"], "iban": bank["iban"],
        "swift_bic": bank["swift_bic"], **addr,
        "allowed_from_account_ids": [a["account_id"] for a in allowed],
        "per_transfer_limit": per, "daily_limit": daily,
    }
    if method != "document" or rng.random() < 0.5:
        args["verification_method"] = method
    f = g.fact
    facts = [f("payee_type", "a business" if p["business"] else "a person", ["person or business"])]
    if p["business"]:
        facts.append(f("business_name", p["name"], ["payee business name"]))
    else:
        facts += [f("payee_first_name", p["first"], ["payee first name"]),
                  f("payee_last_name", p["last"], ["payee last name"])]
    if p["nickname"]:
        facts.append(f("payee_nickname", p["nickname"], ["name to list the payee under"]))
    facts += [f("payee_bank", bank["bank_name"], ["payee's bank"]),
              f("payee_account_number", p["account_number"], ["payee's account number"])]
    if p["international"]:
        facts += [f("iban", bank["iban"], ["IBAN"]), f("swift_code", bank["swift_bic"], ["SWIFT/BIC code"])]
    else:
        facts.append(f("routing_number", bank["routing_number"], ["routing number of the payee's bank"]))
    for k, v in addr.items():
        if v:
            facts.append(f(f"payee_{k}", v, [ADDRESS_NAMES[k]]))
    facts += [account_fact(g, a, "payee_funding") for a in allowed]
    facts += [f("per_transfer_limit", amount_text(per), ["limit per transfer"]),
              f("daily_limit", amount_text(daily), ["limit per day"]),
              f("planned_verification_method", METHOD_WORDS[method], ["how the payee will be verified"])]
    who = p["name"]
    ask = rng.choice([f"I'd like to add {who} as a new payee.", f"Please set up {who} as a beneficiary on my profile.",
                      f"I want to save {who} as a payee so I can send money later."])
    line2 = f", {addr['address2']}" if addr["address2"] else ""
    where = f"{addr['address1']}{line2}, {addr['city']}{', ' + addr['state'] if addr['state'] else ''} {addr['zip']}, {addr['country']}"
    code = f"IBAN {bank['iban']}, SWIFT {bank['swift_bic']}" if p["international"] else f"routing number {bank['routing_number']}"
    details = [f"The account is at {bank['bank_name']}, account number {p['account_number']}, {code}.",
               f"The payee's address is {where}.",
               f"Payments to this payee may come from {and_join([account_phrase(a) for a in allowed])}.",
               f"The limits should be {amount_text(per)} per transfer and {amount_text(daily)} per day.",
               f"I'll verify it by {METHOD_WORDS[method]}."]
    if p["nickname"]:
        details.insert(0, f"I want it listed under the name \"{p['nickname']}\".")
    new_id = next_id(g.store, "beneficiaries", BEN_PREFIX, BEN_WIDTH)
    return Step(args=args, ask=ask, details=details, facts=facts, focus={"beneficiary": new_id})


def verify_beneficiary(g: Ground) -> Step:
    here = g.focus.get("beneficiary")
    pending = [b for b in payees(g) if b["status"] == "active" and b["verification"]["status"] in ("pending", "failed")]
    ben = choose(g, "beneficiary", pending, key=lambda b: b["beneficiary_id"], reason="no_unverified_payee",
                 related=lambda b: b["beneficiary_id"] == here)
    if ben["verification"]["status"] == "pending":
        method = ben["verification"]["method"]
    else:
        methods = ["micro_deposits", "document"] if ben["bank_details"]["iban"] else ["micro_deposits", "document", "instant"]
        method = g.rng.choice(methods)
    name = ben["name"]["display_name"]
    ask = g.rng.choice([f"I've finished the {METHOD_WORDS[method]} check for {name}; please mark the payee as verified.",
                        f"Please verify my payee {name} now; I completed the {METHOD_WORDS[method]} verification.",
                        f"{name} still shows as unverified; I did the {METHOD_WORDS[method]} step, so it can be verified."])
    args = {"client_id": g.user_id, "beneficiary_id": ben["beneficiary_id"]}
    if method != "document" or g.rng.random() < 0.5:
        args["method"] = method
    return Step(args=args, ask=ask,
                facts=[payee_fact(g, ben, "verified_payee"), role_fact(g, "verification_done", METHOD_WORDS[method])],
                focus={"beneficiary": ben["beneficiary_id"]})
