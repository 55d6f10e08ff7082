"""Agents by name. `oracle`, `probe:NAME[@RATE]` and `llm`; adding one is a module plus a line here."""
from __future__ import annotations

import importlib

from ..core import RoleConfig
from .base import Agent, AgentContext

# kind -> "module:factory"; the factory takes (role, ctx) and returns an Agent.
_AGENTS = {
    "oracle": "temo.agents.oracle:create",
    "probe": "temo.agents.probes:create",
    "llm": "temo.agents.llm:create",
}


class AgentSpecError(ValueError):
    pass


def agent_kinds() -> list[str]:
    from .probes import PROBES

    return ["oracle", *[f"probe:{p}" for p in PROBES], "llm"]


def validate_agent_kind(kind: str) -> None:
    base = kind.split(":", 1)[0]
    if base not in _AGENTS:
        raise AgentSpecError(f"unknown agent {kind!r}; choose one of: {', '.join(agent_kinds())}")
    if base == "probe":
        from .probes import ProbeSpecError, parse_probe

        try:
            parse_probe(kind)
        except ProbeSpecError as e:
            raise AgentSpecError(str(e)) from None


def create_agent(role: RoleConfig, ctx: AgentContext) -> Agent:
    validate_agent_kind(role.kind)
    module, _, factory = _AGENTS[role.kind.split(":", 1)[0]].partition(":")
    return getattr(importlib.import_module(module), factory)(role, ctx)
