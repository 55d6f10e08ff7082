"""User simulators by name: `scripted` (offline, deterministic) and `llm`."""
from __future__ import annotations

import importlib

from ..core import RoleConfig
from .base import User, UserContext

_USERS = {
    "scripted": "temo.users.scripted:create",
    "llm": "temo.users.llm:create",
}


class UserSpecError(ValueError):
    pass


def user_kinds() -> list[str]:
    return list(_USERS)


def validate_user_kind(kind: str) -> None:
    if kind not in _USERS:
        raise UserSpecError(f"unknown user {kind!r}; choose one of: {', '.join(_USERS)}")


def create_user(role: RoleConfig, ctx: UserContext) -> User:
    validate_user_kind(role.kind)
    module, _, factory = _USERS[role.kind].partition(":")
    return getattr(importlib.import_module(module), factory)(role, ctx)
