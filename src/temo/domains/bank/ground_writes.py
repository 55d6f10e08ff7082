"""Grounding hooks for the bank's write tools: each picks records the tool accepts right now (balances,
statuses, limits), so the call succeeds and changes the state, and says what the client asks for."""
from __future__ import annotations

from typing import Any

from temo.domains.kit.money import money, usd
from temo.env.grounding import Ground, GroundingFailed, Step

from .choose import accounts, cards, choose, focus_account, loans, mark, payees, round_amount, used
from .models import ACCOUNT_CLIENT_REASONS, CARD_UNBLOCKABLE
from .phrases import (account_fact, account_phrase, amount_fact, amount_text, card_fact, card_phrase, loan_fact,
                      loan_phrase, payee_fact, role_fact)
from .rules import TODAY, WIRE_FEE_DOMESTIC, WIRE_FEE_INTERNATIONAL

MEMOS = ["Rent for June", "Vacation fund", "Emergency savings", "Birthday gift", "Car repair", "Tuition",
         "Wedding present", "Home repairs"]


def _memo(g: Ground) -> tuple[dict[str, str], list, list[str]]:
    """Sometimes the client wants a note on the transfer: (args, facts, details)."""
    if g.rng.random() >= 0.2:
        return {}, [], []
    memo = g.rng.choice(MEMOS)
    return ({"description": memo}, [role_fact(g, "memo", memo)],
            [f"Please put \"{memo}\" as the note on it."])


def _spendable(acc: dict[str, Any]) -> float:
    return acc["balance"]["available"]


def initiate_internal_transfer(g: Ground) -> Step:
    here = focus_account(g)
    live = accounts(g)
    pairs = []
    for src in live:
        if src["type"] == "credit" or _spendable(src) < 20:
            continue
        for dst in live:
            if dst is src or dst["currency"] != src["currency"]:
                continue
            room = _spendable(src) if dst["type"] != "credit" else min(_spendable(src), -dst["balance"]["current"])
            if room >= 20:
                pairs.append((src, dst, room))
    src, dst, room = choose(g, "account", pairs, key=lambda p: p[0]["account_id"], reason="no_transfer_pair",
                            related=lambda p: here in (p[0]["account_id"], p[1]["account_id"]))
    owed = money(-dst["balance"]["current"]) if dst["type"] == "credit" else 0.0
    if owed and owed <= room and g.rng.random() < 0.4:
        amount, pay_all = owed, True
    else:
        amount, pay_all = round_amount(g, room), False
    memo_args, memo_facts, memo_details = _memo(g)
    s, d = account_phrase(src), account_phrase(dst)
    if dst["type"] == "credit":
        ask = g.rng.choice([f"I'd like to pay down {d} with money from {s}.",
                            f"Please move money from {s} into {d} to lower what I owe."])
        details = ["I want to pay off the whole balance owed on it."] if pay_all else [f"I want to pay {amount_text(amount)}."]
    else:
        ask = g.rng.choice([f"Please move {amount_text(amount)} from {s} to {d}.",
                            f"I need to transfer {amount_text(amount)} from {s} into {d}.",
                            f"Can I shift {amount_text(amount)} over from {s} to {d}?"])
        details = []
    return Step(args={"client_id": g.user_id, "from_account_id": src["account_id"], "to_account_id": dst["account_id"],
                      "amount": amount, **memo_args},
                ask=ask, details=details + memo_details,
                facts=[account_fact(g, src, "transfer_source"), account_fact(g, dst, "transfer_target"),
                       amount_fact(g, amount, "move_amount"), *memo_facts],
                output_from=lambda r: [usd(r["from_account_available_balance"])],
                focus={"account": src["account_id"]}, uses={"account": src["account_id"]})


def _transfer_options(g: Ground) -> list[tuple[dict, dict, float, float]]:
    out = []
    for ben in payees(g):
        if ben["status"] != "active" or ben["verification"]["status"] != "verified":
            continue
        fee_wire = WIRE_FEE_INTERNATIONAL if ben["bank_details"]["iban"] else WIRE_FEE_DOMESTIC
        sent = 0.0
        for aid in ben["allowed_from_account_ids"]:
            for t in g.run("search_transactions", {"client_id": g.user_id, "account_id": aid, "start_date": TODAY}):
                if t["beneficiary_id"] == ben["beneficiary_id"] and t["status"] != "reversed":
                    sent += t["amount"]
        left = money(ben["transfer_limits"]["daily_limit"] - sent)
        for aid in ben["allowed_from_account_ids"]:
            src = g.user["accounts"][aid]
            if src["status"] != "active" or src["type"] == "credit":
                continue
            cap = min(ben["transfer_limits"]["per_transfer_limit"], left, _spendable(src) - fee_wire)
            if cap >= 20:
                out.append((ben, src, cap, fee_wire))
    return out


