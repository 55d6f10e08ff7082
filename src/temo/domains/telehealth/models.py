"""Records of the telehealth world, one pydantic model per table of ``data/db.json``.

They document the shape of every table; a test validates every record. Tools work on the plain
JSON records, not on these classes.
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, Field

from .rules import AppointmentType, DeviceStatus, Specialty, Status
from temo.domains.kit.records import (ClockTime, ContactInfo as Contact, Demographics as _Demographics, IsoDate, Name,
                                      PersonKey, PostalAddress as Address, RelatedContact as EmergencyContact,
                                      Strict as _Strict, coded)


class Demographics(_Demographics):
    gender: Literal["female", "male", "non-binary"]


class InsurancePlan(_Strict):
    provider: str
    policy_number: str
    group_number: str
    copay_primary: float
    copay_specialist: float


class Insurance(_Strict):
    primary: Optional[InsurancePlan]  # None: no insurance on file (self-pay or voucher only)


class MedicalHistory(_Strict):
    conditions: list[str]
    allergies: list[str]
    medications: list[str]


class Patient(_Strict):
    patient_id: PersonKey
    name: Name
    demographics: Demographics
    address: Address
    insurance: Insurance
    medical_history: MedicalHistory
    emergency_contact: EmergencyContact
    vouchers: list[str]  # telehealth vouchers issued to the patient ("TV-123456"), each good for one visit


class ProviderName(Name):
    title: str


class Provider(_Strict):
    provider_id: str
    name: ProviderName
    specialty: Specialty
    license_number: str
    credentials: list[str]
    contact: Contact
    schedule: dict[Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"], list[str]]
    consultation_fee: float
    languages: list[str]
    years_experience: int


class Appointment(_Strict):
    appointment_id: str = coded("APPT", 3, or_more=True)
    patient_id: str
    provider_id: str
    date: IsoDate
    time: ClockTime
    duration_minutes: int
    type: AppointmentType
    status: Status
    chief_complaint: str
    notes: str
    insurance_authorization: Optional[str]
    copay_amount: float
    amount_due: float  # what the patient pays for the visit: the copay, the fee when self-paid, 0 with a voucher
    meeting_link: str
    payment_method: Literal["insurance", "self_pay", "telehealth_voucher"]
    voucher_id: Optional[str]
    insurance_billed: bool
    cancellation_reason: Optional[str]
    cancellation_date: Optional[str]


class Supplier(_Strict):
    company: str
    brand_name: str
    price_usd: float
    currency: Literal["USD"]


class Prescription(_Strict):
    medication: str
    dosage: str
    frequency: str
    quantity: str
    refills: int
    pharmacy: str
    supplier: Optional[Supplier]


class RecordNote(_Strict):
    date: IsoDate
    text: str
    source: Literal["patient_request", "care_team"]


class MedicalRecord(_Strict):
    record_id: str = coded("REC", 3, or_more=True)
    appointment_id: str
    patient_id: str
    provider_id: str
    date: IsoDate
    type: str
    subjective: str
    objective: str
    assessment: str
    plan: str
    prescriptions: list[Prescription]
    next_appointment: Optional[str]
    notes: list[RecordNote]


class SupplierListing(_Strict):
    company: str
    country: str
    brand_name: str
    price_usd: float


class MedicationSuppliers(_Strict):
    medication: str
    suppliers: list[SupplierListing]


class Interaction(_Strict):
    severity: Literal["low", "moderate", "high"]
    risk_score: int
    time_overlap_hours: int
    action: str
    skip: list[str]
    emergency: bool


class DrugInteractions(_Strict):
    medication: str
    interactions: dict[str, Interaction]


class RegimenComponent(_Strict):
    medication: str
    dosage: str
    daily_dose: int
    monthly_units: int
    unit_type: str
    preferred_brand: str
    supplier: str
    unit_cost_usd: float


class PillBurden(_Strict):
    tablets_per_day: int
    devices_per_month: int


class CurrentRegimen(_Strict):
    components: list[RegimenComponent]
    pill_burden: PillBurden
    notes: list[str]


class OptimizedRegimen(_Strict):
    name: str
    focus: str
    components: list[RegimenComponent]
    pill_burden: PillBurden
    synergy_notes: list[str]


class RegimenPlan(_Strict):
    patient_id: str
    current_regimen: CurrentRegimen
    optimized_regimens: list[OptimizedRegimen]


class TelemetryDevice(_Strict):
    device_id: str = Field(pattern=r"^[A-Z]+-\d{4}$")
    device_type: str
    status: DeviceStatus
    last_audit: IsoDate
    assigned_to: Optional[str]
    notes: str


class TelemetryUpload(_Strict):
    device_id: str
    date: IsoDate
    usage_hours: float
    synced_at: Optional[str]
    event: Literal["normal", "upload_missing", "low_usage", "battery_low"]
    alerts: list[str]


TABLE_MODELS: dict[str, type[BaseModel]] = {
    "patients": Patient,
    "providers": Provider,
    "appointments": Appointment,
    "medical_records": MedicalRecord,
    "medication_suppliers": MedicationSuppliers,
    "drug_interactions": DrugInteractions,
    "regimen_plans": RegimenPlan,
    "telemetry_devices": TelemetryDevice,
    "telemetry_uploads": TelemetryUpload,
}
KEY_FIELDS = {"patients": "patient_id", "providers": "provider_id", "appointments": "appointment_id",
              "medical_records": "record_id", "medication_suppliers": "medication", "drug_interactions": "medication",
              "regimen_plans": "patient_id", "telemetry_devices": "device_id"}


def upload_key(device_id: str, date: str) -> str:
    """Key of a telemetry upload: one per device and day."""
    return f"{device_id}/{date}"
