"""Retail domain: database, tools, policy, graph and the code-built task sets."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from temo.core import Task
from temo.domains.retail import tools as retail_tools
from temo.domains.retail.generate import build_database
from temo.domains.retail.models import TABLE_MODELS
from temo.domains.kit.split import split_of
from temo.env import GENERIC_TOOLS, Database, Environment, Store

from domain_checks import assert_records_validate, fresh_env

SPLITS = ("test", "train")
PAPER_FACTS = Path(__file__).resolve().parents[3] / "shared" / "paper_facts.json"


@pytest.fixture(scope="module")
def paper():
    """Retail's numbers in the paper (Table 2 tools and tasks, Table 15 entities, Table 6 training)."""
    if not PAPER_FACTS.exists():
        pytest.skip("the paper's facts (../shared/paper_facts.json) are not next to this checkout")
    return json.loads(PAPER_FACTS.read_text())["domains"]["retail"]
WRITE_NAMES = {t.name for t in retail_tools.WRITE_TOOLS}
DOMAIN = "retail"  # the domain and db fixtures come from conftest.py


@pytest.fixture(scope="module")
def all_tasks(domain) -> list[Task]:
    return domain.tasks("test") + domain.tasks("train")


def leaves(value):
    if isinstance(value, list):
        for v in value:
            yield from leaves(v)
    else:
        yield value


# ---------------------------------------------------------------------------- database


def test_database_counts(db, paper):
    assert db.counts() == {**db.counts(), **paper["entities"]}  # users, products, orders as in Table 15
    assert set(paper["entities"]) <= set(db.counts())


def test_task_counts(domain, paper):
    assert len(domain.tasks("test")) == paper["test_tasks"]
    assert len(domain.tasks("train")) == paper["train_tasks"]


def test_every_record_validates(db):
    assert_records_validate(db, TABLE_MODELS, {"users": "user_id", "products": "product_id", "orders": "order_id"})


def test_database_is_consistent(db):
    users, products, orders = db.tables["users"], db.tables["products"], db.tables["orders"]
    assert len({u["email"] for u in users.values()}) == len(users)
    assert len({(u["name"]["first_name"], u["name"]["last_name"], u["address"]["zip"]) for u in users.values()}) == len(users)
    owned = [oid for u in users.values() for oid in u["orders"]]
    assert sorted(owned) == sorted(orders)
    for order in orders.values():
        assert order["order_id"] in users[order["user_id"]]["orders"]
        for item in order["items"]:
            assert item["item_id"] in products[item["product_id"]]["variants"]
        for p in order["payment_history"]:
            assert p["payment_method_id"] in users[order["user_id"]]["payment_methods"]
    assert {o["status"] for o in orders.values()} == {"pending", "processed", "delivered", "cancelled",
                                                     "return requested", "exchange requested"}


def test_generation_is_deterministic(db):
    assert Database(build_database(seed=0)).base_hash == db.base_hash
    assert Database(build_database(seed=1)).base_hash != db.base_hash


# ---------------------------------------------------------------------------- tools


def test_tool_counts_and_schemas(domain, paper):
    kinds = [t.kind for t in domain.tools.values()]
    assert kinds.count("read") == paper["read_tools"] and kinds.count("write") == paper["write_tools"]
    for g in GENERIC_TOOLS:
        assert g.name in domain.tools and domain.tools[g.name].kind == "read"
    assert set(retail_tools.AUTH_TOOLS) <= set(domain.tools)
    read_prefixes = ("get_", "list_", "search_", "check_", "find_")
    for t in domain.tools.values():
        fn = t.openai_schema()["function"]
        assert fn["description"]
        for name, prop in fn["parameters"]["properties"].items():
            assert prop.get("description"), f"{t.name}.{name} has no description"
        if t.kind == "read" and t not in GENERIC_TOOLS:
            assert t.name.startswith(read_prefixes)


