"""Care tools of the telehealth service: visit records, medication suppliers, drug interactions,
regimen options and remote-monitoring devices (10 tools: 8 reads, 2 writes).

Supplier changes must use a listing of the catalog exactly (company, brand and price), and a
medication is matched by its exact name, never by a prefix. Notes are appended as the patient
dictates them, stamped with ``rules.TODAY``.
"""
from __future__ import annotations

from typing import Any, Literal, Optional

from temo.domains.kit.dates import parse_date
from temo.domains.kit.lookup import require
from temo.domains.kit.money import usd
from temo.env import Store, ToolError, tool

from . import rules as R
from .models import upload_key
from .rules import DeviceStatus

SEVERITY_RANK = {"none": 0, "low": 1, "moderate": 2, "high": 3}


def _record(db: Store, record_id: str) -> dict[str, Any]:
    return require(db, "medical_records", record_id.strip().upper(), "medical record")


def _device(db: Store, device_id: str) -> dict[str, Any]:
    return require(db, "telemetry_devices", device_id.strip().upper(), "telemetry device")


def _limit(limit: Optional[int]) -> Optional[int]:
    if limit is not None and limit < 1:
        raise ToolError("limit must be a positive whole number; leave it out to get everything")
    return limit


def catalog_entry(db: Store, medication: str) -> Optional[dict[str, Any]]:
    """The supplier catalog entry of a medication, matched case-insensitively."""
    wanted = medication.strip().lower()
    for key in db.keys("medication_suppliers"):
        if key.lower() == wanted:
            return db.get("medication_suppliers", key)
    return None


