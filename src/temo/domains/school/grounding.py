"""School grounding hooks for Tracer: one per node of the school graph.

Each hook picks, in the state as it is now, a registration, course or date the tool accepts (an
open term for registering and changing, a free seat without a clash under the credit limit, a
balance to pay, a method that paid enough to take a refund), fills the arguments and says what the
student asks for in their own words. Students know their student id, date of birth and email, the
terms, course codes and titles, and their cards by brand and last digits; never course,
registration or payment-method ids.
"""
from __future__ import annotations

from typing import Any

from temo.domains.kit.ids import next_id
from temo.domains.kit.money import usd
from temo.domains.kit.wording import and_join
from temo.env.grounding import Ground, Grounder, GroundingFailed, Step, hook

from . import picks as P
from . import rules as R
from .challenges import CHALLENGES
from .identity import authenticate, candidate_users, internal_ids, name_of, persona

HOOKS: dict = {}


def _uses(g: Ground, focus: dict[str, str]) -> dict[str, str]:
    """Entities for the even-spread report: a registration made in this attempt is not a real record."""
    return {k: v for k, v in focus.items() if k != "registration" or v in g.store.base.tables["registrations"]}


def _pick_reg(g: Ground, regs: list[dict[str, Any]], reason: str) -> dict[str, Any]:
    return g.pick("registration", regs, key=lambda r: r["registration_id"], reason=reason)


def _pick_course(g: Ground, cs: list[dict[str, Any]], reason: str) -> dict[str, Any]:
    return g.pick("course", sorted(cs, key=lambda c: c["course_id"]), key=lambda c: c["course_id"], reason=reason)


# -- read hooks -------------------------------------------------------------------------------------
@hook(HOOKS)
def get_registration_details(g: Ground) -> Step:
    regs = P.registrations(g, active=False)
    reg = _pick_reg(g, regs, "no_registration")
    term, t = reg["term"], R.totals(reg)
    tw = P.term_words(term)
    if reg["status"] == "cancelled":
        kind = "cancelled"
    else:
        kinds = ["credits", "status", "paid", "courses"] + (["balance"] * 3 if t["balance_due"] > 0 else [])
        kind = g.rng.choice(kinds)
    asks = {
        "cancelled": ([f"Is my {tw} registration still active?", f"What is the status of my registration for {tw}?"],
                      ["cancelled"]),
        "credits": ([f"How many credits am I taking in {tw}?", f"What's my credit total for {tw}?"],
                    [str(reg["total_credits"])]),
        "status": ([f"Am I registered full-time or part-time for {tw}?", f"Does my {tw} schedule count as full-time?"],
                   [reg["status"]]),
        "paid": ([f"How much have I paid so far for {tw}?", f"What is the total I've paid toward my {tw} registration?"],
                 [usd(t["amount_paid"])]),
        "courses": ([f"Which courses am I registered for in {tw}?", f"Could I get the list of my {tw} classes?"],
                    [c["course_code"] for c in reg["courses"]]),
        "balance": ([f"How much do I still owe for {tw}?", f"What's the outstanding balance on my {tw} registration?",
                     f"Is there anything left to pay for {tw}?"], [usd(t["balance_due"])]),
    }
    texts, outputs = asks[kind]
    return Step(args={"registration_id": reg["registration_id"]}, ask=g.rng.choice(texts), outputs=outputs,
                details=[f"It's about my registration for {tw} ({term})."], facts=[P.term_fact(g, term)],
                focus={"registration": reg["registration_id"], "term": term},
                uses=_uses(g, {"registration": reg["registration_id"], "term": term}))


@hook(HOOKS)
def list_departments(g: Ground) -> Step:
    n = len(g.run("list_departments", {}))
    ask = g.rng.choice(["How many academic departments offer courses?", "How many departments does the university have?",
                        "I'm curious how many different departments there are to take classes in."])
    return Step(args={}, ask=ask, outputs=[str(n)])


