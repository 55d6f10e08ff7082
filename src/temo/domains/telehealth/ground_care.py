"""Grounding hooks for the care tools of the telehealth graph: records, suppliers, interactions,
regimen options and remote monitoring.

Patients name their visits by date and doctor, their medications and suppliers by name, and their
device by its kind ("my glucose monitor"); never record or device ids.
"""
from __future__ import annotations

from typing import Any, Optional

from temo.domains.kit.money import usd
from temo.env.grounding import Ground, GroundingFailed, Step, hook

from . import picks as P
from . import rules as R

HOOKS: dict = {}
GENERIC_NOTES = [
    "Please send visit reminders to my email rather than by text message.",
    "I prefer morning video visits when possible.",
    "I moved recently; my new address is already in my profile.",
    "I would like printed copies of my prescriptions mailed to me.",
    "I have started keeping a daily log of my symptoms to share at visits.",
    "My pharmacy asked that refill requests be sent two days early.",
]


def _pick_record(g: Ground, recs: list[dict[str, Any]], reason: str = "no_record") -> dict[str, Any]:
    focus_appt = g.focus.get("appointment")
    if focus_appt and not g.focus.get("record"):
        linked = [r for r in recs if r["appointment_id"] == focus_appt]
        if linked:
            return linked[0]
    return g.pick("record", recs, key=lambda r: r["record_id"], reason=reason)


def _record_focus(rec: dict[str, Any], med: Optional[str] = None) -> dict[str, str]:
    out = {"record": rec["record_id"], "appointment": rec["appointment_id"], "provider": rec["provider_id"]}
    if med:
        out["medication"] = med
    return out


# -- records ---------------------------------------------------------------------------------------
@hook(HOOKS)
def get_medical_record(g: Ground) -> Step:
    rec = _pick_record(g, P.records(g))
    words = P.record_words(g, rec)
    rx = rec["prescriptions"]
    kinds = ["who"] + ["meds", "meds", "dosage", "pharmacy"] * bool(rx) + ["next"] * bool(rec["next_appointment"])
    kind = g.rng.choice(kinds)
    line = g.rng.choice(rx) if rx else None
    if kind == "meds":
        text, outputs = g.rng.choice([f"What was I prescribed at {words}?", f"Which medications came out of {words}?"]), \
            [p["medication"] for p in rx]
    elif kind == "dosage":
        text, outputs = f"What dosage of {line['medication']} was I given at {words}?", [line["dosage"]]
    elif kind == "pharmacy":
        text, outputs = f"Which pharmacy fills the {line['medication']} from {words}?", [line["pharmacy"]]
    elif kind == "next":
        text, outputs = f"When is the follow-up that was planned at {words}?", [rec["next_appointment"]]
    else:
        text, outputs = f"What kind of visit was recorded for {words}?", [rec["type"].replace("_", " ")]
    if g.rng.random() < 0.5:
        args = {"appointment_id": rec["appointment_id"]}
        facts = [g.fact("appointment_id", rec["appointment_id"], ["appointment number", "appointment id", "confirmation number"])]
    else:
        args = {"record_id": rec["record_id"]}
        facts = [P.visit_date_fact(g, rec["date"]), P.provider_fact(g, P.provider(g, rec["provider_id"]))]
    return Step(args=args, ask=text, outputs=outputs, facts=facts,
                focus=_record_focus(rec, line["medication"] if line else None))


@hook(HOOKS)
def list_patient_medical_records(g: Ground) -> Step:
    recs = P.records(g)
    if not recs:
        raise GroundingFailed("no_record")
    with_rx = [r for r in recs if r["prescriptions"]]
    kinds = ["count", "latest"] + ["latest_meds", "med_last"] * bool(with_rx)
    kind = g.rng.choice(kinds)
    args: dict[str, Any] = {"patient_id": g.user_id}
    facts: list = []
    med = None
    if kind == "count":
        text, outputs, rec = "How many visit records do I have on file?", [str(len(recs))], recs[0]
    elif kind == "latest":
        rec = recs[0]
        args["limit"] = 1 if g.rng.random() < 0.5 else 3
        text = g.rng.choice(["When was my last visit, and who was it with?", "Which doctor did I see most recently, and when?"])
        outputs = [rec["date"], R.provider_name(P.provider(g, rec["provider_id"]))]
    elif kind == "latest_meds":
        rec = with_rx[0]
        text = "What was prescribed at the most recent visit where I got a prescription?"
        outputs = [p["medication"] for p in rec["prescriptions"]]
    else:
        meds = sorted({p["medication"] for r in with_rx for p in r["prescriptions"]})
        med = g.pick("medication", meds)
        rec = next(r for r in with_rx if any(p["medication"] == med for p in r["prescriptions"]))
        text = f"When was {med} last prescribed to me?"
        outputs, facts = [rec["date"]], [P.medication_fact(g, med)]
    return Step(args=args, ask=text, outputs=outputs, facts=facts, focus=_record_focus(rec, med))


