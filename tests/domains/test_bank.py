"""Bank domain: database, tools and the rules they enforce, graph, grounding hooks and the built tasks."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from temo.domains import databases
from temo.domains.bank import generate, rules
from temo.domains.bank import tools as bank_tools
from temo.domains.bank.grounding import GROUNDER
from temo.domains.bank.loans import payoff_amount
from temo.domains.kit.money import money
from temo.domains.bank.models import KEY_FIELDS, TABLE_MODELS
from temo.env import GENERIC_TOOLS, Store
from temo.tracer.sample import sample
from domain_checks import (assert_atomic, assert_graph_follows_the_paper, assert_records_validate,
                           assert_walks_ground_and_replay)

PAPER = {"clients": 1000, "loans": 768, "beneficiaries": 951}
SOURCE_TOOLS = {  # name -> argument names, as in the released environment (think added: the paper counts 13 reads)
    "calculate": ["expression"], "think": ["thought"], "transfer_to_human_agents": ["summary"],
    "find_client_id_by_email": ["email"], "get_client_details": ["client_id"], "get_account_details": ["account_id"],
    "get_card_details": ["card_id"], "get_loan_details": ["loan_id"], "get_beneficiary_details": ["beneficiary_id"],
    "list_client_accounts": ["client_id"], "list_client_beneficiaries": ["client_id"],
    "get_recent_transactions": ["account_id", "limit"],
    "search_transactions": ["client_id", "account_id", "start_date", "end_date", "min_amount", "max_amount",
                            "transaction_type", "status", "merchant_name_contains"],
    "initiate_internal_transfer": ["client_id", "from_account_id", "to_account_id", "amount", "description"],
    "add_beneficiary": ["client_id", "beneficiary_id", "beneficiary_type", "display_name", "first_name", "last_name",
                        "business_name", "bank_name", "account_number_masked", "routing_number", "iban", "swift_bic",
                        "address1", "address2", "city", "state", "zip", "country", "allowed_from_account_ids",
                        "per_transfer_limit", "daily_limit", "verification_method"],
    "verify_beneficiary": ["client_id", "beneficiary_id", "method"],
    "initiate_transfer_to_beneficiary": ["client_id", "from_account_id", "beneficiary_id", "amount", "method", "description"],
    "freeze_card": ["card_id", "reason"], "unfreeze_card": ["card_id"], "freeze_account": ["account_id", "reason"],
    "unfreeze_account": ["account_id"],
    "make_loan_payment": ["client_id", "loan_id", "from_account_id", "amount", "method", "description"],
}


DOMAIN = "bank"


def clients(db):
    return db.tables["clients"].values()


def find_client(db, pred):
    for c in clients(db):
        if pred(c):
            return c
    raise AssertionError("no client matches")


def active(c, kinds=("checking", "savings")):
    return [a for a in c["accounts"].values() if a["status"] == "active" and a["type"] in kinds]


def payable(db):
    """(client, beneficiary, allowed active source account) that can be paid now."""
    for b in db.tables["beneficiaries"].values():
        c = db.tables["clients"][b["client_id"]]
        if b["status"] != "active" or b["verification"]["status"] != "verified" or c["kyc"]["status"] != "verified":
            continue
        for aid in b["allowed_from_account_ids"]:
            a = c["accounts"][aid]
            if a["status"] == "active" and a["balance"]["available"] > b["transfer_limits"]["per_transfer_limit"] + 50:
                return c, b, a
    raise AssertionError("no payable beneficiary")


def err(out, words):
    assert not out.ok and out.error == "domain", out.observation
    assert re.search(words, out.observation, re.I), out.observation


# ------------------------------------------------------------------------------------------------ database
def test_entity_counts_are_the_papers(db):
    counts = db.counts()
    assert {k: counts[k] for k in PAPER} == PAPER
    assert counts["transactions"] > 5000


def test_every_record_validates(db):
    assert_records_validate(db, TABLE_MODELS, KEY_FIELDS)


def test_references_resolve_and_balances_add_up(db):
    loans, bens, txs = db.tables["loans"], db.tables["beneficiaries"], db.tables["transactions"]
    assert sorted(x for c in clients(db) for x in c["loan_ids"]) == sorted(loans)
    assert sorted(x for c in clients(db) for x in c["beneficiary_ids"]) == sorted(bens)
    assert len({c["contact"]["email"].lower() for c in clients(db)}) == len(db.tables["clients"])
    for c in clients(db):
        for card in c["cards"].values():
            assert card["linked_account_id"] in c["accounts"]
            assert (card["status"] == "blocked") == (card["block_reason"] is not None)
            expired = (card["extra_info"]["exp_year"], card["extra_info"]["exp_month"]) < (2025, 5)
            assert expired == (card["status"] == "expired")
        for a in c["accounts"].values():
            b = a["balance"]
            assert (a["status"] == "frozen") == (a["freeze_reason"] is not None)
            want = b["current"] - b["on_hold"] + (a["credit_limit"] if a["type"] == "credit" else 0)
            assert b["available"] == pytest.approx(want) and b["available"] >= 0
            assert (a["type"] == "credit") == (a["credit_limit"] is not None)
    for b in bens.values():
        owner = db.tables["clients"][b["client_id"]]
        assert b["beneficiary_id"] in owner["beneficiary_ids"]
        assert all(owner["accounts"][x]["type"] != "credit" for x in b["allowed_from_account_ids"])
        assert (b["bank_details"]["iban"] is None) == (b["bank_details"]["routing_number"] is not None)
        assert rules.iban_ok(b["bank_details"]["iban"]) if b["bank_details"]["iban"] else rules.routing_ok(b["bank_details"]["routing_number"])
        assert b["transfer_limits"]["per_transfer_limit"] <= b["transfer_limits"]["daily_limit"] <= rules.MAX_DAILY_LIMIT
    for loan in loans.values():
        assert loan["loan_id"] in db.tables["clients"][loan["client_id"]]["loan_ids"]
        assert loan["linked_repayment_account_id"] in db.tables["clients"][loan["client_id"]]["accounts"]
        assert (loan["status"] == "closed") == (loan["outstanding_balance"] == 0)
        for r in loan["repayment_history"]:
            assert txs[r["transaction_id"]]["loan_id"] == loan["loan_id"]
            assert r["principal_component"] + r["interest_component"] == pytest.approx(r["amount"])
    by_account: dict[str, list] = {}
    for t in txs.values():
        assert t["account_id"] in db.tables["clients"][t["client_id"]]["accounts"]
        if t["related_transaction_id"]:
            assert txs[t["related_transaction_id"]]["related_transaction_id"] == t["transaction_id"]
        by_account.setdefault(t["account_id"], []).append(t)
    for c in clients(db):
        for aid, a in c["accounts"].items():
            rows = sorted(by_account.get(aid, []), key=lambda t: (t["timestamp"], t["transaction_id"]))
            posted = [t for t in rows if t["status"] == "posted"]
            held = sum(t["amount"] for t in rows if t["status"] == "pending")
            assert a["balance"]["on_hold"] == pytest.approx(held)
            if posted:
                assert posted[-1]["balance_after"] == pytest.approx(a["balance"]["current"])
            for prev, t in zip(posted, posted[1:]):
                sign = 1 if t["direction"] == "credit" else -1
                fee = sum(f["amount"] for f in t["fees"])
                assert t["balance_after"] == pytest.approx(prev["balance_after"] + sign * t["amount"] - fee)


def test_values_are_varied(db):
    accs = [a for c in clients(db) for a in c["accounts"].values()]
    assert Counter(a["status"] for a in accs).keys() == {"active", "frozen", "closed"}
    assert {a["currency"] for a in accs} == {"USD", "EUR", "GBP", "CAD"}
    cards = [k for c in clients(db) for k in c["cards"].values()]
    assert set(rules_of(cards, "block_reason")) == {"lost", "temporary hold", "stolen", "suspected fraud"}
    assert {x["status"] for x in db.tables["loans"].values()} == {"active", "delinquent", "closed", "default"}
    assert {x["type"] for x in db.tables["loans"].values()} == {"mortgage", "auto", "personal", "credit_line"}
    bens = db.tables["beneficiaries"].values()
    assert {b["verification"]["status"] for b in bens} == {"verified", "pending", "failed"}
    assert {b["status"] for b in bens} == {"active", "suspended", "revoked"}
    assert {c["kyc"]["status"] for c in clients(db)} == {"verified", "pending", "expired"}


def rules_of(rows, field):
    return [r[field] for r in rows if r[field] is not None]


def test_frozen_files_are_the_generators(db):
    built = databases.build("bank")
    assert databases.check("bank", built) == []
    assert generate.SEPARATE_TRAIN_DB
    train = built["db_train"]
    assert {k: len(train[k]) for k in PAPER} == PAPER
    emails = {c["contact"]["email"] for c in clients(db)}
    assert len(emails & {c["contact"]["email"] for c in train["clients"].values()}) < 50


# ------------------------------------------------------------------------------------------------ tools
def test_tools_match_the_source_and_the_papers_counts(domain):
    kinds = Counter(t.kind for t in domain.tools.values())
    assert kinds == {"read": 13, "write": 9}
    assert {g.name for g in GENERIC_TOOLS} <= set(domain.tools)
    for name, args in SOURCE_TOOLS.items():
        props = domain.tools[name].schema["parameters"]["properties"]
        assert list(props) == args, name
        assert all(p.get("description") for p in props.values()), name
    assert set(domain.tools) == set(SOURCE_TOOLS)
    assert bank_tools.AUTH_TOOLS == ["find_client_id_by_email"]
    required = domain.tools["add_beneficiary"].schema["parameters"]["required"]
    assert "display_name" in required and "iban" in required and "beneficiary_id" not in required


def test_identity_and_lookups(env, db):
    c = find_client(db, lambda c: c["loan_ids"] and c["beneficiary_ids"] and c["cards"])
    out = env.execute("find_client_id_by_email", {"email": "  " + c["contact"]["email"].upper()})
    assert out.ok and out.observation == c["client_id"]
    err(env.execute("find_client_id_by_email", {"email": "nobody@nowhere.test"}), "no client")
    assert json.loads(env.execute("get_client_details", {"client_id": c["client_id"]}).observation)["client_id"] == c["client_id"]
    err(env.execute("get_client_details", {"client_id": "cl_9999"}), "not found")
    aid, kid = next(iter(c["accounts"])), next(iter(c["cards"]))
    assert json.loads(env.execute("get_account_details", {"account_id": aid}).observation)["client_id"] == c["client_id"]
    assert json.loads(env.execute("get_card_details", {"card_id": kid}).observation)["card_id"] == kid
    err(env.execute("get_account_details", {"account_id": "acc_99999"}), "not found")
    err(env.execute("get_card_details", {"card_id": "card_99999"}), "not found")
    assert json.loads(env.execute("get_loan_details", {"loan_id": c["loan_ids"][0]}).observation)["client_id"] == c["client_id"]
    err(env.execute("get_loan_details", {"loan_id": "ln_9999"}), "not found")
    ben = json.loads(env.execute("get_beneficiary_details", {"beneficiary_id": c["beneficiary_ids"][0]}).observation)
    assert ben["client_id"] == c["client_id"]
    err(env.execute("get_beneficiary_details", {"beneficiary_id": "ben_9999"}), "not found")
    listed = json.loads(env.execute("list_client_accounts", {"client_id": c["client_id"]}).observation)
    assert set(listed) == set(c["accounts"]) and all("available_balance" in v for v in listed.values())
    names = json.loads(env.execute("list_client_beneficiaries", {"client_id": c["client_id"]}).observation)
    assert set(names) == set(c["beneficiary_ids"])
    err(env.execute("list_client_accounts", {"client_id": "nobody"}), "not found")


def test_transaction_reads(env, db):
    c = find_client(db, lambda c: any(a["type"] == "checking" and a["status"] == "active" for a in c["accounts"].values()))
    aid = next(a["account_id"] for a in c["accounts"].values() if a["type"] == "checking")
    rows = json.loads(env.execute("get_recent_transactions", {"account_id": aid, "limit": 3}).observation)
    assert 1 <= len(rows) <= 3 and rows == sorted(rows, key=lambda t: (t["timestamp"], t["transaction_id"]), reverse=True)
    err(env.execute("get_recent_transactions", {"account_id": aid, "limit": 0}), "between 1 and")
    assert not env.execute("get_recent_transactions", {"account_id": aid, "limit": "3"}).ok  # strict types
    args = {"client_id": c["client_id"], "account_id": aid}
    deposits = json.loads(env.execute("search_transactions", {**args, "transaction_type": "deposit",
                                                              "start_date": "2025-03-01", "end_date": rules.TODAY}).observation)
    assert deposits and all(t["type"] == "deposit" and "2025-03-01" <= t["timestamp"][:10] for t in deposits)
    big = json.loads(env.execute("search_transactions", {**args, "min_amount": 100, "max_amount": 500}).observation)
    assert all(100 <= t["amount"] <= 500 for t in big)
    other = find_client(db, lambda x: x["client_id"] != c["client_id"])
    err(env.execute("search_transactions", {"client_id": other["client_id"], "account_id": aid}), "does not belong")
    err(env.execute("search_transactions", {**args, "start_date": "05/01/2025"}), "YYYY-MM-DD")
    err(env.execute("search_transactions", {**args, "start_date": "2025-05-10", "end_date": "2025-05-01"}), "after")
    assert not env.execute("search_transactions", {**args, "transaction_type": "purchase"}).ok  # enum validated


def test_internal_transfer_moves_money_and_enforces_rules(env, db):
    c = find_client(db, lambda c: len([a for a in active(c) if a["currency"] == "USD"]) >= 2
                    and any(a["type"] == "credit" and a["status"] == "active" and a["balance"]["current"] < -50
                            for a in c["accounts"].values()))
    src, dst = [a for a in active(c) if a["currency"] == "USD"][:2]
    credit = next(a for a in c["accounts"].values() if a["type"] == "credit" and a["status"] == "active")
    base = {"client_id": c["client_id"]}
    out = env.execute("initiate_internal_transfer", {**base, "from_account_id": src["account_id"],
                                                     "to_account_id": dst["account_id"], "amount": 10.5})
    assert out.ok, out.observation
    res = json.loads(out.observation)
    now_src = env.store.get("clients", c["client_id"])["accounts"][src["account_id"]]
    assert now_src["balance"]["available"] == pytest.approx(src["balance"]["available"] - 10.5)
    debit = env.store.get("transactions", res["debit_transaction_id"])
    assert debit["timestamp"] == rules.NOW and debit["related_transaction_id"] == res["credit_transaction_id"]
    assert debit["balance_after"] == now_src["balance"]["current"]
    owed = -credit["balance"]["current"]
    h = env.store.hash()
    for args, words in [
        ({"from_account_id": credit["account_id"], "to_account_id": src["account_id"], "amount": 10.0}, "credit account"),
        ({"from_account_id": src["account_id"], "to_account_id": credit["account_id"], "amount": round(owed + 1, 2)}, "owed"),
        ({"from_account_id": src["account_id"], "to_account_id": dst["account_id"], "amount": 10_000_000.0}, "available"),
        ({"from_account_id": src["account_id"], "to_account_id": src["account_id"], "amount": 5.0}, "same account"),
        ({"from_account_id": src["account_id"], "to_account_id": dst["account_id"], "amount": -5.0}, "greater than zero"),
        ({"from_account_id": src["account_id"], "to_account_id": dst["account_id"], "amount": 1.234}, "two decimals"),
    ]:
        err(env.execute("initiate_internal_transfer", {**base, **args}), words)
    assert env.store.hash() == h
    fx = find_client(db, lambda c: any(a["currency"] != "USD" and a["status"] == "active" for a in c["accounts"].values())
                     and any(a["currency"] == "USD" and a["balance"]["available"] > 20 for a in active(c)))
    usd_acc = next(a for a in active(fx) if a["currency"] == "USD")
    eur = next(a for a in fx["accounts"].values() if a["currency"] != "USD" and a["status"] == "active")
    err(env.execute("initiate_internal_transfer", {"client_id": fx["client_id"], "from_account_id": usd_acc["account_id"],
                                                   "to_account_id": eur["account_id"], "amount": 5.0}), "currenc")
    err(env.execute("initiate_internal_transfer", {"client_id": fx["client_id"], "from_account_id": src["account_id"],
                                                   "to_account_id": eur["account_id"], "amount": 5.0}), "does not belong")


def test_daily_limit_is_the_agents_job(env, db, domain):
    """The source never checks a payee's daily limit, so it stays agent-side: the tool sends a transfer that
    passes it, the policy forbids that, the Tracer's policy check flags such a reference, and some tasks
    ask for it (so they test the agent)."""
    from temo.core import Action
    from temo.domains.bank.grounding import GROUNDER
    from temo.domains.bank.writes import sent_today
    from temo.env.grounding import Ground

    for b in db.tables["beneficiaries"].values():
        sent = sent_today(Store(db), b["allowed_from_account_ids"], b["beneficiary_id"])
        left = b["transfer_limits"]["daily_limit"] - sent
        c = db.tables["clients"][b["client_id"]]
        src = [a for a in b["allowed_from_account_ids"] if c["accounts"][a]["status"] == "active"
               and c["accounts"][a]["balance"]["available"] > b["transfer_limits"]["per_transfer_limit"] + 50]
        if (sent > 0 and left + 10 < b["transfer_limits"]["per_transfer_limit"] and src and b["bank_details"]["iban"] is None
                and b["status"] == "active" and b["verification"]["status"] == "verified" and c["kyc"]["status"] == "verified"):
            break
    else:
        raise AssertionError("no payee already paid today close to its daily limit")
    args = {"client_id": c["client_id"], "beneficiary_id": b["beneficiary_id"], "from_account_id": src[0],
            "amount": money(left + 10), "method": "ACH"}
    out = env.execute("initiate_transfer_to_beneficiary", args)
    assert out.ok, out.observation  # the tool does not count today's transfers
    g = Ground(db, env.tools, c["client_id"], None, "test", user_table="clients")
    assert "initiate_transfer_to_beneficiary:over_daily_limit" in GROUNDER.check_policy([Action(name="initiate_transfer_to_beneficiary", arguments=args)], g)
    assert GROUNDER.check_policy([Action(name="initiate_transfer_to_beneficiary", arguments={**args, "amount": money(left)})], g) == []
    assert "daily limit" in domain.policy
    rules_asked = {t.meta.get("challenge_rule") for t in domain.tasks("train")}
    assert "beneficiary_daily_limit" in rules_asked


def test_transfer_to_beneficiary_limits_fees_and_status(env, db):
    c, b, src = payable(db)
    base = {"client_id": c["client_id"], "beneficiary_id": b["beneficiary_id"], "from_account_id": src["account_id"]}
    limit = b["transfer_limits"]["per_transfer_limit"]
    err(env.execute("initiate_transfer_to_beneficiary", {**base, "amount": limit + 1}), "per-transfer limit")
    international = b["bank_details"]["iban"] is not None
    if international:
        err(env.execute("initiate_transfer_to_beneficiary", {**base, "amount": 20.0, "method": "ACH"}), "Wire only")
    out = env.execute("initiate_transfer_to_beneficiary", {**base, "amount": 20.0, "method": "Wire"})
    assert out.ok, out.observation
    res = json.loads(out.observation)
    assert res["fee"] == (rules.WIRE_FEE_INTERNATIONAL if international else rules.WIRE_FEE_DOMESTIC)
    assert res["from_account_available_balance"] == pytest.approx(src["balance"]["available"] - 20 - res["fee"])
    tx = env.store.get("transactions", res["transaction_id"])
    assert tx["beneficiary_id"] == b["beneficiary_id"] and tx["fees"] == [{"type": "wire_fee", "amount": res["fee"]}]
    pending = next(x for x in db.tables["beneficiaries"].values() if x["verification"]["status"] == "pending"
                   and x["status"] == "active" and db.tables["clients"][x["client_id"]]["kyc"]["status"] == "verified")
    pc = db.tables["clients"][pending["client_id"]]
    err(env.execute("initiate_transfer_to_beneficiary", {"client_id": pc["client_id"], "beneficiary_id": pending["beneficiary_id"],
                                                         "from_account_id": pending["allowed_from_account_ids"][0],
                                                         "amount": 5.0, "method": "Wire"}), "not verified")
    err(env.execute("initiate_transfer_to_beneficiary", {**base, "client_id": pc["client_id"], "amount": 5.0}),
        "does not belong")
    other = next((a for a in active(c) if a["account_id"] not in b["allowed_from_account_ids"]), None)
    if other:
        err(env.execute("initiate_transfer_to_beneficiary", {**base, "from_account_id": other["account_id"],
                                                             "amount": 5.0, "method": "Wire"}), "may only be paid from")
    kyc = find_client(db, lambda x: x["kyc"]["status"] != "verified" and x["beneficiary_ids"])
    err(env.execute("initiate_transfer_to_beneficiary", {"client_id": kyc["client_id"], "beneficiary_id": kyc["beneficiary_ids"][0],
                                                         "from_account_id": next(iter(kyc["accounts"])), "amount": 5.0}), "KYC")
    assert not env.execute("initiate_transfer_to_beneficiary", {**base, "amount": 5.0, "method": "SWIFT"}).ok


def new_payee_args(c, **over):
    src = active(c)[0]
    args = {"client_id": c["client_id"], "beneficiary_type": "individual", "display_name": None, "first_name": "Lina",
            "last_name": "Okafor", "business_name": None, "bank_name": "Chase", "account_number_masked": "123456789012",
            "routing_number": "021000021", "iban": None, "swift_bic": None, "address1": "12 Elm Street", "address2": "",
            "city": "Austin", "state": "TX", "zip": "78701", "country": "USA",
            "allowed_from_account_ids": [src["account_id"], src["account_id"]], "per_transfer_limit": 500.0,
            "daily_limit": 1000.0}
    args.update(over)
    return args


def test_add_and_verify_beneficiary(env, db):
    c = find_client(db, lambda c: c["kyc"]["status"] == "verified" and active(c))
    out = env.execute("add_beneficiary", new_payee_args(c, verification_method="micro_deposits"))
    assert out.ok, out.observation
    ben = json.loads(out.observation)
    assert ben["beneficiary_id"] == f"ben_{len(db.tables['beneficiaries']) + 1:04d}"
    assert ben["bank_details"]["account_number_masked"] == "****9012" and ben["name"]["display_name"] == "Lina Okafor"
    assert ben["verification"] == {"status": "pending", "method": "micro_deposits", "verified_at": None}
    assert ben["allowed_from_account_ids"] == [active(c)[0]["account_id"]]
    assert ben["beneficiary_id"] in env.store.get("clients", c["client_id"])["beneficiary_ids"]
    args = {"client_id": c["client_id"], "beneficiary_id": ben["beneficiary_id"]}
    err(env.execute("verify_beneficiary", {**args, "method": "document"}), "set up for micro_deposits")
    out = env.execute("verify_beneficiary", {**args, "method": "micro_deposits"})
    assert out.ok and json.loads(out.observation)["verification"]["verified_at"] == rules.NOW
    err(env.execute("verify_beneficiary", args), "already verified")
    err(env.execute("add_beneficiary", new_payee_args(c)), "already saved")


@pytest.mark.parametrize("over,words", [
    ({"routing_number": "021000022"}, "routing_number"),
    ({"iban": "DE89370400440532013000"}, "null for a payee in the USA"),
    ({"first_name": None}, "needs first_name"),
    ({"business_name": "Acme"}, "business_name must be null"),
    ({"beneficiary_type": "business"}, "needs business_name"),
    ({"per_transfer_limit": 2000.0}, "cannot be larger"),
    ({"per_transfer_limit": 500.0, "daily_limit": 30000.0}, "cannot be above"),
    ({"account_number_masked": "12-ab"}, "account number"),
    ({"allowed_from_account_ids": []}, "at least one"),
    ({"beneficiary_id": "ben_0001"}, "assigned by the bank"),
    ({"country": "Germany", "routing_number": None, "iban": "DE00370400440532013000", "swift_bic": "COBADEFF"}, "valid IBAN"),
    ({"country": "Germany", "routing_number": None, "iban": "DE89370400440532013000", "swift_bic": "COBADEFF",
      "verification_method": "instant"}, "instant"),
])
def test_add_beneficiary_rules(env, db, over, words):
    c = find_client(db, lambda c: c["kyc"]["status"] == "verified" and active(c))
    err(env.execute("add_beneficiary", new_payee_args(c, **over)), words)


def test_add_beneficiary_abroad_and_refusals(env, db):
    c = find_client(db, lambda c: c["kyc"]["status"] == "verified" and active(c)
                    and any(a["type"] == "credit" for a in c["accounts"].values()))
    out = env.execute("add_beneficiary", new_payee_args(c, country="Germany", routing_number=None, state="",
                                                        iban="de89 3704 0044 0532 0130 00", swift_bic="cobadeff"))
    assert out.ok, out.observation
    ben = json.loads(out.observation)
    assert ben["bank_details"]["iban"] == "DE89370400440532013000" and ben["bank_details"]["swift_bic"] == "COBADEFF"
    credit = next(a for a in c["accounts"].values() if a["type"] == "credit")
    err(env.execute("add_beneficiary", new_payee_args(c, allowed_from_account_ids=[credit["account_id"]])), "checking or savings")
    kyc = find_client(db, lambda c: c["kyc"]["status"] != "verified" and active(c))
    err(env.execute("add_beneficiary", new_payee_args(kyc)), "KYC")
    revoked = next(b for b in db.tables["beneficiaries"].values() if b["status"] != "active"
                   and b["verification"]["status"] != "verified")
    err(env.execute("verify_beneficiary", {"client_id": revoked["client_id"], "beneficiary_id": revoked["beneficiary_id"]}),
        "only an active")


def test_loan_payment(env, db):
    def ok(c):
        return any(db.tables["loans"][x]["status"] == "delinquent" for x in c["loan_ids"]) and any(
            a["balance"]["available"] > 5000 and a["currency"] == "USD" for a in active(c))
    c = find_client(db, ok)
    loan = next(db.tables["loans"][x] for x in c["loan_ids"] if db.tables["loans"][x]["status"] == "delinquent")
    src = next(a for a in active(c) if a["balance"]["available"] > 5000 and a["currency"] == "USD")
    late = [r for r in loan["payment_schedule"] if r["status"] == "late"]
    amount = round(sum(r["amount"] for r in late), 2)
    base = {"client_id": c["client_id"], "loan_id": loan["loan_id"], "from_account_id": src["account_id"]}
    err(env.execute("make_loan_payment", {**base, "amount": round(payoff_amount(loan["outstanding_balance"], loan["interest_rate_apr"]) + 1, 2)}),
        "payoff")
    out = env.execute("make_loan_payment", {**base, "amount": amount})
    assert out.ok, out.observation
    res = json.loads(out.observation)
    assert res["loan_status"] == "active" and res["principal_component"] + res["interest_component"] == pytest.approx(amount)
    rec = env.store.get("loans", loan["loan_id"])
    assert rec["outstanding_balance"] == pytest.approx(loan["outstanding_balance"] - res["principal_component"])
    assert all(r["status"] != "late" for r in rec["payment_schedule"])
    assert rec["repayment_history"][-1]["transaction_id"] == res["transaction_id"]
    for status, words in (("closed", "nothing is owed"), ("default", "human agent")):
        other = next(x for x in db.tables["loans"].values() if x["status"] == status)
        oc = db.tables["clients"][other["client_id"]]
        err(env.execute("make_loan_payment", {"client_id": oc["client_id"], "loan_id": other["loan_id"],
                                              "from_account_id": next(iter(oc["accounts"])), "amount": 10.0}), words)
    err(env.execute("make_loan_payment", {**base, "client_id": "cl_0001" if c["client_id"] != "cl_0001" else "cl_0002",
                                          "amount": 10.0}), "does not belong")


def test_card_and_account_controls(env, db):
    def card_with(pred):
        for c in clients(db):
            for k in c["cards"].values():
                if pred(k):
                    return k
        raise AssertionError

    live = card_with(lambda k: k["status"] == "active")
    assert not env.execute("freeze_card", {"card_id": live["card_id"], "reason": "bored"}).ok  # enum validated
    out = env.execute("freeze_card", {"card_id": live["card_id"], "reason": "temporary hold"})
    assert out.ok and json.loads(out.observation)["block_reason"] == "temporary hold"
    err(env.execute("freeze_card", {"card_id": live["card_id"], "reason": "lost"}), "only an active card")
    assert env.execute("unfreeze_card", {"card_id": live["card_id"]}).ok
    err(env.execute("unfreeze_card", {"card_id": live["card_id"]}), "only a blocked card")
    stolen = card_with(lambda k: k["block_reason"] in ("stolen", "suspected fraud"))
    err(env.execute("unfreeze_card", {"card_id": stolen["card_id"]}), "must be replaced")
    expired = card_with(lambda k: k["status"] == "expired")
    err(env.execute("freeze_card", {"card_id": expired["card_id"], "reason": "lost"}), "expired")

    accs = [a for c in clients(db) for a in c["accounts"].values()]
    acc = next(a for a in accs if a["status"] == "active")
    out = env.execute("freeze_account", {"account_id": acc["account_id"], "reason": "unrecognized activity"})
    assert out.ok and json.loads(out.observation)["freeze_reason"] == "unrecognized activity"
    assert not env.execute("freeze_account", {"account_id": acc["account_id"], "reason": "compliance review"}).ok
    assert env.execute("unfreeze_account", {"account_id": acc["account_id"]}).ok
    err(env.execute("unfreeze_account", {"account_id": acc["account_id"]}), "only a frozen")
    review = next(a for a in accs if a["freeze_reason"] == "compliance review")
    err(env.execute("unfreeze_account", {"account_id": review["account_id"]}), "human agent")
    closed = next(a for a in accs if a["status"] == "closed")
    err(env.execute("freeze_account", {"account_id": closed["account_id"], "reason": "customer request"}), "closed")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_failed_writes_leave_the_state_unchanged(domain, db, data):
    c = db.tables["clients"]["cl_0001"]
    ids = [*c["accounts"], *c["cards"], *c["loan_ids"], *c["beneficiary_ids"], "cl_0001", "cl_0002", "acc_00009", "x"]
    value = st.one_of(st.sampled_from(ids), st.text(max_size=8), st.floats(allow_nan=True), st.integers(-10, 10**7),
                      st.none(), st.lists(st.sampled_from(ids), max_size=3), st.sampled_from(["ACH", "Wire", "lost"]))
    tool = data.draw(st.sampled_from([t.name for t in bank_tools.WRITE_TOOLS]))
    names = list(domain.tools[tool].schema["parameters"]["properties"])
    args = {n: data.draw(value) for n in names if data.draw(st.booleans()) or n == names[0]}
    assert_atomic(domain, db, tool, args)


# ------------------------------------------------------------------------------------------------ graph
def test_graph_shape(domain):
    assert_graph_follows_the_paper(domain, tools=17, edges=99)


# ------------------------------------------------------------------------------------------------ grounding
def test_sampled_walks_ground_and_replay(domain, db):
    grounded = assert_walks_ground_and_replay(domain, sample(domain.graph, 80, 7, "bank")[:60], 7, 0.8,
                                              GROUNDER.internal_ids(db), want_challenge=True)
    assert all(r["grounded"]["actions"][0]["name"] == "find_client_id_by_email" for r in grounded)
    assert sum(1 for r in grounded if r["grounded"]["challenge"]) >= 5


def test_candidate_users_need_what_the_trace_uses(db):
    everyone = GROUNDER.candidate_users(db, "test", [["get_account_details", "get_recent_transactions"]])
    assert len(everyone) > 950
    unfreeze = GROUNDER.candidate_users(db, "test", [["unfreeze_card", "get_card_details"]])
    assert unfreeze and all(any(k["block_reason"] in ("lost", "temporary hold") for k in db.tables["clients"][c]["cards"].values())
                            for c in unfreeze)
    assert GROUNDER.test_share == 1.0 and GROUNDER.user_table == "clients"


# ------------------------------------------------------------------------------------------------ built tasks
