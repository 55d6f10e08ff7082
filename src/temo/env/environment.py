"""Execute tool calls against a store: atomically, and never raising into the episode."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Optional

from pydantic import ValidationError

from .safety import MAX_RECORD_DEPTH, UnsafeValue, check_value, escape_surrogates, parse_arguments
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
        """Run one call. Never raises: whatever a model sends (any JSON, any text, any depth or
        size) comes back as an ``Error: ...`` observation, and nothing non-finite or unencodable
        reaches the store."""
        try:
            return self._execute(name, arguments)
        except Exception as e:  # last line of defence; the store was rolled back in _execute
            shown = escape_surrogates(str(name))[:100]
            return Outcome(shown, False, f"Error: {shown} failed ({type(e).__name__})", "unknown", None, "internal")

    def _execute(self, name: str, arguments: str | dict[str, Any] | None) -> Outcome:
        tool = self.tools.get(name) if isinstance(name, str) else None
        if tool is None:
            known = ", ".join(sorted(self.tools))
            shown = escape_surrogates(str(name))[:100]
            return Outcome(shown, False, f"Error: unknown tool '{shown}'. Available tools: {known}", "unknown", None, "unknown_tool")
        if arguments is None or arguments == "":
            args: Any = {}
        elif isinstance(arguments, str):
            try:
                args = parse_arguments(arguments)
            except UnsafeValue as e:
                return Outcome(name, False, f"Error: arguments for {name} are rejected: {e}", tool.kind, None, "bad_json")
        else:
            args = arguments
        if not isinstance(args, dict):
            return Outcome(name, False, f"Error: arguments for {name} must be a JSON object", tool.kind, None, "bad_json")
        problem = check_value(args)
        if problem:
            return Outcome(name, False, f"Error: arguments for {name} are rejected: {problem}", tool.kind, None, "bad_args")
        try:
            clean = tool.validate(args)
        except ValidationError as e:
            return Outcome(name, False, "Error: " + describe_validation_error(name, e), tool.kind, args, "bad_args")
        self.store.begin()
        try:
            value = tool.func(self.store, **clean)
            observation = format_result(value)
            problem = check_value(observation) or self._check_written()
            if problem:
                raise _UnsafeResult(problem)
        except ToolError as e:
            self.store.rollback()
            return Outcome(name, False, f"Error: {e}", tool.kind, args, "domain")
        except StoreError as e:
            self.store.rollback()
            return Outcome(name, False, f"Error: {e.args[0] if e.args else e}", tool.kind, args, "domain")
        except _UnsafeResult as e:
            self.store.rollback()
            return Outcome(name, False, f"Error: {name} cannot do that: its result {e}; nothing was changed", tool.kind, args, "domain")
        except (OverflowError, ValueError) as e:  # arithmetic on extreme (finite) inputs
            self.store.rollback()
            return Outcome(name, False, f"Error: {name} cannot use these values ({_short(e)}); nothing was changed", tool.kind, args, "domain")
        except Exception as e:  # a bug in a tool must not take the episode down
            self.store.rollback()
            return Outcome(name, False, f"Error: {name} failed ({type(e).__name__}: {_short(e)})", tool.kind, args, "internal")
        self.store.commit()
        return Outcome(name, True, observation, tool.kind, args, None)

    def _check_written(self) -> str | None:
        """The records this call wrote must be finite, encodable JSON (checked before commit)."""
        for table, key in self.store.touched():
            record = self.store.get(table, key)
            if record is None:
                continue
            problem = check_value(record, max_depth=MAX_RECORD_DEPTH)
            if problem:
                return problem.replace("arguments", "record", 1)
        return None


class _UnsafeResult(Exception):
    pass


def _short(e: BaseException, limit: int = 200) -> str:
    text = escape_surrogates(str(e))
    return text if len(text) <= limit else text[: limit - 3] + "..."
