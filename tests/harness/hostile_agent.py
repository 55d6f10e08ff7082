"""A hostile agent for tests: every tool call is something a broken or adversarial model could send.

Registered by the tests as agent kind ``hostile`` (see `register`). In its first turn it sends one
message holding every hostile case below plus a seeded fuzz of JSON shapes; then it talks. The cell
whose trial equals ``CRASH_TRIAL`` of the first task raises inside `respond`, which must end that
cell only, as ``harness_error``.
"""
from __future__ import annotations

import json
import random
from typing import Any

from temo.core import FunctionCall, Message, ToolCall, Usage

CRASH_TRIAL = 1
SURROGATE = "\ud83d"  # a lone high surrogate: no UTF-8 encoder accepts it


def hostile_texts(tool: str, props: dict[str, Any], big: bool) -> list[str]:
    """Raw argument texts for one tool: each is one of the issue's cases (the huge ones when ``big``)."""
    names = list(props) or ["x"]
    first = names[0]
    numeric = [n for n, p in props.items() if p.get("type") in ("number", "integer")] or [first]
    out = [
        '{"%s": %s1%s}' % (first, "[" * 500, "]" * 500),  # ~500 levels deep
        '{"%s": "X\\ud83d"}' % first,  # a lone surrogate as a JSON escape
        '{"%s": "X%s"}' % (first, SURROGATE),  # ...and as a raw character
        '{"X%s": 1}' % SURROGATE,  # in a key
        '{"%s": NaN}' % numeric[0],
        '{"%s": Infinity}' % numeric[0],
        '{"%s": -Infinity}' % numeric[0],
        '{"%s": 1e999}' % numeric[0],
        '{"%s": %s}' % (numeric[0], "9" * 5000),  # an integer with 5000 digits
        "[]", '"text"', "null", "17", "{", '{"a": 1,}', "\x00", "",
        json.dumps({n: float("nan") for n in names}, allow_nan=True),  # every field NaN
    ]
    if big:
        out += ['{"%s": %s}' % (first, "[" * 100_000 + "]" * 100_000),  # far past any recursion limit
                '{"%s": "%s"}' % (first, "y" * 300_000)]  # far too long
    return out


def fuzz_texts(rng: random.Random, names: list[str], n: int) -> list[str]:
    """Seeded JSON shapes: random nesting, odd numbers, surrogates, truncation."""
    atoms = ["0", "-0", "1e308", "-1e-320", "NaN", "Infinity", "true", "null", '"\\ud800"', '"\\udfff\\ud800"',
             '"ok"', '""', "123456789012345678901234567890123", "1.5", '"\\u0000"', '"' + SURROGATE + '"']

    def value(depth: int) -> str:
        r = rng.random()
        if depth > 0 and r < 0.3:
            return "[" + ",".join(value(depth - 1) for _ in range(rng.randint(0, 3))) + "]"
        if depth > 0 and r < 0.6:
            keys = names + ["extra", SURROGATE]
            return "{" + ",".join(f'"{rng.choice(keys)}":{value(depth - 1)}' for _ in range(rng.randint(0, 3))) + "}"
        return rng.choice(atoms)

    out = []
    for _ in range(n):
        text = "{" + ",".join(f'"{rng.choice(names)}":{value(rng.randint(0, 6))}' for _ in range(rng.randint(0, 4))) + "}"
        if rng.random() < 0.15:
            text = text[: rng.randint(0, len(text))]  # cut off mid-way
        if rng.random() < 0.1:
            depth = rng.randint(30, 3000)
            text = '{"%s": %s0%s}' % (rng.choice(names), "[" * depth, "]" * depth)
        out.append(text)
    return out


class HostileAgent:
    def __init__(self, role: Any, ctx: Any):
        self.ctx = ctx
        self.usage = Usage()
        self.turns = 0

    async def respond(self, messages: list[Message]) -> Message:
        self.turns += 1
        if self.ctx.trial == CRASH_TRIAL and self.ctx.task.id == self.ctx.domain.tasks(self.ctx.split)[0].id:
            raise RuntimeError("hostile agent exploded")
        if self.turns > 1:
            return Message(role="assistant", content=f"Anything else I can do{SURROGATE}?")
        rng = random.Random(f"hostile:{self.ctx.seed}")
        calls: list[tuple[str, str]] = []
        for name, tool in sorted(self.ctx.domain.tools.items()):
            props = tool.schema["parameters"].get("properties", {})
            calls += [(name, t) for t in hostile_texts(name, props, big=name == "calculate")]
            calls += [(name, t) for t in fuzz_texts(rng, list(props) or ["x"], 12)]
        calls += [("calculate", json.dumps({"expression": e})) for e in ("(-8)**0.5", "1e308*10", "9**64*9**64", "2**0.5**-9")]
        calls += [(f"no_such_tool{SURROGATE}", "{}"), ("", "{}")]
        tool_calls = [ToolCall(id=f"h{i}", function=FunctionCall(name=n, arguments=a)) for i, (n, a) in enumerate(calls)]
        return Message(role="assistant", content=f"Let me look{SURROGATE}", tool_calls=tool_calls)


def create(role: Any, ctx: Any) -> HostileAgent:
    return HostileAgent(role, ctx)


def register(monkeypatch: Any) -> None:
    from temo.agents import registry

    monkeypatch.setitem(registry._AGENTS, "hostile", "hostile_agent:create")
