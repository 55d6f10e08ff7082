"""Who the patient is: identity steps, candidate patients for a trace, personas, internal ids and
the reference check that every call concerns the verified patient."""
from __future__ import annotations

from typing import Any

from temo.core import Action
from temo.domains.kit import people
from temo.domains.kit.split import split_of
from temo.env import Database
from temo.env.grounding import Ground

from . import rules as R

TEST_SHARE = 0.4
PERSONAS = [
    "a patient who manages several prescriptions and keeps careful notes",
    "someone recovering from a busy month of appointments",
    "a commuter who books visits around a long drive to work",
    "a patient who is nervous about video visits",
    "a grandparent who prefers to have things spelled out",
]


def authenticate(g: Ground) -> list[tuple[str, dict[str, Any], list]]:
    """E-mail, or first name + last name + date of birth (the two ways the policy allows)."""
    p = g.user
    if g.rng.random() < 0.5:
        email = p["demographics"]["email"]
        return [("find_patient_by_email", {"email": email},
                 [g.fact("email", email, ["email address", "e-mail", "email"])])]
    n, dob = p["name"], p["demographics"]["date_of_birth"]
    facts = [g.fact("first_name", n["first_name"], ["first name", "full name", "name"]),
             g.fact("last_name", n["last_name"], ["last name", "surname", "full name", "name"]),
             g.fact("date_of_birth", dob, ["date of birth", "birth date", "birthday", "dob"])]
    return [("find_patient_by_name_dob", {"first_name": n["first_name"], "last_name": n["last_name"],
                                          "date_of_birth": dob}, facts)]


_FEATURES: dict[int, dict[str, dict[str, int]]] = {}


def features(db: Database) -> dict[str, dict[str, int]]:
    """Per patient, counts of what the hooks need (cached per database)."""
    key = id(db)
    if key not in _FEATURES:
        t = db.tables
        out = {pid: {"appts": 0, "changeable": 0, "active": 0, "records": 0, "rx": 0, "regimen": 0, "device": 0,
                     "uploads": 0, "interaction": 0} for pid in t["patients"]}
        for a in t["appointments"].values():
            f = out[a["patient_id"]]
            f["appts"] += 1
            f["changeable"] += R.can_change(a) is None
            f["active"] += R.is_active_upcoming(a)
        for r in t["medical_records"].values():
            out[r["patient_id"]]["records"] += 1
            out[r["patient_id"]]["rx"] += len(r["prescriptions"])
        for pid in t["regimen_plans"]:
            out[pid]["regimen"] = 1
        with_uploads = {u["device_id"] for u in t["telemetry_uploads"].values()}
        for d in t["telemetry_devices"].values():
            if d["assigned_to"]:
                out[d["assigned_to"]]["device"] = 1
                out[d["assigned_to"]]["uploads"] = int(d["device_id"] in with_uploads)
        table = {k: v["interactions"] for k, v in t["drug_interactions"].items()}
        for pid, p in t["patients"].items():
            meds = p["medical_history"]["medications"]
            out[pid]["interaction"] = int(any(
                prim not in meds and any(m in inner or prim in table.get(m, {}) for m in meds)
                for prim, inner in table.items()))
        _FEATURES[key] = out
    return _FEATURES[key]


NEEDS = {
    "get_regimen_options": "regimen", "list_telemetry_devices": "device", "list_telemetry_uploads": "uploads",
    "get_telemetry_upload": "uploads", "get_medical_record": "records", "list_patient_medical_records": "records",
    "update_medical_record_note": "records", "update_prescription_supplier": "rx", "check_drug_interactions": "interaction",
    "get_appointment_details": "appts", "list_patient_appointments": "appts",
}


def candidate_users(db: Database, split: str, trace: list[list[str]]) -> list[str]:
    """Patients of the split whose records can serve every tool of the trace."""
    flat = [t for intent in trace for t in intent]
    changes = sum(t in ("cancel_appointment", "reschedule_appointment") for t in flat)
    books = flat.count("schedule_appointment")
    cancels = flat.count("cancel_appointment")
    need = {NEEDS[t] for t in flat if t in NEEDS}
    out = []
    for pid, f in sorted(features(db).items()):
        if split_of(pid, TEST_SHARE) != split:
            continue
        if any(not f[k] for k in need) or f["changeable"] < changes or f["rx"] < flat.count("update_prescription_supplier"):
            continue
        if books and f["active"] + books > R.MAX_ACTIVE_APPOINTMENTS + cancels:
            continue
        out.append(pid)
    return out


persona = people.persona_of(PERSONAS)


def name_of(g: Ground) -> str:
    n = g.user["name"]
    return f"{n['first_name']} {n['last_name']}"


def internal_ids(db: Database) -> set[str]:
    """Patient, provider, record, device and upload ids. Appointment numbers and voucher codes are not
    internal: patients are given them."""
    t = db.tables
    return set(t["patients"]) | set(t["providers"]) | set(t["medical_records"]) | set(t["telemetry_devices"]) | \
        set(t["telemetry_uploads"])


def check_policy(actions: list[Action], g: Ground) -> list[str]:
    """Every call of the reference concerns the verified patient: their id, their appointments, their
    records, their device."""
    problems = []
    for a in actions:
        args = a.arguments
        if args.get("patient_id") not in (None, g.user_id):
            problems.append(f"{a.name}:other_patient")
        aid = args.get("appointment_id")
        if aid and g.store.has("appointments", aid) and g.store.get("appointments", aid)["patient_id"] != g.user_id:
            problems.append(f"{a.name}:other_patients_appointment")
        rid = args.get("record_id")
        if rid and g.store.has("medical_records", rid) and g.store.get("medical_records", rid)["patient_id"] != g.user_id:
            problems.append(f"{a.name}:other_patients_record")
        dev = args.get("device_id")
        if dev and g.store.has("telemetry_devices", dev) and g.store.get("telemetry_devices", dev)["assigned_to"] != g.user_id:
            problems.append(f"{a.name}:other_patients_device")
    return problems
