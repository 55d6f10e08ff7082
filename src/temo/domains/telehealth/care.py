"""The clinical side of the generated world: visit records, the supplier catalog, the interaction
table, regimen plans, and the remote-monitoring devices with their daily uploads.

Called by ``generate.build_database`` after patients, providers and appointments exist, with the
same seeded RNG, so every reference resolves: a record belongs to a completed appointment, its
prescriptions are medications the patient takes, supplier blocks are catalog listings, and regimen
components cost what the catalog says.
"""
from __future__ import annotations

import random
from typing import Any

from temo.domains.kit.dates import add_days
from temo.domains.kit.money import money

from . import catalog as C
from . import rules as R
from .models import upload_key

N_REGIMENS = 18
DEVICE_COUNTS = {"deployed": 32, "shipped": 18, "available": 38, "inspection": 14, "maintenance": 16, "missing_overdue": 12}
UPLOAD_DEVICES, UPLOAD_DAYS = 27, 7
TABLET_UNITS = ("tablet", "capsule")


# ---------------------------------------------------------------------------------------------- catalog
def _suppliers(rng: random.Random) -> dict[str, dict[str, Any]]:
    out = {}
    for med, count in zip(C.MEDICATIONS, C.SUPPLIER_COUNTS):
        base = C.MEDICATIONS[med][6]
        stem = med.split()[0][:4]
        listings, prices = [], set()
        for company, ending in zip(rng.sample(sorted(C.COMPANIES), count), rng.sample(C.BRAND_ENDINGS, count)):
            country, factor = C.COMPANIES[company]
            price = money(max(0.02, base * factor * rng.uniform(0.85, 1.15)))
            while price in prices:
                price = money(price + 0.01)
            prices.add(price)
            listings.append({"company": company, "country": country, "brand_name": stem + ending, "price_usd": price})
        out[med] = {"medication": med, "suppliers": listings}
    return out


def _interactions() -> dict[str, dict[str, Any]]:
    out = {}
    for med, others in C.INTERACTIONS.items():
        out[med] = {"medication": med, "interactions": {
            other: {"severity": sev, "risk_score": risk, "time_overlap_hours": hours, "action": action,
                    "skip": list(skip), "emergency": emergency}
            for other, (sev, risk, hours, skip, emergency, action) in others.items()}}
    return out


def cheapest(listings: list[dict[str, Any]]) -> dict[str, Any]:
    return min(listings, key=lambda s: (s["price_usd"], s["company"]))


# ---------------------------------------------------------------------------------------------- records
def _prescription(rng: random.Random, med: str, suppliers: dict[str, Any]) -> dict[str, Any]:
    dosage, freq, qty, *_ = C.MEDICATIONS[med]
    supplier = None
    pharmacy = rng.choice(C.LOCAL_PHARMACIES)
    if rng.random() < 0.45:
        s = rng.choice(suppliers[med]["suppliers"])
        supplier = {"company": s["company"], "brand_name": s["brand_name"], "price_usd": s["price_usd"], "currency": "USD"}
        pharmacy = f"{s['company']} ({s['brand_name']})"
    return {"medication": med, "dosage": dosage, "frequency": freq, "quantity": qty, "refills": rng.randint(0, 3),
            "pharmacy": pharmacy, "supplier": supplier}


def _meds_for_visit(rng: random.Random, patient: dict[str, Any], specialty: str) -> list[str]:
    meds = patient["medical_history"]["medications"]
    if specialty in (R.PRIMARY_CARE, "Pharmacy"):
        pool = list(meds)
    else:
        pool = [m for c in patient["medical_history"]["conditions"] if C.CONDITIONS[c][1] == specialty
                for m in C.CONDITIONS[c][0] if m in meds]
    pool = sorted(set(pool), key=meds.index)
    if not pool:
        return rng.sample(meds, 1) if meds and rng.random() < 0.5 else []
    return rng.sample(pool, min(len(pool), rng.choice([1, 1, 2])))


