"""State queries, phrasing and facts shared by the telehealth grounding hooks and challenges.

Everything reads the state *as it is now* (``g.store``), so a hook sees what earlier steps of the
trace did. Phrases are the patient's own words: provider names and specialties, dates and times,
appointment numbers, medication and supplier names; never patient, provider, record or device ids.
"""
from __future__ import annotations

from typing import Any, Optional

from temo.domains.kit.dates import add_days
from temo.domains.kit.vocabulary import aliases
from temo.env.grounding import Ground

from . import rules as R
from .care_tools import by_price

ALIASES = aliases(__file__)
APPT_TYPE_WORDS = {"routine_checkup": "a routine checkup", "follow_up": "a follow-up visit", "consultation": "a consultation",
                   "specialist_consultation": "a specialist consultation", "sick_visit": "a sick visit"}


# -- reading the state ------------------------------------------------------------------------------
def appointments(g: Ground, statuses: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    mine = [a for a in g.store.values("appointments") if a["patient_id"] == g.user_id
            and (statuses is None or a["status"] in statuses)]
    return sorted(mine, key=lambda a: (a["date"], a["time"], a["appointment_id"]))


def changeable(g: Ground) -> list[dict[str, Any]]:
    """The patient's appointments a cancel or reschedule accepts, not yet written in this attempt."""
    done = g.used.get("appointment", set())
    return [a for a in appointments(g) if R.can_change(a) is None and a["appointment_id"] not in done]


def active_count(g: Ground) -> int:
    return sum(1 for a in appointments(g) if R.is_active_upcoming(a))


def provider(g: Ground, pid: str) -> dict[str, Any]:
    return g.store.get("providers", pid)


def free_slots(g: Ground, prov: dict[str, Any], ignore: str | None = None, first: int = 1,
               days: int = R.BOOKING_WINDOW_DAYS) -> list[tuple[str, str]]:
    """(date, time) slots of the provider in the booking window, free for provider and patient."""
    busy = {(a["date"], a["time"]) for a in g.store.values("appointments")
            if a["status"] in R.ACTIVE and a["appointment_id"] != ignore
            and (a["provider_id"] == prov["provider_id"] or a["patient_id"] == g.user_id)}
    out = []
    for day in R.dates_from(add_days(R.TODAY, first), days - first + 1):
        for t in prov["schedule"].get(R.weekday(day), []):
            if (day, t) not in busy:
                out.append((day, t))
    return out


def records(g: Ground) -> list[dict[str, Any]]:
    mine = [r for r in g.store.values("medical_records") if r["patient_id"] == g.user_id]
    return sorted(mine, key=lambda r: (r["date"], r["record_id"]), reverse=True)


def listings(g: Ground, med: str) -> list[dict[str, Any]]:
    entry = g.store.get("medication_suppliers", med)
    return by_price(entry["suppliers"]) if entry else []


def switch_options(g: Ground) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(record, prescription) pairs whose medication has a catalog supplier other than the current one,
    and that no write of this attempt touched yet."""
    done = g.used.get("prescription", set())
    out = []
    for r in records(g):
        for rx in r["prescriptions"]:
            current = (rx.get("supplier") or {}).get("company")
            if f"{r['record_id']}|{rx['medication']}" in done:
                continue
            if any(s["company"] != current for s in listings(g, rx["medication"])):
                out.append((r, rx))
    return out


def device(g: Ground) -> Optional[dict[str, Any]]:
    mine = [d for d in g.store.values("telemetry_devices") if d["assigned_to"] == g.user_id]
    return sorted(mine, key=lambda d: d["device_id"])[0] if mine else None


def uploads(g: Ground, device_id: str) -> list[dict[str, Any]]:
    return sorted((u for u in g.store.values("telemetry_uploads") if u["device_id"] == device_id), key=lambda u: u["date"])


def mark(g: Ground, kind: str, ident: str) -> None:
    g.used.setdefault(kind, set()).add(ident)


# -- words ------------------------------------------------------------------------------------------
def doctor(prov: dict[str, Any]) -> str:
    title = prov["name"]["title"]
    who = R.provider_name(prov)
    if title == "PharmD":
        return f"pharmacist {who}"
    if title == "DPT":
        return f"physical therapist {who}"
    return f"Dr. {who}"


def visit_words(g: Ground, appt: dict[str, Any]) -> str:
    return f"my {appt['date']} appointment with {doctor(provider(g, appt['provider_id']))}"


def record_words(g: Ground, rec: dict[str, Any]) -> str:
    return f"my {rec['date']} visit with {doctor(provider(g, rec['provider_id']))}"


# -- facts ------------------------------------------------------------------------------------------
def appt_fact(g: Ground, appt: dict[str, Any]):
    return g.fact("appointment_id", appt["appointment_id"], ALIASES["appointment"])


def provider_fact(g: Ground, prov: dict[str, Any]):
    return g.fact("provider_name", R.provider_name(prov), ALIASES["provider"])


def specialty_fact(g: Ground, specialty: str):
    return g.fact("specialty", specialty, ALIASES["specialty"])


def visit_date_fact(g: Ground, date: str):
    return g.fact("visit_date", date, ALIASES["visit_date"])


def medication_fact(g: Ground, med: str, key: str = "medication"):
    return g.fact(key, med, ALIASES["medication"])