@hook(HOOKS)
def update_medical_record_note(g: Ground) -> Step:
    done = g.used.get("record_note", set())
    recs = [r for r in P.records(g) if r["record_id"] not in done]
    rec = _pick_record(g, recs)
    switched = g.notes.get("switched", {}).get(rec["record_id"])
    options = list(GENERIC_NOTES)
    if switched:
        options = [f"I asked to have my {switched[0]} filled by {switched[1]} ({switched[2]}) from now on."] * 3
    elif g.notes.get("missed"):
        kind, day = g.notes["missed"]
        options += [f"My {kind.lower()} did not upload on {day} because I was away from home."] * 3
    elif g.notes.get("regimen_option"):
        options += [f"I would like to discuss the {g.notes['regimen_option']} option at my next visit."] * 3
    existing = {n["text"] for n in rec["notes"]}
    options = [o for o in options if o not in existing]
    if not options:
        raise GroundingFailed("note_exists")
    note = g.rng.choice(options)
    P.mark(g, "record_note", rec["record_id"])
    words = P.record_words(g, rec)
    ask = g.rng.choice([f"Please add a note to the record of {words}.", f"I'd like a note added to {words} in my records.",
                        f"Can a note be put on the record from {words}?"])
    facts = [P.visit_date_fact(g, rec["date"]), P.provider_fact(g, P.provider(g, rec["provider_id"])),
             g.fact("note", note, ["note", "note text", "wording", "what the note should say", "exact note", "note say"])]
    return Step(args={"record_id": rec["record_id"], "note": note}, ask=ask, facts=facts,
                details=[f"It's {words}.", f"The note should read exactly: \"{note}\""], focus=_record_focus(rec))


# -- medications -----------------------------------------------------------------------------------
def _catalog_meds(g: Ground) -> list[str]:
    return sorted(g.store.keys("medication_suppliers"))


@hook(HOOKS)
def list_medication_suppliers(g: Ground) -> Step:
    catalog = _catalog_meds(g)
    med = g.focus.get("medication")
    if med not in catalog:
        mine = [m for m in g.user["medical_history"]["medications"] if m in catalog]
        med = g.pick("medication", mine or catalog)
    listings = P.listings(g, med)
    countries = sorted({s["country"] for s in listings})
    kind = g.rng.choice(["cheapest", "cheapest", "country", "top3"])
    args: dict[str, Any] = {"medication": med}
    facts = [P.medication_fact(g, med)]
    if kind == "country":
        country = g.rng.choice(countries)
        args["country_filter"] = country
        found = [s for s in listings if s["country"] == country]
        text = g.rng.choice([f"Which suppliers based in {country} sell {med}, and at what price?",
                             f"Can I get {med} from a supplier in {country}? Who, and for how much?"])
        outputs = [x for s in found[:3] for x in (s["company"], usd(s["price_usd"]))]
        facts.append(g.fact("country", country, ["country", "which country", "where the supplier is based"]))
    elif kind == "top3" and len(listings) >= 3:
        args["limit"] = 3
        found = listings[:3]
        text = f"What are the three cheapest suppliers of {med}?"
        outputs = [s["company"] for s in found]
    else:
        found = listings[:1]
        text = g.rng.choice([f"Who is the cheapest supplier of {med}, and what is the price?",
                             f"What's the lowest price anyone in the catalog charges for {med}, and who sells it?"])
        outputs = [found[0]["company"], usd(found[0]["price_usd"])]
    best = found[0]
    return Step(args=args, ask=text, outputs=outputs, facts=facts,
                focus={"medication": med, "supplier": f"{med}|{best['company']}"}, uses={"medication": med})


