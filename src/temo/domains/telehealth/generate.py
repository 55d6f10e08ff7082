"""Seeded generator of the telehealth database at the paper's scale.

239 patients, 114 providers and 214 appointments (paper Table 15), plus the supporting tables at the
released sizes: 149 medical records (one per completed visit), 24 medications with 142 supplier
listings, 5 medications in the interaction table, 18 regimen plans, 130 telemetry devices and 189
daily uploads. Everything comes from ``random.Random(seed)``; nothing reads the clock. Test and
training tasks share this one database (``SEPARATE_TRAIN_DB = False``); people are split by a fixed
hash of their id instead.
"""
from __future__ import annotations

import random
from typing import Any

from temo.domains.kit import people
from temo.domains.kit.dates import add_days

from . import catalog as C
from . import rules as R
from .care import build_care

SEPARATE_TRAIN_DB = False
COUNTS = {"patients": 239, "providers": 114, "appointments": 214}
STATUS_COUNTS = {"completed": 149, "cancelled": 12, "scheduled": 43, "pending_approval": 10}
TODAY_VISITS = 4  # scheduled appointments on TODAY itself (they can no longer be changed)
FULL_BOOKED = 3  # patients who already hold the maximum of active appointments
DOUBLE_BOOKED = 14  # patients with two active appointments (the rest of the active ones hold one)
FEMALE = set(
    "Aaliyah Abigail Aisha Amara Amelia Ana Anika Aria Ava Beatriz Bianca Camila Carmen Chloe Deepa Elena Elif Emma "
    "Eva Fatima Freya Grace Hana Hannah Harper Imani Isabel Jasmine Julia Keisha Lakshmi Laura Layla Lina Lucia Maya "
    "Mei Mia Nadia Naomi Nia Nora Olivia Priya Rosa Ruth Sakura Sara Sofia Sophie Thea Valentina Yara Zara Zoe".split()
)
NEUTRAL = {"Alex", "Kai", "Chen", "Jin", "Wei", "Eli"}


def gender_of(first: str, rng: random.Random) -> str:
    if first in NEUTRAL:
        return rng.choice(["female", "male", "non-binary"])
    return "female" if first in FEMALE else "male"


# ---------------------------------------------------------------------------------------------- people
def _patients(rng: random.Random) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    numbers = rng.sample(range(1000, 10000), COUNTS["patients"])
    vouchers = iter(rng.sample(range(100000, 1000000), COUNTS["patients"]))
    condition_names = list(C.CONDITIONS)
    for i, ((first, last), num) in enumerate(zip(people.unique_names(rng, COUNTS["patients"]), numbers)):
        pid = f"{first.lower()}_{last.lower()}_{num:04d}"
        conditions = [] if rng.random() < 0.15 else rng.sample(condition_names, rng.choice([1, 1, 2, 2, 3]))
        meds: list[str] = []
        for cond in conditions:
            options = [m for m in C.CONDITIONS[cond][0] if m not in meds]
            if options:
                meds.extend(rng.sample(options, 2 if len(options) > 2 and rng.random() < 0.25 else 1))
        insured = rng.random() < 0.88
        plan = None
        if insured:
            insurer = rng.choice(C.INSURERS)
            plan = {"provider": insurer, "policy_number": f"{C.INSURER_CODES[insurer]}{rng.randint(10**8, 10**9 - 1)}",
                    "group_number": f"GRP-{rng.randint(10000, 99999)}", "copay_primary": rng.choice(C.COPAYS_PRIMARY),
                    "copay_specialist": rng.choice(C.COPAYS_SPECIALIST)}
        cf, cl = people.full_name(rng)
        out[pid] = {
            "patient_id": pid,
            "name": {"first_name": first, "last_name": last},
            "demographics": {"date_of_birth": people.birth_date(rng), "gender": gender_of(first, rng),
                             "phone": people.phone(rng), "email": people.email(first, last, i + 1, rng)},
            "address": people.address(rng),
            "insurance": {"primary": plan},
            "medical_history": {"conditions": conditions, "allergies": rng.sample(C.ALLERGIES, rng.choice([0, 0, 1, 1, 2])),
                                "medications": meds},
            "emergency_contact": {"name": f"{cf} {cl if rng.random() < 0.5 else last}",
                                  "relationship": rng.choice(C.RELATIONSHIPS), "phone": people.phone(rng)},
            "vouchers": [f"TV-{next(vouchers)}"] if rng.random() < (0.6 if not insured else 0.08) else [],
        }
    return out


