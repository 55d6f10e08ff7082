"""Typed settings for the actors, grouped by concern (no 30-keyword constructors)."""
from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, Field


class RoleConfig(BaseModel):
    """One actor: its kind (`oracle`, `probe:NAME`, `llm`, `scripted`) and, for `llm` roles, the
    endpoint and sampling settings. API keys are never stored: only the NAME of the environment
    variable that holds one."""

    kind: str
    model: Optional[str] = None
    base_url: Optional[str] = None
    api_key_env: Optional[str] = None
    sampling: dict[str, Any] = Field(default_factory=dict)
    extra: dict[str, Any] = Field(default_factory=dict)
