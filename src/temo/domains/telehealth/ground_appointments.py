"""Grounding hooks for the provider and appointment tools of the telehealth graph.

Each hook picks, in the state as it is now, what the tool accepts: an appointment of the patient
(one dated after today and still active for a change), a provider and a free slot of theirs inside
the booking window, a billing choice the patient is eligible for. Patients know their appointment
numbers, provider names and specialties, dates and times; never provider or patient ids.
"""
from __future__ import annotations

from typing import Any

from temo.domains.kit.ids import next_id
from temo.domains.kit.money import usd
from temo.env.grounding import Ground, GroundingFailed, Step, hook

from . import picks as P
from . import rules as R

HOOKS: dict = {}
STATUS_OUTPUT = {"scheduled": "scheduled", "pending_approval": "pending", "completed": "completed", "cancelled": "cancel"}


def _pick_appt(g: Ground, appts: list[dict[str, Any]], reason: str) -> dict[str, Any]:
    return g.pick("appointment", appts, key=lambda a: a["appointment_id"], reason=reason)


def _created(g: Ground) -> set[str]:
    return g.notes.setdefault("created", set())


@hook(HOOKS)
def get_appointment_details(g: Ground) -> Step:
    appt = _pick_appt(g, P.appointments(g), "no_appointment")
    prov = P.provider(g, appt["provider_id"])
    num, doc, created = appt["appointment_id"], P.doctor(prov), appt["appointment_id"] in _created(g)
    ref = "the appointment I just booked" if created else f"appointment {num}"
    if created:
        kinds = ["link", "due"]
    elif appt["status"] in R.ACTIVE:
        kinds = ["when", "who", "link", "due", "status"]
    else:
        kinds = ["who", "status", "due"]
    kind = g.rng.choice(kinds)
    past = appt["date"] < R.TODAY
    texts, outputs = {
        "when": ([f"When exactly is {ref}?", f"What date and time is {ref} set for?"], [appt["date"], appt["time"]]),
        "who": ([f"Which doctor was {ref} with?" if past else f"Which doctor is {ref} with?",
                 f"Who did I see at {ref}?" if past else f"Who will I be seeing at {ref}?"], [R.provider_name(prov)]),
        "link": ([f"Could I get the video link for {ref}?", f"What is the meeting link for {ref}?"], [appt["meeting_link"]]),
        "due": ([f"How much do I pay for {ref}?", f"What does {ref} cost me?"], [usd(appt["amount_due"])]),
        "status": ([f"What is the status of {ref}?", f"Is {ref} still on?"], [STATUS_OUTPUT[appt["status"]]]),
    }[kind]
    facts = [] if created else [P.appt_fact(g, appt)]
    return Step(args={"appointment_id": num}, ask=g.rng.choice(texts), facts=facts, outputs=outputs,
                focus={"appointment": num, "provider": prov["provider_id"], "specialty": prov["specialty"]})


@hook(HOOKS)
def get_provider_details(g: Ground) -> Step:
    prov = P.provider(g, g.focus.get("provider") or _provider_to_look_up(g))
    doc = P.doctor(prov)
    days = [d for d in R.WEEKDAYS if prov["schedule"].get(d)]
    kind = g.rng.choice(["fee", "languages", "experience", "hours", "hours", "days"])
    if kind == "fee":
        text, outputs = g.rng.choice([f"What is {doc}'s consultation fee?", f"How much does {doc} charge for a visit?"]), \
            [usd(prov["consultation_fee"])]
    elif kind == "languages":
        text, outputs = f"Which languages does {doc} speak?", list(prov["languages"])
    elif kind == "experience":
        text, outputs = f"How many years of experience does {doc} have?", [str(prov["years_experience"])]
    elif kind == "hours":
        day = g.rng.choice(days)
        text = g.rng.choice([f"What times can I see {doc} on {day.title()}s?",
                             f"Which appointment slots does {doc} have on {day.title()}s?"])
        outputs = list(prov["schedule"][day])
    else:
        text, outputs = f"Which days of the week does {doc} see patients?", [d.title() for d in days]
    return Step(args={"provider_id": prov["provider_id"]}, ask=text, outputs=outputs,
                facts=[P.provider_fact(g, prov), P.specialty_fact(g, prov["specialty"])],
                focus={"provider": prov["provider_id"], "specialty": prov["specialty"]})


def _provider_to_look_up(g: Ground) -> str:
    """With no provider in focus: one the patient has seen (else any)."""
    seen = sorted({a["provider_id"] for a in P.appointments(g)})
    return g.pick("provider", seen or sorted(g.store.keys("providers")))


def _unique_best(provs: list[dict[str, Any]], key) -> dict[str, Any] | None:
    ranked = sorted(provs, key=key)
    if len(ranked) == 1 or key(ranked[0]) != key(ranked[1]):
        return ranked[0]
    return None


