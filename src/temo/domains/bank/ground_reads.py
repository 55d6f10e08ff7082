"""Grounding hooks for the bank's read tools. Each picks something of the client's that the tool can show,
asks for it in the client's words and names the value the agent must report."""
from __future__ import annotations

from typing import Any

from temo.domains.kit.dates import add_days
from temo.domains.kit.money import money, usd
from temo.domains.kit.wording import and_join
from temo.env.grounding import Ground, GroundingFailed, Step

from .choose import accounts, cards, choose, focus_account, loans, payees
from .phrases import account_fact, account_phrase, card_fact, card_phrase, loan_fact, loan_phrase, payee_fact
from .rules import TODAY


def _account_with_activity(g: Ground) -> dict[str, Any]:
    here = focus_account(g)
    cands = [a for a in accounts(g, status=("active", "frozen"))
             if g.run("get_recent_transactions", {"account_id": a["account_id"], "limit": 1})]
    return choose(g, "account", cands, key=lambda a: a["account_id"], reason="no_account_with_activity",
                  related=lambda a: a["account_id"] == here)


def list_client_accounts(g: Ground) -> Step:
    listed = g.run("list_client_accounts", {"client_id": g.user_id})
    open_ = [(aid, a) for aid, a in sorted(listed.items()) if a["status"] != "closed"]
    if not open_:
        raise GroundingFailed("no_open_account")
    ask = g.rng.choice([
        "I'd like an overview of all my accounts and how much is available in each.",
        "What are the available balances across my accounts?",
        "Please go through my accounts with me and tell me what I can spend in each one.",
    ])
    return Step(args={"client_id": g.user_id}, ask=ask, outputs=[usd(a["available_balance"]) for _, a in open_])


def get_account_details(g: Ground) -> Step:
    here = focus_account(g)
    acc = choose(g, "account", accounts(g, status=("active", "frozen")), key=lambda a: a["account_id"],
                 reason="no_open_account", related=lambda a: a["account_id"] == here)
    phrase = account_phrase(acc)
    info = g.run("get_account_details", {"account_id": acc["account_id"]})
    if g.rng.random() < 0.7:
        ask = g.rng.choice([f"What is the available balance on {phrase}?",
                            f"How much money can I use right now from {phrase}?",
                            f"I need the available balance of {phrase}, please."])
        outputs = [usd(info["balance"]["available"])]
    else:
        ask = g.rng.choice([f"Is anything being held on {phrase}? I'd like the amount on hold and the current balance.",
                            f"Please tell me the current balance of {phrase} and how much of it is on hold."])
        outputs = [usd(info["balance"]["current"]), usd(info["balance"]["on_hold"])]
    return Step(args={"account_id": acc["account_id"]}, ask=ask, facts=[account_fact(g, acc, "balance_account")], outputs=outputs,
                focus={"account": acc["account_id"]})


def get_recent_transactions(g: Ground) -> Step:
    acc = _account_with_activity(g)
    rows = g.run("get_recent_transactions", {"account_id": acc["account_id"], "limit": 5})
    n = g.rng.choice([k for k in (1, 2, 3, 5) if k <= len(rows)])
    rows = rows[:n]
    phrase = account_phrase(acc)
    if n == 1:
        ask = g.rng.choice([f"What was the most recent transaction on {phrase}, and for how much?",
                            f"I want to know the latest charge or deposit on {phrase}."])
    else:
        ask = g.rng.choice([f"Please read me the last {n} transactions on {phrase} with their amounts.",
                            f"What are the {n} most recent transactions on {phrase}?"])
    return Step(args={"account_id": acc["account_id"], "limit": n}, ask=ask,
                facts=[account_fact(g, acc, "activity_account")],
                outputs=[usd(r["amount"]) for r in rows], focus={"account": acc["account_id"]})


def search_transactions(g: Ground) -> Step:
    acc = _account_with_activity(g)
    aid, phrase = acc["account_id"], account_phrase(acc)
    rows = g.run("search_transactions", {"client_id": g.user_id, "account_id": aid})
    merchants = sorted({r["merchant"]["name"] for r in rows if r["merchant"]})
    base = {"client_id": g.user_id, "account_id": aid}
    facts = [account_fact(g, acc, "activity_account")]
    options: list[tuple[str, Any]] = [("merchant", m) for m in merchants]
    for back in (30, 45, 60):
        start = add_days(TODAY, -back)
        if any(r["type"] == "deposit" and r["timestamp"][:10] >= start for r in rows):
            options.append(("deposits", start))
    for threshold in (50, 100, 200, 500):
        if any(r["amount"] >= threshold for r in rows):
            options.append(("large", threshold))
    if not options:
        raise GroundingFailed("no_matching_transactions")
    kinds = sorted({k for k, _ in options})
    mode = g.rng.choice(kinds)
    value = g.rng.choice([v for k, v in options if k == mode])
    if mode == "merchant":
        args = {**base, "merchant_name_contains": value}
        ask = g.rng.choice([f"How much have I spent at {value} with {phrase} lately?",
                            f"I'd like the total of my {value} purchases on {phrase}."])
    elif mode == "deposits":
        args = {**base, "start_date": value, "end_date": TODAY, "transaction_type": "deposit"}
        ask = g.rng.choice([f"What is the total of the deposits into {phrase} since {value}?",
                            f"I want to add up every deposit that reached {phrase} from {value} until today."])
    else:
        args = {**base, "min_amount": float(value)}
        ask = g.rng.choice([f"Were there any transactions of ${value} or more on {phrase}? I'd like the total of them.",
                            f"Please add up every transaction of at least ${value} on {phrase}."])
    found = g.run("search_transactions", args)
    if not found:
        raise GroundingFailed("no_matching_transactions")
    total = money(sum(r["amount"] for r in found))
    return Step(args=args, ask=ask, facts=facts, outputs=[usd(total)], focus={"account": aid})


