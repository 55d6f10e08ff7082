"""Tools of Crestview University's registration desk: 9 read tools (7 domain + think, calculate) and 4 writes.

Same names and arguments as the released school toolkit. Hard rules (terms, add/drop windows,
capacity, time clashes, credit limits, grading eligibility, saved payment methods, exact payment
sums, balances) raise `ToolError`; confirmation and identity checks are the agent's job (policy.md).
Tools never read the clock: today is `rules.TODAY`. New registration ids are the next free number.
"""
from __future__ import annotations

from typing import Any, Literal, Optional

from temo.domains.kit.arguments import payment_part
from temo.domains.kit.dates import parse_date, parse_time
from temo.domains.kit.ids import next_id
from temo.domains.kit.lookup import require
from temo.domains.kit.tooling import record_reader
from temo.domains.kit.money import usd
from temo.env import Store, ToolError, tool
from temo.env.generic import calculate, think

from . import rules as R
from .rules import GradingOption, StudyLevel, TermName, Weekday


PaymentPart = payment_part("An amount charged to one of the student's saved payment methods.",
                           payment_id="Payment method id from the student's profile, such as 'credit_card_4821937'.",
                           amount="Whole dollars charged to this method.", amount_type=int)


# ---- helpers (not tools) -----------------------------------------------------------------------

def _student(db: Store, student_id: str) -> dict[str, Any]:
    return require(db, "students", student_id, "student")


def _course(db: Store, course_id: str) -> dict[str, Any]:
    course = db.get("courses", course_id)
    if course is None:
        hint = " (that is a course code, not an id: find the id with search_courses)" if "-" in course_id else ""
        raise ToolError(f"course {course_id!r} not found{hint}; course ids look like 'C1042'")
    return course


def _registration(db: Store, registration_id: str) -> dict[str, Any]:
    return require(db, "registrations", registration_id, "registration")


def view(reg: dict[str, Any]) -> dict[str, Any]:
    """A registration as the agent sees it: the record plus what it costs and what is still owed."""
    return {**reg, "summary": R.totals(reg)}


def _require_window(term: str, action: str) -> None:
    if not R.window_open(term):
        deadline = R.TERMS[term]["add_drop_deadline"]
        raise ToolError(f"the add/drop deadline of {term} was {deadline}; it has passed (today is {R.TODAY}), "
                        f"so a {term} registration can no longer be {action}")


def _require_active(reg: dict[str, Any]) -> None:
    if reg["status"] == "cancelled":
        raise ToolError(f"registration {reg['registration_id']} is cancelled and cannot be changed")


def _saved_method(student: dict[str, Any], payment_id: str) -> dict[str, Any]:
    method = student["payment_methods"].get(payment_id)
    if method is None:
        saved = ", ".join(sorted(student["payment_methods"]))
        raise ToolError(f"payment method {payment_id!r} is not saved for student {student['student_id']} (saved: {saved})")
    return method


def _seats_left(course: dict[str, Any]) -> int:
    return course["capacity"] - course["current_enrollment"]


def _check_new_courses(courses: list[dict[str, Any]], term: str) -> None:
    for course in courses:
        if course["term"] != term:
            raise ToolError(f"course {course['course_id']} ({course['course_code']}) is offered in {course['term']}, "
                            f"not in {term}; every course of a registration must be in its term")
        if _seats_left(course) <= 0:
            raise ToolError(f"course {course['course_id']} ({course['course_code']}) is full "
                            f"({course['current_enrollment']}/{course['capacity']}); it cannot be added")


def _check_schedule(courses: list[dict[str, Any]]) -> None:
    codes = [c["course_code"] for c in courses]
    dup = next((c for c in codes if codes.count(c) > 1), None)
    if dup:
        raise ToolError(f"course {dup} appears twice; a course can be taken only once per registration")
    pair = R.first_clash(courses)
    if pair:
        a, b = pair
        raise ToolError(f"time conflict: {a['course_code']} ({'/'.join(a['meeting_pattern']['days'])} "
                        f"{a['meeting_pattern']['start_time']}-{a['meeting_pattern']['end_time']}) overlaps "
                        f"{b['course_code']} ({'/'.join(b['meeting_pattern']['days'])} "
                        f"{b['meeting_pattern']['start_time']}-{b['meeting_pattern']['end_time']})")


