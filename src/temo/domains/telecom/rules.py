"""Fixed constants and small rule helpers shared by the telecom tools, generator and grounding.

The desk never reads the clock: "today" is the constant ``TODAY``, stated in policy.md.
"""
from __future__ import annotations

import datetime as _dt
from typing import Any

from temo.domains.kit.dates import parse_date
from temo.domains.kit.money import money

TODAY = "2025-10-01"
TAX_RATE = 0.085            # taxes and fees, as a share of the service charges
TAXES_KEY = "taxes_fees"    # the one monthly_charges line that is not a service
SENIOR_AGE = 65
SENIOR_DISCOUNT = 5.00      # dollars off a service's monthly price
CYCLE_MONTHS = {"monthly": 1, "quarterly": 3, "annual": 12}
TICKET_CATEGORIES = ("mobile", "internet", "tv", "billing", "account", "device", "security", "phone")
PRIORITIES = ("low", "medium", "high", "urgent")
ISSUES = ("no_service", "slow_speeds", "battery_drain")
# which device category a service of each category carries
DEVICE_CATEGORY = {"mobile": "mobile_phone", "internet": "networking", "tv": "tv", "phone": "phone",
                   "security": "security"}
SERVICE_CATEGORY = {v: k for k, v in DEVICE_CATEGORY.items()}

# Troubleshooting guides, written for this project: (device category, issue) -> steps.
# Combinations without a guide (a router's battery, say) are refused by the tool.
_PHONE = {
    "no_service": ["Turn the phone off and on again.", "Check that airplane mode is off.",
                   "Move to a place with better coverage, ideally outdoors or near a window.",
                   "Reset the network settings.", "If there is still no service, open a support ticket."],
    "slow_speeds": ["Restart the phone.", "Compare this month's data usage with the plan's allowance.",
                    "Switch Wi-Fi off and on, or try mobile data alone.", "Reset the network settings.",
                    "If it stays slow, open a support ticket."],
    "battery_drain": ["Restart the phone.", "Lower the screen brightness.", "Close apps running in the background.",
                      "Turn on battery saver.", "If the battery still drains fast, open a support ticket."],
}
GUIDES: dict[tuple[str, str], list[str]] = {
    **{("mobile_phone", k): v for k, v in _PHONE.items()},
    ("networking", "no_service"): ["Unplug the router, wait 30 seconds and plug it back in.",
                                   "Check every cable between the wall socket and the router.",
                                   "Install any firmware update offered in the router's app.",
                                   "If the connection does not come back, open a support ticket."],
    ("networking", "slow_speeds"): ["Unplug the router, wait 30 seconds and plug it back in.",
                                    "Move the router to an open, central spot away from other electronics.",
                                    "Run a speed test from a computer connected by cable.",
                                    "If speeds stay below the plan, open a support ticket."],
    ("tv", "no_service"): ["Check that the TV is set to the right input.",
                           "Check the cable between the cable box and the TV.",
                           "Restart the cable box by unplugging it for a minute.",
                           "If the picture does not return, open a support ticket."],
    ("phone", "no_service"): ["Check that the network cable is plugged into the phone system.",
                              "Restart the phone system.", "Check that the office internet connection works.",
                              "If there is still no dial tone, open a support ticket."],
    ("security", "no_service"): ["Check that the base station has power and its status light is on.",
                                 "Restart the base station.", "Check that the home internet connection works.",
                                 "If the system stays offline, open a support ticket."],
}
# a short phrase from each guide that an agent reading the steps back will say (grounding outputs)
KEY_STEP = {
    ("mobile_phone", "no_service"): "airplane mode", ("mobile_phone", "slow_speeds"): "data usage",
    ("mobile_phone", "battery_drain"): "battery saver", ("networking", "no_service"): "30 seconds",
    ("networking", "slow_speeds"): "speed test", ("tv", "no_service"): "right input",
    ("phone", "no_service"): "network cable", ("security", "no_service"): "base station",
}


def age_on(date_of_birth: str, day: str = TODAY) -> int:
    born, on = parse_date(date_of_birth), parse_date(day)
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def is_senior(customer: dict[str, Any]) -> bool:
    return age_on(customer["demographics"]["date_of_birth"]) >= SENIOR_AGE


def add_months(day: str, n: int) -> str:
    """``day`` plus ``n`` calendar months (days of month above 28 are clamped to 28)."""
    d = parse_date(day)
    months = d.year * 12 + d.month - 1 + n
    return _dt.date(months // 12, months % 12 + 1, min(d.day, 28)).isoformat()


def service_subtotal(charges: dict[str, float]) -> float:
    return money(sum(v for k, v in charges.items() if k != TAXES_KEY))


def with_taxes(charges: dict[str, float]) -> dict[str, float]:
    """The service lines plus a recomputed taxes-and-fees line."""
    out = {k: v for k, v in charges.items() if k != TAXES_KEY}
    out[TAXES_KEY] = money(service_subtotal(out) * TAX_RATE)
    return out


def monthly_total(charges: dict[str, float]) -> float:
    return money(sum(charges.values()))


def digits(text: str) -> str:
    """The last ten digits of a phone number, whatever its formatting."""
    d = "".join(ch for ch in text if ch.isdigit())
    return d[-10:] if len(d) > 10 else d
