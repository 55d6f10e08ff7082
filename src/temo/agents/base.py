"""The agent protocol and the context every agent is built with.

An agent sees the conversation from its side (system policy, its own messages, user messages,
tool results) and answers with one assistant `Message`: visible text, tool calls, or both.
Several tool calls in one message are executed in order; the agent then speaks again.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..core import Message, Task, Usage
from ..env.domain import Domain


@dataclass
class AgentContext:
    domain: Domain
    task: Task  # privileged: only the oracle and probes may look at the reference actions
    split: str
    arm: str
    trial: int
    seed: int  # per-cell seed, derived from (task, arm, trial, run seed)
    rng: random.Random
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def policy(self) -> str:
        return self.domain.policy

    @property
    def tool_schemas(self) -> list[dict[str, Any]]:
        return self.domain.tool_schemas()


@runtime_checkable
class Agent(Protocol):
    usage: Usage

    async def respond(self, messages: list[Message]) -> Message:
        """Return the next assistant message for the conversation so far."""
        ...


GREETING = "Hi! How can I help you today?"