@hook(HOOKS)
def list_available_providers(g: Ground) -> Step:
    spec = g.focus.get("specialty")
    if spec not in R.SPECIALTIES:
        spec = g.pick("specialty", list(R.SPECIALTIES))
    provs = sorted((p for p in g.store.values("providers") if p["specialty"] == spec), key=lambda p: p["provider_id"])
    langs = sorted({lang for p in provs for lang in p["languages"] if lang != "English"})
    kinds = ["count"]
    if langs:
        kinds += ["language", "language"]
    cheapest = _unique_best(provs, lambda p: p["consultation_fee"])
    senior = _unique_best(provs, lambda p: -p["years_experience"])
    kinds += ["cheapest"] * bool(cheapest) + ["senior"] * bool(senior)
    saturday = [p for p in provs if p["schedule"].get("saturday")]
    kinds += ["saturday"] * (1 <= len(saturday) <= 3)
    kind = g.rng.choice(kinds)
    if kind == "language":
        lang = g.rng.choice(langs)
        found = [p for p in provs if lang in p["languages"]]
        text = g.rng.choice([f"Which {spec} providers speak {lang}?", f"Is there a {spec} provider who speaks {lang}?"])
        outputs = [R.provider_name(p) for p in found]
    elif kind == "cheapest":
        found = [cheapest]
        text = f"Which {spec} provider has the lowest consultation fee, and how much is it?"
        outputs = [R.provider_name(cheapest), usd(cheapest["consultation_fee"])]
    elif kind == "senior":
        found = [senior]
        text = f"Who is the most experienced {spec} provider, and for how many years have they practised?"
        outputs = [R.provider_name(senior), str(senior["years_experience"])]
    elif kind == "saturday":
        found = saturday
        text = f"Which {spec} providers see patients on Saturdays?"
        outputs = [R.provider_name(p) for p in saturday]
    else:
        found = provs
        text = g.rng.choice([f"How many {spec} providers are there on CareLine?", f"How many {spec} providers could I choose from?"])
        outputs = [str(len(provs))]
    chosen = g.pick("provider", [p["provider_id"] for p in found])
    return Step(args={"specialty": spec}, ask=text, outputs=outputs, facts=[P.specialty_fact(g, spec)],
                focus={"provider": chosen, "specialty": spec},
                uses={"specialty": spec})


@hook(HOOKS)
def list_patient_appointments(g: Ground) -> Step:
    mine = P.appointments(g)
    if not mine:
        raise GroundingFailed("no_appointment")
    upcoming = [a for a in mine if R.is_active_upcoming(a)]
    by_status = {s: [a for a in mine if a["status"] == s] for s in R.STATUSES}
    kinds = []
    if upcoming:
        kinds += ["next", "next", "upcoming"]
    if by_status["completed"]:
        kinds.append("completed")
    if by_status["cancelled"]:
        kinds.append("cancelled")
    if by_status["pending_approval"]:
        kinds.append("pending")
    if not kinds:
        raise GroundingFailed("no_appointment_question")
    kind = g.rng.choice(kinds)
    args: dict[str, Any] = {"patient_id": g.user_id}
    if kind == "next":
        a = upcoming[0]
        text = g.rng.choice(["When is my next appointment, and with whom?", "What's my next appointment on CareLine?"])
        outputs, about = [a["date"], a["time"], R.provider_name(P.provider(g, a["provider_id"]))], upcoming
    elif kind == "upcoming":
        text = g.rng.choice(["Which appointments do I have coming up?", "Can I get a list of my upcoming appointments?"])
        outputs, about = ([a["date"] for a in upcoming] if len(upcoming) <= 3 else [str(len(upcoming))]), upcoming
    elif kind == "completed":
        args["status_filter"] = "completed"
        text = "How many visits have I completed on CareLine so far?"
        outputs, about = [str(len(by_status["completed"]))], by_status["completed"]
    elif kind == "cancelled":
        args["status_filter"] = "cancelled"
        text = "Which of my appointments were cancelled?"
        outputs, about = [a["appointment_id"] for a in by_status["cancelled"]], by_status["cancelled"]
    else:
        args["status_filter"] = "pending_approval"
        text = "Do I have any appointments still waiting for approval? When are they?"
        outputs, about = [a["date"] for a in by_status["pending_approval"]], by_status["pending_approval"]
    focus = [a for a in P.changeable(g) if a in about] or about
    appt = _pick_appt(g, focus, "no_appointment")
    return Step(args=args, ask=text, outputs=outputs,
                focus={"appointment": appt["appointment_id"], "provider": appt["provider_id"]})


# -- writes ----------------------------------------------------------------------------------------
def _appointment_type(g: Ground, prov: dict[str, Any]) -> str:
    if prov["specialty"] == R.PRIMARY_CARE:
        return g.rng.choice(["routine_checkup", "sick_visit", "follow_up"])
    if prov["specialty"] == "Pharmacy":
        return "consultation"
    return g.rng.choice(["specialist_consultation", "follow_up", "consultation"])


