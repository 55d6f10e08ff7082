"""@tool schemas, argument validation, and error observations."""
from __future__ import annotations

from typing import Literal, Optional

import pytest
from pydantic import BaseModel

from temo.env import Environment, calculate, tool
from temo.env.generic import safe_arithmetic
from temo.env.tool import ToolError


def test_schema_from_type_hints_and_docstring():
    @tool(kind="write")
    def modify(db, order_id: str, item_ids: list[str], reason: Literal["a", "b"], count: int = 1, note: Optional[str] = None) -> dict:
        """Modify an order.

        Args:
            order_id: The order id.
            item_ids: Items to change.
            reason: Why.
            count: How many.
            note: Free text.
        """
        return {}

    s = modify.schema
    assert modify.kind == "write"
    assert s["name"] == "modify" and s["description"] == "Modify an order."
    p = s["parameters"]
    assert p["type"] == "object" and p["additionalProperties"] is False
    assert p["required"] == ["order_id", "item_ids", "reason"]
    props = p["properties"]
    assert props["order_id"] == {"type": "string", "description": "The order id."}
    assert props["item_ids"]["type"] == "array" and props["item_ids"]["items"] == {"type": "string"}
    assert props["reason"]["enum"] == ["a", "b"]
    assert props["count"]["type"] == "integer" and props["count"]["default"] == 1
    assert modify.openai_schema()["type"] == "function"


def test_tool_declaration_errors_are_caught_early():
    with pytest.raises(TypeError, match="docstring"):
        @tool()
        def nodoc(db, x: str):
            return x

    with pytest.raises(TypeError, match="not described"):
        @tool()
        def undocumented(db, x: str):
            """Does x."""
            return x

    with pytest.raises(ValueError):
        tool(kind="delete")


@pytest.mark.parametrize(
    "name,args,kind,text",
    [
        ("nope", "{}", "unknown_tool", "unknown tool 'nope'"),
        ("deposit", "{not json", "bad_json", "not valid JSON"),
        ("deposit", "[1, 2]", "bad_json", "must be a JSON object"),
        ("deposit", '{"account_id": "acc_1"}', "bad_args", "missing required argument 'amount'"),
        ("deposit", '{"account_id": 5, "amount": 1.0}', "bad_args", "account_id"),
        ("deposit", '{"account_id": "acc_1", "amount": "lots"}', "bad_args", "amount"),
        ("deposit", '{"account_id": "acc_1", "amount": 1.0, "extra": 1}', "bad_args", "unexpected argument 'extra'"),
        ("deposit", '{"account_id": "acc_9", "amount": 1.0}', "domain", "does not exist"),
        ("deposit", '{"account_id": "acc_1", "amount": -3.0}', "domain", "positive"),
    ],
)
def test_bad_calls_become_error_observations_and_change_nothing(toy_domain, name, args, kind, text):
    store = toy_domain.store()
    env = Environment(toy_domain.tools, store)
    h = store.hash()
    out = env.execute(name, args)
    assert not out.ok
    assert out.error == kind
    assert out.observation.startswith("Error:") and text in out.observation
    assert store.hash() == h


def test_good_call_returns_json_observation(toy_domain):
    env = Environment(toy_domain.tools, toy_domain.store())
    out = env.execute("deposit", '{"account_id": "acc_1", "amount": 2.5}')
    assert out.ok and '"balance": 12.5' in out.observation


@pytest.mark.parametrize("expr,value", [("1 + 2 * 3", "7"), ("(120 + 35.5) * 0.9", "139.95"), ("-4 / 2", "-2.0"), ("2 ** 10", "1024")])
def test_calculate(expr, value):
    assert calculate(None, expression=expr) == value


@pytest.mark.parametrize("expr", ["__import__('os').system('true')", "open('x')", "a + 1", "[1,2]", "1 / 0", "9 ** 9999", "lambda: 1"])
def test_calculate_rejects_anything_but_arithmetic(expr):
    with pytest.raises(ToolError):
        safe_arithmetic(expr)


def test_no_eval_or_exec_in_the_package():
    from pathlib import Path
    import re

    import temo

    root = Path(temo.__file__).parent
    offenders = [str(p) for p in root.rglob("*.py") if re.search(r"(?<![\w.])(eval|exec)\(", p.read_text())]
    assert offenders == []


class Passenger(BaseModel):
    name: str
    age: int


def test_nested_models_are_inlined_and_whole_floats_accepted_for_integers():
    @tool(kind="write")
    def book(db, passengers: list[Passenger], bags: int) -> dict:
        """Book seats.

        Args:
            passengers: Who travels.
            bags: Checked bags.
        """
        return {"n": len(passengers), "bags": bags}

    text = str(book.schema)
    assert "$ref" not in text and "$defs" not in text
    assert book.schema["parameters"]["properties"]["passengers"]["items"]["properties"]["age"]["type"] == "integer"
    assert book.validate({"passengers": [{"name": "a", "age": 30.0}], "bags": 2.0})["bags"] == 2
    with pytest.raises(Exception):
        book.validate({"passengers": [], "bags": 2.5})
    with pytest.raises(Exception):
        book.validate({"passengers": [], "bags": "2"})