def _records(rng: random.Random, tables: dict[str, Any], suppliers: dict[str, Any]) -> dict[str, dict[str, Any]]:
    appts = sorted(tables["appointments"].values(), key=lambda a: a["appointment_id"])
    out = {}
    done = [a for a in appts if a["status"] == "completed"]
    for n, a in enumerate(done, 1):
        patient, prov = tables["patients"][a["patient_id"]], tables["providers"][a["provider_id"]]
        meds = _meds_for_visit(rng, patient, prov["specialty"])
        rx = [_prescription(rng, m, suppliers) for m in meds]
        reason = a["chief_complaint"]
        conds = patient["medical_history"]["conditions"]
        assessment = f"{rng.choice(conds)}, {rng.choice(['stable', 'improving', 'needs closer follow-up'])}." if conds \
            else f"Self-limited {reason}; no chronic findings."
        plan = "; ".join(f"Continue {p['medication']} {p['dosage']} {p['frequency']}" for p in rx) or "Supportive care"
        follow = next((x for x in appts if x["patient_id"] == a["patient_id"] and x["provider_id"] == a["provider_id"]
                       and x["status"] in R.ACTIVE and x["date"] > a["date"]), None)
        rid = f"REC{n:03d}"
        out[rid] = {
            "record_id": rid, "appointment_id": a["appointment_id"], "patient_id": a["patient_id"],
            "provider_id": a["provider_id"], "date": a["date"], "type": rng.choice(C.RECORD_TYPES),
            "subjective": f"Patient reports {reason}.",
            "objective": rng.choice(["No acute distress on video.", "Vitals reviewed from home readings.",
                                     "Alert and engaged; exam limited to video.", "Home log reviewed with the patient."]),
            "assessment": assessment,
            "plan": plan + rng.choice([". Follow up as needed.", ". Recheck in six weeks.", ". Labs before the next visit."]),
            "prescriptions": rx,
            "next_appointment": follow["date"] if follow else None,
            "notes": [{"date": a["date"], "text": "Visit summary shared with the patient.", "source": "care_team"}]
            if rng.random() < 0.15 else [],
        }
    return out


# ---------------------------------------------------------------------------------------------- regimens
def _component(med: str, listing: dict[str, Any]) -> dict[str, Any]:
    dosage, _, _, daily, monthly, unit, _ = C.MEDICATIONS[med]
    return {"medication": med, "dosage": dosage, "daily_dose": daily, "monthly_units": monthly, "unit_type": unit,
            "preferred_brand": listing["brand_name"], "supplier": listing["company"], "unit_cost_usd": listing["price_usd"]}


def _burden(components: list[dict[str, Any]]) -> dict[str, int]:
    return {"tablets_per_day": sum(c["daily_dose"] for c in components if c["unit_type"] in TABLET_UNITS),
            "devices_per_month": sum(c["monthly_units"] for c in components if c["unit_type"] not in TABLET_UNITS)}


def _regimen(rng: random.Random, pid: str, meds: list[str], suppliers: dict[str, Any]) -> dict[str, Any]:
    current = []
    for med in meds:
        listings = suppliers[med]["suppliers"]
        low = cheapest(listings)
        current.append(_component(med, rng.choice([s for s in listings if s is not low])))
    options = [{"name": "Cost-Optimized Generic Fill", "focus": "Lowest catalog price for every medication",
                "components": [_component(m, cheapest(suppliers[m]["suppliers"])) for m in meds],
                "synergy_notes": ["Same medications and doses", "Cheapest listed supplier for each"]}]
    shared = [c for c in sorted(C.COMPANIES) if all(any(s["company"] == c for s in suppliers[m]["suppliers"]) for m in meds)]
    if shared:
        company = min(shared, key=lambda c: sum(_component(m, next(s for s in suppliers[m]["suppliers"] if s["company"] == c))
                                                ["unit_cost_usd"] for m in meds))
        options.append({"name": "Single-Supplier Synchronized Fill", "focus": f"All medications from {company} on one refill date",
                        "components": [_component(m, next(s for s in suppliers[m]["suppliers"] if s["company"] == company))
                                       for m in meds],
                        "synergy_notes": ["One pharmacy shipment a month", "Refill dates aligned"]})
    else:
        options.append({"name": "Second-Lowest Price Fill", "focus": "Backup suppliers in case the cheapest is out of stock",
                        "components": [_component(m, sorted(suppliers[m]["suppliers"], key=lambda s: s["price_usd"])[1])
                                       for m in meds],
                        "synergy_notes": ["Keeps a second source for each medication"]})
    for o in options:
        o["pill_burden"] = _burden(o["components"])
    return {"patient_id": pid,
            "current_regimen": {"components": current, "pill_burden": _burden(current),
                                "notes": [rng.choice(["Fills each medication separately", "Pays out of pocket for refills",
                                                      "Refill dates do not line up"]),
                                          rng.choice(["Good adherence reported", "Occasional missed evening doses"])]},
            "optimized_regimens": [{k: o[k] for k in ("name", "focus", "components", "pill_burden", "synergy_notes")}
                                   for o in options]}