@hook(HOOKS)
def list_courses_by_term(g: Ground) -> Step:
    focus = g.focus.get("term")
    term = focus if focus in R.TERM_NAMES else g.pick("term", list(R.TERM_NAMES))
    n = len(P.courses_in(g, term))
    tw = P.term_words(term)
    ask = g.rng.choice([f"How many courses are offered in {tw}?", f"How many classes can I choose from for {tw}?",
                        f"What's the number of course offerings for {tw}?"])
    return Step(args={"term": term}, ask=ask, outputs=[str(n)], facts=[P.term_fact(g, term)], focus={"term": term})


def _search_term(g: Ground) -> str:
    focus = g.focus.get("term")
    return focus if focus in P.OPEN_TERMS else g.pick("term", P.OPEN_TERMS)


@hook(HOOKS)
def search_courses(g: Ground) -> Step:
    term = _search_term(g)
    reg = P.reg_for_term(g, term)
    mine = P.reg_courses(g, reg) if reg else []
    cands = [c for c in P.courses_in(g, term) if P.fits(c, mine)]
    target = _pick_course(g, cands, "no_open_course")
    pat, tw = target["meeting_pattern"], P.term_words(term)
    args: dict[str, Any] = {"term": term}
    facts, words, details = [P.term_fact(g, term)], [], []
    if g.rng.random() < 0.8:
        args["department"] = target["department"]
        facts.append(g.fact("department", target["department"], ["subject", "field of study"]))
    if g.rng.random() < 0.4:
        day = g.rng.choice(pat["days"])
        args["day"] = day
        facts.append(g.fact("day", R.DAY_NAMES[day], ["weekday", "which day"]))
        words.append(f"on {R.DAY_NAMES[day]}s")
    roll = g.rng.random()
    if roll < 0.25:
        args["start_after"] = pat["start_time"][:2] + ":00"
        facts.append(g.fact("earliest_start", args["start_after"], ["start after", "how early"]))
        words.append(f"starting at {args['start_after']} or later")
    elif roll < 0.45:
        hour = int(pat["end_time"][:2]) + (0 if pat["end_time"][3:] == "00" else 1)
        args["end_before"] = f"{hour:02d}:00"
        facts.append(g.fact("latest_end", args["end_before"], ["end before", "finish by"]))
        words.append(f"ending by {args['end_before']}")
    if len(args) == 1 or g.rng.random() < 0.15:
        args["campus"] = target["location"]["campus"]
        facts.append(g.fact("campus", args["campus"], ["which campus", "location"]))
        words.append(f"on the {args['campus']} campus")
    if g.rng.random() < 0.6:
        args["open_only"] = True
        words.append("that still have open seats")
        details.append("I only care about classes that still have room.")
    found = g.run("search_courses", args)
    subject = f"{args['department']} courses" if "department" in args else "courses"
    tail = (" " + " ".join(words)) if words else ""
    ask = g.rng.choice([f"Which {subject} are offered in {tw}{tail}?", f"Can I see the {subject} in {tw}{tail}?",
                        f"I'm looking for {subject} in {tw}{tail}. What is there?"])
    outputs = [r["course_code"] for r in found] if len(found) <= 3 else [str(len(found))]
    return Step(args=args, ask=ask, details=details, facts=facts, outputs=outputs,
                focus={"course": target["course_id"], "term": term})


@hook(HOOKS)
def get_course_details(g: Ground) -> Step:
    c = P.course(g, g.focus["course"]) if g.focus.get("course") else _course_to_look_up(g)
    tw, code = P.term_words(c["term"]), c["course_code"]
    kind = g.rng.choice(["instructor", "room", "seats", "schedule", "first"])
    if kind == "instructor":
        ask = g.rng.choice([f"Who teaches {code} in {tw}?", f"Which instructor has {code} for {tw}?"])
        outputs = [f"{c['instructor']['first_name']} {c['instructor']['last_name']}"]
    elif kind == "room":
        ask = g.rng.choice([f"Where does {code} meet in {tw}?", f"What building and room is {code} in for {tw}?"])
        outputs = [c["location"]["building"], c["location"]["room"]]
    elif kind == "seats":
        ask = g.rng.choice([f"How many seats are left in {code} for {tw}?", f"Is there still room in {code} in {tw}?"])
        outputs = [str(max(0, P.seats(c)))]
    elif kind == "schedule":
        ask = g.rng.choice([f"What days and times does {code} meet in {tw}?", f"When is {code} scheduled in {tw}?"])
        outputs = [P.day_words(c["meeting_pattern"]["days"]), c["meeting_pattern"]["start_time"], c["meeting_pattern"]["end_time"]]
    else:
        ask = g.rng.choice([f"When is the first class of {code} in {tw}?", f"What date does {code} start in {tw}?"])
        outputs = [c["scheduled_first_meeting"]]
    return Step(args={"course_id": c["course_id"]}, ask=ask, outputs=outputs,
                details=[P.course_detail(c)],
                facts=[P.course_fact(g, c), P.term_fact(g, c["term"])], focus={"course": c["course_id"], "term": c["term"]})


