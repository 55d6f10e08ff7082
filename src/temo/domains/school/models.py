"""Records of the school world: students, courses (one offering in one term) and registrations.

These pydantic models document the shape of every table in `data/db.json[.gz]`; a test validates
every record against them. Tools work on the plain JSON records, not on these classes.
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, Field

from .rules import GradingOption, StudyLevel, TermName, Weekday
from temo.domains.kit.records import (FourDigits, Name, RelatedContact as Contact, StreetAddress, Strict as _Strict,
                                      coded)

Time = str  # "HH:MM", 24 hours
Date = str  # "YYYY-MM-DD"


Address = StreetAddress


class CardInfo(_Strict):
    brand: str  # card brand, or the bank's name for a bank account
    last_four: FourDigits


class PaymentMethod(_Strict):
    source: Literal["credit_card", "debit_card", "bank_account"]
    payment_method_id: str
    extra_info: CardInfo


class Program(_Strict):
    school: str
    degree: Literal["BA", "BSc", "MA", "MSc", "MBA", "PhD", "Certificate"]
    major: str  # a department name
    minor: Optional[str] = None


class Student(_Strict):
    student_id: str = coded("S", 7)
    name: Name
    address: Address
    email: str
    dob: Date
    payment_methods: dict[str, PaymentMethod] = Field(min_length=1)
    saved_contacts: list[Contact] = Field(default_factory=list)
    program: Program
    membership: Literal["standard", "honors"]
    registrations: list[str] = Field(default_factory=list)


class Instructor(_Strict):
    first_name: str
    last_name: str
    email: str


class Location(_Strict):
    campus: str
    building: str
    room: str


class MeetingPattern(_Strict):
    days: list[Weekday] = Field(min_length=1)
    start_time: Time
    end_time: Time


class Meeting(_Strict):
    """One entry of a course's meeting log (past meetings, and changes already announced)."""

    status: Literal["held", "canceled", "rescheduled"]
    reason: Optional[str] = None
    new_date: Optional[Date] = None
    new_start_time: Optional[Time] = None
    new_end_time: Optional[Time] = None


class Course(_Strict):
    course_id: str = coded("C", 4)
    department: str
    course_code: str = Field(pattern=r"^[A-Z]{2,4}-\d{4}$")
    section: str
    title: str
    credits: int = Field(ge=1, le=5)
    term: TermName
    instructor: Instructor
    location: Location
    scheduled_first_meeting: Date
    scheduled_last_meeting: Date
    meeting_pattern: MeetingPattern
    dates: dict[Date, Meeting]
    capacity: int = Field(ge=1)
    waitlist_capacity: int = Field(ge=0)
    current_enrollment: int = Field(ge=0)
    current_waitlist: int = Field(ge=0)


class RegisteredCourse(_Strict):
    course_id: str
    course_code: str
    section: str
    title: str
    credits: int
    grading_option: GradingOption
    tuition: int = Field(ge=0)


class Payment(_Strict):
    payment_id: str
    amount: int  # dollars; negative for a refund


class FinancialAid(_Strict):
    scholarships: int = Field(ge=0)
    grants: int = Field(ge=0)
    loans: int = Field(ge=0)


class Registration(_Strict):
    registration_id: str = coded("REG", 4, or_more=True)
    student_id: str
    campus: str
    program: str
    study_level: StudyLevel
    term: TermName
    status: Literal["full-time", "part-time", "cancelled"]
    courses: list[RegisteredCourse]
    advisors: list[str]
    payment_history: list[Payment]
    created_at: Date
    total_credits: int = Field(ge=0)
    overload_credits: int = Field(ge=0)
    financial_aid: FinancialAid
    health_insurance: Literal["yes", "no"]


TABLE_MODELS: dict[str, type[BaseModel]] = {"students": Student, "courses": Course, "registrations": Registration}
KEY_FIELDS = {"students": "student_id", "courses": "course_id", "registrations": "registration_id"}