def get_card_details(g: Ground) -> Step:
    here = focus_account(g)
    c = choose(g, "card", cards(g), key=lambda c: c["card_id"], reason="no_card",
               related=lambda c: c["linked_account_id"] == here)
    phrase = card_phrase(c)
    if c["status"] != "active" or g.rng.random() < 0.3:
        ask = g.rng.choice([f"Is {phrase} working at the moment? I'd like its status.",
                            f"What is the current status of {phrase}?"])
        outputs = [c["status"]]
    elif g.rng.random() < 0.5:
        ask = g.rng.choice([f"How much cash can I take out per day with {phrase}?",
                            f"What is the daily ATM withdrawal limit on {phrase}?"])
        outputs = [usd(c["limits"]["daily_atm_limit"])]
    else:
        ask = g.rng.choice([f"What is the daily spending limit for purchases on {phrase}?",
                            f"How much can I spend in stores per day with {phrase}?"])
        outputs = [usd(c["limits"]["daily_pos_limit"])]
    return Step(args={"card_id": c["card_id"]}, ask=ask, facts=[card_fact(g, c, "checked_card")], outputs=outputs,
                focus={"card": c["card_id"], "account": c["linked_account_id"]}, uses={"card": c["card_id"]})


def get_loan_details(g: Ground) -> Step:
    loan = choose(g, "loan", loans(g), key=lambda x: x["loan_id"], reason="no_loan")
    phrase = loan_phrase(g, loan)
    upcoming = [r for r in loan["payment_schedule"] if r["status"] == "due"]
    if upcoming and g.rng.random() < 0.5:
        nxt = upcoming[0]
        ask = g.rng.choice([f"When is the next payment on {phrase} due, and how much will it be?",
                            f"I'd like the date and amount of the next installment of {phrase}."])
        outputs = [nxt["due_date"], usd(nxt["amount"])]
    else:
        ask = g.rng.choice([f"How much do I still owe on {phrase}?",
                            f"What is the outstanding balance of {phrase}?"])
        outputs = [usd(loan["outstanding_balance"])]
    return Step(args={"loan_id": loan["loan_id"]}, ask=ask, facts=[loan_fact(g, loan, "checked_loan")], outputs=outputs,
                focus={"loan": loan["loan_id"]})


def list_client_beneficiaries(g: Ground) -> Step:
    saved = payees(g)
    if not saved:
        raise GroundingFailed("no_payee")
    ask = g.rng.choice(["Which payees do I have saved on my profile?",
                        "I'd like the names of all the payees saved for me.",
                        "Who is on my list of saved payees?"])
    return Step(args={"client_id": g.user_id}, ask=ask, outputs=[b["name"]["display_name"] for b in saved])


def get_beneficiary_details(g: Ground) -> Step:
    ben = choose(g, "beneficiary", payees(g), key=lambda b: b["beneficiary_id"], reason="no_payee")
    name = ben["name"]["display_name"]
    if g.rng.random() < 0.5:
        ask = g.rng.choice([f"What is the most I can send to {name} in a single transfer?",
                            f"I'd like to know the per-transfer limit for my payee {name}."])
        outputs = [usd(ben["transfer_limits"]["per_transfer_limit"])]
    else:
        ask = g.rng.choice([f"Has my payee {name} been verified yet?",
                            f"What is the verification status of the payee {name}?"])
        outputs = [ben["verification"]["status"]]
    details = []
    allowed = [g.user["accounts"][a] for a in ben["allowed_from_account_ids"]]
    if allowed:
        details.append(f"I usually pay {name} from {and_join([account_phrase(a) for a in allowed])}.")
    return Step(args={"beneficiary_id": ben["beneficiary_id"]}, ask=ask, details=details, facts=[payee_fact(g, ben, "checked_payee")],
                outputs=outputs, focus={"beneficiary": ben["beneficiary_id"]})