def _schedule(rng: random.Random) -> dict[str, list[str]]:
    days = sorted(rng.sample(R.WEEKDAYS[:5], rng.choice([3, 4, 4, 5, 5])), key=R.WEEKDAYS.index)
    if rng.random() < 0.2:
        days.append("saturday")
    if rng.random() < 0.05:
        days.append("sunday")
    return {d: sorted(rng.sample(C.SLOT_TIMES, rng.randint(2, 6))) for d in days}


def _providers(rng: random.Random) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    licenses = iter(rng.sample(range(10000, 100000), COUNTS["providers"]))
    for specialty, (n, slug, title, pool, (lo, hi)) in C.SPECIALTY_PLAN.items():
        for last in rng.sample(people.LAST_NAMES, n):
            first = rng.choice(people.FIRST_NAMES)
            if specialty == "Pharmacy":
                pid, prefix = f"pharmacist_{last.lower()}", "PH"
            elif specialty == "Physical Therapy":
                pid, prefix = f"pt_{last.lower()}", "PT"
            else:
                pid, prefix = f"dr_{last.lower()}_{slug}", "MD"
            degree = "DO" if title == "MD" and rng.random() < 0.15 else title
            langs = ["English"] + rng.sample(C.OTHER_LANGUAGES, rng.choices([0, 1, 2], [0.5, 0.4, 0.1])[0])
            out[pid] = {
                "provider_id": pid,
                "name": {"first_name": first, "last_name": last, "title": degree},
                "specialty": specialty,
                "license_number": f"{prefix}{next(licenses)}",
                "credentials": [degree] + rng.sample(pool, rng.randint(1, len(pool))),
                "contact": {"phone": f"(555) {rng.randint(100, 999)}-{rng.randint(0, 9999):04d}",
                            "email": f"{first[0].lower()}.{last.lower()}@careline.example.com"},
                "schedule": _schedule(rng),
                "consultation_fee": float(rng.randrange(lo, hi + 1, 5)),
                "languages": langs,
                "years_experience": rng.randint(3, 32),
            }
    return out


# ---------------------------------------------------------------------------------------------- appointments
def _owners(rng: random.Random, patients: dict[str, Any]) -> list[tuple[str, str]]:
    """(patient id, status) for every appointment: at most the maximum of active ones per patient."""
    ids = sorted(patients)
    weights = [1 + len(patients[p]["medical_history"]["conditions"]) for p in ids]
    owners = [(p, "completed") for p in rng.choices(ids, weights, k=STATUS_COUNTS["completed"])]
    owners += [(p, "cancelled") for p in rng.choices(ids, weights, k=STATUS_COUNTS["cancelled"])]
    n_active = STATUS_COUNTS["scheduled"] + STATUS_COUNTS["pending_approval"]
    singles = n_active - FULL_BOOKED * R.MAX_ACTIVE_APPOINTMENTS - DOUBLE_BOOKED * 2
    chosen = rng.sample(ids, FULL_BOOKED + DOUBLE_BOOKED + singles)
    active = {p: 0 for p in ids}
    for i, p in enumerate(chosen):
        active[p] = R.MAX_ACTIVE_APPOINTMENTS if i < FULL_BOOKED else 2 if i < FULL_BOOKED + DOUBLE_BOOKED else 1
    slots = [p for p in ids for _ in range(active[p])]
    rng.shuffle(slots)
    n_pending = STATUS_COUNTS["pending_approval"]
    owners += [(p, "pending_approval" if i < n_pending else "scheduled") for i, p in enumerate(slots)]
    return owners


def _provider_for(rng: random.Random, patient: dict[str, Any], by_specialty: dict[str, list[str]]) -> str:
    conds = patient["medical_history"]["conditions"]
    if conds and rng.random() < 0.55:
        specialty = C.CONDITIONS[rng.choice(conds)][1]
    else:
        specialty = rng.choice(["Primary Care"] * 5 + list(C.SPECIALTY_PLAN))
    return rng.choice(by_specialty[specialty])


def _appointment_type(rng: random.Random, specialty: str) -> str:
    if specialty == R.PRIMARY_CARE:
        return rng.choice(["routine_checkup", "sick_visit", "follow_up"])
    if specialty == "Pharmacy":
        return "consultation"
    return rng.choice(["specialist_consultation", "follow_up", "consultation"])