def test_authentication_tools(domain, db):
    env = fresh_env(domain, db)
    user = next(iter(db.tables["users"].values()))
    out = env.execute("find_user_id_by_email", {"email": user["email"].upper()})
    assert out.ok and out.observation == user["user_id"]
    n = user["name"]
    out = env.execute("find_user_id_by_name_zip", {"first_name": n["first_name"], "last_name": n["last_name"],
                                                   "zip": user["address"]["zip"]})
    assert out.ok and out.observation == user["user_id"]
    assert not env.execute("find_user_id_by_email", {"email": "nobody@nowhere.test"}).ok
    assert not env.execute("find_user_id_by_name_zip", {"first_name": n["first_name"], "last_name": n["last_name"],
                                                        "zip": "00000"}).ok


def _find(db, status, pred=lambda o, u: True):
    for order in db.tables["orders"].values():
        user = db.tables["users"][order["user_id"]]
        if order["status"] == status and pred(order, user):
            return order, user
    raise AssertionError(f"no {status} order matching the predicate")


def test_state_rules_are_enforced(domain, db):
    env = fresh_env(domain, db)
    h0 = env.store.hash()
    delivered, _ = _find(db, "delivered")
    pending, _ = _find(db, "pending")
    processed, _ = _find(db, "processed")
    for name, args in [
        ("cancel_pending_order", {"order_id": delivered["order_id"], "reason": "no longer needed"}),
        ("cancel_pending_order", {"order_id": processed["order_id"], "reason": "no longer needed"}),
        ("cancel_pending_order", {"order_id": "#W0000000", "reason": "no longer needed"}),
        ("return_delivered_order_items", {"order_id": pending["order_id"], "item_ids": [pending["items"][0]["item_id"]],
                                          "payment_method_id": pending["payment_history"][0]["payment_method_id"]}),
        ("modify_pending_order_address", {"order_id": delivered["order_id"], "address1": "1 A St", "address2": "Apt 1",
                                          "city": "Austin", "state": "TX", "country": "USA", "zip": "78701"}),
        ("modify_pending_order_payment", {"order_id": pending["order_id"],
                                          "payment_method_id": pending["payment_history"][0]["payment_method_id"]}),
        ("modify_pending_order_payment", {"order_id": pending["order_id"], "payment_method_id": "paypal_0000000"}),
        ("return_delivered_order_items", {"order_id": delivered["order_id"], "item_ids": ["0000000000"],
                                          "payment_method_id": delivered["payment_history"][0]["payment_method_id"]}),
    ]:
        out = env.execute(name, args)
        assert not out.ok and out.error == "domain" and out.observation.startswith("Error:"), (name, out.observation)
    assert env.store.hash() == h0


def test_exchange_must_stay_within_product_and_availability(domain, db):
    env = fresh_env(domain, db)
    order, user = _find(db, "delivered", lambda o, u: len(o["items"]) >= 2)
    a, b = order["items"][0], order["items"][1]
    pm = order["payment_history"][0]["payment_method_id"]
    other_product_item = b["item_id"] if b["product_id"] != a["product_id"] else None
    if other_product_item:
        out = env.execute("exchange_delivered_order_items", {"order_id": order["order_id"], "item_ids": [a["item_id"]],
                                                              "new_item_ids": [other_product_item], "payment_method_id": pm})
        assert not out.ok and "same product" in out.observation
    unavailable = [v for v in db.tables["products"][a["product_id"]]["variants"].values() if not v["available"]]
    if unavailable:
        out = env.execute("exchange_delivered_order_items", {"order_id": order["order_id"], "item_ids": [a["item_id"]],
                                                              "new_item_ids": [unavailable[0]["item_id"]], "payment_method_id": pm})
        assert not out.ok and ("not available" in out.observation or "same as" in out.observation)