@hook(HOOKS)
def update_prescription_supplier(g: Ground) -> Step:
    opts = P.switch_options(g)
    if not opts:
        raise GroundingFailed("no_prescription_to_switch")
    for kind, pred in (("record", lambda o: o[0]["record_id"] == g.focus.get("record")),
                       ("medication", lambda o: o[1]["medication"] == g.focus.get("medication"))):
        narrowed = [o for o in opts if pred(o)]
        if narrowed and g.focus.get(kind):
            opts = narrowed
    rec, rx = g.pick("prescription", opts, key=lambda o: f"{o[0]['record_id']}|{o[1]['medication']}")
    med = rx["medication"]
    current = (rx.get("supplier") or {}).get("company")
    others = [s for s in P.listings(g, med) if s["company"] != current]
    wanted = (g.focus.get("supplier") or "|").split("|", 1)
    target = next((s for s in others if wanted == [med, s["company"]]), None)
    if target is None:
        target = others[0] if g.rng.random() < 0.6 else g.rng.choice(others)
    P.mark(g, "prescription", f"{rec['record_id']}|{med}")
    g.notes.setdefault("switched", {})[rec["record_id"]] = (med, target["company"], target["brand_name"])
    words = P.record_words(g, rec)
    ask = g.rng.choice([f"I'd like my {med} from {words} to be filled by {target['company']} instead.",
                        f"Please switch the supplier of the {med} prescribed at {words} to {target['company']}.",
                        f"Can the {med} from {words} come from {target['company']} from now on?"])
    facts = [P.visit_date_fact(g, rec["date"]), P.provider_fact(g, P.provider(g, rec["provider_id"])),
             P.medication_fact(g, med),
             g.fact("supplier_company", target["company"], ["supplier", "company", "which supplier", "manufacturer"]),
             g.fact("brand_name", target["brand_name"], ["brand", "brand name", "which brand"])]
    details = [f"It's the {med} prescription from {words}.",
               f"{target['company']} sells it as {target['brand_name']} for {usd(target['price_usd'])} per unit."]
    args = {"record_id": rec["record_id"], "medication": med, "supplier_company": target["company"],
            "brand_name": target["brand_name"], "price_usd": target["price_usd"]}
    return Step(args=args, ask=ask, facts=facts, details=details,
                focus={**_record_focus(rec, med), "supplier": f"{med}|{target['company']}"})


def _interacts(g: Ground, a: str, b: str) -> bool:
    ta, tb = g.store.get("drug_interactions", a), g.store.get("drug_interactions", b)
    return bool((ta and b in ta["interactions"]) or (tb and a in tb["interactions"]))


def _interaction_candidates(g: Ground, meds: list[str]) -> list[str]:
    """Medications of the interaction table the patient does not take that clash with one they do."""
    return [p for p in sorted(g.store.keys("drug_interactions")) if p not in meds and any(_interacts(g, p, m) for m in meds)]


@hook(HOOKS)
def check_drug_interactions(g: Ground) -> Step:
    meds = list(g.user["medical_history"]["medications"])
    if not meds:
        raise GroundingFailed("no_medications")
    cands = _interaction_candidates(g, meds)
    if not cands:
        raise GroundingFailed("no_interaction")
    focus = g.focus.get("medication")
    primary = focus if focus in cands else g.pick("primary_medication", cands)
    result = g.run("check_drug_interactions", {"primary_medication": primary, "current_medications": meds})
    outputs = [result["highest_severity"], *result["hold_today"]]
    text = g.rng.choice([
        f"I accidentally took a {primary} tablet that was not mine. How serious is the clash with what I take, "
        "and should I hold anything today?",
        f"My doctor mentioned starting {primary}. What does the interaction checker say about it with my current medications?",
        f"Could the interaction checker compare {primary} with the medications I take? How severe is it, and what should be held?",
    ])
    facts = [P.medication_fact(g, primary, "primary_medication"),
             g.fact("current_medications", ", ".join(meds), ["current medications", "medications i take", "what i take",
                                                             "other medications", "medication list", "medications"])]
    in_records = [m for m in meds if any(m == p["medication"] for r in P.records(g) for p in r["prescriptions"])]
    step_focus = {"medication": in_records[0]} if in_records else {}
    return Step(args={"primary_medication": primary, "current_medications": meds}, ask=text,
                outputs=outputs, facts=facts, focus=step_focus,
                uses={"primary_medication": primary})


