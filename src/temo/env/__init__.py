"""The environment kernel: store, @tool, Environment, Domain."""
from .domain import Domain, DomainError, ToolGraph
from .environment import Environment, Outcome
from .generic import GENERIC_TOOLS, TRANSFER_TOOL, calculate, think, transfer_to_human_agents
from .store import Database, Store, StoreError
from .tool import Tool, ToolError, tool

__all__ = [
    "Database", "Domain", "DomainError", "Environment", "GENERIC_TOOLS", "Outcome", "Store", "StoreError",
    "TRANSFER_TOOL", "Tool", "ToolError", "ToolGraph", "calculate", "think", "tool", "transfer_to_human_agents",
]
