"""How a client names their things in their own words, and the facts that go with them.

Clients never know internal ids: an account is "my savings account ending in 4821", a card "my Visa debit
card ending in 5319", a loan "my auto loan" (with its start month when two are alike), a payee its
display name.
"""
from __future__ import annotations

import datetime as _dt
from typing import Any

from temo.core import Fact
from temo.env.grounding import Ground

from .loans import KIND_LABEL

def account_phrase(acc: dict[str, Any]) -> str:
    kind = acc["type"]
    cur = f"{acc['currency']} " if acc["currency"] != "USD" else ""
    return f"my {cur}{kind} account ending in {acc['account_number_masked'][-4:]}"


def card_phrase(card: dict[str, Any]) -> str:
    info = card["extra_info"]
    return f"my {info['brand']} {card['type']} card ending in {info['last_four']}"


def loan_phrase(g: Ground, loan: dict[str, Any]) -> str:
    label = KIND_LABEL[loan["type"]].lower()
    same = [lid for lid in g.user["loan_ids"] if lid != loan["loan_id"]
            and g.store.get("loans", lid)["type"] == loan["type"]]
    if same:
        month = _dt.date.fromisoformat(loan["origination_date"]).strftime("%B %Y")
        return f"my {label} from {month}"
    return f"my {label}"


def payee_phrase(ben: dict[str, Any]) -> str:
    return ben["name"]["display_name"]


def cap(text: str) -> str:
    return text[0].upper() + text[1:]


# Every fact the user may be asked for has its own key and its own phrase, so that a scripted user who matches
# the agent's words against them never hands over (or is asked twice for) a fact of another request. Keys end in
# a word the matcher ignores ("number", "to", "up", "by") or in a word no other key uses.
ROLES: dict[str, tuple[str, str]] = {  # role: (fact key, how the instruction names it)
    "balance_account": ("balance_account_number", "account for the balance question"),
    "activity_account": ("activity_account_number", "account for the transactions question"),
    "transfer_source": ("transfer_source_account_number", "account to move money from"),
    "transfer_target": ("transfer_target_account_number", "account to move money to"),
    "payee_source": ("payee_source_account_number", "account to pay the payee from"),
    "loan_source": ("loan_source_account_number", "account to pay the loan from"),
    "freeze_account": ("freeze_account_number", "account to freeze"),
    "unfreeze_account": ("unfreeze_account_number", "account to unfreeze"),
    "payee_funding": ("payee_funding_account_number", "account the new payee may be paid from"),
    "review_account": ("compliance_account_number", "account frozen for review"),
    "credit_source": ("credit_source_account_number", "credit account to take money from"),
    "credit_target": ("credit_target_account_number", "account to receive that money"),
    "checked_card": ("checked_card_number", "card the question is about"),
    "block_card": ("block_card_number", "card to block"),
    "unblock_card": ("unblock_card_number", "card to unblock"),
    "stolen_card": ("stolen_card_number", "card to switch back on"),
    "checked_loan": ("loan_to_look_up", "loan the question is about"),
    "paid_loan": ("loan_to_pay", "loan to make a payment on"),
    "closed_loan": ("closed_loan_to_look_up", "loan that is already closed"),
    "checked_payee": ("payee_to_look_up", "payee the question is about"),
    "paid_payee": ("payee_to_send_to", "payee to send money to"),
    "verified_payee": ("payee_to_get_verified", "payee to mark as verified"),
    "limit_payee": ("over_limit_payee_to_send_to", "payee for the large transfer"),
    "waiting_payee": ("unverified_payee_to_send_to", "payee for the extra transfer"),
    "move_amount": ("amount_to_move", "sum to move"),
    "send_amount": ("amount_to_send", "sum to send"),
    "pay_amount": ("amount_to_pay", "sum to pay"),
    "large_amount": ("large_amount_to_send", "sum of the large transfer"),
    "daily_payee": ("payee_paid_again_today", "payee for the second transfer today"),
    "extra_amount": ("second_amount_today", "sum of the second transfer today"),
    "card_reason": ("why_the_card_is_blocked", "reason for blocking the card"),
    "account_reason": ("why_the_account_is_frozen", "reason for freezing the account"),
    "memo": ("memo", "note on the transfer"),
    "method": ("ach_or_wire", "how to send it (ACH or wire)"),
    "verification_done": ("verification_done_by", "how the verification was done"),
}


def role_fact(g: Ground, role: str, value: str) -> Fact:
    key, alias = ROLES[role]
    return g.fact(key, value, [alias])


def account_fact(g: Ground, acc: dict[str, Any], role: str) -> Fact:
    return role_fact(g, role, account_phrase(acc))


def card_fact(g: Ground, card: dict[str, Any], role: str) -> Fact:
    return role_fact(g, role, card_phrase(card))


def loan_fact(g: Ground, loan: dict[str, Any], role: str) -> Fact:
    return role_fact(g, role, loan_phrase(g, loan))


def payee_fact(g: Ground, ben: dict[str, Any], role: str) -> Fact:
    return role_fact(g, role, payee_phrase(ben))


def amount_text(amount: float) -> str:
    """How a client says an amount: ``$1,250`` or ``$1,250.40``."""
    whole = abs(amount - round(amount)) < 1e-9
    return f"${amount:,.0f}" if whole else f"${amount:,.2f}"


def amount_fact(g: Ground, amount: float, role: str) -> Fact:
    return role_fact(g, role, amount_text(amount))
