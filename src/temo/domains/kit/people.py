"""Seeded people for database generators: names, emails, phones, birth dates, addresses (from one
table of US cities with their states and zip prefixes).

Every function takes a ``random.Random`` so a generator stays deterministic for its seed.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Iterable

FIRST_NAMES = (
    "Aaliyah Aarav Abigail Adrian Aisha Alejandro Alex Amara Amelia Ana Andre Anika Aria Arjun Ava "
    "Beatriz Benjamin Bianca Caleb Camila Carlos Carmen Chen Chloe Daniel Dario David Deepa Diego Dmitri "
    "Elena Eli Elif Emma Ethan Eva Fatima Felix Fernando Freya Gabriel Grace Hana Hannah Harper Hassan "
    "Ibrahim Imani Isabel Isaac Ivan Jamal James Jasmine Javier Jin Joao Jonah Julia Kai Kaito Keisha "
    "Kenji Lakshmi Laura Layla Leo Liam Lina Lucas Lucia Luis Maya Mateo Mei Mia Miguel Mohamed Nadia "
    "Naomi Nia Noah Nora Olivia Omar Oscar Priya Rafael Rahul Ravi Rosa Ruth Sakura Samuel Santiago Sara "
    "Sebastian Sofia Sophie Tariq Thea Tomas Valentina Victor Wei Yara Yusuf Zara Zoe"
).split()
LAST_NAMES = (
    "Abbott Adeyemi Agarwal Ahmed Alvarez Andersen Bauer Becker Bennett Brooks Campbell Castillo Chen "
    "Clarke Cohen Costa Dang Davies Diaz Dubois Edwards Evans Fischer Flores Garcia Gomez Gonzalez Gupta "
    "Hansen Harris Hernandez Hoang Hughes Ibrahim Ito Jackson Jensen Johnson Kaur Kelly Khan Kim Kowalski "
    "Kumar Larsen Lee Lopez Martin Martinez Mehta Meyer Miller Mitchell Moreau Morris Mueller Murphy "
    "Nakamura Nguyen Novak Okafor Olsen Ortiz Park Patel Perez Petrov Phillips Ramirez Reyes Rivera "
    "Robinson Rossi Russo Sanchez Santos Schmidt Shah Silva Singh Smith Sokolov Suzuki Tanaka Taylor "
    "Thomas Thompson Torres Tran Turner Walker Wang Watson Weber Williams Wilson Wright Yamamoto Yilmaz "
    "Young Zhang"
).split()
US_CITIES: dict[str, tuple[str, str]] = {  # city -> (state, the first three digits of its zip codes)
    "Albuquerque": ("NM", "871"), "Atlanta": ("GA", "303"), "Austin": ("TX", "787"), "Baltimore": ("MD", "212"),
    "Boston": ("MA", "021"), "Charlotte": ("NC", "282"), "Chicago": ("IL", "606"), "Columbus": ("OH", "432"),
    "Dallas": ("TX", "752"), "Denver": ("CO", "802"), "Detroit": ("MI", "482"), "Fort Worth": ("TX", "761"),
    "Houston": ("TX", "770"), "Indianapolis": ("IN", "462"), "Jacksonville": ("FL", "322"),
    "Kansas City": ("MO", "641"), "Las Vegas": ("NV", "891"), "Los Angeles": ("CA", "900"),
    "Madison": ("WI", "537"), "Miami": ("FL", "331"), "Milwaukee": ("WI", "532"), "Minneapolis": ("MN", "554"),
    "Nashville": ("TN", "372"), "New York": ("NY", "100"), "Newark": ("NJ", "071"), "Omaha": ("NE", "681"),
    "Orlando": ("FL", "328"), "Philadelphia": ("PA", "191"), "Phoenix": ("AZ", "850"),
    "Pittsburgh": ("PA", "152"), "Portland": ("OR", "972"), "Raleigh": ("NC", "276"), "Richmond": ("VA", "232"),
    "Sacramento": ("CA", "958"), "Salt Lake City": ("UT", "841"), "San Diego": ("CA", "921"),
    "San Francisco": ("CA", "941"), "San Jose": ("CA", "951"), "Seattle": ("WA", "981"), "Tucson": ("AZ", "857"),
}


def cities(names: str) -> list[tuple[str, str, str]]:
    """``(city, state, zip prefix)`` rows for the cities named in ``names`` (comma-separated), in that
    order: a generator draws from the rows, so the order is part of its seed's output."""
    return [(name, *US_CITIES[name]) for name in (n.strip() for n in names.split(","))]


