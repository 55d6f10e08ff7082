"""Loan arithmetic (shared by the generator and `make_loan_payment`) and the generator of one loan.

A loan keeps a short window of its payment schedule (the last installments and the next ones), not the
whole term, so the database stays small; ``outstanding_balance`` is the principal still owed.
"""
from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any

from temo.domains.kit.money import money

from . import catalog
from .rules import TODAY, add_months

if TYPE_CHECKING:  # pragma: no cover
    from .generate import Builder

KIND_LABEL = {"mortgage": "Mortgage", "auto": "Auto loan", "personal": "Personal loan", "credit_line": "Credit line"}


def monthly_rate(apr: float) -> float:
    return apr / 1200.0


def annuity(principal: float, apr: float, months: int) -> float:
    r = monthly_rate(apr)
    if r == 0:
        return money(principal / months)
    return money(principal * r / (1 - (1 + r) ** -months))


def balance_after(principal: float, apr: float, payment: float, k: int) -> float:
    """Principal left after ``k`` scheduled payments of ``payment``."""
    r = monthly_rate(apr)
    if r == 0:
        return money(max(0.0, principal - payment * k))
    grow = (1 + r) ** k
    return money(max(0.0, principal * grow - payment * (grow - 1) / r))


def accrued_interest(outstanding: float, apr: float) -> float:
    """One month's interest on what is owed; the first part of any payment goes to it."""
    return money(outstanding * monthly_rate(apr))


def split_payment(outstanding: float, apr: float, amount: float) -> tuple[float, float]:
    """(interest, principal) parts of a payment of ``amount``."""
    interest = min(money(amount), accrued_interest(outstanding, apr))
    return interest, money(amount - interest)


def payoff_amount(outstanding: float, apr: float) -> float:
    """What clears the loan today: the principal owed plus one month's interest."""
    return money(outstanding + accrued_interest(outstanding, apr))


def _months_back(months: int, day: int) -> str:
    t = _dt.date.fromisoformat(TODAY)
    y, m = divmod(t.month - 1 - months, 12)
    return _dt.date(t.year + y, m + 1, day).isoformat()


def _terms(rng, kind: str) -> tuple[float, float, int, str]:
    if kind == "mortgage":
        return (float(rng.randrange(120, 650) * 1000), round(rng.uniform(3.0, 7.5), 2), rng.choice([180, 360, 360]),
                "fixed")
    if kind == "auto":
        return float(rng.randrange(16, 110) * 500), round(rng.uniform(4.0, 11.0), 2), rng.choice([36, 48, 60, 72]), "fixed"
    if kind == "personal":
        return (float(rng.randrange(4, 60) * 500), round(rng.uniform(7.0, 19.0), 2), rng.choice([24, 36, 48, 60]),
                rng.choices(["fixed", "balloon"], [0.9, 0.1])[0])
    return float(rng.randrange(5, 50) * 1000), round(rng.uniform(8.0, 16.0), 2), rng.choice([60, 120]), "interest_only"


def _repayment_account(client: dict[str, Any]) -> dict[str, Any]:
    accs = [a for a in client["accounts"].values()
            if a["type"] != "credit" and a["status"] != "closed" and a["currency"] == "USD"]
    checking = [a for a in accs if a["type"] == "checking"]
    return (checking or accs)[0]


