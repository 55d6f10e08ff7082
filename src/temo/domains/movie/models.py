"""Records of the movie world: customers, movies, theaters (with auditoriums and dated shows), bookings.

These pydantic models document every table of `data/db.json`; a test validates every record. The
tools work on the plain JSON records. Shows live inside their theater (``dates[date].shows``), as in
the source environment; customers are a table of their own here (the source embeds them only in
bookings), with the payment methods they have on file.
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel
from temo.domains.kit.records import CardDetails, CardOrBalance, Name, Strict as _Strict

TicketType = Literal["adult", "child", "senior"]
Format = Literal["2D", "3D", "IMAX", "Dolby"]
ShowStatus = Literal["scheduled", "canceled", "completed"]
BookingStatus = Literal["confirmed", "canceled", "refunded"]
DeliveryMethod = Literal["e-ticket", "box-office", "kiosk"]
PaymentSource = Literal["card", "wallet", "cash", "gift_card"]


class ExtraInfo(CardDetails):
    """What a payment shows of its method: a card's brand and last four digits, or a wallet's provider."""

    provider: Optional[str] = None


class PaymentMethod(CardOrBalance):
    """A way to pay on file: cards carry brand and last four digits, wallets a provider, gift cards a balance."""

    payment_method_id: str
    source: Literal["card", "wallet", "gift_card"]
    provider: Optional[str] = None


class BookingCustomer(_Strict):
    """Who a booking is for, as the booking keeps it."""

    name: Name
    email: str
    phone: str
    loyalty_id: Optional[str]


class Customer(BookingCustomer):
    """Table ``customers``: the booking's view of a person, plus their saved payment methods and bookings."""

    customer_id: str
    payment_methods: dict[str, PaymentMethod]
    bookings: list[str]


class CastMember(_Strict):
    name: str
    role: str


class Crew(_Strict):
    director: str
    writer: str
    producer: str
    music: str


class Movie(_Strict):
    movie_id: str
    title: str
    genres: list[str]
    runtime_minutes: int
    mpaa_rating: Literal["G", "PG", "PG-13", "R", "NC-17"]
    languages_audio: list[str]
    subtitles: list[str]
    formats: list[Format]
    release_date: str
    end_of_run_est: str
    cast: list[CastMember]
    crew: Crew
    synopsis: str


class Address(_Strict):
    address1: str
    city: str
    state: str
    zip: str
    country: str


class Contact(_Strict):
    phone: str
    email: str
    website: str


class SeatRow(_Strict):
    seat_count: int
    seat_type: Literal["standard", "premium", "recliner"]
    wheelchair_accessible: list[str]


class SeatMap(_Strict):
    rows: dict[str, SeatRow]


class Auditorium(_Strict):
    auditorium_id: str
    name: str
    capacity: int
    features: list[str]
    formats: list[Format]
    seat_map: SeatMap


class BasePrices(_Strict):
    adult: float
    child: float
    senior: float


class TimeBased(_Strict):
    matinee_discount: float
    peak_surcharge: float


class Fees(_Strict):
    convenience_fee: float
    booking_fee: float


class PricingRules(_Strict):
    base: BasePrices
    format_surcharges: dict[Format, float]
    time_based: TimeBased
    fees: Fees
    tax_rate_percent: float


class ShowFees(_Strict):
    convenience_fee: float


class PriceSchema(_Strict):
    adult: float
    child: float
    senior: float
    fees: ShowFees


class Show(_Strict):
    show_id: str
    movie_id: str
    auditorium_id: str
    date: str
    start_time_local: str
    end_time_local: str
    format: Format
    language: str
    subtitles: Optional[str]
    status: ShowStatus
    price_schema: PriceSchema


class ShowDay(_Strict):
    shows: list[Show]


class ConcessionItem(_Strict):
    item_id: str
    name: str
    sizes: dict[str, float]


class Theater(_Strict):
    theater_id: str
    name: str
    address: Address
    contact: Contact
    amenities: list[str]
    auditoriums: dict[str, Auditorium]
    pricing_rules: PricingRules
    concessions_menu: dict[str, ConcessionItem]
    dates: dict[str, ShowDay]


class BookedSeat(_Strict):
    seat_id: str
    ticket_type: TicketType
    price: float
    convenience_fee: float
    tax: float


class BookedConcession(_Strict):
    item_id: str
    name: str
    size: str
    quantity: int
    price_each: float
    tax_each: float
    total: float


class Method(_Strict):
    source: PaymentSource
    payment_method_id: str
    extra_info: ExtraInfo


class Payment(_Strict):
    """A charge (positive amount) or a refund (negative amount) on one payment method."""

    payment_id: str
    amount: float
    method: Method
    created_at: str


class Totals(_Strict):
    tickets_subtotal: float
    concessions_subtotal: float
    fees_total: float
    tax_total: float
    grand_total: float
    amount_paid: float
    amount_due: float


class Ticket(_Strict):
    ticket_id: str
    seat_id: str
    barcode: str


class Delivery(_Strict):
    method: DeliveryMethod
    tickets: list[Ticket]


class Booking(_Strict):
    booking_id: str
    customer_id: str
    theater_id: str
    movie_id: str
    show_id: str
    date: str
    start_time_local: str
    status: BookingStatus
    created_at: str
    canceled_at: Optional[str]
    customer: BookingCustomer
    seats: list[BookedSeat]
    concessions: list[BookedConcession]
    promotions_applied: list[str]
    payment_history: list[Payment]
    totals: Totals
    delivery: Delivery
    special_requests: Optional[str]


TABLE_MODELS: dict[str, type[BaseModel]] = {
    "customers": Customer, "movies": Movie, "theaters": Theater, "bookings": Booking,
}
KEY_FIELDS = {"customers": "customer_id", "movies": "movie_id", "theaters": "theater_id", "bookings": "booking_id"}