def test_return_refund_goes_to_original_or_gift_card(domain, db):
    def pred(o, u):
        orig = o["payment_history"][0]["payment_method_id"]
        return any(m["source"] != "gift_card" and mid != orig for mid, m in u["payment_methods"].items())

    order, user = _find(db, "delivered", pred)
    orig = order["payment_history"][0]["payment_method_id"]
    other = next(mid for mid, m in user["payment_methods"].items() if m["source"] != "gift_card" and mid != orig)
    env = fresh_env(domain, db)
    args = {"order_id": order["order_id"], "item_ids": [order["items"][0]["item_id"]]}
    assert not env.execute("return_delivered_order_items", {**args, "payment_method_id": other}).ok
    out = env.execute("return_delivered_order_items", {**args, "payment_method_id": orig})
    assert out.ok
    rec = env.store.get("orders", order["order_id"])
    assert rec["status"] == "return requested" and rec["return_payment_method_id"] == orig
    # a second request on the same order is refused (no longer delivered)
    assert not env.execute("return_delivered_order_items", {**args, "payment_method_id": orig}).ok


def test_cancel_refunds_gift_card_at_once(domain, db):
    def pred(o, u):
        m = u["payment_methods"][o["payment_history"][0]["payment_method_id"]]
        return m["source"] == "gift_card"

    order, user = _find(db, "pending", pred)
    gid = order["payment_history"][0]["payment_method_id"]
    before = user["payment_methods"][gid]["balance"]
    env = fresh_env(domain, db)
    out = env.execute("cancel_pending_order", {"order_id": order["order_id"], "reason": "ordered by mistake"})
    assert out.ok
    rec = env.store.get("orders", order["order_id"])
    assert rec["status"] == "cancelled" and rec["cancel_reason"] == "ordered by mistake"
    assert rec["payment_history"][-1]["transaction_type"] == "refund"
    after = env.store.get("users", user["user_id"])["payment_methods"][gid]["balance"]
    assert after == pytest.approx(before + order["payment_history"][0]["amount"])
    assert db.tables["users"][user["user_id"]]["payment_methods"][gid]["balance"] == before  # base untouched


def _swap_candidate(db, status):
    """(order, user, item, pricier available variant of the same product)."""
    for order in db.tables["orders"].values():
        if order["status"] != status or order.get("items_modified"):
            continue
        user = db.tables["users"][order["user_id"]]
        gift = [mid for mid, m in user["payment_methods"].items() if m["source"] == "gift_card"]
        if not gift:
            continue
        for item in order["items"]:
            for v in db.tables["products"][item["product_id"]]["variants"].values():
                if v["available"] and v["item_id"] != item["item_id"] and v["price"] > item["price"] + 1:
                    return order, user, gift[0], item, v
    raise AssertionError("no candidate")


def test_modify_items_once_per_order(domain, db):
    order, user, gift, item, variant = _swap_candidate(db, "pending")
    env = fresh_env(domain, db)
    pm = order["payment_history"][0]["payment_method_id"]
    out = env.execute("modify_pending_order_items", {"order_id": order["order_id"], "item_ids": [item["item_id"]],
                                                     "new_item_ids": [variant["item_id"]], "payment_method_id": pm})
    assert out.ok, out.observation
    rec = env.store.get("orders", order["order_id"])
    assert rec["items_modified"] and variant["item_id"] in [i["item_id"] for i in rec["items"]]
    assert rec["payment_history"][-1] == {"transaction_type": "payment", "amount": round(variant["price"] - item["price"], 2),
                                          "payment_method_id": pm}
    out = env.execute("modify_pending_order_items", {"order_id": order["order_id"], "item_ids": [variant["item_id"]],
                                                     "new_item_ids": [item["item_id"]], "payment_method_id": pm})
    assert not out.ok and "already" in out.observation


# ---------------------------------------------------------------------------- atomicity and bad calls


def test_failed_write_leaves_state_unchanged(domain, db):
    env = fresh_env(domain, db)
    order, _ = _find(db, "delivered")
    h0 = env.store.hash()
    out = env.execute("cancel_pending_order", {"order_id": order["order_id"], "reason": "no longer needed"})
    assert not out.ok and out.observation.startswith("Error:")
    assert env.store.hash() == h0 and env.store.changed() == {}


