"""Domain-independent policy checks recorded during an episode (they do not change the reward).

- `auth_before_write`: a write ran before any of the domain's AUTH_TOOLS had succeeded.
- `confirm_before_write`: a write ran while the user's latest message was not an explicit yes.
  (One yes covers the writes that follow it until the user speaks again.)
"""
from __future__ import annotations

from ..agents.oracle import is_affirmative
from ..core import Message, Violation


class PolicyMonitor:
    def __init__(self, auth_tools: frozenset[str]):
        self.auth = auth_tools
        self.authenticated = not self.auth
        self.violations: list[Violation] = []

    def after_call(self, name: str, kind: str, ok: bool, turn: int, messages: list[Message]) -> None:
        if ok and name in self.auth:
            self.authenticated = True
            return
        if kind != "write" or not ok:
            return
        if not self.authenticated:
            self.violations.append(Violation(rule="auth_before_write", turn=turn, detail=name))
        last_user = next((m for m in reversed(messages) if m.role == "user"), None)
        if last_user is None or not is_affirmative(last_user.content or ""):
            self.violations.append(Violation(rule="confirm_before_write", turn=turn, detail=name))