def _place(rng: random.Random, made: list[dict[str, Any]], provider: dict[str, Any], patient_id: str,
           start: str, step: int, limit: int) -> tuple[str, str] | None:
    """A (date, time) from ``start`` walking ``step`` days at a time: a working day, a free slot."""
    day = start
    for _ in range(limit):
        slots = list(provider["schedule"].get(R.weekday(day), []))
        rng.shuffle(slots)
        for t in slots:
            if not R.clash(made, day, t, provider_id=provider["provider_id"], patient_id=patient_id):
                return day, t
        day = add_days(day, step)
    return None


def _appointments(rng: random.Random, patients: dict[str, Any], providers: dict[str, Any]) -> list[dict[str, Any]]:
    by_specialty: dict[str, list[str]] = {}
    for pid, p in sorted(providers.items()):
        by_specialty.setdefault(p["specialty"], []).append(pid)
    made: list[dict[str, Any]] = []
    used_vouchers: set[str] = set()
    today_left = TODAY_VISITS
    for patient_id, status in _owners(rng, patients):
        patient = patients[patient_id]
        while True:
            prov = providers[_provider_for(rng, patient, by_specialty)]
            if status == "completed" or (status == "cancelled" and rng.random() < 0.5):
                placed = _place(rng, made, prov, patient_id, add_days(R.TODAY, -rng.randint(1, 420)), -1, 14)
            elif status == "scheduled" and today_left and R.weekday(R.TODAY) in prov["schedule"]:
                placed = _place(rng, made, prov, patient_id, R.TODAY, 1, 1)
                today_left -= placed is not None
            else:
                placed = _place(rng, made, prov, patient_id, add_days(R.TODAY, rng.randint(2, 45)), 1, 10)
            if placed and (status in ("completed", "cancelled") or placed[0] <= add_days(R.TODAY, 55)):
                break
        date, time = placed
        plan = patient["insurance"]["primary"]
        voucher = next((v for v in patient["vouchers"] if v not in used_vouchers), None)
        if plan and rng.random() < 0.9:
            method = "insurance"
        elif voucher and rng.random() < 0.3:
            method = "telehealth_voucher"
            used_vouchers.add(voucher)
        else:
            method = "self_pay"
        copay = R.copay_for(patient, prov) if method == "insurance" else 0.0
        due = copay if method == "insurance" else (prov["consultation_fee"] if method == "self_pay" else 0.0)
        cancelled = status == "cancelled"
        made.append({
            "appointment_id": "", "patient_id": patient_id, "provider_id": prov["provider_id"], "date": date,
            "time": time, "duration_minutes": R.APPOINTMENT_MINUTES, "type": _appointment_type(rng, prov["specialty"]),
            "status": status, "chief_complaint": rng.choice(C.VISIT_REASONS[prov["specialty"]]),
            "notes": "", "insurance_authorization": None, "copay_amount": copay, "amount_due": due,
            "meeting_link": "", "payment_method": method, "voucher_id": voucher if method == "telehealth_voucher" else None,
            "insurance_billed": method == "insurance",
            "cancellation_reason": rng.choice(["patient_cancelled", "patient_cancelled", "provider_unavailable"]) if cancelled else None,
            "cancellation_date": min(add_days(date, -rng.randint(1, 6)), R.TODAY) if cancelled else None,
        })
    made.sort(key=lambda a: (a["date"], a["time"], a["patient_id"]))
    for n, a in enumerate(made, 1):
        a["appointment_id"] = f"APPT{n:03d}"
        a["meeting_link"] = R.MEETING_ROOT + a["appointment_id"]
        if a["insurance_billed"]:
            a["insurance_authorization"] = f"AUTH{n:06d}"
    return made


def build_database(seed: int = 0, split: str = "test") -> dict[str, dict[str, Any]]:
    """Every table of the telehealth world for ``seed`` (``split`` is unused: one shared database)."""
    rng = random.Random(seed)
    providers = _providers(rng)
    patients = _patients(rng)
    appts = _appointments(rng, patients, providers)
    tables: dict[str, dict[str, Any]] = {
        "patients": patients,
        "providers": providers,
        "appointments": {a["appointment_id"]: a for a in appts},
    }
    tables.update(build_care(rng, tables))
    got = {t: len(tables[t]) for t in COUNTS}
    if got != COUNTS:
        raise AssertionError(f"telehealth generator produced {got}, expected {COUNTS}")
    return tables
