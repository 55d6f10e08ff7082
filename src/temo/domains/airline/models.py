"""Records of the airline database: one pydantic model per table (validation and documentation)."""
from __future__ import annotations

from typing import Literal, Optional

from temo.domains.kit.records import CardDetails, Name, Person, PostalAddress, Strict as _Record

Cabin = Literal["basic_economy", "economy", "business"]


class Address(PostalAddress):
    """A user's address; the second line may be left out."""

    address2: str = ""


class PaymentMethod(CardDetails):
    """A credit card (brand, last four digits), a gift card or a travel certificate (with a balance)."""

    source: Literal["credit_card", "gift_card", "certificate"]
    id: str
    amount: Optional[float] = None


Passenger = Person  # a traveler on a reservation, or saved on a profile


class User(_Record):
    """Table `users`, keyed by user id (e.g. 'mia_li_3668')."""

    user_id: str
    name: Name
    address: Address
    email: str
    dob: str
    membership: Literal["regular", "silver", "gold"]
    payment_methods: dict[str, PaymentMethod]
    saved_passengers: list[Passenger]
    reservations: list[str]


class Airport(_Record):
    """Table `airports`, keyed by IATA code."""

    code: str
    city: str
    state: str


class FlightDate(_Record):
    """A flight on one date. Seats and prices are published only while the date is bookable."""

    status: Literal["available", "on time", "delayed", "flying", "landed", "cancelled"]
    available_seats: Optional[dict[Cabin, int]] = None
    prices: Optional[dict[Cabin, int]] = None


class Flight(_Record):
    """Table `flights`, keyed by flight number (e.g. 'SL412'); the same route and times every day."""

    flight_number: str
    origin: str
    destination: str
    scheduled_departure_time_est: str
    scheduled_arrival_time_est: str
    dates: dict[str, FlightDate]


class Segment(_Record):
    flight_number: str
    date: str
    origin: str
    destination: str
    price: int  # per passenger, in the reservation's cabin


class Payment(_Record):
    payment_id: str
    amount: float  # negative for refunds


class Reservation(_Record):
    """Table `reservations`, keyed by a six-character code (e.g. 'ZFA04Y')."""

    reservation_id: str
    user_id: str
    origin: str
    destination: str
    flight_type: Literal["one_way", "round_trip"]
    cabin: Cabin
    flights: list[Segment]
    passengers: list[Passenger]
    payment_history: list[Payment]
    created_at: str
    total_baggages: int
    nonfree_baggages: int
    insurance: Literal["yes", "no"]
    status: Literal["active", "cancelled"]


MODELS = {"users": User, "airports": Airport, "flights": Flight, "reservations": Reservation}
