"""Tools of the CareLine telehealth service: 18 read tools (15 domain + calculate, think, transfer) and 5 writes.

Same names and arguments as the released telehealth toolkit. Hard rules raise ``ToolError``: the
booking window, the notice needed to change a visit, the limit of active appointments, the
provider's weekly slots, double booking of provider or patient, insurance and voucher eligibility,
catalog suppliers and prices. Identity checks, confirmations, the one-patient rule and the ban on
medical advice are the agent's job (policy.md). Tools never read the clock: today is
``rules.TODAY``. New appointment ids are the next free number.

This module holds the identity, provider and appointment tools; ``care_tools`` the records,
medications and remote monitoring.
"""
from __future__ import annotations

from typing import Any, Optional

from temo.domains.kit.dates import parse_date, parse_time
from temo.domains.kit.ids import next_id
from temo.domains.kit.lookup import find_one_by, require
from temo.env import GENERIC_TOOLS, Store, ToolError, tool

from . import rules as R
from .care_tools import CARE_TOOLS
from .rules import AppointmentType, Specialty, Status


def _patient(db: Store, patient_id: str) -> dict[str, Any]:
    return require(db, "patients", patient_id, "patient")


def _provider(db: Store, provider_id: str) -> dict[str, Any]:
    return require(db, "providers", provider_id, "provider")


def _appointment(db: Store, appointment_id: str) -> dict[str, Any]:
    return require(db, "appointments", appointment_id.strip().upper(), "appointment")


def _summary(db: Store, appt: dict[str, Any]) -> dict[str, Any]:
    prov = db.get("providers", appt["provider_id"])
    return {"appointment_id": appt["appointment_id"], "date": appt["date"], "time": appt["time"],
            "provider_id": appt["provider_id"], "provider_name": R.provider_name(prov), "specialty": prov["specialty"],
            "type": appt["type"], "status": appt["status"]}


def _check_slot(db: Store, provider: dict[str, Any], patient_id: str, date: str, time: str, ignore: str | None = None) -> None:
    parse_date(date, "date")
    parse_time(time, "time")
    if not R.in_booking_window(date):
        raise ToolError(f"{date} is outside the booking window: appointments can be booked or moved to dates from "
                        f"the day after today ({R.TODAY}) up to {R.last_bookable()}")
    problem = R.slot_problem(provider, date, time)
    if problem:
        raise ToolError(problem)
    appts = list(db.values("appointments"))
    if R.clash(appts, date, time, provider_id=provider["provider_id"], ignore=ignore):
        raise ToolError(f"provider {provider['provider_id']} already has an appointment at {time} on {date}; pick another slot")
    mine = R.clash(appts, date, time, patient_id=patient_id, ignore=ignore)
    if mine:
        raise ToolError(f"the patient already has appointment {mine['appointment_id']} at {time} on {date}; pick another slot")


# ---------------------------------------------------------------------------------------------- identity
@tool(kind="read")
def find_patient_by_email(db: Store, email: str) -> str:
    """Find a patient's id by the e-mail address on file (case-insensitive). Use it to verify identity.

    Args:
        email: The patient's e-mail address, such as 'maya.patel12@example.com'.
    """
    pid, _ = find_one_by(db, "patients", "patient", demographics__email=email)
    return pid


@tool(kind="read")
def find_patient_by_name_dob(db: Store, first_name: str, last_name: str, date_of_birth: str) -> str:
    """Find a patient's id by first name, last name (case-insensitive) and exact date of birth. Use it to verify identity.

    Args:
        first_name: The patient's first name, such as 'Maya'.
        last_name: The patient's last name, such as 'Patel'.
        date_of_birth: Date of birth in the form YYYY-MM-DD, such as '1984-03-09'.
    """
    parse_date(date_of_birth, "date_of_birth")
    pid, _ = find_one_by(db, "patients", "patient", name__first_name=first_name, name__last_name=last_name,
                         demographics__date_of_birth=date_of_birth)
    return pid


@tool(kind="read")
def get_patient_details(db: Store, patient_id: str) -> dict[str, Any]:
    """Get a patient's profile: demographics, address, insurance, medical history, emergency contact and vouchers.

    Args:
        patient_id: The patient id, such as 'maya_patel_1234'.
    """
    return _patient(db, patient_id)