@hook(HOOKS)
def get_regimen_options(g: Ground) -> Step:
    if not g.store.has("regimen_plans", g.user_id):
        raise GroundingFailed("no_regimen")
    out = g.run("get_regimen_options", {"patient_id": g.user_id})
    options = out["optimized_regimens"]
    best = min(options, key=lambda o: o["monthly_cost_usd"])
    unique = sum(1 for o in options if o["monthly_cost_usd"] == best["monthly_cost_usd"]) == 1
    kinds = ["current", "savings"] + ["cheapest", "cheapest"] * unique
    kind = g.rng.choice(kinds)
    if kind == "current":
        text = "What does my current medication regimen cost per month?"
        outputs = [usd(out["current_regimen"]["monthly_cost_usd"])]
    elif kind == "savings":
        text = f"How much would I save per month with the {best['name']} option?"
        outputs = [usd(best["monthly_savings_usd"])]
    else:
        text = g.rng.choice(["Which of my regimen options is the cheapest, and what would it cost per month?",
                             "What is the lowest-cost alternative to my current regimen, and its monthly cost?"])
        outputs = [best["name"], usd(best["monthly_cost_usd"])]
    g.notes["regimen_option"] = best["name"]
    comps = best["components"]
    mine = [c for c in comps if any(c["medication"] == p["medication"] for r in P.records(g) for p in r["prescriptions"])]
    pick = (mine or comps)[0]
    return Step(args={"patient_id": g.user_id}, ask=text, outputs=outputs,
                focus={"medication": pick["medication"], "supplier": f"{pick['medication']}|{pick['supplier']}"})


# -- remote monitoring -----------------------------------------------------------------------------
def _device(g: Ground, with_uploads: bool) -> dict[str, Any]:
    dev = P.device(g)
    if dev is None or (with_uploads and not P.uploads(g, dev["device_id"])):
        raise GroundingFailed("no_device_uploads" if with_uploads else "no_device")
    return dev


@hook(HOOKS)
def list_telemetry_devices(g: Ground) -> Step:
    dev = _device(g, with_uploads=False)
    kind = dev["device_type"].lower()
    if g.rng.random() < 0.6:
        text, outputs = g.rng.choice([f"What's the status of my {kind}?", f"Has my {kind} been shipped or set up yet?"]), \
            [dev["status"]]
    else:
        text, outputs = f"When was my {kind} last audited?", [dev["last_audit"]]
    return Step(args={}, ask=text, outputs=outputs,
                focus={"device": dev["device_id"]})


@hook(HOOKS)
def list_telemetry_uploads(g: Ground) -> Step:
    dev = _device(g, with_uploads=True)
    ups = P.uploads(g, dev["device_id"])
    n = len(ups)
    lo = g.rng.randrange(0, max(1, n - 3))
    hi = g.rng.randrange(min(n - 1, lo + 2), n)
    window = ups[lo:hi + 1]
    start, end = window[0]["date"], window[-1]["date"]
    odd = [u for u in window if u["event"] != "normal"]
    kind = dev["device_type"].lower()
    if odd and g.rng.random() < 0.65:
        text = f"On which days between {start} and {end} did my {kind} report a problem?"
        outputs = [u["date"] for u in odd]
        g.notes["missed"] = (dev["device_type"], odd[0]["date"])
    else:
        total = round(sum(u["usage_hours"] for u in window), 1)
        text = f"How many hours in total did I use my {kind} from {start} to {end}?"
        outputs = [f"{total:.1f}"]
    facts = [g.fact("start_date", start, ["start date", "first day", "beginning of the period"]),
             g.fact("end_date", end, ["end date", "last day", "end of the period"])]
    return Step(args={"device_id": dev["device_id"], "start_date": start, "end_date": end}, ask=text,
                outputs=outputs, facts=facts,
                focus={"device": dev["device_id"], "upload_date": (odd or window)[0]["date"]})


@hook(HOOKS)
def get_telemetry_upload(g: Ground) -> Step:
    dev = _device(g, with_uploads=True)
    ups = P.uploads(g, dev["device_id"])
    focus_day = g.focus.get("upload_date")
    odd = [u for u in ups if u["event"] != "normal"]
    up = next((u for u in ups if u["date"] == focus_day), None)
    if up is None:
        up = g.rng.choice(odd) if odd and g.rng.random() < 0.6 else g.rng.choice(ups)
    kind, day = dev["device_type"].lower(), up["date"]
    if up["alerts"]:
        text = g.rng.choice([f"Did my {kind} upload properly on {day}? What alert came up?",
                             f"Was there any problem with my {kind}'s data on {day}?"])
        outputs = list(up["alerts"])
        g.notes["missed"] = (dev["device_type"], day)
    else:
        text = g.rng.choice([f"How many hours did my {kind} record on {day}?", f"How long did I use my {kind} on {day}?"])
        outputs = [f"{up['usage_hours']:.1f}"]
    return Step(args={"device_id": dev["device_id"], "date": day}, ask=text, outputs=outputs,
                facts=[g.fact("upload_date", day, ["which day", "upload date", "which date"])],
                focus={"device": dev["device_id"], "upload_date": day})