def _course_to_look_up(g: Ground) -> dict[str, Any]:
    """With no course in focus: one of the registration's in focus (else any of the student's), else one of
    an open term's."""
    reg = g.store.get("registrations", g.focus["registration"]) if g.focus.get("registration") else None
    mine = [x for r in ([reg] if reg else P.registrations(g)) for x in P.reg_courses(g, r)]
    return _pick_course(g, mine or P.courses_in(g, g.pick("term", P.OPEN_TERMS)), "no_course")


def _meeting_dates(c: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(dates with a notable log entry, plain dates: held in the past or scheduled in the future)."""
    from .generate import meeting_dates

    notable = [d for d, m in sorted(c["dates"].items()) if m["status"] != "held"]
    plain = [d for d, m in sorted(c["dates"].items()) if m["status"] == "held"]
    plain += [d for d in meeting_dates(c["term"], c["meeting_pattern"]["days"]) if d > R.TODAY and d not in c["dates"]]
    return notable, plain


@hook(HOOKS)
def get_course_meeting_status(g: Ground) -> Step:
    fc = g.focus.get("course")
    mine_ids = [line["course_id"] for r in P.registrations(g) for line in r["courses"]]
    if fc:
        c = P.course(g, fc)
    else:
        pool = [P.course(g, cid) for cid in mine_ids] or list(g.store.values("courses"))
        rich = [x for x in pool if _meeting_dates(x)[0]]
        c = _pick_course(g, rich or pool, "no_course")
    notable, plain = _meeting_dates(c)
    if not notable and not plain:
        raise GroundingFailed("no_meeting_date")
    day = g.rng.choice(notable if notable and (g.rng.random() < 0.65 or not plain) else plain)
    entry = c["dates"].get(day, {"status": "scheduled"})
    outputs = [entry["status"]] + ([entry["new_date"]] if entry["status"] == "rescheduled" else [])
    code = c["course_code"]
    whose = "my" if c["course_id"] in mine_ids else "the"
    if day > R.TODAY:
        ask = g.rng.choice([f"Is {whose} {code} class on {day} still happening?", f"Will {code} meet as usual on {day}?"])
    else:
        ask = g.rng.choice([f"Did {whose} {code} class on {day} actually take place?", f"Was {code} canceled on {day}?",
                            f"What happened with {whose} {code} meeting on {day}?"])
    return Step(args={"course_id": c["course_id"], "date": day}, ask=ask, outputs=outputs,
                details=[P.course_detail(c)],
                facts=[P.course_fact(g, c), P.term_fact(g, c["term"]),
                       g.fact("date_of_meeting", day, ["class date", "which date", "meeting date"])],
                focus={"course": c["course_id"], "term": c["term"]})


# -- write hooks ------------------------------------------------------------------------------------
@hook(HOOKS)
def register_courses(g: Ground) -> Step:
    terms = P.free_terms(g)
    if not terms:
        raise GroundingFailed("no_free_term")
    focus = g.focus.get("term")
    term = focus if focus in terms else g.pick("term", terms)
    student, level = g.user, R.level_of(g.user)
    cap = R.credit_cap(student, term)
    pool = [c for c in P.courses_in(g, term) if P.seats(c) > 0]
    g.rng.shuffle(pool)
    pool.sort(key=lambda c: c["course_id"] != g.focus.get("course"))
    want = g.rng.choice([1, 1, 2, 2, 3] if term == "2025-SUMMER" else [1, 2, 2, 3, 3, 4])
    chosen: list[dict[str, Any]] = []
    for c in pool:
        if len(chosen) >= want:
            break
        if P.fits(c, chosen) and sum(x["credits"] for x in chosen) + c["credits"] <= cap:
            chosen.append(c)
    if not chosen:
        raise GroundingFailed("no_open_course")
    options: dict[str, str] = {}
    free = [c for c in chosen if not R.is_major_course(student, c)]
    if free and g.rng.random() < 0.3:
        options[g.rng.choice(free)["course_id"]] = g.rng.choice(["pass/fail", "pass/fail", "audit"])
    insurance = "yes" if g.rng.random() < 0.4 else "no"
    total = sum(R.course_tuition(c, level, options.get(c["course_id"], "letter")) for c in chosen)
    total += R.INSURANCE_FEE if insurance == "yes" else 0
    methods = sorted(student["payment_methods"])
    tw = P.term_words(term)
    facts = [P.term_fact(g, term), g.fact("courses_to_register", P.codes(chosen), ["classes to take", "which courses"]),
             g.fact("study_level", level.replace("_", " "), ["level of study", "undergraduate or graduate"]),
             g.fact("health_insurance", insurance, ["student insurance", "health plan"])]
    details = [f"I want {and_join([P.course_words(c) for c in chosen])}.",
               "I'd like the student health insurance." if insurance == "yes" else "I don't need the student health insurance."]
    if options:
        (cid, opt), = options.items()
        picked = next(c for c in chosen if c["course_id"] == cid)
        details.append(f"I want to take {picked['course_code']} {option_phrase(opt)}; everything else for a letter grade.")
        facts.append(g.fact("grading_choice", f"{picked['course_code']} {opt}", ["pass/fail or audit", "grading preference"]))
    if len(methods) > 1 and total >= 1000 and g.rng.random() < 0.35:
        a, b = g.rng.sample(methods, 2)
        first = max(100, round(total * g.rng.uniform(0.3, 0.7) / 100) * 100)
        pay = [{"payment_id": a, "amount": first}, {"payment_id": b, "amount": total - first}]
        split = f"{usd(first)} on {P.method_words(g, a)} and the rest on {P.method_words(g, b)}"
        details.append(f"I'd like to split it: {split}.")
        facts.append(g.fact("payment_split", split, ["split the payment", "how to pay"]))
    else:
        pid = g.rng.choice(methods)
        pay = [{"payment_id": pid, "amount": total}]
        details.append(f"Please charge the full amount to {P.method_words(g, pid)}.")
        facts.append(P.method_fact(g, pid))
    args: dict[str, Any] = {"student_id": g.user_id, "term": term, "course_ids": [c["course_id"] for c in chosen],
                            "study_level": level}
    if options:
        args["grading_options"] = options
    args.update({"health_insurance": insurance, "payment_methods": pay})
    rid = next_id(g.store, "registrations", "REG", 4)
    P.mark(g, "registration", rid)
    for c in chosen:
        P.touched(g, rid).add(c["course_id"])
    ask = g.rng.choice([f"I'd like to register for classes in {tw}.", f"I want to sign up for my {tw} courses.",
                        f"Please enroll me in a few courses for {tw}."])
    return Step(args=args, ask=ask, details=details, facts=facts, outputs=[usd(total)],
                focus={"registration": rid, "term": term}, uses={"course": chosen[0]["course_id"], "term": term})


def option_phrase(opt: str) -> str:
    return {"pass/fail": "pass/fail", "audit": "as an audit only", "letter": "for a letter grade"}[opt]


def _update_ops(g: Ground, reg: dict[str, Any]) -> list[tuple[str, list, list, dict]]:
    """Feasible (kind, add, drop, regrade) changes for an open registration, focus course first."""
    student, rid, term = g.user, reg["registration_id"], reg["term"]
    busy = P.touched(g, rid)
    mine = P.reg_courses(g, reg)
    lines = {line["course_id"]: line for line in reg["courses"]}
    addable = sorted([c for c in P.courses_in(g, term) if c["course_id"] not in lines and P.fits(c, mine)],
                     key=lambda c: c["course_id"])
    droppable = [c for c in mine if c["course_id"] not in busy] if len(mine) > 1 else []
    regradable = [c for c in mine if c["course_id"] not in busy and not R.is_major_course(student, c)]
    fc = g.focus.get("course")
    ops: list[tuple[str, list, list, dict]] = []
    for c in addable:
        if c["course_id"] == fc:
            ops.append(("add", [c], [], {}))
    for c in droppable:
        if c["course_id"] == fc:
            ops.append(("drop", [], [c], {}))
    if ops:
        return ops
    if addable:
        ops.append(("add", [g.rng.choice(addable)], [], {}))
    if droppable:
        ops.append(("drop", [], [g.rng.choice(droppable)], {}))
    if droppable and addable:
        out = g.rng.choice(droppable)
        rest = [c for c in mine if c is not out]
        swaps = [c for c in sorted(P.courses_in(g, term), key=lambda c: c["course_id"])
                 if c["course_id"] not in lines and P.fits(c, rest)]
        if swaps:
            ops.append(("swap", [g.rng.choice(swaps)], [out], {}))
    if regradable:
        c = g.rng.choice(regradable)
        now = lines[c["course_id"]]["grading_option"]
        ops.append(("regrade", [], [], {c["course_id"]: g.rng.choice([o for o in ("letter", "pass/fail", "audit") if o != now])}))
    g.rng.shuffle(ops)
    return ops


@hook(HOOKS)
def update_registration_courses(g: Ground) -> Step:
    regs = [r for r in P.registrations(g, open_only=True)]
    fc = g.focus.get("course")
    if fc and not g.focus.get("registration"):
        same = [r for r in regs if r["term"] == P.course(g, fc)["term"]]
        regs = same or regs
    reg = _pick_reg(g, regs, "no_open_registration")
    student, level, rid = g.user, reg["study_level"], reg["registration_id"]
    cap = R.credit_cap(student, reg["term"])
    for kind, add, drop, regrade in _update_ops(g, reg):
        lines = [dict(line, grading_option=regrade.get(line["course_id"], line["grading_option"]))
                 for line in reg["courses"] if line["course_id"] not in {c["course_id"] for c in drop}]
        lines = [dict(line, tuition=R.course_tuition(P.course(g, line["course_id"]), level, line["grading_option"])) for line in lines]
        lines += [R.course_line(c, level, "letter") for c in add]
        if P.credits_of(lines) > cap:
            continue
        money = P.preview(reg, lines)
        net = R.net_paid_by_method(reg)
        pid, pay_fact, pay_detail = "", None, ""
        if money["charge"]:
            pid = g.rng.choice(sorted(student["payment_methods"]))
            pay_fact, pay_detail = P.method_fact(g, pid), f"Any extra charge can go on {P.method_words(g, pid)}."
        elif money["refund"]:
            ok = [m for m, v in net.items() if v >= money["refund"] and m in student["payment_methods"]]
            if not ok:
                continue
            pid = g.rng.choice(ok)
            pay_fact = P.method_fact(g, pid, "refund_destination")
            pay_detail = f"Please send any refund back to {P.method_words(g, pid)}."
        break
    else:
        raise GroundingFailed("no_update_possible")
    tw = P.term_words(reg["term"])
    facts = [P.term_fact(g, reg["term"])]
    details = []
    if kind in ("add", "swap"):
        facts.append(g.fact("course_to_add", add[0]["course_code"], ["which course to add", "new course"]))
        details.append(f"The course to add is {P.course_words(add[0])}.")
    if kind in ("drop", "swap"):
        facts.append(g.fact("course_to_drop", drop[0]["course_code"], ["which course to drop"]))
        details.append(f"The course to drop is {P.course_words(drop[0])}.")
    if kind == "regrade":
        (cid, opt), = regrade.items()
        c = P.course(g, cid)
        facts += [P.course_fact(g, c), g.fact("new_grading_option", opt, ["grading change", "switch the grading to"])]
        details.append(f"I want {c['course_code']} switched to {P.option_words(opt)}.")
    if pay_fact:
        facts.append(pay_fact)
        details.append(pay_detail)
    asks = {
        "add": [f"I'd like to add {add[0]['course_code'] if add else ''} to my {tw} schedule.", f"Can I pick up another class for {tw}?"],
        "drop": [f"I need to drop {drop[0]['course_code'] if drop else ''} from my {tw} courses.", f"Please take one course off my {tw} registration."],
        "swap": [f"I want to swap one of my {tw} classes for a different one.",
                 f"Could I replace {drop[0]['course_code'] if drop else ''} with another course in {tw}?"],
        "regrade": [f"I'd like to change how one of my {tw} courses is graded.", f"Can I change the grading option on a {tw} class?"],
    }
    for c in [*add, *drop]:
        P.touched(g, rid).add(c["course_id"])
    for cid in regrade:
        P.touched(g, rid).add(cid)
    P.mark(g, "registration", rid)
    args = {"registration_id": rid, "add_course_ids": [c["course_id"] for c in add],
            "drop_course_ids": [c["course_id"] for c in drop]}
    if regrade:
        args["grading_options"] = dict(regrade)
    args["payment_id"] = pid
    amount = money["charge"] or money["refund"]
    outputs = [usd(amount)] if amount else [str(money["credits"])]
    return Step(args=args, ask=g.rng.choice(asks[kind]), details=details, facts=facts, outputs=outputs,
                focus={"registration": rid, "term": reg["term"]},
                uses=_uses(g, {"registration": rid, **({"course": add[0]["course_id"]} if add else {})}))


@hook(HOOKS)
def cancel_registration(g: Ground) -> Step:
    used = g.used.get("registration", set())
    regs = [r for r in P.registrations(g, open_only=True) if r["registration_id"] not in used]
    reg = _pick_reg(g, regs, "no_cancellable_registration")
    refund = sum(v for v in R.net_paid_by_method(reg).values() if v > 0)
    P.mark(g, "registration", reg["registration_id"])
    tw = P.term_words(reg["term"])
    ask = g.rng.choice([f"I need to cancel my whole {tw} registration.", f"I'm not going to attend in {tw}; please cancel my registration.",
                        f"Please withdraw me from all my {tw} courses and refund what I paid."])
    return Step(args={"registration_id": reg["registration_id"]}, ask=ask, outputs=[usd(refund)],
                details=[f"It's the registration for {tw} ({reg['term']}), all of it."], facts=[P.term_fact(g, reg["term"])],
                focus={"registration": reg["registration_id"], "term": reg["term"]})


@hook(HOOKS)
def pay_registration(g: Ground) -> Step:
    regs = [r for r in P.registrations(g) if R.totals(r)["balance_due"] > 0]
    reg = _pick_reg(g, regs, "no_balance_due")
    balance = R.totals(reg)["balance_due"]
    pid = g.rng.choice(sorted(g.user["payment_methods"]))
    tw = P.term_words(reg["term"])
    facts = [P.term_fact(g, reg["term"]), P.method_fact(g, pid)]
    partial = balance >= 200 and g.rng.random() < 0.4
    if partial:
        amount = max(50, min(balance - 50, round(balance * g.rng.uniform(0.25, 0.75) / 50) * 50))
        facts.append(g.fact("payment_amount", usd(amount), ["amount to pay", "how much"]))
        ask = g.rng.choice([f"I want to make a payment of {usd(amount)} toward my {tw} balance.",
                            f"Can I pay {usd(amount)} of what I owe for {tw} today?"])
        outputs = [usd(balance - amount)]
    else:
        amount = balance
        ask = g.rng.choice([f"I'd like to pay off the rest of what I owe for {tw}.", f"Please settle my whole {tw} balance.",
                            f"I want to clear my outstanding balance for {tw}."])
        outputs = [usd(balance)]
    P.mark(g, "paid", reg["registration_id"])
    return Step(args={"registration_id": reg["registration_id"], "payment": {"payment_id": pid, "amount": amount}},
                ask=ask, details=[f"I'll pay with {P.method_words(g, pid)}."], facts=facts, outputs=outputs,
                focus={"registration": reg["registration_id"], "term": reg["term"]},
                uses=_uses(g, {"registration": reg["registration_id"], "term": reg["term"]}))


GROUNDER = Grounder(
    user_table="students", hooks=HOOKS, authenticate=authenticate, candidate_users=candidate_users,
    persona=persona, name_of=name_of, challenges=CHALLENGES, internal_ids=internal_ids,
    context=f"the registration help desk of {R.UNIVERSITY}", test_share=1.0,
)