def _check_grading(student: dict[str, Any], courses: list[dict[str, Any]], options: dict[str, str]) -> None:
    ids = {c["course_id"] for c in courses}
    for cid in sorted(options):
        if cid not in ids:
            raise ToolError(f"grading_options names course {cid}, which is not on the registration")
    for course in courses:
        opt = options.get(course["course_id"], "letter")
        if opt != "letter" and R.is_major_course(student, course):
            raise ToolError(f"{course['course_code']} is in the student's major ({course['department']}), "
                            "so it must be taken for a letter grade")


def _check_credits(student: dict[str, Any], term: str, credits: int) -> None:
    cap = R.credit_cap(student, term)
    if credits > cap:
        extra = "" if cap == R.HONORS_MAX_CREDITS else (
            f" (only honors students may go above {R.OVERLOAD_ABOVE}, up to {R.HONORS_MAX_CREDITS})" if term != "2025-SUMMER" else "")
        raise ToolError(f"{credits} credits is over the limit of {cap} credits for this student in {term}{extra}")


# ---- read tools --------------------------------------------------------------------------------

get_student_details = record_reader("get_student_details", "student_id", _student, "Get a student's profile: name, contact details, date of birth, program and membership, saved payment methods (with ids) and registration ids. Use it to identify the student first.", "The student id, such as 'S2345678'.")
get_course_details = record_reader("get_course_details", "course_id", _course, "Get one course offering: code, title, credits, term, instructor, location, meeting pattern, capacity, enrolment, waitlist and its meeting log.", "The course id, such as 'C1042' (not the course code).")
get_registration_details = record_reader("get_registration_details", "registration_id", lambda db, key: view(_registration(db, key)), "Get one registration: term, status, courses with grading option and tuition, credits, financial aid, health insurance, payment history, and a summary of the amount due, paid and still owed.", "The registration id, such as 'REG0421'.")


@tool(kind="read")
def list_departments(db: Store) -> list:
    """List the names of all academic departments that offer courses."""
    return sorted({c["department"] for c in db.values("courses")})


@tool(kind="read")
def list_courses_by_term(db: Store, term: TermName) -> list:
    """List every course offered in a term: course id, code and title.

    Args:
        term: The term, such as '2025-FALL'.
    """
    rows = [{"course_id": c["course_id"], "course_code": c["course_code"], "title": c["title"]}
            for c in db.values("courses") if c["term"] == term]
    return sorted(rows, key=lambda r: r["course_code"])


@tool(kind="read")
def search_courses(db: Store, term: TermName, department: Optional[str] = None, campus: Optional[str] = None,
                   day: Optional[Weekday] = None, start_after: Optional[str] = None, end_before: Optional[str] = None,
                   open_only: bool = False) -> list:
    """Search a term's courses by department, campus, weekday, time window and open seats. Returns id, code, title, department, credits, schedule, campus and seats left of each match.

    Args:
        term: The term, such as '2025-FALL'.
        department: Department name (such as 'Computer Science') or code (such as 'CS'); omit for all.
        campus: Campus name: 'Main', 'North' or 'Downtown'; omit for all.
        day: A weekday the course must meet on: 'Mon', 'Tue', 'Wed', 'Thu', 'Fri' or 'Sat'; omit for any.
        start_after: Earliest start time, HH:MM (24 hours), such as '10:00'; omit for any.
        end_before: Latest end time, HH:MM (24 hours), such as '17:00'; omit for any.
        open_only: True to list only courses with a free seat.
    """
    courses = [c for c in db.values("courses") if c["term"] == term]
    if department is not None:
        want = department.strip().lower()
        names = {c["department"].lower() for c in db.values("courses")}
        codes = {c["course_code"].split("-")[0].lower() for c in db.values("courses")}
        if want not in names and want not in codes:
            raise ToolError(f"no department {department!r}; use list_departments for the names")
        courses = [c for c in courses if want in (c["department"].lower(), c["course_code"].split("-")[0].lower())]
    if campus is not None:
        known = sorted({c["location"]["campus"] for c in db.values("courses")})
        if campus.strip().lower() not in [k.lower() for k in known]:
            raise ToolError(f"no campus {campus!r}; campuses are {', '.join(known)}")
        courses = [c for c in courses if c["location"]["campus"].lower() == campus.strip().lower()]
    if day is not None:
        courses = [c for c in courses if day in c["meeting_pattern"]["days"]]
    if start_after is not None:
        t = parse_time(start_after, "start_after").strftime("%H:%M")
        courses = [c for c in courses if c["meeting_pattern"]["start_time"] >= t]
    if end_before is not None:
        t = parse_time(end_before, "end_before").strftime("%H:%M")
        courses = [c for c in courses if c["meeting_pattern"]["end_time"] <= t]
    if open_only:
        courses = [c for c in courses if _seats_left(c) > 0]
    rows = [{"course_id": c["course_id"], "course_code": c["course_code"], "title": c["title"],
             "department": c["department"], "credits": c["credits"], "days": c["meeting_pattern"]["days"],
             "start_time": c["meeting_pattern"]["start_time"], "end_time": c["meeting_pattern"]["end_time"],
             "campus": c["location"]["campus"], "seats_left": max(0, _seats_left(c))} for c in courses]
    return sorted(rows, key=lambda r: r["course_code"])


