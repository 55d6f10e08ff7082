"""Record pieces several domains' ``models.py`` share: a strict base (unknown fields are errors), a
person's name, the two address shapes of the sources, contact details, the card details of a saved
payment method, and the constrained strings (dates, times, coded ids) the records are checked with."""
from __future__ import annotations

from typing import Annotated, Any, Optional

from pydantic import BaseModel, ConfigDict, Field

IsoDate = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")]
"""A calendar day as ``YYYY-MM-DD``."""
ClockTime = Annotated[str, Field(pattern=r"^\d{2}:\d{2}$")]
"""A time of day as ``HH:MM`` (24 hours)."""
FourDigits = Annotated[str, Field(pattern=r"^\d{4}$")]
"""The last four digits of a card or account number."""
PersonKey = Annotated[str, Field(pattern=r"^[a-z]+_[a-z]+_\d{4}$")]
"""A person's id made of their first and last name and four digits, e.g. ``mia_li_3668``."""


def coded(prefix: str, digits: int, *, or_more: bool = False) -> Any:
    """A pydantic ``Field`` for an id made of a literal ``prefix`` and ``digits`` digits (``or_more``:
    at least that many), e.g. ``traveler_id: str = coded("TRV", 5)`` accepts ``TRV00042``."""
    count = f"{{{digits},}}" if or_more else f"{{{digits}}}"
    return Field(pattern=rf"^{prefix}\d{count}$")


class Strict(BaseModel):
    """A record that rejects fields it does not declare."""

    model_config = ConfigDict(extra="forbid")


class Name(Strict):
    first_name: str
    last_name: str


class Person(Name):
    """A person by name and date of birth (a passenger, a companion, a traveler on a booking)."""

    dob: IsoDate


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


class ContactInfo(Strict):
    """How to reach a person on file."""

    email: str
    phone: str


class Demographics(Strict):
    """A person's date of birth and how to reach them, as τ-Trait's telecom and telehealth store it."""

    date_of_birth: IsoDate
    phone: str
    email: str


class RelatedContact(Strict):
    """Someone a person has named to be reached for them (an emergency or saved contact)."""

    name: str
    relationship: str
    phone: str


class CardDetails(Strict):
    """What a saved payment method shows of a card: its brand and last four digits (empty for the other
    kinds of payment method). Domains subclass it with their own id, source and balance fields."""

    brand: Optional[str] = None
    last_four: Optional[str] = None


class CardOrBalance(CardDetails):
    """A saved payment method's details where a gift card or travel credit also shows its balance."""

    balance: Optional[float] = None
