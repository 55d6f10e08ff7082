"""Records of the restaurant world: patrons, menu items (dishes with their plates) and tickets.

These pydantic models document the shape of every table in `data/db.json[.gz]`; a test validates
every record against them. Tools work on the plain JSON records, not on these classes.
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from temo.domains.kit.records import FourDigits, IsoDate, Strict as _Strict, coded

State = Literal["placed", "in_progress", "ready", "delivered", "cancelled"]
ServiceMode = Literal["dine_in", "takeout", "delivery"]
Zone = Literal["main hall", "patio", "bar", "window", "private room"]
ChargeKind = Literal["payment", "tip", "refund"]
CancelReason = Literal["no longer needed", "ordered by mistake", "change of plans"]


class Location(_Strict):
    """A postal address: a patron's home, or a ticket's drop-off."""

    line_one: str
    line_two: str
    municipality: str
    province: str
    nation: str
    postal_code: str


class Identity(_Strict):
    given: str
    family: str


class InstrumentMeta(_Strict):
    issuer: str
    tail_digits: FourDigits


class Instrument(_Strict):
    """A saved way to pay: a credit or debit card, or a digital wallet linked to a card."""

    origin: Literal["credit_card", "debit_card", "digital_wallet"]
    instrument_ref: str = coded("INST-", 5)
    metadata: InstrumentMeta


class Patron(_Strict):
    guest_ref: str = coded("GUEST-", 4)
    identity: Identity
    location: Location
    contact_email: str
    saved_instruments: dict[str, Instrument]
    ticket_log: list[str] = Field(default_factory=list)


class Modifiers(_Strict):
    """What sets one plate of a dish apart from the others; only the dimensions the dish varies on."""

    spice_level: Optional[Literal["mild", "medium", "hot", "extra hot"]] = None
    portion: Optional[Literal["small", "regular", "large"]] = None
    protein: Optional[str] = None
    preparation: Optional[str] = None


class Plate(_Strict):
    plate_ref: str = coded("PLATE-", 5)
    modifiers: Modifiers
    served_today: bool
    cost: float = Field(gt=0)


class MenuItem(_Strict):
    """A dish on the menu, with the plates (versions) it can be ordered as."""

    dish_ref: str = coded("DISH-", 4)
    title: str
    category: str
    selections: dict[str, Plate] = Field(min_length=1)


class LineMods(_Strict):
    """Free customisations the patron asked for on one line (they do not change the price)."""

    heat: Optional[str] = None
    sauce: Optional[str] = None
    side: Optional[str] = None


class LineEntry(_Strict):
    label: str
    dish_ref: str
    plate_ref: str
    cost: float
    mods: LineMods


class TableInfo(_Strict):
    zone: Zone
    table_no: str
    seat_count: int = Field(ge=1)


class PrepBatch(_Strict):
    parcel_tags: list[str]
    plate_refs: list[str]


class Charge(_Strict):
    """One money movement on a ticket. The payment covers subtotal + tax + delivery fee."""

    kind: ChargeKind
    total: float = Field(gt=0)
    instrument_ref: str


class Ticket(_Strict):
    ticket_ref: str = coded("TCKT-", 5)
    guest_ref: str
    placed_on: IsoDate
    service_mode: ServiceMode
    dropoff: Optional[Location]
    table_info: Optional[TableInfo]
    line_entries: list[LineEntry] = Field(min_length=1)
    state: State
    prep_batches: list[PrepBatch]
    subtotal: float
    tax: float
    delivery_fee: float
    charges: list[Charge]
    cancel_reason: Optional[CancelReason] = None


TABLE_MODELS = {"patrons": Patron, "menu_items": MenuItem, "tickets": Ticket}
KEY_FIELDS = {"patrons": "guest_ref", "menu_items": "dish_ref", "tickets": "ticket_ref"}