@tool(kind="read")
def get_course_meeting_status(db: Store, course_id: str, date: str) -> dict:
    """Say whether a course's meeting on a date was held, canceled or rescheduled (with the new date and time), or is still scheduled.

    Args:
        course_id: The course id, such as 'C1042'.
        date: The meeting date, YYYY-MM-DD.
    """
    course = _course(db, course_id)
    day = parse_date(date, "date").isoformat()
    pattern = course["meeting_pattern"]
    out = {"course_id": course_id, "course_code": course["course_code"], "date": day,
           "start_time": pattern["start_time"], "end_time": pattern["end_time"]}
    if day in course["dates"]:
        return {**out, **course["dates"][day]}
    weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][parse_date(day).weekday()]
    inside = course["scheduled_first_meeting"] <= day <= course["scheduled_last_meeting"]
    if inside and weekday in pattern["days"] and day > R.TODAY:
        return {**out, "status": "scheduled"}
    raise ToolError(f"{course['course_code']} has no meeting on {day}: it meets {'/'.join(pattern['days'])} "
                    f"from {course['scheduled_first_meeting']} to {course['scheduled_last_meeting']}")


# ---- write tools -------------------------------------------------------------------------------

@tool(kind="write")
def register_courses(db: Store, student_id: str, term: TermName, course_ids: list[str], study_level: StudyLevel,
                     grading_options: Optional[dict[str, GradingOption]] = None,
                     health_insurance: Literal["yes", "no"] = "no", payment_methods: Optional[list[PaymentPart]] = None) -> dict:
    """Register a student for courses in one term. Checks the add/drop window, that every course is in the term, has a free seat and does not clash, the credit limit and grading rules; prices tuition by study level; the payments must add up exactly to the total due (tuition + health insurance fee).

    Args:
        student_id: The student id, such as 'S2345678'.
        term: The term, such as '2025-FALL'.
        course_ids: Ids of the courses to take, such as ['C1042', 'C1077'].
        study_level: 'undergraduate', 'graduate' or 'continuing_ed'; must match the student's program.
        grading_options: Course id -> 'letter', 'pass/fail' or 'audit' for courses not taken for a letter grade; omitted courses are letter-graded.
        health_insurance: 'yes' to add student health insurance (300 dollars), else 'no'.
        payment_methods: Payments from saved methods, [{'payment_id': ..., 'amount': ...}], adding up to the total due.
    """
    payment_methods = list(payment_methods or [])
    student = _student(db, student_id)
    _require_window(term, "created")
    level = R.level_of(student)
    if study_level != level:
        raise ToolError(f"the student's program ({student['program']['degree']} {student['program']['major']}) is "
                        f"{level}; study_level must be {level!r}")
    for rid in student["registrations"]:
        other = db.get("registrations", rid)
        if other["term"] == term and other["status"] != "cancelled":
            raise ToolError(f"the student already has an active {term} registration ({rid}); change it with "
                            "update_registration_courses instead")
    if not course_ids:
        raise ToolError("course_ids must name at least one course")
    courses = [_course(db, cid) for cid in course_ids]
    if len(set(course_ids)) != len(course_ids):
        raise ToolError("course_ids lists a course twice")
    _check_new_courses(courses, term)
    _check_schedule(courses)
    options = dict(grading_options or {})
    _check_grading(student, courses, options)
    reg: dict[str, Any] = {
        "registration_id": next_id(db, "registrations", "REG", 4), "student_id": student_id,
        "campus": "", "program": f"{student['program']['degree']} {student['program']['major']}",
        "study_level": level, "term": term, "status": "part-time",
        "courses": [R.course_line(c, level, options.get(c["course_id"], "letter")) for c in courses],
        "advisors": _advisors(db, student), "payment_history": [], "created_at": R.TODAY,
        "total_credits": 0, "overload_credits": 0, "financial_aid": {"scholarships": 0, "grants": 0, "loans": 0},
        "health_insurance": health_insurance,
    }
    campuses = [c["location"]["campus"] for c in courses]
    reg["campus"] = max(sorted(set(campuses)), key=lambda k: (campuses.count(k), k == "Main"))
    R.recount(reg)
    _check_credits(student, term, reg["total_credits"])
    due = R.totals(reg)["amount_due"]
    seen: list[str] = []
    for part in payment_methods:
        _saved_method(student, part["payment_id"])
        if part["amount"] <= 0:
            raise ToolError("every payment amount must be positive")
        if part["payment_id"] in seen:
            raise ToolError(f"payment method {part['payment_id']} is listed twice; give one amount per method")
        seen.append(part["payment_id"])
    paid = sum(p["amount"] for p in payment_methods)
    if paid != due:
        raise ToolError(f"the payments add up to {usd(paid)} but the total due is {usd(due)} "
                        f"(tuition {usd(due - R.totals(reg)['fees'])} + fees {usd(R.totals(reg)['fees'])}); "
                        "a new registration must be paid in full")
    reg["payment_history"] = [{"payment_id": p["payment_id"], "amount": p["amount"]} for p in payment_methods]
    db.insert("registrations", reg["registration_id"], reg)
    db.edit("students", student_id)["registrations"].append(reg["registration_id"])
    for cid in course_ids:
        db.edit("courses", cid)["current_enrollment"] += 1
    return view(reg)


