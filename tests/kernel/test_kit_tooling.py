"""The kit's tool factories and look-ups: the tools they make read exactly like hand-written ones."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from temo.domains.kit.arguments import PersonInfo, payment_part
from temo.domains.kit.lookup import fetcher, first_key, require_id
from temo.domains.kit.tooling import record_finder, record_reader, replace_field
from temo.env import Database, Store, ToolError, tool


def _store() -> Store:
    return Store(Database({
        "users": {
            "ana_1": {"email": "Ana@Example.com", "name": {"first": "Ana"}, "zip": "10001"},
            "ana_2": {"email": "ana2@example.com", "name": {"first": "Ana"}, "zip": "10002"},
            "bo_3": {"email": "bo@example.com", "name": {"first": "Bo"}, "zip": "10001"},
        },
        "orders": {"#W1": {"status": "pending", "address": "1 Main St"}},
    }))


def test_record_reader_has_the_schema_of_the_same_hand_written_tool():
    @tool(kind="read")
    def get_user_details(db: Store, user_id: str) -> dict:
        """Get a user's profile.

        Args:
            user_id: The user id, such as 'ana_1'.
        """
        return {}

    made = record_reader("get_user_details", "user_id", fetcher("users", "user"), "Get a user's profile.",
                         "The user id, such as 'ana_1'.")
    assert made.kind == "read"
    assert made.openai_schema() == get_user_details.openai_schema()
    db = _store()
    assert made(db, user_id="bo_3")["email"] == "bo@example.com"
    assert made.func(db, "bo_3")["zip"] == "10001"  # positional, as a plain function
    with pytest.raises(ToolError, match="user 'nobody' not found"):
        made(db, user_id="nobody")
    with pytest.raises(ValidationError):
        made.validate({"user_id": 7})


def test_record_finder_answers_the_first_match_or_the_missing_text():
    find = record_finder("find_user_id_by_email", "email", "users", "email", "Find a user's id by e-mail.",
                         "The e-mail address.", missing="no user with email {email}")
    assert find.schema["parameters"]["properties"] == {"email": {"type": "string", "description": "The e-mail address."}}
    db = _store()
    assert find(db, email="  ana@example.COM ") == "ana_1"  # case and surrounding spaces do not matter
    with pytest.raises(ToolError, match="^no user with email x@y.z$"):
        find(db, email="x@y.z")


def test_record_finder_with_what_needs_a_unique_match():
    by_name = record_finder("find_by_first_name", "first", "users", "name__first", "Find a user by first name.",
                            "The first name.", what="user")
    db = _store()
    assert by_name(db, first="bo") == "bo_3"
    with pytest.raises(ToolError, match="several users match"):
        by_name(db, first="Ana")
    with pytest.raises(ToolError, match="no user found with name.first='Cy'"):
        by_name(db, first=" Cy ")
    with pytest.raises(TypeError):
        record_finder("f", "a", "users", "email", "Find.", "A.")


def test_first_key_matches_nested_fields():
    db = _store()
    assert first_key(db, "users", "none", name__first="ana", zip="10002") == "ana_2"
    with pytest.raises(ToolError, match="^none$"):
        first_key(db, "users", "none", name__first="bo", zip="10002")


def test_require_id_hints_at_the_id_form_only_when_the_prefix_is_wrong():
    db = _store()
    kw = dict(prefix="#W", looks_like="order ids look like '#W1'", missing="order {key!r} not found{hint}")
    assert require_id(db, "orders", "#W1", **kw)["status"] == "pending"
    with pytest.raises(ToolError) as wrong_form:
        require_id(db, "orders", "W1", **kw)
    assert str(wrong_form.value) == "order 'W1' not found (order ids look like '#W1')"
    with pytest.raises(ToolError) as unknown:
        require_id(db, "orders", "#W9", **kw)
    assert str(unknown.value) == "order '#W9' not found"


def test_replace_field_writes_a_change_and_refuses_a_no_op():
    db = _store()
    rec = replace_field(db, "orders", "#W1", "address", "2 Side St", "already there")
    assert rec["address"] == "2 Side St" and db.get("orders", "#W1")["address"] == "2 Side St"
    before = db.hash()
    with pytest.raises(ToolError, match="already there"):
        replace_field(db, "orders", "#W1", "address", "2 Side St", "already there")
    assert db.hash() == before


class Passenger(PersonInfo):
    """A traveller as printed on the ticket."""


Part = payment_part("An amount charged to a saved method.", payment_id="The method id.", amount="Whole dollars.",
                    amount_type=int)


def test_argument_shapes_keep_each_domains_wording_and_types():
    @tool(kind="write")
    def pay(db: Store, passengers: list[Passenger], payment: Part) -> dict:
        """Pay.

        Args:
            passengers: Who travels.
            payment: How it is paid.
        """
        return {}

    props = pay.schema["parameters"]["properties"]
    person = props["passengers"]["items"]
    assert person["description"] == "A traveller as printed on the ticket."
    assert list(person["properties"]) == ["first_name", "last_name", "dob"] and person["additionalProperties"] is False
    assert props["payment"]["description"] == "How it is paid."
    assert props["payment"]["properties"]["amount"] == {"type": "integer", "description": "Whole dollars."}
    ok = {"passengers": [{"first_name": "A", "last_name": "B", "dob": "2000-01-01"}],
          "payment": {"payment_id": "pm_1", "amount": 5}}
    assert pay.validate(ok)["payment"] == {"payment_id": "pm_1", "amount": 5}
    with pytest.raises(ValidationError):
        pay.validate({**ok, "payment": {"payment_id": "pm_1", "amount": 5.5}})
