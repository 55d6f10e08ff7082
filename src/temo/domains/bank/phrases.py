"""How a client names their things in their own words, and the facts that go with them.

Clients never know internal ids: an account is "my savings account ending in 4821", a card "my Visa debit
card ending in 5319", a loan "my auto loan" (with its start month when two are alike), a payee its
display name.
"""
from __future__ import annotations

import datetime as _dt
from typing import Any

from temo.core import Fact
from temo.domains.kit.vocabulary import aliases
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
    role: tuple(key_and_phrase) for role, key_and_phrase in aliases(__file__)["roles"].items()}


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
