"""Generate the bank database: 1,000 clients, 768 loans, 951 beneficiaries (paper Table 15), plus their
transactions.

Deterministic for a seed: everything comes from one `random.Random`, never the clock. The evaluation
database is seed 0; the paper gives this domain its own training database (seed 1, same sizes and shape,
other people and records), written by ``python -m temo.domains.databases bank``.

Consistency kept here and tested: every id a record names exists (accounts and cards inside their
client, loans and beneficiaries both ways, transactions of an account of the same client, loan
payments in the transactions table); each account's posted transactions chain to its current balance
(``balance_after``), pending card purchases make up ``on_hold``, and the balance rule of `models.py` holds.
"""
from __future__ import annotations

import datetime as _dt
import random
from typing import Any

from temo.domains.kit import people
from temo.domains.kit.dates import add_days
from temo.domains.kit.money import money

from . import catalog
from .loans import make_loan
from .rules import BANK_NAME, BEN_PREFIX, BEN_WIDTH, ROUTING_NUMBER, TODAY, TX_PREFIX, TX_WIDTH, stamp
from .payees import eligible_sources, make_beneficiary, todays_transfers

N_CLIENTS = 1000
N_LOANS = 768
N_BENEFICIARIES = 951
SEPARATE_TRAIN_DB = True
WINDOW_DAYS = 75  # generated account activity covers this many days before TODAY


def _day_before(days: int) -> str:
    return add_days(TODAY, -days)


