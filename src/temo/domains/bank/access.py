"""Look-ups and checks the bank tools share (not tools themselves).

Accounts and cards live inside their client's record. Tools never create or remove accounts or cards,
so which client holds an account or card is read from the frozen base database once and cached.
"""
from __future__ import annotations

import math
import weakref
from typing import Any, Optional

from temo.domains.kit.ids import next_id
from temo.domains.kit.lookup import require
from temo.domains.kit.money import money
from temo.env import Database, Store, ToolError

from .rules import NOW, TX_PREFIX, TX_WIDTH

_OWNERS: "weakref.WeakKeyDictionary[Database, dict[str, dict[str, str]]]" = weakref.WeakKeyDictionary()


def owners(db: Store) -> dict[str, dict[str, str]]:
    """``{"accounts": {account_id: client_id}, "cards": {card_id: client_id}}`` for the store's database."""
    index = _OWNERS.get(db.base)
    if index is None:
        index = {"accounts": {}, "cards": {}}
        for cid, client in db.base.tables.get("clients", {}).items():
            for aid in client["accounts"]:
                index["accounts"][aid] = cid
            for kid in client["cards"]:
                index["cards"][kid] = cid
        _OWNERS[db.base] = index
    return index


def client(db: Store, client_id: str) -> dict[str, Any]:
    return require(db, "clients", client_id, "client")


def account(db: Store, account_id: str) -> tuple[str, dict[str, Any]]:
    """(owner client id, account record) or a ToolError."""
    cid = owners(db)["accounts"].get(account_id)
    if cid is None:
        raise ToolError(f"account {account_id!r} not found; account ids look like 'acc_00012' (see get_client_details)")
    return cid, db.get("clients", cid)["accounts"][account_id]


def card(db: Store, card_id: str) -> tuple[str, dict[str, Any]]:
    cid = owners(db)["cards"].get(card_id)
    if cid is None:
        raise ToolError(f"card {card_id!r} not found; card ids look like 'card_00012' (see get_client_details)")
    return cid, db.get("clients", cid)["cards"][card_id]


def own_account(db: Store, client_id: str, account_id: str, role: str = "account") -> dict[str, Any]:
    """The client's own account, or a ToolError when it does not exist or belongs to someone else."""
    client(db, client_id)
    owner, acc = account(db, account_id)
    if owner != client_id:
        raise ToolError(f"{role} {account_id} does not belong to client {client_id}")
    return acc


def edit_account(db: Store, client_id: str, account_id: str) -> dict[str, Any]:
    """A mutable copy of an account (through an edit of its client)."""
    return db.edit("clients", client_id)["accounts"][account_id]


def require_active(acc: dict[str, Any], role: str = "account") -> None:
    if acc["status"] != "active":
        raise ToolError(f"{role} {acc['account_id']} is {acc['status']}; only active accounts can be used for this")


def require_kyc(rec: dict[str, Any]) -> None:
    if rec["kyc"]["status"] != "verified":
        raise ToolError(f"client {rec['client_id']}'s identity review (KYC) is {rec['kyc']['status']}; payees cannot be "
                        "added or paid until it is verified; transfer the client to a human agent to complete it")


def check_amount(amount: float, what: str = "amount") -> float:
    if not math.isfinite(amount) or amount <= 0:
        raise ToolError(f"{what} must be greater than zero")
    if abs(round(amount, 2) - amount) > 1e-9:
        raise ToolError(f"{what} {amount} has more than two decimals; give it in dollars and cents")
    return money(amount)


def debit(acc: dict[str, Any], total: float) -> None:
    """Take ``total`` from a mutable account (balance rule of models.py kept)."""
    acc["balance"]["current"] = money(acc["balance"]["current"] - total)
    acc["balance"]["available"] = money(acc["balance"]["available"] - total)


def credit(acc: dict[str, Any], total: float) -> None:
    acc["balance"]["current"] = money(acc["balance"]["current"] + total)
    acc["balance"]["available"] = money(acc["balance"]["available"] + total)


_TOP: "weakref.WeakKeyDictionary[Database, int]" = weakref.WeakKeyDictionary()


def next_transaction_id(db: Store) -> str:
    """``kit.ids.next_id(db, "transactions", "tx_", 7)``, without rescanning the frozen base on every call:
    the base's highest number is cached, and only transactions changed in this store are looked at."""
    top = _TOP.get(db.base)
    if top is None:
        probe = Store(db.base)
        top = int(next_id(probe, "transactions", TX_PREFIX, TX_WIDTH)[len(TX_PREFIX):]) - 1
        _TOP[db.base] = top
    for key in db.changed().get("transactions", ()):
        if key.startswith(TX_PREFIX) and key[len(TX_PREFIX):].isdigit() and db.has("transactions", key):
            top = max(top, int(key[len(TX_PREFIX):]))
    return f"{TX_PREFIX}{top + 1:0{TX_WIDTH}d}"


def new_transaction(db: Store, client_id: str, acc: dict[str, Any], kind: str, direction: str, amount: float,
                    description: str, method: str, fees: Optional[list[dict[str, Any]]] = None,
                    **extra: Any) -> dict[str, Any]:
    """Insert a posted transaction stamped NOW on an account already updated; its id is the next free one."""
    tid = next_transaction_id(db)
    rec = {
        "transaction_id": tid, "client_id": client_id, "account_id": acc["account_id"], "timestamp": NOW,
        "type": kind, "direction": direction, "amount": money(amount), "currency": acc["currency"],
        "description": description, "method": method, "status": "posted", "merchant": None,
        "related_transaction_id": None, "beneficiary_id": None, "loan_id": None, "fees": fees or [],
        "hold": None, "balance_after": acc["balance"]["current"],
    }
    rec.update(extra)
    db.insert("transactions", tid, rec)
    return rec


_TX: "weakref.WeakKeyDictionary[Database, dict[str, list[str]]]" = weakref.WeakKeyDictionary()


def transactions_of(db: Store, account_id: str) -> list[dict[str, Any]]:
    """An account's transactions, newest first (ties: higher id first). The frozen base is indexed once;
    transactions written in this episode are found among the store's changed keys."""
    index = _TX.get(db.base)
    if index is None:
        index = {}
        for tid, t in db.base.tables.get("transactions", {}).items():
            index.setdefault(t["account_id"], []).append(tid)
        _TX[db.base] = index
    keys = set(index.get(account_id, ())) | set(db.changed().get("transactions", ()))
    rows = [t for t in (db.get("transactions", k) for k in keys) if t is not None and t["account_id"] == account_id]
    rows.sort(key=lambda t: (t["timestamp"], t["transaction_id"]), reverse=True)
    return rows
