"""Bank grounding for Tracer: one hook per node of the bank graph, identity, candidate clients, challenges.

Clients know their e-mail address, how their accounts and cards end ("my savings account ending in 4821"),
which loans they have, their payees' names, and what they want to move, pay or block. They never know
client, account, card, loan, beneficiary or transaction ids; the agent looks those up.
"""
from __future__ import annotations

import weakref
from collections import Counter
from typing import Any

from temo.core import Action
from temo.domains.kit.people import name_of, persona_of
from temo.env import Database
from temo.env.grounding import Ground, Grounder

from . import ground_payees, ground_reads, ground_writes
from .challenges import CHALLENGES
from .models import ACCOUNT_CLIENT_REASONS, CARD_UNBLOCKABLE
from .writes import sent_today

HOOKS = {
    f.__name__: f for f in (
        ground_reads.list_client_accounts, ground_reads.get_account_details, ground_reads.get_recent_transactions,
        ground_reads.search_transactions, ground_reads.get_card_details, ground_reads.get_loan_details,
        ground_reads.list_client_beneficiaries, ground_reads.get_beneficiary_details,
        ground_writes.initiate_internal_transfer, ground_payees.add_beneficiary, ground_payees.verify_beneficiary,
        ground_writes.initiate_transfer_to_beneficiary, ground_writes.freeze_card, ground_writes.unfreeze_card,
        ground_writes.freeze_account, ground_writes.unfreeze_account, ground_writes.make_loan_payment,
    )
}
BANK_PERSONAS = ["a landlord who collects rent from several tenants", "a student who just opened a first account",
                 "a retiree who watches every fee", "a nurse paying off a car loan",
                 "a contractor who pays suppliers every week", "a parent who sends money to a child at college"]


def authenticate(g: Ground) -> list[tuple[str, dict[str, Any], list]]:
    email = g.user["contact"]["email"]
    return [("find_client_id_by_email", {"email": email}, [g.fact("email", email, ["email address", "e-mail", "email"])]),
            ("get_client_details", {"client_id": g.user_id}, [])]


# -- which clients can serve a trace (checked on the frozen database, before any attempt) ---------------
def _open(c: dict, kinds=("checking", "savings")) -> list[dict]:
    return [a for a in c["accounts"].values() if a["status"] == "active" and a["type"] in kinds]


def _payable_payee(db: Database, c: dict) -> bool:
    for bid in c["beneficiary_ids"]:
        b = db.tables["beneficiaries"][bid]
        if b["status"] == "active" and b["verification"]["status"] == "verified" and any(
                c["accounts"][a]["status"] == "active" and c["accounts"][a]["balance"]["available"] >= 65
                for a in b["allowed_from_account_ids"]):
            return True
    return False


def capacity(db: Database, c: dict) -> dict[str, Any]:
    """What one client's records allow, tool by tool: how many times (int) or whether (bool)."""
    bens = [db.tables["beneficiaries"][b] for b in c["beneficiary_ids"]]
    live = _open(c, ("checking", "savings", "credit"))
    return {
        "kyc": c["kyc"]["status"] == "verified",
        "add_beneficiary": c["kyc"]["status"] == "verified" and bool(_open(c)),
        "verify_beneficiary": sum(b["status"] == "active" and b["verification"]["status"] != "verified" for b in bens),
        "initiate_transfer_to_beneficiary": _payable_payee(db, c),
        "payees": len(bens),
        "make_loan_payment": any(db.tables["loans"][x]["status"] in ("active", "delinquent") for x in c["loan_ids"])
        and any(a["balance"]["available"] >= 50 and a["currency"] == "USD" for a in _open(c)),
        "get_loan_details": bool(c["loan_ids"]),
        "unfreeze_card": sum(k["status"] == "blocked" and k["block_reason"] in CARD_UNBLOCKABLE for k in c["cards"].values()),
        "freeze_card": sum(k["status"] == "active" for k in c["cards"].values()),
        "get_card_details": bool(c["cards"]),
        "unfreeze_account": sum(a["status"] == "frozen" and a["freeze_reason"] in ACCOUNT_CLIENT_REASONS
                                for a in c["accounts"].values()),
        "freeze_account": len(live),
        "initiate_internal_transfer": any(s["balance"]["available"] >= 20 and any(
            d is not s and d["currency"] == s["currency"] for d in live) for s in _open(c)),
    }


