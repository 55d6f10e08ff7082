"""Records of the travel agency: travelers, packages, agents (the paper's entities) and bookings.

The source nests each traveler's bookings inside the traveler; here they are a supporting table keyed
by booking number (the traveler keeps the list of its booking numbers, and ``get_traveler_details``
shows them expanded, as in the source). Tools work on plain JSON records; these models document the
shape and a test validates every record.
"""
from __future__ import annotations

from typing import Optional

from pydantic import BaseModel, Field

from .rules import (AddOnType, BookingStatus, Category, DepartureStatus, EmploymentStatus, InsurancePlan,
                    PaymentSource, RoomType)
from temo.domains.kit.records import (CardOrBalance, ContactInfo as Contact, FourDigits, IsoDate, Name, Person,
                                      StreetAddress, Strict as _Strict, coded)

Date = str  # YYYY-MM-DD


class Passport(_Strict):
    number: str
    nationality: str
    expiry: IsoDate


class Preferences(_Strict):
    dietary: Optional[str] = None
    accessibility: Optional[str] = None
    room_type: Optional[RoomType] = None
    bed_preference: Optional[str] = None
    other: Optional[str] = None


class PaymentInfo(CardOrBalance):
    """A card's brand and last four digits, or the balance left on a travel credit."""

    last_four: Optional[FourDigits] = None


class PaymentMethod(_Strict):
    source: PaymentSource
    payment_method_id: str = coded("PM", 6)
    extra_info: PaymentInfo


class Companion(Person):
    relationship: str
    passport: Optional[Passport] = None


class Traveler(_Strict):
    traveler_id: str = coded("TRV", 5)
    name: Name
    address: StreetAddress
    contact: Contact
    dob: IsoDate
    passport: Optional[Passport] = None
    preferences: Preferences
    payment_methods: dict[str, PaymentMethod]
    saved_companions: list[Companion]
    memberships: list[str]
    bookings: list[str]


class Location(_Strict):
    city: str
    country: str


class Departure(_Strict):
    status: DepartureStatus
    base_price: float = Field(gt=0)
    currency: str
    capacity: int = Field(gt=0)
    available_slots: int = Field(ge=0)
    early_bird_deadline: IsoDate


class ItineraryItem(_Strict):
    day: int = Field(ge=1)
    title: str
    description: str
    location: Location
    included_meals: list[str]


class Accommodation(_Strict):
    name: str
    type: str
    location: Location
    nights: int = Field(ge=1)


class Transportation(_Strict):
    international: str
    domestic: str
    ground: str


class Activity(_Strict):
    name: str
    description: str
    day: int = Field(ge=1)


class AddOn(_Strict):
    type: AddOnType
    description: str
    price: float = Field(gt=0)


class Policies(_Strict):
    cancellation_policy: str
    change_policy: str
    refund_policy: str
    cancel_by_days: Optional[int] = None  # None: cancellations are reviewed case by case by a person
    change_by_days: int


class Package(_Strict):
    package_id: str = coded("PKG", 3)
    name: str
    category: Category
    description: str
    destinations: list[Location] = Field(min_length=1)
    duration_days: int = Field(ge=2)
    departure_points: list[Location]
    departures: dict[Date, Departure]
    itinerary: list[ItineraryItem]
    inclusions: list[str]
    exclusions: list[str]
    accommodations: list[Accommodation]
    room_types: list[RoomType] = Field(min_length=1)
    add_on_options: list[AddOn]
    transportation: Transportation
    activities: list[Activity]
    policies: Policies
    notes: Optional[str] = None
    managed_by_agents: list[str] = Field(min_length=1)


class AvailabilityDay(_Strict):
    slots: list[str]
    timezone: str


class Meeting(_Strict):
    date: IsoDate
    time_range: str
    traveler_id: str


class AgencyInfo(_Strict):
    name: str
    address: StreetAddress


class Agent(_Strict):
    agent_id: str = coded("AGT", 3)
    name: Name
    contact: Contact
    agency: AgencyInfo
    certifications: list[str]
    languages: list[str]
    regions_of_expertise: list[str]
    commission_rate: float = Field(gt=0, lt=1)
    employment_status: EmploymentStatus
    assigned_travelers: list[str]
    managed_packages: list[str]
    bookings_handled: list[str]
    availability: dict[Date, AvailabilityDay]
    meetings: list[Meeting]
    notes: Optional[str] = None


BookingTraveler = Person


class Rooming(_Strict):
    room_type: RoomType
    occupancy: int = Field(ge=1)


class Payment(_Strict):
    payment_id: str
    amount: float


class Booking(_Strict):
    booking_id: str = coded("BK", 6)
    traveler_id: str
    package_id: str
    agent_id: str
    booking_date: IsoDate
    departure_date: IsoDate
    status: BookingStatus
    travelers: list[BookingTraveler] = Field(min_length=1)
    rooming: Rooming
    add_ons: list[AddOn]
    insurance: Optional[InsurancePlan] = None
    payment_history: list[Payment]
    total_price: float
    notes: Optional[str] = None


TABLE_MODELS: dict[str, type[BaseModel]] = {"travelers": Traveler, "packages": Package, "agents": Agent,
                                            "bookings": Booking}
KEY_FIELDS = {"travelers": "traveler_id", "packages": "package_id", "agents": "agent_id", "bookings": "booking_id"}
