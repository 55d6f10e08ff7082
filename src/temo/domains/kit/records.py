"""Record pieces several domains' ``models.py`` share: a strict base (unknown fields are errors), a
person's name and the two address shapes of the sources."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    """A record that rejects fields it does not declare."""

    model_config = ConfigDict(extra="forbid")


class Name(Strict):
    first_name: str
    last_name: str


class PostalAddress(Strict):
    """An address as τ-bench and τ-Trait store it."""

    address1: str
    address2: str
    city: str
    state: str
    zip: str
    country: str


class StreetAddress(Strict):
    """An address as ToolOrchestra's school and basketball store it."""

    street: str
    city: str
    state: str
    country: str
    zip: str