_CAPACITY: "weakref.WeakKeyDictionary[Database, dict[str, dict[str, Any]]]" = weakref.WeakKeyDictionary()


def _fits(cap: dict[str, Any], tool: str, before: set[str], times: int) -> bool:
    if tool == "verify_beneficiary":
        return "add_beneficiary" in before or cap[tool] >= times
    if tool == "initiate_transfer_to_beneficiary":
        return cap["kyc"] and (cap[tool] or {"add_beneficiary", "verify_beneficiary"} <= before)
    if tool in ("get_beneficiary_details", "list_client_beneficiaries"):
        return cap["payees"] > 0 or "add_beneficiary" in before
    if tool in ("unfreeze_card", "freeze_card", "unfreeze_account", "freeze_account"):
        return cap[tool] >= times
    return bool(cap.get(tool, True))


def candidate_users(db: Database, split: str, trace: list[list[str]]) -> list[str]:
    """Every client of the split's own database who has what the trace's tools need."""
    caps = _CAPACITY.get(db)
    if caps is None:
        caps = _CAPACITY[db] = {cid: capacity(db, c) for cid, c in sorted(db.tables["clients"].items())}
    flat = [t for intent in trace for t in intent]
    counts = Counter(flat)
    needs = [(t, set(flat[:i]), counts[t]) for i, t in enumerate(flat)]
    return [cid for cid, cap in caps.items() if all(_fits(cap, t, before, n) for t, before, n in needs)]


def internal_ids(db: Database) -> set[str]:
    out: set[str] = set()
    for cid, c in db.tables["clients"].items():
        out.add(cid)
        out.update(c["accounts"])
        out.update(c["cards"])
    for table in ("loans", "beneficiaries", "transactions"):
        out.update(db.tables[table])
    return out


def check_policy(actions: list[Action], g: Ground) -> list[str]:
    """Every reference call concerns the authenticated client's own records, and no transfer passes a payee's
    daily limit."""
    me = g.user
    mine = {"client_id": {g.user_id}, "from_account_id": set(me["accounts"]), "to_account_id": set(me["accounts"]),
            "account_id": set(me["accounts"]), "card_id": set(me["cards"]), "loan_id": set(me["loan_ids"])}
    problems = []
    sent: dict[str, float] = {}  # today's transfers per payee, the reference's own included
    for a in actions:
        for arg, allowed in mine.items():
            if arg in a.arguments and a.arguments[arg] not in allowed:
                problems.append(f"{a.name}:{arg}_not_own")
        for aid in a.arguments.get("allowed_from_account_ids", []):
            if aid not in me["accounts"]:
                problems.append(f"{a.name}:allowed_account_not_own")
        if a.name == "initiate_transfer_to_beneficiary":  # the daily limit, which the tool leaves to the agent
            ben = g.store.get("beneficiaries", a.arguments["beneficiary_id"])
            if ben is not None:
                key = ben["beneficiary_id"]
                sent[key] = sent.get(key, sent_today(g.store, ben["allowed_from_account_ids"], key)) + a.arguments["amount"]
                if sent[key] > ben["transfer_limits"]["daily_limit"] + 1e-9:
                    problems.append(f"{a.name}:over_daily_limit")
    return problems


persona = persona_of(BANK_PERSONAS)




GROUNDER = Grounder(
    user_table="clients", hooks=HOOKS, authenticate=authenticate, candidate_users=candidate_users, persona=persona,
    name_of=name_of, challenges=list(CHALLENGES), internal_ids=internal_ids, check_policy=check_policy,
    context="the client-service agent of Lakeshore Bank", test_share=1.0,
)
