"""The user-simulator protocol.

A user sees only the agent's visible words (never its tool calls or reasoning) and answers with
text. It ends the conversation by including ###STOP### (goal done) or ###UNSATISFIED### (gave
up) in its visible text; the harness reads the tokens from that text only.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Literal, Optional, Protocol, runtime_checkable

from ..core import Task, Usage

STOP = "###STOP###"
UNSATISFIED = "###UNSATISFIED###"


@dataclass
class UserContext:
    task: Task
    arm: str
    trial: int
    seed: int
    rng: random.Random
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def instruction(self) -> str:
        return self.task.user_instruction(self.arm)  # type: ignore[arg-type]


@dataclass
class UserReply:
    text: str
    reasoning: Optional[str] = None


@runtime_checkable
class User(Protocol):
    usage: Usage

    async def respond(self, agent_text: str) -> UserReply:
        """Answer the agent's latest visible message."""
        ...


_TOKEN_RE = re.compile(r"#{2,3}\s*(STOP|UNSATISFIED)\s*#{2,3}", re.IGNORECASE)


def read_termination(text: str) -> tuple[Optional[Literal["stop", "unsatisfied"]], str]:
    """Find a termination token in the user's visible text and strip it.

    If both tokens appear, UNSATISFIED wins: a user who voices dissatisfaction has not ended on
    good terms, and the paper scores an unsatisfied exit before the goal as -1 (documented and
    tested choice). Tokens are matched leniently (## or ###, any case, inner spaces).
    """
    found = {m.group(1).upper() for m in _TOKEN_RE.finditer(text or "")}
    clean = _TOKEN_RE.sub("", text or "").strip()
    if "UNSATISFIED" in found:
        return "unsatisfied", clean
    if "STOP" in found:
        return "stop", clean
    return None, clean