# ---------------------------------------------------------------------------------------------- providers
@tool(kind="read")
def get_provider_details(db: Store, provider_id: str) -> dict[str, Any]:
    """Get a provider's details: specialty, weekly schedule of 30-minute slots, credentials, fee and languages.

    Args:
        provider_id: The provider id, such as 'dr_smith_cardiology'.
    """
    return _provider(db, provider_id)


@tool(kind="read")
def list_available_providers(db: Store, specialty: Optional[Specialty] = None) -> list[dict[str, Any]]:
    """List the providers of the service, optionally only those of one specialty, sorted by id.

    Args:
        specialty: Only providers of this specialty, such as 'Cardiology' or 'Primary Care'.
    """
    out = []
    for pid in sorted(db.keys("providers")):
        p = db.get("providers", pid)
        if specialty is None or p["specialty"] == specialty:
            out.append({"provider_id": pid, "name": R.provider_name(p), "title": p["name"]["title"],
                        "specialty": p["specialty"], "languages": p["languages"], "consultation_fee": p["consultation_fee"],
                        "working_days": [d for d in R.WEEKDAYS if p["schedule"].get(d)]})
    return out


# ---------------------------------------------------------------------------------------------- appointments
@tool(kind="read")
def get_appointment_details(db: Store, appointment_id: str) -> dict[str, Any]:
    """Get one appointment with its provider and patient: date, time, type, status, copay, amount due and video link.

    Args:
        appointment_id: The appointment number, such as 'APPT042'.
    """
    appt = _appointment(db, appointment_id)
    prov = db.get("providers", appt["provider_id"])
    patient = db.get("patients", appt["patient_id"])
    return {**appt, "provider_name": R.provider_name(prov), "provider_specialty": prov["specialty"],
            "patient_name": f"{patient['name']['first_name']} {patient['name']['last_name']}"}


@tool(kind="read")
def list_patient_appointments(db: Store, patient_id: str, status_filter: Optional[Status] = None) -> list[dict[str, Any]]:
    """List a patient's appointments in date and time order, optionally only those with one status.

    Args:
        patient_id: The patient id, such as 'maya_patel_1234'.
        status_filter: Only appointments with this status: scheduled, pending_approval, completed or cancelled.
    """
    _patient(db, patient_id)
    mine = [a for a in db.values("appointments") if a["patient_id"] == patient_id
            and (status_filter is None or a["status"] == status_filter)]
    return [_summary(db, a) for a in sorted(mine, key=lambda a: (a["date"], a["time"], a["appointment_id"]))]


