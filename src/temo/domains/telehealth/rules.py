"""The telehealth service's fixed date, enums and the rules its tools and grounding hooks share.

Everything here reads plain records (dicts) and never the clock: "today" is :data:`TODAY`, stated
in the policy as well. The appointment rules (booking window, notice for changes, the limit of
active appointments, slot and clash checks, billing) live here once, so the tools that enforce
them and the hooks that must satisfy them cannot drift apart.
"""
from __future__ import annotations

import datetime as _dt
from typing import Any, Iterable, Literal, Optional

from temo.domains.kit.dates import add_days, parse_date
from temo.domains.kit.money import money

TODAY = "2025-06-18"  # a Wednesday
BOOKING_WINDOW_DAYS = 60  # new or moved appointments: from tomorrow up to TODAY + 60 days
MAX_ACTIVE_APPOINTMENTS = 3  # scheduled or pending_approval appointments from today on, per patient
APPOINTMENT_MINUTES = 30
MAX_NOTE_CHARS = 300
MEETING_ROOT = "https://telehealth.careline.example.com/room/"

Status = Literal["scheduled", "pending_approval", "completed", "cancelled"]
STATUSES = ("scheduled", "pending_approval", "completed", "cancelled")
ACTIVE = ("scheduled", "pending_approval")
AppointmentType = Literal["routine_checkup", "follow_up", "consultation", "specialist_consultation", "sick_visit"]
APPOINTMENT_TYPES = ("routine_checkup", "follow_up", "consultation", "specialist_consultation", "sick_visit")
DeviceStatus = Literal["available", "inspection", "deployed", "shipped", "maintenance", "missing_overdue"]
DEVICE_STATUSES = ("available", "inspection", "deployed", "shipped", "maintenance", "missing_overdue")
Specialty = Literal[
    "Primary Care", "Cardiology", "Dermatology", "Psychiatry", "Endocrinology", "Pediatrics", "Pharmacy",
    "Neurology", "Pulmonology", "Gastroenterology", "Orthopedics", "Rheumatology", "Oncology", "Nephrology",
    "Obstetrics and Gynecology", "Ophthalmology", "Otolaryngology", "Urology", "Sleep Medicine", "Physical Therapy",
]
SPECIALTIES: tuple[str, ...] = Specialty.__args__  # type: ignore[attr-defined]
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
PRIMARY_CARE = "Primary Care"


def weekday(date: str) -> str:
    return WEEKDAYS[parse_date(date).weekday()]


def last_bookable() -> str:
    return add_days(TODAY, BOOKING_WINDOW_DAYS)


def in_booking_window(date: str) -> bool:
    """From tomorrow up to and including TODAY + BOOKING_WINDOW_DAYS."""
    return add_days(TODAY, 1) <= date <= last_bookable()


def can_change(appt: dict[str, Any]) -> Optional[str]:
    """Why an appointment cannot be cancelled or moved (None when it can)."""
    if appt["status"] not in ACTIVE:
        return f"appointment {appt['appointment_id']} is {appt['status']}; only scheduled or pending_approval appointments can be changed"
    if appt["date"] <= TODAY:
        return (f"appointment {appt['appointment_id']} is on {appt['date']}; appointments on or before today ({TODAY}) "
                "cannot be cancelled or moved through this service")
    return None


def is_active_upcoming(appt: dict[str, Any]) -> bool:
    return appt["status"] in ACTIVE and appt["date"] >= TODAY


def slot_problem(provider: dict[str, Any], date: str, time: str) -> Optional[str]:
    """Why the provider cannot see anyone at date/time by their weekly schedule (None when they can)."""
    day = weekday(date)
    slots = provider["schedule"].get(day, [])
    if not slots:
        works = ", ".join(d for d in WEEKDAYS if provider["schedule"].get(d)) or "no days"
        return f"provider {provider['provider_id']} does not work on {day.title()}s (works: {works})"
    if time not in slots:
        return f"provider {provider['provider_id']} has no {time} slot on {day.title()}s; slots: {', '.join(slots)}"
    return None


def clash(appointments: Iterable[dict[str, Any]], date: str, time: str, *, provider_id: str | None = None,
          patient_id: str | None = None, ignore: str | None = None) -> Optional[dict[str, Any]]:
    """An active appointment of the provider (or patient) at exactly date/time, other than ``ignore``."""
    for a in appointments:
        if a["appointment_id"] == ignore or a["status"] not in ACTIVE or a["date"] != date or a["time"] != time:
            continue
        if provider_id is not None and a["provider_id"] == provider_id:
            return a
        if patient_id is not None and a["patient_id"] == patient_id:
            return a
    return None


def copay_for(patient: dict[str, Any], provider: dict[str, Any]) -> float:
    plan = patient["insurance"]["primary"]
    return plan["copay_primary"] if provider["specialty"] == PRIMARY_CARE else plan["copay_specialist"]


def voucher_in_use(appointments: Iterable[dict[str, Any]], voucher_id: str) -> Optional[dict[str, Any]]:
    """The non-cancelled appointment that already redeemed this voucher, if any."""
    for a in appointments:
        if a.get("voucher_id") == voucher_id and a["status"] != "cancelled":
            return a
    return None


def monthly_cost(components: list[dict[str, Any]]) -> float:
    return money(sum(c["monthly_units"] * c["unit_cost_usd"] for c in components))


def provider_name(provider: dict[str, Any]) -> str:
    n = provider["name"]
    return f"{n['first_name']} {n['last_name']}"


def dates_from(start: str, days: int) -> list[str]:
    first = parse_date(start)
    return [(first + _dt.timedelta(days=i)).isoformat() for i in range(days)]