def test_partial_edit_is_rolled_back(domain, db):
    """modify_pending_order_items edits the order, then fails on the gift card balance: all is undone."""
    order, user, gift, item, variant = _swap_candidate(db, "pending")
    store = Store(db)
    store.edit("users", user["user_id"])["payment_methods"][gift]["balance"] = 0.0  # set-up, outside a call
    env = Environment(domain.tools, store)
    h0, before = store.hash(), json.dumps(store.get("orders", order["order_id"]), sort_keys=True)
    out = env.execute("modify_pending_order_items", {"order_id": order["order_id"], "item_ids": [item["item_id"]],
                                                     "new_item_ids": [variant["item_id"]], "payment_method_id": gift})
    assert not out.ok and "balance" in out.observation
    assert store.hash() == h0
    assert json.dumps(store.get("orders", order["order_id"]), sort_keys=True) == before
    assert "orders" not in store.changed()


@pytest.mark.parametrize("args, fragment", [
    ({"order_id": 1234567, "reason": "no longer needed"}, "order_id"),
    ({"reason": "no longer needed"}, "missing required argument 'order_id'"),
    ({"order_id": "#W0000000", "reason": "no longer needed", "force": True}, "unexpected argument 'force'"),
    ({"order_id": "#W0000000", "reason": "too expensive"}, "reason"),
    ("{not json", "not valid JSON"),
])
def test_bad_arguments_give_error_observations(domain, db, args, fragment):
    env = fresh_env(domain, db)
    h0 = env.store.hash()
    out = env.execute("cancel_pending_order", args)
    assert not out.ok and out.observation.startswith("Error:") and fragment in out.observation
    assert env.store.hash() == h0


def test_unknown_tool(domain, db):
    out = fresh_env(domain, db).execute("refund_everything", {})
    assert not out.ok and out.error == "unknown_tool"


# ---------------------------------------------------------------------------- policy and graph


def test_policy_mentions_key_rules(domain):
    text = domain.policy.lower()
    for phrase in ["email", "zip code", "explicit **yes**", "only pending orders can be cancelled or modified",
                   "only delivered orders can be returned or exchanged", "same product", "available",
                   "only once per order", "original payment", "gift card", "one user", "never make up",
                   "transfer_to_human_agents", "no longer needed", "ordered by mistake"]:
        assert phrase in text, phrase


# ---------------------------------------------------------------------------- tasks


def test_auth_arguments_are_facts(all_tasks):
    for task in all_tasks:
        facts = {f.key: f.value for f in task.scenario.known}
        a = task.actions[0]
        if a.name == "find_user_id_by_email":
            assert a.arguments == {"email": facts["email"]}
        else:
            assert a.arguments == {"first_name": facts["first_name"], "last_name": facts["last_name"], "zip": facts["zip"]}
        assert [f.key for f in task.scenario.known if f.intent == 0][:1]


def test_facts_are_needed_values(all_tasks):
    """Order ids and address fields the actions use are facts of the intent that uses them (or earlier)."""
    for task in all_tasks:
        by_value = {}
        for f in task.scenario.known:
            by_value.setdefault(f.value, f.intent)
        for a in task.actions:
            if "order_id" in a.arguments:
                assert by_value.get(a.arguments["order_id"], 99) <= a.intent, (task.id, a.name)
            if "address1" in a.arguments:
                for field in ("address1", "address2", "city", "state", "country", "zip"):
                    assert by_value.get(a.arguments[field], 99) <= a.intent, (task.id, field)


def test_no_internal_ids_in_user_text(all_tasks):
    for task in all_tasks:
        text = " ".join([task.instruction] + [i.request + " " + " ".join(i.details) for i in task.scenario.intents])
        for a in task.actions:
            for key in ("item_ids", "new_item_ids", "payment_method_id", "product_id", "user_id"):
                for s in leaves(a.arguments.get(key, [])):
                    assert s not in text, (task.id, s)


def test_splits_are_disjoint(domain):
    sig = lambda t: json.dumps([a.model_dump() for a in t.actions], sort_keys=True)
    test, train = domain.tasks("test"), domain.tasks("train")
    assert not {sig(t) for t in test} & {sig(t) for t in train}
    assert len({sig(t) for t in test}) == len(test) and len({sig(t) for t in train}) == len(train)
    assert all(split_of(t.meta["user_id"]) == "test" for t in test)
    assert all(split_of(t.meta["user_id"]) == "train" for t in train)