def by_price(listings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(listings, key=lambda s: (s["price_usd"], s["company"]))


def with_costs(regimen: dict[str, Any], current: float | None = None) -> dict[str, Any]:
    cost = R.monthly_cost(regimen["components"])
    out = {**regimen, "monthly_cost_usd": cost}
    if current is not None:
        out["monthly_savings_usd"] = round(current - cost, 2)
    return out


# ---------------------------------------------------------------------------------------------- records
@tool(kind="read")
def get_medical_record(db: Store, record_id: Optional[str] = None, appointment_id: Optional[str] = None) -> dict[str, Any]:
    """Get one visit record (notes, assessment, plan, prescriptions), by record id or by the visit's appointment number.

    Args:
        record_id: The record id, such as 'REC012'.
        appointment_id: The appointment number of a completed visit, such as 'APPT042'; used when no record id is given.
    """
    if record_id is None and appointment_id is None:
        raise ToolError("give a record_id or the appointment_id of a completed visit")
    if record_id is not None:
        rec = _record(db, record_id)
        if appointment_id is not None and rec["appointment_id"] != appointment_id.strip().upper():
            raise ToolError(f"record {rec['record_id']} belongs to appointment {rec['appointment_id']}, not {appointment_id}")
        return rec
    wanted = appointment_id.strip().upper()
    for rec in db.values("medical_records"):
        if rec["appointment_id"] == wanted:
            return rec
    raise ToolError(f"no medical record for appointment {wanted}; records exist only for completed visits")


@tool(kind="read")
def list_patient_medical_records(db: Store, patient_id: str, limit: Optional[int] = None) -> list[dict[str, Any]]:
    """List a patient's visit records, newest first, with the provider and the medications prescribed.

    Args:
        patient_id: The patient id, such as 'maya_patel_1234'.
        limit: Return at most this many records.
    """
    require(db, "patients", patient_id, "patient")
    mine = sorted((r for r in db.values("medical_records") if r["patient_id"] == patient_id),
                  key=lambda r: (r["date"], r["record_id"]), reverse=True)
    out = []
    for r in mine[:_limit(limit)]:
        prov = db.get("providers", r["provider_id"])
        out.append({"record_id": r["record_id"], "date": r["date"], "appointment_id": r["appointment_id"],
                    "provider_id": r["provider_id"], "provider_name": R.provider_name(prov), "type": r["type"],
                    "medications": [p["medication"] for p in r["prescriptions"]]})
    return out


@tool(kind="write")
def update_medical_record_note(db: Store, record_id: str, note: str) -> dict[str, Any]:
    """Append a note the patient dictates to a visit record, word for word, dated today.

    Args:
        record_id: The record id, such as 'REC012'.
        note: The note text exactly as the patient wants it recorded (at most 300 characters).
    """
    rec = _record(db, record_id)
    text = note.strip()
    if not text or len(text) > R.MAX_NOTE_CHARS:
        raise ToolError(f"a note must be 1 to {R.MAX_NOTE_CHARS} characters")
    if any(n["text"] == text for n in rec["notes"]):
        raise ToolError(f"record {rec['record_id']} already has this exact note")
    rec = db.edit("medical_records", rec["record_id"])
    rec["notes"].append({"date": R.TODAY, "text": text, "source": "patient_request"})
    return rec


# ---------------------------------------------------------------------------------------------- medications
@tool(kind="read")
def list_medication_suppliers(db: Store, medication: str, country_filter: Optional[str] = None,
                              limit: Optional[int] = None) -> dict[str, Any]:
    """List the catalog suppliers of a medication, cheapest first (price per unit in USD), optionally from one country.

    Args:
        medication: The medication name, such as 'Atorvastatin'.
        country_filter: Only suppliers based in this country, such as 'India' or 'USA'.
        limit: Return at most this many suppliers.
    """
    entry = catalog_entry(db, medication)
    if entry is None:
        known = ", ".join(sorted(db.keys("medication_suppliers")))
        raise ToolError(f"{medication!r} is not in the supplier catalog; catalog medications: {known}")
    listings = by_price(entry["suppliers"])
    if country_filter is not None:
        countries = sorted({s["country"] for s in listings})
        listings = [s for s in listings if s["country"].lower() == country_filter.strip().lower()]
        if not listings:
            raise ToolError(f"no supplier of {entry['medication']} in {country_filter}; countries with one: {', '.join(countries)}")
    return {"medication": entry["medication"], "suppliers": listings[:_limit(limit)]}


@tool(kind="write")
def update_prescription_supplier(db: Store, record_id: str, medication: str, supplier_company: str, brand_name: str,
                                 price_usd: float, currency: Literal["USD"] = "USD") -> dict[str, Any]:
    """Switch one prescription of a visit record to a catalog supplier; the pharmacy becomes 'Company (Brand)'.

    The company must list the medication in the catalog under that brand and at that price.

    Args:
        record_id: The record id, such as 'REC012'.
        medication: The prescribed medication, exactly as named in the record, such as 'Warfarin'.
        supplier_company: The supplier company, such as 'VedaRx Labs'.
        brand_name: The brand the company sells the medication under, as in the catalog.
        price_usd: The catalog price per unit in USD.
        currency: Currency of the price; only USD.
    """
    rec = _record(db, record_id)
    if not rec["prescriptions"]:
        raise ToolError(f"record {rec['record_id']} has no prescriptions")
    names = [p["medication"] for p in rec["prescriptions"]]
    idx = next((i for i, n in enumerate(names) if n.lower() == medication.strip().lower()), None)
    if idx is None:
        raise ToolError(f"{medication!r} is not prescribed in record {rec['record_id']}; prescriptions: {', '.join(names)}")
    entry = catalog_entry(db, names[idx])
    if entry is None:
        raise ToolError(f"{names[idx]} is not in the supplier catalog, so its supplier cannot be changed here")
    listing = next((s for s in entry["suppliers"] if s["company"].lower() == supplier_company.strip().lower()), None)
    if listing is None:
        raise ToolError(f"{supplier_company!r} does not supply {names[idx]}; look the suppliers up with list_medication_suppliers")
    if listing["brand_name"].lower() != brand_name.strip().lower():
        raise ToolError(f"{listing['company']} sells {names[idx]} as {listing['brand_name']}, not {brand_name!r}")
    if abs(listing["price_usd"] - price_usd) > 0.005:
        raise ToolError(f"the catalog price of {listing['company']}'s {listing['brand_name']} is {usd(listing['price_usd'])} per unit, "
                        f"not {usd(price_usd)}")
    current = rec["prescriptions"][idx].get("supplier") or {}
    if current.get("company") == listing["company"]:
        raise ToolError(f"{names[idx]} in record {rec['record_id']} is already supplied by {listing['company']}")
    rec = db.edit("medical_records", rec["record_id"])
    rx = rec["prescriptions"][idx]
    rx["pharmacy"] = f"{listing['company']} ({listing['brand_name']})"
    rx["supplier"] = {"company": listing["company"], "brand_name": listing["brand_name"],
                      "price_usd": listing["price_usd"], "currency": currency}
    return rec


@tool(kind="read")
def check_drug_interactions(db: Store, primary_medication: str, current_medications: list[str]) -> dict[str, Any]:
    """Check a medication (for example one taken by mistake) against the patient's current medications, and
    those among themselves, in the interaction table: severity, medications to hold today, and whether
    the case must be escalated urgently. It reports the table only; it is not medical advice.

    Args:
        primary_medication: The medication to check, such as 'Sertraline'.
        current_medications: The patient's current medications, such as ['Warfarin', 'Aspirin'].
    """
    if not primary_medication.strip():
        raise ToolError("primary_medication must name a medication")
    if not current_medications:
        raise ToolError("current_medications must list at least one medication the patient takes")
    table = {k: db.get("drug_interactions", k)["interactions"] for k in db.keys("drug_interactions")}
    canon: dict[str, str] = {k.lower(): k for k in db.keys("medication_suppliers")}
    for outer, inner in table.items():
        canon.setdefault(outer.lower(), outer)
        for k in inner:
            canon.setdefault(k.lower(), k)

    def name(med: str) -> str:
        return canon.get(med.strip().lower(), med.strip())

    def lookup(a: str, b: str) -> Optional[dict[str, Any]]:
        return table.get(a, {}).get(b) or table.get(b, {}).get(a)

    primary = name(primary_medication)
    current = [m for m in dict.fromkeys(name(m) for m in current_medications) if m != primary]
    pairs = [(primary, m) for m in current] + [(a, b) for i, a in enumerate(current) for b in current[i + 1:]]
    found, hold, emergency, peak, top = [], set(), False, 0, "none"
    for a, b in pairs:
        hit = lookup(a, b)
        if hit is None:
            continue
        found.append({"medications": [a, b], "severity": hit["severity"], "risk_score": hit["risk_score"],
                      "overlap_hours": hit["time_overlap_hours"], "action": hit["action"]})
        hold.update(hit["skip"])
        emergency = emergency or hit["emergency"]
        peak = max(peak, hit["time_overlap_hours"])
        if SEVERITY_RANK[hit["severity"]] > SEVERITY_RANK[top]:
            top = hit["severity"]
    return {"primary_medication": primary, "checked_against": current, "interactions": found,
            "highest_severity": top, "hold_today": sorted(hold), "emergency_escalation": emergency,
            "peak_overlap_hours": peak}


@tool(kind="read")
def get_regimen_options(db: Store, patient_id: str) -> dict[str, Any]:
    """Get a patient's current medication regimen and the optimized alternatives, with monthly costs,
    savings against the current regimen and pill burden.

    Args:
        patient_id: The patient id, such as 'maya_patel_1234'.
    """
    require(db, "patients", patient_id, "patient")
    plan = db.get("regimen_plans", patient_id)
    if plan is None:
        raise ToolError(f"no regimen plan on file for patient {patient_id}")
    current = with_costs(plan["current_regimen"])
    return {"patient_id": patient_id, "current_regimen": current,
            "optimized_regimens": [with_costs(o, current["monthly_cost_usd"]) for o in plan["optimized_regimens"]]}


# ---------------------------------------------------------------------------------------------- remote monitoring
@tool(kind="read")
def list_telemetry_devices(db: Store, status_filter: Optional[DeviceStatus] = None, limit: Optional[int] = None) -> list[dict[str, Any]]:
    """List the remote-monitoring devices in inventory, sorted by device id, optionally only those with one status.

    Args:
        status_filter: Only devices with this status: available, inspection, deployed, shipped, maintenance or missing_overdue.
        limit: Return at most this many devices.
    """
    out = [db.get("telemetry_devices", k) for k in sorted(db.keys("telemetry_devices"))]
    out = [d for d in out if status_filter is None or d["status"] == status_filter]
    return out[:_limit(limit)]


@tool(kind="read")
def list_telemetry_uploads(db: Store, device_id: str, start_date: Optional[str] = None, end_date: Optional[str] = None,
                           limit: Optional[int] = None) -> list[dict[str, Any]]:
    """List a device's daily uploads in date order, optionally between two dates (both included).

    Args:
        device_id: The device id, such as 'CGM-2214'.
        start_date: First day to include, YYYY-MM-DD.
        end_date: Last day to include, YYYY-MM-DD.
        limit: Return at most this many uploads.
    """
    dev = _device(db, device_id)
    for d, what in ((start_date, "start_date"), (end_date, "end_date")):
        if d is not None:
            parse_date(d, what)
    if start_date and end_date and start_date > end_date:
        raise ToolError(f"start_date {start_date} is after end_date {end_date}")
    ups = sorted((u for u in db.values("telemetry_uploads") if u["device_id"] == dev["device_id"]), key=lambda u: u["date"])
    ups = [u for u in ups if (start_date is None or u["date"] >= start_date) and (end_date is None or u["date"] <= end_date)]
    return ups[:_limit(limit)]


@tool(kind="read")
def get_telemetry_upload(db: Store, device_id: str, date: str) -> dict[str, Any]:
    """Get one device's upload for one day: hours of use, sync time, event and alerts.

    Args:
        device_id: The device id, such as 'CGM-2214'.
        date: The day, YYYY-MM-DD.
    """
    dev = _device(db, device_id)
    parse_date(date, "date")
    up = db.get("telemetry_uploads", upload_key(dev["device_id"], date))
    if up is None:
        raise ToolError(f"no upload is recorded for device {dev['device_id']} on {date}")
    return up


CARE_TOOLS = [
    get_medical_record, list_patient_medical_records, get_regimen_options, list_medication_suppliers,
    check_drug_interactions, list_telemetry_devices, list_telemetry_uploads, get_telemetry_upload,
    update_prescription_supplier, update_medical_record_note,
]