def make_loan(b: "Builder", client: dict[str, Any], loan_id: str) -> dict[str, Any]:
    rng = b.rng
    kind = rng.choices(["mortgage", "auto", "personal", "credit_line"], [0.22, 0.33, 0.33, 0.12])[0]
    status = rng.choices(["active", "delinquent", "closed", "default"], [0.8, 0.08, 0.09, 0.03])[0]
    principal, apr, term, amort = _terms(rng, kind)
    acct = _repayment_account(client)
    day = rng.randint(1, 28)
    if status == "closed":
        months = rng.randint(term + 1, term + 18) if kind in ("auto", "personal") else rng.randint(30, 110)
    elif status in ("delinquent", "default"):
        months = rng.randint(5, min(term - 2, 110))
    else:
        months = rng.randint(1, min(term - 2, 110))
    orig = _months_back(months, day)
    first = add_months(orig, 1)
    n_past = 0
    while n_past < term and add_months(first, n_past) < TODAY:
        n_past += 1

    drawn = money(principal * rng.uniform(0.4, 0.95)) if kind == "credit_line" else principal
    if amort == "interest_only":
        pmt = max(25.0, money(drawn * monthly_rate(apr)))
    elif amort == "balloon":
        pmt = annuity(principal, apr, term * 2)
    else:
        pmt = annuity(principal, apr, term)

    def owed(k: int) -> float:
        return drawn if amort == "interest_only" else balance_after(principal, apr, pmt, k)

    if status == "closed":
        final = term if kind in ("auto", "personal") else min(n_past, rng.randint(24, max(24, n_past)))
        paid, late, upcoming = list(range(max(0, final - 2), final)), [], []
        outstanding = 0.0
    elif status == "active":
        paid, late = list(range(max(0, n_past - 2), n_past)), []
        upcoming = list(range(n_past, min(term, n_past + 2)))
        outstanding = owed(n_past)
    else:
        n_late = rng.randint(1, 2) if status == "delinquent" else 3
        paid = list(range(max(0, n_past - 2), n_past - n_late))  # the last two past installments, minus late ones
        late = list(range(n_past - n_late, n_past))
        upcoming = list(range(n_past, min(term, n_past + (2 if status == "delinquent" else 1))))
        outstanding = owed(n_past - n_late)

    schedule: list[dict[str, Any]] = []
    history: list[dict[str, Any]] = []
    method = rng.choice(["Internal", "ACH"])
    for k in paid:
        due = add_months(first, k)
        before = owed(k)
        amount = pmt
        if status == "closed" and k == paid[-1]:
            amount = payoff_amount(before, apr) if kind in ("mortgage", "credit_line") else money(before + accrued_interest(before, apr))
        interest, principal_part = split_payment(before, apr, amount)
        if amount > 3 * pmt:  # an early payoff is funded by an incoming wire the same morning
            source = "Home sale proceeds" if kind == "mortgage" else "Transfer from brokerage account"
            b.event(client, acct, due, "deposit", "credit", amount, source, "Wire", hour=4)
        ev = b.event(client, acct, due, "payment", "debit", amount, f"{KIND_LABEL[kind]} payment", method,
                     hour=5, loan_id=loan_id)
        schedule.append({"due_date": due, "amount": amount, "currency": "USD", "status": "paid",
                         "transaction_id": ev["_seq"]})
        history.append({"transaction_id": ev["_seq"], "posted_at": ev["timestamp"], "amount": amount, "currency": "USD",
                        "method": method, "principal_component": principal_part, "interest_component": interest,
                        "fees_component": 0.0})
    for k in late:
        schedule.append({"due_date": add_months(first, k), "amount": pmt, "currency": "USD", "status": "late",
                         "transaction_id": None})
    for i, k in enumerate(upcoming):
        st = "deferred" if i == 0 and status == "active" and rng.random() < 0.03 else "due"
        schedule.append({"due_date": add_months(first, k), "amount": pmt, "currency": "USD", "status": st,
                         "transaction_id": None})
    if acct["opened_at"] > orig:
        acct["opened_at"] = orig

    collateral = None
    if kind == "mortgage":
        collateral = {"type": "real_estate",
                      "description": f"{rng.choice(catalog.HOME_KINDS).capitalize()} at {client['address']['address1']}",
                      "value_amount": money(principal * rng.uniform(1.1, 1.6)), "value_currency": "USD"}
    elif kind == "auto":
        year = int(orig[:4]) - rng.randint(0, 3)
        collateral = {"type": "vehicle", "description": f"{year} {rng.choice(catalog.VEHICLES)}",
                      "value_amount": money(principal * rng.uniform(0.8, 1.2)), "value_currency": "USD"}
    escrow = None
    if kind == "mortgage":
        contribution = money(rng.uniform(150, 650))
        escrow = {"balance": money(contribution * rng.randint(2, 9)), "currency": "USD",
                  "monthly_contribution": contribution}
    return {
        "loan_id": loan_id, "client_id": client["client_id"], "linked_repayment_account_id": acct["account_id"],
        "type": kind, "principal": principal, "outstanding_balance": outstanding, "currency": "USD",
        "interest_rate_apr": apr, "amortization": amort, "term_months": term, "origination_date": orig,
        "first_payment_date": first, "maturity_date": add_months(first, term - 1), "status": status,
        "collateral": collateral, "payment_schedule": schedule, "repayment_history": history, "escrow": escrow,
    }