CITIES = cities(
    "Austin, Boston, Chicago, Denver, Seattle, Portland, Phoenix, Atlanta, Miami, Nashville, Columbus, Charlotte, "
    "San Diego, San Jose, Philadelphia, Houston, Minneapolis, Detroit, Baltimore, Raleigh, Salt Lake City, "
    "Kansas City, Pittsburgh, Sacramento, Milwaukee, Albuquerque, Tucson, Omaha, Richmond, Madison"
)
STREETS = (
    "Maple Oak Pine Cedar Elm Willow Birch Walnut Chestnut Spruce Lakeview Hillcrest Park Main River "
    "Sunset Highland Meadow Forest Ridge Church Mill Spring Valley Washington Lincoln Jefferson Madison "
    "Franklin Adams Grant"
).split()
STREET_KINDS = ["Street", "Avenue", "Road", "Lane", "Drive", "Court", "Boulevard", "Way", "Place"]
EMAIL_DOMAINS = ["example.com", "example.org", "example.net", "mail.example.com"]
PERSONAS = [
    "a nurse who works night shifts", "a graduate student on a tight budget", "a small-business owner",
    "a retired teacher who is careful with every detail", "a parent juggling work and two children",
    "a software developer who likes things done precisely", "a keen hiker who is rarely at home",
    "a freelance designer working from home", "a college athlete between training sessions",
    "someone who has just moved to a new city", "a restaurant cook on a short break",
    "a first-time customer", "a long-time customer who knows how things usually work",
    "a busy lawyer between meetings", "a musician who travels for shows", "a pharmacist on a lunch break",
    "a warehouse supervisor on an early shift", "a caregiver looking after an elderly parent",
    "a high-school coach", "a delivery driver between routes", "an accountant in the middle of tax season",
    "a researcher who is abroad for a conference", "a new parent who is short on sleep",
    "a volunteer firefighter", "a farmer who rarely has time for phone calls",
]


def full_name(rng: random.Random) -> tuple[str, str]:
    return rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)


def unique_names(rng: random.Random, n: int) -> list[tuple[str, str]]:
    """``n`` distinct (first, last) pairs."""
    seen: set[tuple[str, str]] = set()
    out: list[tuple[str, str]] = []
    while len(out) < n:
        pair = full_name(rng)
        if pair not in seen:
            seen.add(pair)
            out.append(pair)
    return out


def email(first: str, last: str, n: int, rng: random.Random) -> str:
    """A unique-looking address; ``n`` (for example the row number) keeps it unique."""
    return f"{first.lower()}.{last.lower()}{n}@{rng.choice(EMAIL_DOMAINS)}"


def phone(rng: random.Random) -> str:
    return f"{rng.randint(201, 989)}-555-{rng.randint(0, 9999):04d}"


def birth_date(rng: random.Random, lo_year: int = 1945, hi_year: int = 2004) -> str:
    return f"{rng.randint(lo_year, hi_year)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def address(rng: random.Random) -> dict[str, str]:
    city, state, prefix = rng.choice(CITIES)
    line2 = rng.choice(["", "", f"Apt {rng.randint(1, 999)}", f"Suite {rng.randint(100, 999)}", f"Unit {rng.randint(1, 60)}"])
    return {
        "address1": f"{rng.randint(10, 9999)} {rng.choice(STREETS)} {rng.choice(STREET_KINDS)}",
        "address2": line2,
        "city": city,
        "state": state,
        "country": "USA",
        "zip": f"{prefix}{rng.randint(0, 99):02d}",
    }


def persona_of(extra: Iterable[str] = ()) -> Callable[[Any], str]:
    """A Grounder ``persona``: one of the shared personas or a domain's own ``extra``, drawn with the
    grounding's seeded rng."""
    pool = [*PERSONAS, *extra]
    return lambda g: g.rng.choice(pool)


def name_of(g: Any) -> str:
    """A Grounder ``name_of`` for user records with ``name: {first_name, last_name}``."""
    n = g.user["name"]
    return f"{n['first_name']} {n['last_name']}"
