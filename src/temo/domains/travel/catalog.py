"""Static vocabulary the travel generator draws from: places, agencies, hotels, add-ons, activities.

The words live in ``data/catalog.json`` (one key per table, lower-case names of the constants below);
rows the generator unpacks or compares as tuples come back as tuples, so the databases are the same
as when these tables were Python literals.
"""
from __future__ import annotations

from typing import Optional

from temo.domains.kit.vocabulary import tuples, vocabulary

_CATALOG = vocabulary(__file__, "catalog.json")

# region -> [(city, country)]
PLACES: dict[str, list[tuple[str, str]]] = {region: tuples(rows) for region, rows in _CATALOG["places"].items()}
# categories that suit each region (weights come from repetition)
REGION_CATEGORIES: dict[str, list[str]] = _CATALOG["region_categories"]
REGION_WEIGHTS: dict[str, int] = _CATALOG["region_weights"]
GATEWAYS: list[str] = _CATALOG["gateways"]
NAME_NOUNS: dict[str, list[str]] = _CATALOG["name_nouns"]
NAME_PREFIXES: list[str] = _CATALOG["name_prefixes"]
BASE_PRICE: dict[str, tuple[int, int]] = {cat: tuple(lo_hi) for cat, lo_hi in _CATALOG["base_price"].items()}
ROOM_SETS: dict[str, list[str]] = _CATALOG["room_sets"]
ACCOMMODATION_TYPES: dict[str, str] = _CATALOG["accommodation_types"]
HOTEL_WORDS: list[str] = _CATALOG["hotel_words"]
# category -> [(type, description, low, high)]
CATEGORY_ADD_ONS: dict[str, list[tuple[str, str, int, int]]] = {
    cat: tuples(rows) for cat, rows in _CATALOG["category_add_ons"].items()}
COMMON_ADD_ONS: list[tuple[str, str, int, int]] = tuples(_CATALOG["common_add_ons"])
ACTIVITIES: dict[str, list[str]] = _CATALOG["activities"]
TRANSPORT: dict[str, list[str]] = _CATALOG["transport"]
INCLUSIONS: list[str] = _CATALOG["inclusions"]
EXCLUSIONS: list[str] = _CATALOG["exclusions"]
PACKAGE_NOTES: list[Optional[str]] = _CATALOG["package_notes"]
# (name, city, state, zip, time zone)
AGENCIES: list[tuple[str, str, str, str, str]] = tuples(_CATALOG["agencies"])
LANGUAGES: list[str] = _CATALOG["languages"]
CERTIFICATIONS: list[str] = _CATALOG["certifications"]
AGENT_NOTES: list[Optional[str]] = _CATALOG["agent_notes"]
MEMBERSHIPS: list[str] = _CATALOG["memberships"]
DIETARY: list[Optional[str]] = _CATALOG["dietary"]
ACCESSIBILITY: list[Optional[str]] = _CATALOG["accessibility"]
BED_PREFERENCES: list[Optional[str]] = _CATALOG["bed_preferences"]
OTHER_PREFERENCES: list[Optional[str]] = _CATALOG["other_preferences"]
NATIONALITIES: list[str] = _CATALOG["nationalities"]
BOOKING_NOTES: list[Optional[str]] = _CATALOG["booking_notes"]
