"""Execute tool calls against a store: atomically, and never raising into the episode."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, Optional

from pydantic import ValidationError

from .store import Store, StoreError
from .tool import Tool, ToolError, describe_validation_error, format_result

ErrorKind = Literal["unknown_tool", "bad_json", "bad_args", "domain", "internal"]


@dataclass
class Outcome:
    """The result of one tool call, as observed by the agent."""

    name: str
    ok: bool
    observation: str
    kind: Literal["read", "write", "unknown"]
    arguments: Optional[dict[str, Any]] = None
    error: Optional[ErrorKind] = None


class Environment:
    """A domain's tools bound to one store."""

    def __init__(self, tools: dict[str, Tool], store: Store):
        self.tools = tools
        self.store = store

    def execute(self, name: str, arguments: str | dict[str, Any] | None) -> Outcome:
        tool = self.tools.get(name)
        if tool is None:
            known = ", ".join(sorted(self.tools))
            return Outcome(name, False, f"Error: unknown tool '{name}'. Available tools: {known}", "unknown", None, "unknown_tool")
        if arguments is None or arguments == "":
            args: Any = {}
        elif isinstance(arguments, str):
            try:
                args = json.loads(arguments)
            except json.JSONDecodeError as e:
                return Outcome(name, False, f"Error: arguments for {name} are not valid JSON ({e.msg} at position {e.pos})", tool.kind, None, "bad_json")
        else:
            args = arguments
        if not isinstance(args, dict):
            return Outcome(name, False, f"Error: arguments for {name} must be a JSON object", tool.kind, None, "bad_json")
        try:
            clean = tool.validate(args)
        except ValidationError as e:
            return Outcome(name, False, "Error: " + describe_validation_error(name, e), tool.kind, args, "bad_args")
        self.store.begin()
        try:
            value = tool.func(self.store, **clean)
        except ToolError as e:
            self.store.rollback()
            return Outcome(name, False, f"Error: {e}", tool.kind, args, "domain")
        except StoreError as e:
            self.store.rollback()
            return Outcome(name, False, f"Error: {e.args[0] if e.args else e}", tool.kind, args, "domain")
        except Exception as e:  # a bug in a tool must not take the episode down
            self.store.rollback()
            return Outcome(name, False, f"Error: {name} failed ({type(e).__name__}: {e})", tool.kind, args, "internal")
        self.store.commit()
        return Outcome(name, True, format_result(value), tool.kind, args, None)
