"""Tools of the bank's client-service desk: 13 read tools (10 domain + 3 generic) and 9 write tools.

The read tools are here; the write tools are in `writes.py` (money movement, card and account controls)
and `payee_tools.py` (adding and verifying beneficiaries).
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from temo.domains.kit.dates import parse_date
from temo.domains.kit.lookup import fetcher
from temo.domains.kit.tooling import record_finder, record_reader
from temo.env import GENERIC_TOOLS, Store, ToolError, tool

from . import access
from .models import TxStatus, TxType
from .payee_tools import add_beneficiary, verify_beneficiary
from .rules import MAX_RECENT
from .writes import (freeze_account, freeze_card, initiate_internal_transfer, initiate_transfer_to_beneficiary,
                     make_loan_payment, unfreeze_account, unfreeze_card)


def _with_owner(find: Callable[[Store, str], tuple[str, dict[str, Any]]]) -> Callable[[Store, str], dict[str, Any]]:
    """A fetch for `record_reader`: the account or card that ``find`` locates, led by its owner's client id."""
    def fetch(db: Store, key: str) -> dict[str, Any]:
        owner, rec = find(db, key)
        return {"client_id": owner, **rec}
    return fetch


find_client_id_by_email = record_finder("find_client_id_by_email", "email", "clients", "contact__email", "Find a client's id from their e-mail address. This is how a client is authenticated.", "The client's e-mail address, such as 'maya.patel12@example.com'.", what="client")
get_client_details = record_reader("get_client_details", "client_id", access.client, "Get a client's profile: name, contact, address, accounts, cards, loan ids, beneficiary ids and identity review (KYC) status.", "The client id, such as 'cl_0042'.")
get_account_details = record_reader("get_account_details", "account_id", _with_owner(access.account), "Get one account: owner, type, currency, status (and freeze reason), balances, interest rate, limits and features.", "The account id, such as 'acc_00012'.")
get_card_details = record_reader("get_card_details", "card_id", _with_owner(access.card), "Get one card: owner, type, linked account, status (and block reason), brand, last four digits, expiry and daily limits.", "The card id, such as 'card_00012'.")
get_loan_details = record_reader("get_loan_details", "loan_id", fetcher("loans", "loan"), "Get one loan: owner, type, terms, status, outstanding balance, recent and upcoming installments, repayment history and escrow.", "The loan id, such as 'ln_0042'.")
get_beneficiary_details = record_reader("get_beneficiary_details", "beneficiary_id", fetcher("beneficiaries", "beneficiary"), "Get one beneficiary (saved payee): owner, name, bank details, accounts it may be paid from, transfer limits, verification and status.", "The beneficiary id, such as 'ben_0042'.")


@tool(kind="read")
def list_client_accounts(db: Store, client_id: str) -> dict:
    """List a client's accounts with a short summary of each (type, status, currency, masked number, available balance).

    Args:
        client_id: The client id, such as 'cl_0042'.
    """
    rec = access.client(db, client_id)
    return {aid: {"type": a["type"], "status": a["status"], "currency": a["currency"],
                  "account_number_masked": a["account_number_masked"], "available_balance": a["balance"]["available"]}
            for aid, a in rec["accounts"].items()}


@tool(kind="read")
def list_client_beneficiaries(db: Store, client_id: str) -> dict:
    """List a client's beneficiaries (saved payees): id and display name.

    Args:
        client_id: The client id, such as 'cl_0042'.
    """
    rec = access.client(db, client_id)
    return {bid: db.get("beneficiaries", bid)["name"]["display_name"] for bid in rec["beneficiary_ids"]}


@tool(kind="read")
def get_recent_transactions(db: Store, account_id: str, limit: int = 10) -> list:
    """Get an account's most recent transactions, newest first.

    Args:
        account_id: The account id, such as 'acc_00012'.
        limit: How many transactions to return, from 1 to 50 (default 10).
    """
    if not 1 <= limit <= MAX_RECENT:
        raise ToolError(f"limit must be between 1 and {MAX_RECENT}")
    access.account(db, account_id)
    return access.transactions_of(db, account_id)[:limit]


@tool(kind="read")
def search_transactions(db: Store, client_id: str, account_id: str, start_date: Optional[str] = None,
                        end_date: Optional[str] = None, min_amount: Optional[float] = None,
                        max_amount: Optional[float] = None, transaction_type: Optional[TxType] = None,
                        status: Optional[TxStatus] = None, merchant_name_contains: Optional[str] = None) -> list:
    """Search the transactions of one of the client's accounts, newest first. Every filter is optional and they combine.

    Args:
        client_id: The client id, such as 'cl_0042'.
        account_id: The id of an account of this client, such as 'acc_00012'.
        start_date: Earliest date to include, YYYY-MM-DD.
        end_date: Latest date to include, YYYY-MM-DD.
        min_amount: Smallest amount to include (amounts are positive; direction is separate).
        max_amount: Largest amount to include.
        transaction_type: One of deposit, withdrawal, transfer, payment, fee, interest.
        status: One of pending, posted, reversed.
        merchant_name_contains: Part of the merchant's name, case-insensitive (card purchases have a merchant).
    """
    access.own_account(db, client_id, account_id)
    start = parse_date(start_date, "start_date").isoformat() if start_date is not None else None
    end = parse_date(end_date, "end_date").isoformat() if end_date is not None else None
    if start and end and start > end:
        raise ToolError("start_date is after end_date")
    if min_amount is not None and max_amount is not None and min_amount > max_amount:
        raise ToolError("min_amount is larger than max_amount")
    needle = merchant_name_contains.strip().lower() if merchant_name_contains else None

    def keep(t: dict[str, Any]) -> bool:
        day = t["timestamp"][:10]
        return ((start is None or day >= start) and (end is None or day <= end)
                and (min_amount is None or t["amount"] >= min_amount) and (max_amount is None or t["amount"] <= max_amount)
                and (transaction_type is None or t["type"] == transaction_type)
                and (status is None or t["status"] == status)
                and (needle is None or (t["merchant"] is not None and needle in t["merchant"]["name"].lower())))

    return [t for t in access.transactions_of(db, account_id) if keep(t)]


READ_TOOLS = [find_client_id_by_email, get_client_details, get_account_details, get_card_details, get_loan_details,
              get_beneficiary_details, list_client_accounts, list_client_beneficiaries, get_recent_transactions,
              search_transactions]
WRITE_TOOLS = [initiate_internal_transfer, add_beneficiary, verify_beneficiary, initiate_transfer_to_beneficiary,
               freeze_card, unfreeze_card, freeze_account, unfreeze_account, make_loan_payment]
TOOLS = [*READ_TOOLS, *WRITE_TOOLS, *GENERIC_TOOLS]
AUTH_TOOLS = ["find_client_id_by_email"]