# ---------------------------------------------------------------------------------------------- devices
def _device_type(patient: dict[str, Any]) -> str | None:
    for cond in patient["medical_history"]["conditions"]:
        kind = C.CONDITIONS[cond][2]
        if kind:
            return kind
    return None


def _devices(rng: random.Random, patients: dict[str, Any], regimen_ids: list[str]) -> list[dict[str, Any]]:
    eligible = [p for p in sorted(patients) if _device_type(patients[p])]
    first = [p for p in regimen_ids if p in eligible]
    others = [p for p in eligible if p not in first]
    rng.shuffle(others)
    n_assigned = DEVICE_COUNTS["deployed"] + DEVICE_COUNTS["shipped"]
    holders = (first + others)[:n_assigned]
    statuses = ["deployed"] * DEVICE_COUNTS["deployed"] + ["shipped"] * DEVICE_COUNTS["shipped"]
    free = [s for s in ("available", "inspection", "maintenance", "missing_overdue") for _ in range(DEVICE_COUNTS[s])]
    numbers = {kind: base for kind, (_, base) in C.DEVICE_TYPES.items()}
    out = []
    plan = [(_device_type(patients[pid]), status, pid) for pid, status in zip(holders, statuses)]
    plan += [(rng.choice(sorted(C.DEVICE_TYPES)), status, None) for status in free]
    for kind, status, pid in plan:
        numbers[kind] += rng.randint(1, 4)
        out.append({"device_id": f"{C.DEVICE_TYPES[kind][0]}-{numbers[kind]}", "device_type": kind, "status": status,
                    "last_audit": add_days(R.TODAY, -rng.randint(1, 90)), "assigned_to": pid,
                    "notes": rng.choice(C.DEVICE_NOTES[status])})
    return out


def _uploads(rng: random.Random, devices: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out = {}
    for dev in [d for d in devices if d["status"] == "deployed"][:UPLOAD_DEVICES]:
        end = add_days(R.TODAY, -1 - rng.choice([0, 0, 0, 1, 2, 5]))
        days = R.dates_from(add_days(end, -(UPLOAD_DAYS - 1)), UPLOAD_DAYS)
        odd = set(rng.sample(days, rng.choices([0, 1, 2], [0.3, 0.45, 0.25])[0]))
        for day in days:
            event = rng.choices(["upload_missing", "low_usage", "battery_low"], [0.5, 0.3, 0.2])[0] if day in odd else "normal"
            hours = {"normal": rng.uniform(5.0, 8.5), "upload_missing": 0.0, "low_usage": rng.uniform(0.5, 2.5),
                     "battery_low": rng.uniform(3.0, 6.0)}[event]
            alerts = {"normal": [], "upload_missing": ["No data received"],
                      "low_usage": ["Usage below compliance threshold"], "battery_low": ["Battery below 15%"]}[event]
            out[upload_key(dev["device_id"], day)] = {
                "device_id": dev["device_id"], "date": day, "usage_hours": round(hours, 1),
                "synced_at": None if event == "upload_missing" else f"{day}T23:{rng.randint(0, 59):02d}:00Z",
                "event": event, "alerts": alerts}
    return out


def build_care(rng: random.Random, tables: dict[str, Any]) -> dict[str, dict[str, Any]]:
    suppliers = _suppliers(rng)
    records = _records(rng, tables, suppliers)
    patients = tables["patients"]
    with_rx = sorted({r["patient_id"] for r in records.values() if r["prescriptions"]})
    chronic = [p for p in with_rx if len(patients[p]["medical_history"]["medications"]) >= 2 and _device_type(patients[p])]
    rest = [p for p in with_rx if p not in chronic and len(patients[p]["medical_history"]["medications"]) >= 2]
    picked = rng.sample(chronic, min(N_REGIMENS, len(chronic)))
    picked += rng.sample(rest, N_REGIMENS - len(picked))
    regimens = {pid: _regimen(rng, pid, patients[pid]["medical_history"]["medications"][:3], suppliers)
                for pid in sorted(picked)}
    devices = _devices(rng, patients, sorted(picked))
    return {
        "medical_records": records,
        "medication_suppliers": suppliers,
        "drug_interactions": _interactions(),
        "regimen_plans": regimens,
        "telemetry_devices": {d["device_id"]: d for d in devices},
        "telemetry_uploads": _uploads(rng, devices),
    }