def _advisors(db: Store, student: dict[str, Any]) -> list[str]:
    """The advisors of the student's latest registration (new students are assigned one later)."""
    for rid in reversed(student["registrations"]):
        reg = db.get("registrations", rid)
        if reg["advisors"]:
            return list(reg["advisors"])
    return []


@tool(kind="write")
def update_registration_courses(db: Store, registration_id: str, add_course_ids: list[str], drop_course_ids: list[str],
                                grading_options: Optional[dict[str, GradingOption]] = None, payment_id: str = "") -> dict:
    """Add, drop or regrade courses on an active registration before its term's add/drop deadline. Re-checks seats, clashes, the credit limit and grading rules. A higher amount due is charged to payment_id; a lower one is refunded to payment_id, which must then be a method already used on this registration. Leave payment_id empty when no money moves. Term, study level and health insurance cannot change.

    Args:
        registration_id: The registration id, such as 'REG0421'.
        add_course_ids: Ids of courses to add (may be empty).
        drop_course_ids: Ids of courses to drop (may be empty).
        grading_options: Course id -> 'letter', 'pass/fail' or 'audit', for courses whose grading changes (added courses default to letter).
        payment_id: Saved payment method to charge or refund the difference; empty when nothing is charged or refunded.
    """
    reg = _registration(db, registration_id)
    _require_active(reg)
    _require_window(reg["term"], "changed")
    student = _student(db, reg["student_id"])
    options = dict(grading_options or {})
    on_reg = [c["course_id"] for c in reg["courses"]]
    if len(set(add_course_ids)) != len(add_course_ids) or len(set(drop_course_ids)) != len(drop_course_ids):
        raise ToolError("a course is listed twice")
    for cid in drop_course_ids:
        if cid not in on_reg:
            raise ToolError(f"course {cid} is not on registration {registration_id}, so it cannot be dropped")
    for cid in add_course_ids:
        if cid in on_reg:
            raise ToolError(f"course {cid} is already on registration {registration_id}")
    added = [_course(db, cid) for cid in add_course_ids]
    _check_new_courses(added, reg["term"])
    keep = [c for c in reg["courses"] if c["course_id"] not in drop_course_ids]
    result = [_course(db, c["course_id"]) for c in keep] + added
    if not result:
        raise ToolError("this would drop every course; to withdraw from the term use cancel_registration")
    _check_schedule(result)
    current = {c["course_id"]: c["grading_option"] for c in keep}
    for cid in sorted(options):
        if cid in drop_course_ids:
            raise ToolError(f"grading_options names course {cid}, which is being dropped")
    regraded = [cid for cid, opt in sorted(options.items()) if cid in current and current[cid] != opt]
    final = {**current, **{c["course_id"]: "letter" for c in added}, **options}
    _check_grading(student, result, {k: v for k, v in final.items() if v != "letter"})
    if not add_course_ids and not drop_course_ids and not regraded:
        raise ToolError("nothing to change: no course added or dropped and no grading option changed")
    before = R.totals(reg)
    net = R.net_paid_by_method(reg)
    rec = db.edit("registrations", registration_id)
    rec["courses"] = [R.course_line(c, reg["study_level"], final[c["course_id"]]) for c in result]
    R.recount(rec)
    _check_credits(student, rec["term"], rec["total_credits"])
    after = R.totals(rec)
    charge = after["amount_due"] - before["amount_due"]
    refund = max(0, after["amount_paid"] - after["amount_due"]) if charge < 0 else 0
    if charge > 0:
        if not payment_id:
            raise ToolError(f"the amount due rises by {usd(charge)}; give payment_id, a saved method to charge")
        _saved_method(student, payment_id)
        rec["payment_history"].append({"payment_id": payment_id, "amount": charge})
    elif refund > 0:
        if not payment_id:
            raise ToolError(f"{usd(refund)} is to be refunded; give payment_id, one of the methods used on this "
                            f"registration ({', '.join(m for m, v in net.items() if v > 0)})")
        _saved_method(student, payment_id)
        if net.get(payment_id, 0) < refund:
            raise ToolError(f"only {usd(max(0, net.get(payment_id, 0)))} was paid with {payment_id} on this registration, "
                            f"less than the {usd(refund)} refund; choose a method that paid at least that much")
        rec["payment_history"].append({"payment_id": payment_id, "amount": -refund})
    elif payment_id:
        raise ToolError("no money is charged or refunded by this change; leave payment_id empty")
    for cid in drop_course_ids:
        db.edit("courses", cid)["current_enrollment"] -= 1
    for cid in add_course_ids:
        db.edit("courses", cid)["current_enrollment"] += 1
    return {**view(rec), "charged": max(0, charge), "refunded": refund}