def _tiny_world() -> Database:
    addr = {"address1": "1 Elm Street", "address2": "Apt 1", "city": "Austin", "state": "TX", "country": "USA", "zip": "78701"}
    variants = {
        "1000000001": {"item_id": "1000000001", "options": {"size": "S"}, "available": True, "price": 10.0},
        "1000000002": {"item_id": "1000000002", "options": {"size": "M"}, "available": True, "price": 15.0},
        "1000000003": {"item_id": "1000000003", "options": {"size": "L"}, "available": False, "price": 20.0},
    }
    item = {"name": "T-Shirt", "product_id": "2000000001", "item_id": "1000000001", "price": 10.0, "options": {"size": "S"}}
    return Database({
        "users": {"ann_lee_0001": {
            "user_id": "ann_lee_0001", "name": {"first_name": "Ann", "last_name": "Lee"}, "email": "ann@example.com",
            "address": addr, "orders": ["#W0000001"],
            "payment_methods": {
                "credit_card_1": {"id": "credit_card_1", "source": "credit_card", "brand": "visa", "last_four": "4421"},
                "gift_card_1": {"id": "gift_card_1", "source": "gift_card", "balance": 12.0},
            }}},
        "products": {"2000000001": {"product_id": "2000000001", "name": "T-Shirt", "variants": variants}},
        "orders": {"#W0000001": {
            "order_id": "#W0000001", "user_id": "ann_lee_0001", "address": addr, "items": [dict(item), dict(item)],
            "status": "pending", "fulfillments": [], "items_modified": False,
            "payment_history": [{"transaction_type": "payment", "amount": 20.0, "payment_method_id": "credit_card_1"}]}},
    })


def test_tiny_world_payment_and_duplicate_items(domain):
    db = _tiny_world()
    for table, model in TABLE_MODELS.items():
        for record in db.tables[table].values():
            model.model_validate(record)
    env = Environment(domain.tools, Store(db))
    # swapping to an unavailable variant is refused
    out = env.execute("modify_pending_order_items", {"order_id": "#W0000001", "item_ids": ["1000000001"],
                                                     "new_item_ids": ["1000000003"], "payment_method_id": "credit_card_1"})
    assert not out.ok and "not available" in out.observation
    # both copies of the same item can be swapped in one call; the gift card pays the difference
    out = env.execute("modify_pending_order_items", {"order_id": "#W0000001", "item_ids": ["1000000001", "1000000001"],
                                                     "new_item_ids": ["1000000002", "1000000002"], "payment_method_id": "gift_card_1"})
    assert out.ok, out.observation
    order = env.store.get("orders", "#W0000001")
    assert [i["item_id"] for i in order["items"]] == ["1000000002", "1000000002"]
    assert env.store.get("users", "ann_lee_0001")["payment_methods"]["gift_card_1"]["balance"] == 2.0
    # the gift card (balance 2) cannot take over the whole order (30)
    h = env.store.hash()
    out = env.execute("modify_pending_order_payment", {"order_id": "#W0000001", "payment_method_id": "gift_card_1"})
    assert not out.ok and "balance" in out.observation and env.store.hash() == h
    # cancelling refunds each method its net payment: 20 to the card, 10 back onto the gift card
    out = env.execute("cancel_pending_order", {"order_id": "#W0000001", "reason": "no longer needed"})
    assert out.ok
    refunds = {p["payment_method_id"]: p["amount"] for p in env.store.get("orders", "#W0000001")["payment_history"]
               if p["transaction_type"] == "refund"}
    assert refunds == {"credit_card_1": 20.0, "gift_card_1": 10.0}
    assert env.store.get("users", "ann_lee_0001")["payment_methods"]["gift_card_1"]["balance"] == 12.0
    assert Database(db.tables).base_hash == db.base_hash
