"""Write tools: transfers between own accounts and to beneficiaries, loan payments, card and account controls."""
from __future__ import annotations

from typing import Any, Literal, Optional

from temo.domains.kit.lookup import require
from temo.domains.kit.money import money, usd
from temo.env import Store, ToolError, tool

from . import access
from .loans import KIND_LABEL, payoff_amount, split_payment
from .models import ACCOUNT_CLIENT_REASONS, CARD_UNBLOCKABLE
from .rules import NOW, TODAY, WIRE_FEE_DOMESTIC, WIRE_FEE_INTERNATIONAL

CardReason = Literal["lost", "temporary hold", "stolen", "suspected fraud"]
AccountReason = Literal["suspected fraud", "unrecognized activity", "customer request"]


def _spendable(acc: dict[str, Any], total: float, what: str) -> None:
    if total > acc["balance"]["available"] + 1e-9:
        raise ToolError(f"{what} of {usd(total)} is more than the available balance of {acc['account_id']} "
                        f"({usd(acc['balance']['available'])})")


def _source(db: Store, client_id: str, account_id: str) -> dict[str, Any]:
    acc = access.own_account(db, client_id, account_id, "source account")
    access.require_active(acc, "source account")
    if acc["type"] == "credit":
        raise ToolError(f"source account {account_id} is a credit account; money can only be sent from checking or savings")
    return acc


@tool(kind="write")
def initiate_internal_transfer(db: Store, client_id: str, from_account_id: str, to_account_id: str, amount: float,
                               description: Optional[str] = None) -> dict:
    """Move money between two of the client's own active accounts in the same currency. The source cannot be a credit account; a payment into a credit account cannot exceed what is owed on it.

    Args:
        client_id: The client id, such as 'cl_0042'.
        from_account_id: The account the money leaves (checking or savings).
        to_account_id: The account the money goes to.
        amount: The amount in the accounts' currency, greater than zero, at most two decimals.
        description: A note for both transactions; only when the client asks for one.
    """
    amount = access.check_amount(amount)
    if from_account_id == to_account_id:
        raise ToolError("from_account_id and to_account_id are the same account")
    src = _source(db, client_id, from_account_id)
    dst = access.own_account(db, client_id, to_account_id, "destination account")
    access.require_active(dst, "destination account")
    if src["currency"] != dst["currency"]:
        raise ToolError(f"the accounts are in different currencies ({src['currency']} and {dst['currency']}); "
                        "transfers between currencies are not possible here")
    _spendable(src, amount, "the transfer")
    if dst["type"] == "credit" and amount > -dst["balance"]["current"] + 1e-9:
        raise ToolError(f"{to_account_id} is a credit account with {usd(max(0.0, -dst['balance']['current']))} owed; "
                        "a payment into it cannot be larger than that")
    s, d = access.edit_account(db, client_id, from_account_id), access.edit_account(db, client_id, to_account_id)
    access.debit(s, amount)
    access.credit(d, amount)
    out = access.new_transaction(db, client_id, s, "transfer", "debit", amount,
                                 description or "Transfer to own account", "Internal")
    inn = access.new_transaction(db, client_id, d, "transfer", "credit", amount,
                                 description or "Transfer from own account", "Internal",
                                 related_transaction_id=out["transaction_id"])
    db.edit("transactions", out["transaction_id"])["related_transaction_id"] = inn["transaction_id"]
    return {"debit_transaction_id": out["transaction_id"], "credit_transaction_id": inn["transaction_id"],
            "amount": amount, "from_account_available_balance": s["balance"]["available"],
            "to_account_available_balance": d["balance"]["available"]}


def sent_today(db: Store, account_ids: list[str], beneficiary_id: str) -> float:
    total = 0.0
    for aid in account_ids:
        for t in access.transactions_of(db, aid):
            if t["timestamp"][:10] != TODAY:
                break  # newest first: nothing older counts
            if t["beneficiary_id"] == beneficiary_id and t["status"] != "reversed":
                total += t["amount"]
    return money(total)