@tool(kind="write")
def cancel_registration(db: Store, registration_id: str) -> dict:
    """Cancel a whole registration before its term's add/drop deadline: every course is dropped and every payment (tuition and fees) is refunded to the method it came from. The registration stays on record as cancelled.

    Args:
        registration_id: The registration id, such as 'REG0421'.
    """
    reg = _registration(db, registration_id)
    _require_active(reg)
    _require_window(reg["term"], "cancelled")
    rec = db.edit("registrations", registration_id)
    refunded = 0
    for method, amount in R.net_paid_by_method(reg).items():
        if amount > 0:
            rec["payment_history"].append({"payment_id": method, "amount": -amount})
            refunded += amount
    for line in reg["courses"]:
        db.edit("courses", line["course_id"])["current_enrollment"] -= 1
    rec["courses"] = []
    R.recount(rec)
    rec["status"] = "cancelled"
    return {**view(rec), "refunded": refunded}


@tool(kind="write")
def pay_registration(db: Store, registration_id: str, payment: PaymentPart) -> dict:
    """Pay all or part of a registration's outstanding balance with a saved payment method. The amount must be positive and at most the balance due.

    Args:
        registration_id: The registration id, such as 'REG0421'.
        payment: {'payment_id': saved method id, 'amount': whole dollars}.
    """
    reg = _registration(db, registration_id)
    _require_active(reg)
    student = _student(db, reg["student_id"])
    _saved_method(student, payment["payment_id"])
    balance = R.totals(reg)["balance_due"]
    if payment["amount"] <= 0:
        raise ToolError("the payment amount must be positive; refunds come only from course changes or a cancellation")
    if balance <= 0:
        raise ToolError(f"registration {registration_id} has nothing to pay (balance {usd(balance)})")
    if payment["amount"] > balance:
        raise ToolError(f"{usd(payment['amount'])} is more than the balance due of {usd(balance)}; pay at most the balance")
    rec = db.edit("registrations", registration_id)
    rec["payment_history"].append({"payment_id": payment["payment_id"], "amount": payment["amount"]})
    return view(rec)


READ_TOOLS = [get_student_details, get_course_details, get_registration_details, list_departments,
              list_courses_by_term, search_courses, get_course_meeting_status, think, calculate]
WRITE_TOOLS = [register_courses, update_registration_courses, cancel_registration, pay_registration]
TOOLS = [*READ_TOOLS, *WRITE_TOOLS]
AUTH_TOOLS = ["get_student_details"]
