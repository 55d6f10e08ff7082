"""Record pieces several domains' ``models.py`` share: a strict base (unknown fields are errors) and a
person's name."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    """A record that rejects fields it does not declare."""

    model_config = ConfigDict(extra="forbid")


class Name(Strict):
    first_name: str
    last_name: str