@tool(kind="write")
def initiate_transfer_to_beneficiary(db: Store, client_id: str, from_account_id: str, beneficiary_id: str,
                                     amount: float, method: Literal["ACH", "Wire"] = "ACH",
                                     description: Optional[str] = None) -> dict:
    """Send money to one of the client's verified, active beneficiaries from an account the beneficiary allows, within its per-transfer limit. This tool does not count what was already sent today: keeping within the beneficiary's daily limit is up to you (look up today's transfers first). International beneficiaries (IBAN) are paid by Wire only. A Wire costs a fee (domestic $25, international $40) taken from the same account; ACH is free.

    Args:
        client_id: The client id, such as 'cl_0042'.
        from_account_id: The client's account the money leaves; it must be on the beneficiary's allowed list.
        beneficiary_id: The beneficiary id, such as 'ben_0042'.
        amount: The amount to send, greater than zero, at most two decimals (the fee comes on top).
        method: ACH (default) or Wire.
        description: A note for the transaction; only when the client asks for one.
    """
    amount = access.check_amount(amount)
    rec = access.client(db, client_id)
    access.require_kyc(rec)
    ben = require(db, "beneficiaries", beneficiary_id, "beneficiary")
    if ben["client_id"] != client_id:
        raise ToolError(f"beneficiary {beneficiary_id} does not belong to client {client_id}")
    if ben["status"] != "active":
        raise ToolError(f"beneficiary {beneficiary_id} is {ben['status']}; only active beneficiaries can be paid")
    if ben["verification"]["status"] != "verified":
        raise ToolError(f"beneficiary {beneficiary_id} is not verified (verification {ben['verification']['status']}); "
                        "it must be verified before it can be paid")
    src = _source(db, client_id, from_account_id)
    if from_account_id not in ben["allowed_from_account_ids"]:
        raise ToolError(f"beneficiary {beneficiary_id} may only be paid from {', '.join(ben['allowed_from_account_ids'])}")
    international = ben["bank_details"]["iban"] is not None
    if international and method != "Wire":
        raise ToolError("this beneficiary's bank is abroad (IBAN); international transfers go by Wire only")
    limits = ben["transfer_limits"]
    if amount > limits["per_transfer_limit"] + 1e-9:
        raise ToolError(f"the amount is above this beneficiary's per-transfer limit of {usd(limits['per_transfer_limit'])}")
    fee = (WIRE_FEE_INTERNATIONAL if international else WIRE_FEE_DOMESTIC) if method == "Wire" else 0.0
    _spendable(src, money(amount + fee), "the transfer plus its fee")
    s = access.edit_account(db, client_id, from_account_id)
    access.debit(s, money(amount + fee))
    tx = access.new_transaction(db, client_id, s, "transfer", "debit", amount,
                                description or f"Transfer to {ben['name']['display_name']}", method,
                                fees=[{"type": "wire_fee", "amount": fee}] if fee else [], beneficiary_id=beneficiary_id)
    return {"transaction_id": tx["transaction_id"], "amount": amount, "fee": fee, "total_debited": money(amount + fee),
            "method": method, "from_account_available_balance": s["balance"]["available"]}


@tool(kind="write")
def make_loan_payment(db: Store, client_id: str, loan_id: str, from_account_id: str, amount: float,
                      method: Literal["Internal", "ACH"] = "Internal", description: Optional[str] = None) -> dict:
    """Pay toward one of the client's active or delinquent loans from the client's own active checking or savings account in the loan's currency. The payment first covers one month's interest, the rest reduces the principal; it marks covered installments (late ones first) as paid. It cannot exceed the payoff amount (outstanding balance plus one month's interest).

    Args:
        client_id: The client id, such as 'cl_0042'.
        loan_id: The loan id, such as 'ln_0042'.
        from_account_id: The client's account the payment comes from.
        amount: The payment amount, greater than zero, at most two decimals.
        method: Internal (default) or ACH.
        description: A note for the transaction; only when the client asks for one.
    """
    amount = access.check_amount(amount)
    loan = require(db, "loans", loan_id, "loan")
    if loan["client_id"] != client_id:
        raise ToolError(f"loan {loan_id} does not belong to client {client_id}")
    if loan["status"] == "closed":
        raise ToolError(f"loan {loan_id} is closed; nothing is owed on it")
    if loan["status"] == "default":
        raise ToolError(f"loan {loan_id} is in default and handled by collections; transfer the client to a human agent")
    src = _source(db, client_id, from_account_id)
    if src["currency"] != loan["currency"]:
        raise ToolError(f"loan {loan_id} is in {loan['currency']} but {from_account_id} is in {src['currency']}")
    payoff = payoff_amount(loan["outstanding_balance"], loan["interest_rate_apr"])
    if amount > payoff + 1e-9:
        raise ToolError(f"the amount is more than the payoff amount of {usd(payoff)}")
    _spendable(src, amount, "the payment")
    s = access.edit_account(db, client_id, from_account_id)
    access.debit(s, amount)
    tx = access.new_transaction(db, client_id, s, "payment", "debit", amount,
                                description or f"{KIND_LABEL[loan['type']]} payment", method, loan_id=loan_id)
    rec = db.edit("loans", loan_id)
    interest, principal = split_payment(rec["outstanding_balance"], rec["interest_rate_apr"], amount)
    rec["outstanding_balance"] = money(max(0.0, rec["outstanding_balance"] - principal))
    rec["repayment_history"].append({"transaction_id": tx["transaction_id"], "posted_at": NOW, "amount": amount,
                                     "currency": rec["currency"], "method": method, "principal_component": principal,
                                     "interest_component": interest, "fees_component": 0.0})
    left = amount
    for row in sorted((r for r in rec["payment_schedule"] if r["status"] in ("late", "due")),
                      key=lambda r: (r["status"] != "late", r["due_date"])):
        if left + 1e-9 < row["amount"]:
            break
        row["status"], row["transaction_id"] = "paid", tx["transaction_id"]
        left = money(left - row["amount"])
    if rec["outstanding_balance"] == 0:
        rec["status"] = "closed"
    elif rec["status"] == "delinquent" and not any(r["status"] == "late" for r in rec["payment_schedule"]):
        rec["status"] = "active"
    return {"transaction_id": tx["transaction_id"], "amount": amount, "interest_component": interest,
            "principal_component": principal, "outstanding_balance": rec["outstanding_balance"],
            "loan_status": rec["status"], "from_account_available_balance": s["balance"]["available"]}