def initiate_transfer_to_beneficiary(g: Ground) -> Step:
    if g.user["kyc"]["status"] != "verified":
        raise GroundingFailed("kyc_not_verified")
    here = g.focus.get("beneficiary")
    ben, src, cap, fee_wire = choose(g, "beneficiary", _transfer_options(g), key=lambda o: o[0]["beneficiary_id"],
                                     reason="no_payable_payee", related=lambda o: o[0]["beneficiary_id"] == here)
    amount = round_amount(g, cap)
    international = ben["bank_details"]["iban"] is not None
    method = "Wire" if international or g.rng.random() < 0.25 else "ACH"
    memo_args, memo_facts, memo_details = _memo(g)
    name, s = ben["name"]["display_name"], account_phrase(src)
    ask = g.rng.choice([f"I want to send {amount_text(amount)} to {name}.",
                        f"Please pay {name} {amount_text(amount)} from {s}.",
                        f"I need to transfer {amount_text(amount)} to my payee {name}."])
    how = "by wire" if method == "Wire" else "as a standard ACH transfer"
    args = {"client_id": g.user_id, "from_account_id": src["account_id"], "beneficiary_id": ben["beneficiary_id"],
            "amount": amount, **({"method": "Wire"} if method == "Wire" else {}), **memo_args}
    outputs = [usd(fee_wire)] if method == "Wire" else []
    return Step(args=args, ask=ask, details=[f"It should go out of {s}.", f"Send it {how}.", *memo_details],
                facts=[payee_fact(g, ben, "paid_payee"), account_fact(g, src, "payee_source"),
                       amount_fact(g, amount, "send_amount"), role_fact(g, "method", "wire" if method == "Wire" else "ACH"),
                       *memo_facts],
                outputs=outputs, output_from=lambda r: [usd(r["from_account_available_balance"])],
                focus={"beneficiary": ben["beneficiary_id"], "account": src["account_id"]},
                uses={"beneficiary": ben["beneficiary_id"]})


def make_loan_payment(g: Ground) -> Step:
    here = g.focus.get("loan")
    sources = [a for a in accounts(g, kinds=("checking", "savings")) if a["currency"] == "USD"]
    options = []
    for loan in loans(g, status=("active", "delinquent")):
        if loan["loan_id"] in used(g, "loan") or loan["outstanding_balance"] <= 0:
            continue
        unpaid = sorted((r for r in loan["payment_schedule"] if r["status"] in ("late", "due")),
                        key=lambda r: (r["status"] != "late", r["due_date"]))
        for src in sources:
            room = min(_spendable(src), loan["outstanding_balance"])
            if unpaid and unpaid[0]["amount"] <= room:
                options.append((loan, src, unpaid[0]))
            elif room >= 50:
                options.append((loan, src, None))
    loan, src, installment = choose(
        g, "loan", options, key=lambda o: o[0]["loan_id"], reason="no_payable_loan",
        related=lambda o: o[0]["loan_id"] == here or o[1]["account_id"] == o[0]["linked_repayment_account_id"])
    room = min(_spendable(src), loan["outstanding_balance"])
    if installment is not None and g.rng.random() < 0.65:
        amount = installment["amount"]
        what = "late installment" if installment["status"] == "late" else f"installment due {installment['due_date']}"
        details = [f"I want to pay the {what}, which is {amount_text(amount)}."]
    else:
        amount = round_amount(g, room, low=50)
        details = [f"I'd like to pay {amount_text(amount)} toward it."]
    mark(g, "loan", loan["loan_id"])
    memo_args, memo_facts, memo_details = _memo(g)
    phrase, s = loan_phrase(g, loan), account_phrase(src)
    ask = g.rng.choice([f"I'd like to make a payment on {phrase} from {s}.",
                        f"Please take a payment for {phrase} out of {s}.",
                        f"I want to pay toward {phrase} using {s}."])
    return Step(args={"client_id": g.user_id, "loan_id": loan["loan_id"], "from_account_id": src["account_id"],
                      "amount": amount, **memo_args},
                ask=ask, details=details + memo_details,
                facts=[loan_fact(g, loan, "paid_loan"), account_fact(g, src, "loan_source"),
                       amount_fact(g, amount, "pay_amount"), *memo_facts],
                output_from=lambda r: [usd(r["outstanding_balance"])],
                focus={"loan": loan["loan_id"], "account": src["account_id"]}, uses={"loan": loan["loan_id"]})