@tool(kind="write")
def schedule_appointment(db: Store, patient_id: str, provider_id: str, date: str, time: str,
                         appointment_type: AppointmentType, bill_insurance: bool = True,
                         voucher_id: Optional[str] = None, payment_notes: Optional[str] = None) -> dict[str, Any]:
    """Book a 30-minute video appointment in one of the provider's weekly slots.

    With insurance billed the patient pays the plan's copay (primary-care copay for Primary Care,
    specialist copay otherwise). Without it the patient pays the provider's consultation fee, or
    nothing when one of the patient's unused telehealth vouchers is applied.

    Args:
        patient_id: The patient id, such as 'maya_patel_1234'.
        provider_id: The provider id, such as 'dr_smith_cardiology'.
        date: The appointment date, YYYY-MM-DD, from tomorrow up to 60 days ahead.
        time: The start time, HH:MM in 24 hours, one of the provider's slots on that weekday.
        appointment_type: routine_checkup, follow_up, consultation, specialist_consultation or sick_visit.
        bill_insurance: Bill the patient's insurance (default true); false for a self-paid or voucher visit.
        voucher_id: A telehealth voucher of the patient, such as 'TV-123456' (only with bill_insurance false).
        payment_notes: A billing note, only when the patient asks for one.
    """
    patient = _patient(db, patient_id)
    provider = _provider(db, provider_id)
    _check_slot(db, provider, patient_id, date, time)
    appts = list(db.values("appointments"))
    active = [a for a in appts if a["patient_id"] == patient_id and R.is_active_upcoming(a)]
    if len(active) >= R.MAX_ACTIVE_APPOINTMENTS:
        raise ToolError(f"the patient already has {len(active)} upcoming appointments, the most allowed "
                        f"({R.MAX_ACTIVE_APPOINTMENTS}); one must be cancelled or completed before booking another")
    plan = patient["insurance"]["primary"]
    if bill_insurance:
        if voucher_id is not None:
            raise ToolError("a voucher applies only to a visit that is not billed to insurance; set bill_insurance to false")
        if plan is None:
            raise ToolError("the patient has no insurance on file; book with bill_insurance false (self-pay or a voucher)")
        method, copay = "insurance", R.copay_for(patient, provider)
        due = copay
    elif voucher_id is not None:
        voucher_id = voucher_id.strip().upper()
        if voucher_id not in patient["vouchers"]:
            raise ToolError(f"voucher {voucher_id} was not issued to this patient (vouchers on file: "
                            f"{', '.join(patient['vouchers']) or 'none'})")
        used = R.voucher_in_use(appts, voucher_id)
        if used:
            raise ToolError(f"voucher {voucher_id} was already redeemed for appointment {used['appointment_id']}")
        method, copay, due = "telehealth_voucher", 0.0, 0.0
    else:
        method, copay, due = "self_pay", 0.0, provider["consultation_fee"]
    if payment_notes is not None and not (0 < len(payment_notes.strip()) <= 200):
        raise ToolError("payment_notes must be 1 to 200 characters; leave it out when the patient did not ask for a note")
    aid = next_id(db, "appointments", "APPT", 3)
    number = int(aid[4:])
    rec = {
        "appointment_id": aid, "patient_id": patient_id, "provider_id": provider_id, "date": date, "time": time,
        "duration_minutes": R.APPOINTMENT_MINUTES, "type": appointment_type, "status": "scheduled",
        "chief_complaint": "", "notes": (payment_notes or "").strip(),
        "insurance_authorization": f"AUTH{number:06d}" if method == "insurance" else None,
        "copay_amount": copay, "amount_due": due, "meeting_link": R.MEETING_ROOT + aid, "payment_method": method,
        "voucher_id": voucher_id if method == "telehealth_voucher" else None, "insurance_billed": method == "insurance",
        "cancellation_reason": None, "cancellation_date": None,
    }
    db.insert("appointments", aid, rec)
    return {**rec, "provider_name": R.provider_name(provider), "provider_specialty": provider["specialty"]}


@tool(kind="write")
def cancel_appointment(db: Store, appointment_id: str) -> dict[str, Any]:
    """Cancel a scheduled or pending appointment that is after today. A voucher it used becomes usable again.

    Args:
        appointment_id: The appointment number, such as 'APPT042'.
    """
    appt = _appointment(db, appointment_id)
    problem = R.can_change(appt)
    if problem:
        raise ToolError(problem)
    rec = db.edit("appointments", appt["appointment_id"])
    rec["status"] = "cancelled"
    rec["cancellation_reason"] = "patient_cancelled"
    rec["cancellation_date"] = R.TODAY
    return rec


@tool(kind="write")
def reschedule_appointment(db: Store, appointment_id: str, new_date: str, new_time: str) -> dict[str, Any]:
    """Move a scheduled or pending appointment that is after today to another slot of the same provider.

    Args:
        appointment_id: The appointment number, such as 'APPT042'.
        new_date: The new date, YYYY-MM-DD, from tomorrow up to 60 days ahead.
        new_time: The new start time, HH:MM in 24 hours, one of the provider's slots on that weekday.
    """
    appt = _appointment(db, appointment_id)
    problem = R.can_change(appt)
    if problem:
        raise ToolError(problem)
    if (new_date, new_time) == (appt["date"], appt["time"]):
        raise ToolError(f"appointment {appt['appointment_id']} is already at {new_time} on {new_date}")
    provider = _provider(db, appt["provider_id"])
    _check_slot(db, provider, appt["patient_id"], new_date, new_time, ignore=appt["appointment_id"])
    rec = db.edit("appointments", appt["appointment_id"])
    rec["date"], rec["time"] = new_date, new_time
    return rec


TOOLS = [
    find_patient_by_email, find_patient_by_name_dob, get_patient_details, get_provider_details,
    list_available_providers, get_appointment_details, list_patient_appointments,
    schedule_appointment, cancel_appointment, reschedule_appointment,
    *CARE_TOOLS, *GENERIC_TOOLS,
]
AUTH_TOOLS = ["find_patient_by_email", "find_patient_by_name_dob"]
WRITE_TOOLS = [t for t in TOOLS if t.kind == "write"]