@tool(kind="write")
def freeze_card(db: Store, card_id: str, reason: CardReason) -> dict:
    """Block an active card so it cannot be used. A card blocked as stolen or for suspected fraud cannot be unblocked later (it must be replaced).

    Args:
        card_id: The card id, such as 'card_00012'.
        reason: Why: lost, temporary hold, stolen or suspected fraud.
    """
    owner, c = access.card(db, card_id)
    if c["status"] != "active":
        raise ToolError(f"card {card_id} is {c['status']}; only an active card can be blocked")
    rec = db.edit("clients", owner)["cards"][card_id]
    rec["status"], rec["block_reason"] = "blocked", reason
    return rec


@tool(kind="write")
def unfreeze_card(db: Store, card_id: str) -> dict:
    """Unblock a card that was blocked as lost or as a temporary hold. Cards blocked as stolen or for suspected fraud stay blocked.

    Args:
        card_id: The card id, such as 'card_00012'.
    """
    owner, c = access.card(db, card_id)
    if c["status"] != "blocked":
        raise ToolError(f"card {card_id} is {c['status']}; only a blocked card can be unblocked")
    if c["block_reason"] not in CARD_UNBLOCKABLE:
        raise ToolError(f"card {card_id} was blocked as {c['block_reason']}; it cannot be unblocked and must be replaced "
                        "(a human agent can order a replacement)")
    rec = db.edit("clients", owner)["cards"][card_id]
    rec["status"], rec["block_reason"] = "active", None
    return rec


@tool(kind="write")
def freeze_account(db: Store, account_id: str, reason: AccountReason) -> dict:
    """Freeze an active account so no money can leave or enter it.

    Args:
        account_id: The account id, such as 'acc_00012'.
        reason: Why: suspected fraud, unrecognized activity or customer request.
    """
    owner, acc = access.account(db, account_id)
    if acc["status"] != "active":
        raise ToolError(f"account {account_id} is {acc['status']}; only an active account can be frozen")
    rec = access.edit_account(db, owner, account_id)
    rec["status"], rec["freeze_reason"] = "frozen", reason
    return {"client_id": owner, **rec}


@tool(kind="write")
def unfreeze_account(db: Store, account_id: str) -> dict:
    """Lift a freeze the client asked for. A freeze for the bank's compliance review can only be lifted by a human agent.

    Args:
        account_id: The account id, such as 'acc_00012'.
    """
    owner, acc = access.account(db, account_id)
    if acc["status"] != "frozen":
        raise ToolError(f"account {account_id} is {acc['status']}; only a frozen account can be unfrozen")
    if acc["freeze_reason"] not in ACCOUNT_CLIENT_REASONS:
        raise ToolError(f"account {account_id} is frozen for {acc['freeze_reason']}; only a human agent can lift that")
    rec = access.edit_account(db, owner, account_id)
    rec["status"], rec["freeze_reason"] = "active", None
    return {"client_id": owner, **rec}