class Builder:
    """Holds the tables while they are generated; transactions are collected as events first, then
    numbered in time order and chained to each account's balance."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.clients: dict[str, dict[str, Any]] = {}
        self.loans: dict[str, dict[str, Any]] = {}
        self.beneficiaries: dict[str, dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []
        self.n_accounts = 0
        self.n_cards = 0

    # -- transactions ------------------------------------------------------------------------------
    def event(self, client: dict, account: dict, day: str, kind: str, direction: str, amount: float,
              description: str, method: str, *, status: str = "posted", merchant: dict | None = None,
              fees: list | None = None, hour: int | None = None, **extra: Any) -> dict[str, Any]:
        rng = self.rng
        ev = {
            "client_id": client["client_id"], "account_id": account["account_id"],
            "timestamp": stamp(day, hour if hour is not None else rng.randint(7, 21), rng.randint(0, 59)),
            "type": kind, "direction": direction, "amount": money(amount), "currency": account["currency"],
            "description": description, "method": method, "status": status, "merchant": merchant,
            "related_transaction_id": None, "beneficiary_id": None, "loan_id": None, "fees": fees or [],
            "hold": None, "balance_after": None, "_seq": len(self.events),
        }
        if status == "pending":
            ev["hold"] = {"is_hold": True, "release_at": stamp(add_days(day, 3), 23, 59), "reason": "card authorization"}
        ev.update(extra)
        self.events.append(ev)
        return ev

    def purchase(self, client: dict, account: dict, day: str, status: str = "posted") -> None:
        name, mcc, lo, hi = self.rng.choice(catalog.MERCHANTS)
        amount = money(self.rng.uniform(lo, hi)) if lo != hi else lo
        merchant = {"name": name, "mcc": mcc, "city": client["address"]["city"], "country": "USA"}
        self.event(client, account, day, "payment", "debit", amount, f"Card purchase at {name}", "Card",
                   status=status, merchant=merchant)

    def activity(self, client: dict, account: dict) -> None:
        """Recent transactions of one account (loan payments and payee transfers are added elsewhere)."""
        rng, kind = self.rng, account["type"]
        if account["status"] == "closed":
            return
        days = lambda n: sorted(rng.sample(range(3, WINDOW_DAYS), n))  # noqa: E731
        if kind == "checking":
            employer = rng.choice(catalog.EMPLOYERS)
            pay = money(rng.uniform(1400, 5200))
            for d in (rng.randint(5, 18), rng.randint(33, 46)):
                self.event(client, account, _day_before(d), "deposit", "credit", pay,
                           f"Payroll deposit - {employer}", "ACH", hour=6)
            for d in days(rng.randint(1, 2)):
                self.purchase(client, account, _day_before(d))
            if rng.random() < 0.35:
                self.event(client, account, _day_before(rng.randint(3, WINDOW_DAYS - 1)), "withdrawal", "debit",
                           rng.choice([40, 60, 80, 100, 200, 300]), "ATM withdrawal", "ATM")
            if rng.random() < 0.4:
                biller, mcc = rng.choice(catalog.BILLERS)
                self.event(client, account, _day_before(rng.randint(3, WINDOW_DAYS - 1)), "payment", "debit",
                           money(rng.uniform(45, 260)), f"Bill payment - {biller}", "ACH")
            if rng.random() < 0.06:
                self.event(client, account, _day_before(rng.randint(3, 30)), "fee", "debit", 12.0,
                           "Monthly maintenance fee", "Internal")
            for _ in range(rng.choice([0, 0, 1, 1, 2])):
                if account["status"] == "active":
                    self.purchase(client, account, _day_before(rng.randint(1, 2)), status="pending")
        elif kind == "savings":
            for d in (rng.randint(1, 28),):
                day = _dt.date.fromisoformat(_day_before(d)).replace(day=1).isoformat()
                self.event(client, account, day, "interest", "credit", max(0.01, money(rng.uniform(0.2, 40))),
                           "Interest payment", "Internal", hour=2)
            if rng.random() < 0.3:
                self.event(client, account, _day_before(rng.randint(3, WINDOW_DAYS - 1)), "withdrawal", "debit",
                           rng.choice([100, 250, 500, 1000]), "Withdrawal at branch", "Internal")
        else:  # credit
            for d in days(rng.randint(1, 3)):
                self.purchase(client, account, _day_before(d))
            self.event(client, account, _day_before(rng.randint(10, 40)), "payment", "credit",
                       money(rng.uniform(50, 900)), "Card payment received - thank you", "ACH")
            if rng.random() < 0.5 and account["status"] == "active":
                self.purchase(client, account, _day_before(1), status="pending")

    def internal_transfer(self, client: dict, src: dict, dst: dict) -> None:
        day = _day_before(self.rng.randint(3, WINDOW_DAYS - 1))
        amount = self.rng.choice([100, 200, 250, 300, 500, 750, 1000])
        out = self.event(client, src, day, "transfer", "debit", amount, "Transfer to own account", "Internal", hour=9)
        inn = self.event(client, dst, day, "transfer", "credit", amount, "Transfer from own account", "Internal", hour=9)
        out["related_transaction_id"], inn["related_transaction_id"] = inn["_seq"], out["_seq"]

    # -- people and products -----------------------------------------------------------------------
    def account(self, client: dict, kind: str, currency: str = "USD") -> dict[str, Any]:
        rng = self.rng
        self.n_accounts += 1
        aid = f"acc_{self.n_accounts:05d}"
        taken = {a["account_number_masked"][-4:] for a in client["accounts"].values()}
        last4 = rng.choice([f"{n:04d}" for n in rng.sample(range(10000), 8) if f"{n:04d}" not in taken])
        status = rng.choices(["active", "frozen", "closed"], [0.92, 0.05, 0.03])[0]
        if kind == "credit":
            status = rng.choices(["active", "frozen"], [0.95, 0.05])[0]
        if kind == "checking" and not client["accounts"]:
            status = rng.choices(["active", "frozen", "closed"], [0.95, 0.04, 0.01])[0]
        acc = {
            "account_id": aid, "type": kind, "currency": currency, "status": status,
            "account_number_masked": "****" + last4, "routing_number": ROUTING_NUMBER,
            "balance": {"current": 0.0, "available": 0.0, "on_hold": 0.0},
            "interest_rate_apr": {"checking": round(rng.uniform(0.01, 0.1), 2), "savings": round(rng.uniform(0.5, 4.4), 2),
                                  "credit": round(rng.uniform(17.99, 28.99), 2)}[kind],
            "overdraft_limit": float(rng.choice([0, 100, 250, 500])) if kind == "checking" else 0.0,
            "credit_limit": float(rng.choice([1000, 2500, 5000, 7500, 10000, 15000])) if kind == "credit" else None,
            "opened_at": _day_before(rng.randint(150, 4000)),
            "features": {"checks_enabled": kind == "checking" and rng.random() < 0.8,
                         "atm_access": kind != "savings" or rng.random() < 0.3,
                         "online_banking": rng.random() < 0.97},
            "freeze_reason": None,
            "_target": 0.0,
        }
        if kind == "credit":
            acc["_target"] = -rng.uniform(0, 0.6) * acc["credit_limit"]
        else:
            acc["_target"] = rng.uniform(150, 9000) if kind == "checking" else rng.uniform(400, 45000)
        if status == "frozen":
            acc["freeze_reason"] = rng.choices(["suspected fraud", "unrecognized activity", "customer request",
                                                "compliance review"], [0.25, 0.2, 0.25, 0.3])[0]
        if status == "closed":
            acc["_target"] = 0.0
        client["accounts"][aid] = acc
        return acc

    def card(self, client: dict, account: dict, kind: str) -> None:
        rng = self.rng
        self.n_cards += 1
        cid = f"card_{self.n_cards:05d}"
        taken = {c["extra_info"]["last_four"] for c in client["cards"].values()}
        last4 = rng.choice([f"{n:04d}" for n in rng.sample(range(10000), 8) if f"{n:04d}" not in taken])
        status = rng.choices(["active", "blocked", "expired"], [0.78, 0.14, 0.08])[0]
        if status == "expired":
            year, month = rng.choice([2023, 2024, 2025]), rng.randint(1, 12)
            if (year, month) >= (2025, 5):
                year, month = 2025, rng.randint(1, 4)
        else:
            year, month = rng.randint(2025, 2029), rng.randint(1, 12)
            if (year, month) < (2025, 6):
                year = 2026
        client["cards"][cid] = {
            "card_id": cid, "type": kind, "linked_account_id": account["account_id"], "status": status,
            "issuer": BANK_NAME,
            "extra_info": {"brand": "Visa" if kind == "debit" else rng.choice(["Visa", "Mastercard"]),
                           "last_four": last4, "exp_month": month, "exp_year": year},
            "limits": {"daily_atm_limit": float(rng.choice([300, 500, 800, 1000])) if kind == "debit" else float(rng.choice([200, 300, 500])),
                       "daily_pos_limit": float(rng.choice([1500, 2500, 3000, 5000]))},
            "pin_set": rng.random() < 0.93,
            "block_reason": rng.choices(["lost", "temporary hold", "stolen", "suspected fraud"], [0.3, 0.35, 0.15, 0.2])[0]
            if status == "blocked" else None,
        }

    def client(self, n: int, first: str, last: str) -> dict[str, Any]:
        rng = self.rng
        cid = f"cl_{n:04d}"
        created = _day_before(rng.randint(4000, 5200))
        client = {
            "client_id": cid,
            "name": {"first_name": first, "last_name": last,
                     "middle_name": rng.choice(people.FIRST_NAMES) if rng.random() < 0.25 else None},
            "contact": {"email": people.email(first, last, n, rng), "phone": people.phone(rng)},
            "address": people.address(rng), "accounts": {}, "cards": {}, "loan_ids": [], "beneficiary_ids": [],
            "created_at": stamp(created, rng.randint(8, 18), rng.randint(0, 59)),
            "kyc": {"status": rng.choices(["verified", "pending", "expired"], [0.92, 0.05, 0.03])[0],
                    "last_reviewed_at": _day_before(rng.randint(20, 700)),
                    "tax_id_masked": f"***-**-{rng.randint(0, 9999):04d}"},
        }
        checking = self.account(client, "checking")
        savings = self.account(client, "savings") if rng.random() < 0.7 else None
        credit = self.account(client, "credit") if rng.random() < 0.4 else None
        if rng.random() < 0.06:
            self.account(client, "savings", rng.choice(["EUR", "GBP", "CAD"]))
        if checking["status"] != "closed" and rng.random() < 0.95:
            self.card(client, checking, "debit")
        if credit is not None:
            self.card(client, credit, "credit")
        for acc in list(client["accounts"].values()):
            self.activity(client, acc)
        if savings is not None and checking["status"] != "closed" and savings["status"] != "closed" and rng.random() < 0.45:
            self.internal_transfer(client, checking, savings)
        self.clients[cid] = client
        return client

    # -- finishing: number transactions, chain balances --------------------------------------------
    def finish(self) -> dict[str, dict[str, Any]]:
        order = sorted(self.events, key=lambda e: (e["timestamp"], e["_seq"]))
        ids = {e["_seq"]: f"{TX_PREFIX}{i:0{TX_WIDTH}d}" for i, e in enumerate(order, 1)}
        by_account: dict[str, list[dict[str, Any]]] = {}
        for e in order:
            by_account.setdefault(e["account_id"], []).append(e)
        for client in self.clients.values():
            for acc in client["accounts"].values():
                self._chain(acc, by_account.get(acc["account_id"], []))
        for loan in self.loans.values():
            for row in loan["payment_schedule"]:
                if row["transaction_id"] is not None:
                    row["transaction_id"] = ids[row["transaction_id"]]
            for row in loan["repayment_history"]:
                row["transaction_id"] = ids[row["transaction_id"]]
        transactions = {}
        for e in order:
            rec = {k: v for k, v in e.items() if not k.startswith("_")}
            rec["transaction_id"] = ids[e["_seq"]]
            if rec["related_transaction_id"] is not None:
                rec["related_transaction_id"] = ids[rec["related_transaction_id"]]
            transactions[rec["transaction_id"]] = rec
        return {"clients": self.clients, "loans": self.loans, "beneficiaries": self.beneficiaries,
                "transactions": transactions}

    def _chain(self, acc: dict[str, Any], events: list[dict[str, Any]]) -> None:
        posted = [e for e in events if e["status"] == "posted"]
        on_hold = money(sum(e["amount"] for e in events if e["status"] == "pending" and e["direction"] == "debit"))
        signed = [e["amount"] if e["direction"] == "credit" else -(e["amount"] + sum(f["amount"] for f in e["fees"]))
                  for e in posted]
        current = money(acc.pop("_target"))
        # running balances from the opening one: opening + prefix sums; the last one is `current`
        prefix, run = [0.0], 0.0
        for s in signed:
            run = money(run + s)
            prefix.append(run)
        total = prefix[-1]
        if acc["type"] == "credit":
            shift = max(0.0, max(current - total + p for p in prefix))
            current = money(current - shift)
            low = min(current - total + p for p in prefix)
            limit = acc["credit_limit"]
            while limit + low < 0 or limit + current - on_hold < 0:
                limit += 2500.0
            acc["credit_limit"] = limit
            available = money(limit + current - on_hold)
        else:
            low = min(current - total + p for p in prefix)
            shift = max(0.0, -low, on_hold - current)
            if shift:
                current = money(current + shift + self.rng.uniform(20, 400))
            available = money(current - on_hold)
        opening = money(current - total)
        for e, p in zip(posted, prefix[1:]):
            e["balance_after"] = money(opening + p)
        acc["balance"] = {"current": current, "available": available, "on_hold": on_hold}


def _spread(rng: random.Random, owners: list[str], total: int, most: int) -> dict[str, int]:
    """``total`` items over ``owners``: each owner gets one, the rest go to random owners (at most ``most``)."""
    counts = {o: 1 for o in owners}
    extra = total - len(owners)
    while extra > 0:
        o = rng.choice(owners)
        if counts[o] < most:
            counts[o] += 1
            extra -= 1
    return counts


def build_database(seed: int = 0, split: str = "test") -> dict[str, dict[str, Any]]:
    """The bank's tables for ``seed`` (``split`` only names the database; sizes and shape are the same)."""
    rng = random.Random(seed)
    b = Builder(rng)
    names = people.unique_names(rng, N_CLIENTS)
    clients = [b.client(i + 1, first, last) for i, (first, last) in enumerate(names)]
    ids = [c["client_id"] for c in clients if eligible_sources(c)]
    usd = [c["client_id"] for c in clients if any(a["currency"] == "USD" for a in eligible_sources(c))]
    loan_counts = _spread(rng, sorted(rng.sample(usd, 640)), N_LOANS, 3)
    n = 0
    for cid in sorted(loan_counts):
        for _ in range(loan_counts[cid]):
            n += 1
            loan = make_loan(b, b.clients[cid], f"ln_{n:04d}")
            b.loans[loan["loan_id"]] = loan
            b.clients[cid]["loan_ids"].append(loan["loan_id"])
    ben_counts = _spread(rng, sorted(rng.sample(ids, 610)), N_BENEFICIARIES, 3)
    n = 0
    for cid in sorted(ben_counts):
        for _ in range(ben_counts[cid]):
            n += 1
            ben = make_beneficiary(b, b.clients[cid], f"{BEN_PREFIX}{n:0{BEN_WIDTH}d}")
            b.beneficiaries[ben["beneficiary_id"]] = ben
            b.clients[cid]["beneficiary_ids"].append(ben["beneficiary_id"])
    todays_transfers(b, random.Random(f"today:{seed}"))
    return b.finish()
