"""Tools are plain functions declared with `@tool`.

    @tool(kind="write")
    def cancel_pending_order(db: Store, order_id: str, reason: Literal["no longer needed", "ordered by mistake"]) -> dict:
        '''Cancel a pending order and refund it to the original payment methods.

        Args:
            order_id: The order id, such as '#W0000000'.
            reason: Why the user wants to cancel.
        '''

The first parameter receives the episode's `Store`. The OpenAI function schema comes from the
other parameters' type hints and the docstring's summary and ``Args:`` section. Arguments are
validated strictly by pydantic before the function runs. A function signals a domain error (order
not found, not allowed by policy) by raising `ToolError`; the environment turns it into an error
observation for the agent.
"""
from __future__ import annotations

import inspect
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, get_type_hints

import docstring_parser
from pydantic import ConfigDict, ValidationError, create_model

Kind = Literal["read", "write"]


class ToolError(Exception):
    """A domain error answered to the agent as an observation (never a crash)."""


@dataclass
class Tool:
    name: str
    kind: Kind
    func: Callable[..., Any]
    description: str
    args_model: Any
    schema: dict[str, Any] = field(default_factory=dict)

    def openai_schema(self) -> dict[str, Any]:
        return {"type": "function", "function": self.schema}

    def validate(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Validate arguments strictly (no "5" for 5); raises pydantic.ValidationError.

        Whole-number floats (2.0) are accepted where an integer is expected, since models often
        write numbers that way; strict float fields accept integers anyway."""
        model = self.args_model.model_validate(_integral_floats_to_int(arguments))
        return {name: getattr(model, name) for name in self.args_model.model_fields}

    def __call__(self, db: Any, **kwargs: Any) -> Any:
        return self.func(db, **kwargs)


def _integral_floats_to_int(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {k: _integral_floats_to_int(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral_floats_to_int(v) for v in value]
    return value


def _clean_schema(node: Any, defs: dict[str, Any] | None = None) -> Any:
    """Drop pydantic's titles and inline `$defs` references, so the schema reads like a
    hand-written one and servers with weak `$ref` support (some OpenAI-compatible ones) accept it."""
    if isinstance(node, dict):
        if defs is None:
            defs = node.get("$defs", {})
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = dict(defs[ref.split("/")[-1]])
            target.update({k: v for k, v in node.items() if k != "$ref"})
            return _clean_schema(target, defs)
        return {k: _clean_schema(v, defs) for k, v in node.items() if k not in ("title", "$defs")}
    if isinstance(node, list):
        return [_clean_schema(v, defs) for v in node]
    return node


def tool(kind: Kind = "read", name: str | None = None) -> Callable[[Callable[..., Any]], Tool]:
    if kind not in ("read", "write"):
        raise ValueError("kind must be 'read' or 'write'")

    def wrap(func: Callable[..., Any]) -> Tool:
        tool_name = name or func.__name__
        doc = docstring_parser.parse(inspect.getdoc(func) or "")
        summary = " ".join(p for p in (doc.short_description, doc.long_description) if p).strip()
        if not summary:
            raise TypeError(f"tool {tool_name} needs a docstring describing what it does")
        param_docs = {p.arg_name: (p.description or "").strip() for p in doc.params}
        hints = get_type_hints(func)
        params = list(inspect.signature(func).parameters.values())
        if not params:
            raise TypeError(f"tool {tool_name} must take the store as its first parameter")
        fields: dict[str, Any] = {}
        for p in params[1:]:
            if p.name not in hints:
                raise TypeError(f"tool {tool_name}: parameter {p.name!r} needs a type hint")
            if p.name not in param_docs:
                raise TypeError(f"tool {tool_name}: parameter {p.name!r} is not described in the docstring's Args")
            default = ... if p.default is inspect.Parameter.empty else p.default
            fields[p.name] = (hints[p.name], default)
        model = create_model(
            f"{tool_name}_arguments", __config__=ConfigDict(strict=True, extra="forbid"), **fields
        )
        params_schema = _clean_schema(model.model_json_schema())
        for pname, prop in params_schema.get("properties", {}).items():
            if param_docs.get(pname):
                prop["description"] = param_docs[pname]
        params_schema.setdefault("required", [])
        params_schema["additionalProperties"] = False
        schema = {"name": tool_name, "description": summary, "parameters": params_schema}
        return Tool(name=tool_name, kind=kind, func=func, description=summary, args_model=model, schema=schema)

    return wrap


def format_result(value: Any) -> str:
    """Observations are strings: text as is, everything else as JSON."""
    if isinstance(value, str):
        return value
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json")
    return json.dumps(value, ensure_ascii=False, default=str, allow_nan=False)


def describe_validation_error(tool_name: str, err: ValidationError) -> str:
    parts = []
    for e in err.errors()[:5]:
        loc = ".".join(str(x) for x in e.get("loc", ())) or "arguments"
        kind = e.get("type", "")
        if kind == "missing":
            parts.append(f"missing required argument '{loc}'")
        elif kind == "extra_forbidden":
            parts.append(f"unexpected argument '{loc}'")
        else:
            parts.append(f"argument '{loc}': {e.get('msg', 'invalid')}")
    return f"invalid arguments for {tool_name}: " + "; ".join(parts)