def _billing(g: Ground, prov: dict[str, Any]) -> tuple[dict[str, Any], float, list, list[str]]:
    """Extra arguments, amount due, facts and details of a billing choice the patient is eligible for."""
    patient = g.user
    plan = patient["insurance"]["primary"]
    appts = list(g.store.values("appointments"))
    free = [v for v in patient["vouchers"] if not R.voucher_in_use(appts, v)]
    aliases = P.ALIASES["billing"]
    if plan and (not free or g.rng.random() < 0.85) and g.rng.random() < 0.88:
        return {}, R.copay_for(patient, prov), [g.fact("billing", "bill my insurance", aliases)], \
            ["Please bill it to my insurance."]
    if free and (plan is None or g.rng.random() < 0.5):
        code = free[0]
        return {"bill_insurance": False, "voucher_id": code}, 0.0, \
            [g.fact("billing", "use my telehealth voucher", aliases),
             g.fact("voucher_code", code, ["voucher", "voucher code", "voucher number"])], \
            [f"I'd like to use my telehealth voucher {code} instead of insurance."]
    why = "I don't have insurance on file." if plan is None else "I'd rather not use my insurance for this one."
    return {"bill_insurance": False}, prov["consultation_fee"], [g.fact("billing", "self-pay", aliases)], \
        [f"{why} I'll pay the fee myself."]


@hook(HOOKS)
def schedule_appointment(g: Ground) -> Step:
    if P.active_count(g) >= R.MAX_ACTIVE_APPOINTMENTS:
        raise GroundingFailed("appointment_limit")
    fp = g.focus.get("provider")
    pid = fp or g.pick("provider", sorted(g.store.keys("providers")))
    prov = P.provider(g, pid)
    slots = P.free_slots(g, prov)
    if not slots:
        raise GroundingFailed("no_free_slot")
    date, time = g.rng.choice(slots)
    kind = _appointment_type(g, prov)
    extra, due, bill_facts, bill_details = _billing(g, prov)
    args = {"patient_id": g.user_id, "provider_id": pid, "date": date, "time": time, "appointment_type": kind, **extra}
    new = next_id(g.store, "appointments", "APPT", 3)
    _created(g).add(new)
    P.mark(g, "appointment", new)
    doc = P.doctor(prov)
    ask = g.rng.choice([f"I'd like to book a video appointment with {doc}.", f"Could I schedule a visit with {doc}?",
                        f"Please set up a telehealth appointment for me with {doc}."])
    facts = [P.provider_fact(g, prov), P.specialty_fact(g, prov["specialty"]),
             g.fact("appointment_date", date, ["appointment date", "date", "which day", "what day"]),
             g.fact("appointment_time", time, ["appointment time", "time", "what time", "which slot"]),
             g.fact("appointment_type", kind, ["appointment type", "type of appointment", "type of visit", "visit type",
                                               "kind of appointment", "reason for the visit"]), *bill_facts]
    details = [f"I'd like {date} at {time}.", f"It's {P.APPT_TYPE_WORDS[kind]} ({kind}).", *bill_details]
    return Step(args=args, ask=ask, details=details, facts=facts, outputs=[new, usd(due)],
                focus={"appointment": new, "provider": pid, "specialty": prov["specialty"]},
                uses={"provider": pid})


@hook(HOOKS)
def cancel_appointment(g: Ground) -> Step:
    appt = _pick_appt(g, P.changeable(g), "no_changeable_appointment")
    num = appt["appointment_id"]
    P.mark(g, "appointment", num)
    words = P.visit_words(g, appt)
    ask = g.rng.choice([f"Please cancel appointment {num}.", f"I need to cancel {words}.",
                        f"I can't make {words} anymore; please cancel it.", f"I want appointment {num} cancelled, please."])
    return Step(args={"appointment_id": num}, ask=ask, facts=[P.appt_fact(g, appt)],
                details=[f"It's {words}, appointment {num}."],
                focus={"appointment": num, "provider": appt["provider_id"]})


@hook(HOOKS)
def reschedule_appointment(g: Ground) -> Step:
    appt = _pick_appt(g, P.changeable(g), "no_changeable_appointment")
    prov = P.provider(g, appt["provider_id"])
    slots = [s for s in P.free_slots(g, prov, ignore=appt["appointment_id"]) if s != (appt["date"], appt["time"])]
    if not slots:
        raise GroundingFailed("no_free_slot")
    date, time = g.rng.choice(slots)
    num = appt["appointment_id"]
    P.mark(g, "appointment", num)
    words = P.visit_words(g, appt)
    ask = g.rng.choice([f"I need to move appointment {num} to {date} at {time}.",
                        f"Please reschedule {words} to {date} at {time}.",
                        f"Please change appointment {num} to {time} on {date}."])
    facts = [P.appt_fact(g, appt), g.fact("new_date", date, ["new date", "date", "which day", "what day"]),
             g.fact("new_time", time, ["new time", "time", "what time", "which slot"])]
    return Step(args={"appointment_id": num, "new_date": date, "new_time": time}, ask=ask, facts=facts,
                details=[f"It's {words}, appointment {num}.", f"The new slot I want is {date} at {time}."],
                focus={"appointment": num, "provider": prov["provider_id"]})