CARD_ASKS = {
    "lost": ["I can't find {card} anywhere; please block it.", "I've lost {card} and want it blocked."],
    "stolen": ["{Card} was stolen today; block it right away.", "Someone stole my wallet with {card} in it; please block the card."],
    "suspected fraud": ["There are charges I didn't make on {card}; please block it.",
                        "I think {card} has been used fraudulently and want it blocked."],
    "temporary hold": ["I'd like to put a temporary hold on {card} for now.",
                       "Please pause {card} for a while; I won't be using it."],
}


def freeze_card(g: Ground) -> Step:
    here = focus_account(g)
    live = [c for c in cards(g, ("active",)) if c["card_id"] not in used(g, "card")]
    c = choose(g, "card", live, key=lambda c: c["card_id"], reason="no_active_card",
               related=lambda c: c["linked_account_id"] == here)
    reason = g.rng.choices(["lost", "stolen", "suspected fraud", "temporary hold"], [0.3, 0.2, 0.25, 0.25])[0]
    mark(g, "card", c["card_id"])
    phrase = card_phrase(c)
    ask = g.rng.choice(CARD_ASKS[reason]).format(card=phrase, Card=phrase[0].upper() + phrase[1:])
    return Step(args={"card_id": c["card_id"], "reason": reason}, ask=ask,
                details=[f"The reason is: {reason}."],
                facts=[card_fact(g, c, "block_card"), role_fact(g, "card_reason", reason)],
                focus={"card": c["card_id"], "account": c["linked_account_id"]}, uses={"card": c["card_id"]})


def unfreeze_card(g: Ground) -> Step:
    here = focus_account(g)
    blocked = [c for c in cards(g, ("blocked",)) if c["block_reason"] in CARD_UNBLOCKABLE
               and c["card_id"] not in used(g, "card")]
    c = choose(g, "card", blocked, key=lambda c: c["card_id"], reason="no_unblockable_card",
               related=lambda c: c["linked_account_id"] == here)
    mark(g, "card", c["card_id"])
    phrase = card_phrase(c)
    if c["block_reason"] == "lost":
        ask = g.rng.choice([f"I found {phrase} that I reported lost; please unblock it.",
                            f"Good news, {phrase} turned up again, so I'd like it working again."])
    else:
        ask = g.rng.choice([f"Please lift the temporary hold on {phrase}.",
                            f"I'm ready to use {phrase} again; please take off the hold."])
    return Step(args={"card_id": c["card_id"]}, ask=ask, facts=[card_fact(g, c, "unblock_card")],
                focus={"card": c["card_id"], "account": c["linked_account_id"]}, uses={"card": c["card_id"]})


ACCOUNT_ASKS = {
    "suspected fraud": ["I think someone has access to {acc}; please freeze it.",
                        "I'm worried about fraud on {acc} and want it frozen now."],
    "unrecognized activity": ["There's activity on {acc} that I don't recognize; freeze it, please.",
                              "I see transactions on {acc} I didn't make, so I'd like the account frozen."],
    "customer request": ["I'd like to freeze {acc} for a while; I won't be using it.",
                         "Please freeze {acc} for now, just as a precaution of my own."],
}


def freeze_account(g: Ground) -> Step:
    here = focus_account(g)
    acc = choose(g, "account", accounts(g, skip_used=True), key=lambda a: a["account_id"], reason="no_active_account",
                 related=lambda a: a["account_id"] == here)
    reason = g.rng.choice(list(ACCOUNT_CLIENT_REASONS))
    mark(g, "account", acc["account_id"])
    ask = g.rng.choice(ACCOUNT_ASKS[reason]).format(acc=account_phrase(acc))
    return Step(args={"account_id": acc["account_id"], "reason": reason}, ask=ask,
                details=[f"The reason is: {reason}."],
                facts=[account_fact(g, acc, "freeze_account"), role_fact(g, "account_reason", reason)],
                focus={"account": acc["account_id"]})


def unfreeze_account(g: Ground) -> Step:
    here = focus_account(g)
    frozen = [a for a in accounts(g, status=("frozen",), skip_used=True) if a["freeze_reason"] in ACCOUNT_CLIENT_REASONS]
    acc = choose(g, "account", frozen, key=lambda a: a["account_id"], reason="no_unfreezable_account",
                 related=lambda a: a["account_id"] == here)
    mark(g, "account", acc["account_id"])
    phrase = account_phrase(acc)
    ask = g.rng.choice([f"Please unfreeze {phrase}; everything is sorted out now.",
                        f"I'd like {phrase} active again.",
                        f"The problem that made me freeze {phrase} is resolved, so please lift the freeze."])
    return Step(args={"account_id": acc["account_id"]}, ask=ask, facts=[account_fact(g, acc, "unfreeze_account")],
                focus={"account": acc["account_id"]})
