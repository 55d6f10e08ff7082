"""Argument shapes that several domains' tools take.

They are typed dicts: the agent sees their fields, and the docstring of the class it is given, in
the tool's JSON schema. A domain subclasses `PersonInfo` with its own docstring, and makes its
split-payment shape with `payment_part`, so each desk keeps its own wording.
"""
from __future__ import annotations

from typing import Annotated

from pydantic import Field
from typing_extensions import TypedDict


class PersonInfo(TypedDict):
    """A person as named on their ticket or passport."""

    first_name: Annotated[str, Field(description="First name.")]
    last_name: Annotated[str, Field(description="Last name.")]
    dob: Annotated[str, Field(description="Date of birth, YYYY-MM-DD.")]


def payment_part(doc: str, payment_id: str, amount: str, amount_type: type = float) -> type:
    """The typed dict ``{payment_id: str, amount: amount_type}``: one amount charged to one saved
    payment method. ``doc`` describes the whole, ``payment_id`` and ``amount`` its two fields."""
    shape = TypedDict("PaymentPart", {
        "payment_id": Annotated[str, Field(description=payment_id)],
        "amount": Annotated[amount_type, Field(description=amount)],
    })
    shape.__doc__ = doc
    return shape
