"""Tools of the restaurant's guest-service desk: 9 read tools (6 domain + 3 generic) and 6 write tools.

Names and arguments follow the released restaurant toolkit. The rules the tools enforce (see
policy.md and README.md): only `placed` tickets are cancelled or changed; drop-off changes only for
delivery tickets and within the same city; table changes only for dine-in tickets, to a table of the
named zone and within its seat limit; plate swaps stay within a dish, to a different plate served
today; money only moves through the ticket owner's saved instruments; tips go on tickets that are not
cancelled, within 14 days of the ticket's date, and at most half of the food subtotal in all.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Literal

from temo.domains.kit.dates import days_between
from temo.domains.kit.lookup import fetcher, find_one_by, require, require_id
from temo.domains.kit.tooling import record_finder, record_reader, replace_field
from temo.domains.kit.money import money, usd
from temo.env import GENERIC_TOOLS, Store, ToolError, tool

from .rules import (TIP_CAP_SHARE, TIP_WINDOW_DAYS, TODAY, ZONES, food_net, line_label, net_paid, ticket_amounts,
                    tip_room, zone_of_table)

Reason = Literal["no longer needed", "ordered by mistake", "change of plans"]
ZoneName = Literal["main hall", "patio", "bar", "window", "private room"]
_POSTAL = re.compile(r"^\d{5}$")

# ------------------------------------------------------------------------------------------
# helpers (not tools)
# ------------------------------------------------------------------------------------------


def _ticket(db: Store, ticket_ref: str) -> dict[str, Any]:
    return require_id(db, "tickets", ticket_ref, prefix="TCKT-", looks_like="ticket refs look like 'TCKT-00001'",
                      missing="ticket {key} not found{hint}; check the reference with the patron")


def _placed(ticket: dict[str, Any], action: str) -> None:
    if ticket["state"] != "placed":
        raise ToolError(f"ticket {ticket['ticket_ref']} is '{ticket['state']}'; only tickets in state 'placed' can be "
                        f"{action} (preparation has started or the ticket is closed)")


def _instrument(db: Store, ticket: dict[str, Any], instrument_ref: str) -> dict[str, Any]:
    patron = require(db, "patrons", ticket["guest_ref"], "patron")
    inst = patron["saved_instruments"].get(instrument_ref)
    if inst is None:
        raise ToolError(f"instrument {instrument_ref} is not saved on the account of the ticket's patron; "
                        "use one of the instrument refs listed in the patron's details")
    return inst


def _menu_plate(db: Store, plate_ref: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(dish, plate) for a plate ref, or a ToolError."""
    for dish in db.values("menu_items"):
        plate = dish["selections"].get(plate_ref)
        if plate is not None:
            return dish, plate
    raise ToolError(f"plate {plate_ref} is not on the menu; plate refs are listed in get_dish_details")


def _text(name: str, value: str, required: bool = True) -> str:
    value = value.strip()
    if required and not value:
        raise ToolError(f"{name} must not be empty")
    return value


# ------------------------------------------------------------------------------------------
# read tools
# ------------------------------------------------------------------------------------------


find_patron_ref_by_email = record_finder("find_patron_ref_by_email", "email", "patrons", "contact_email", "Find a patron's guest_ref from their contact e-mail. Use it to authenticate the patron.", "The patron's contact e-mail, such as 'maya.chen12@example.com'.", what="patron")


@tool(kind="read")
def find_patron_ref_by_name_zip(db: Store, given: str, family: str, postal_code: str) -> str:
    """Find a patron's guest_ref from their given name, family name and the postal code of their home address. Use it to authenticate the patron when they cannot give an e-mail.

    Args:
        given: The given (first) name, such as 'Maya'.
        family: The family (last) name, such as 'Chen'.
        postal_code: The postal code of the patron's home address, such as '78701'.
    """
    ref, _ = find_one_by(db, "patrons", "patron", identity__given=given.strip(), identity__family=family.strip(),
                         location__postal_code=postal_code.strip())
    return ref


get_patron_details = record_reader("get_patron_details", "guest_ref", fetcher("patrons", "patron"), "Get a patron's profile: name, home address, contact e-mail, saved payment instruments and the refs of their tickets.", "The patron's reference, such as 'GUEST-0001'.")
get_ticket_details = record_reader("get_ticket_details", "ticket_ref", _ticket, "Get a service ticket: owner, date, state, service mode, drop-off address or table, lines (dish, plate, cost), subtotal, tax, delivery fee and the charges (payments, tips, refunds).", "The ticket reference, such as 'TCKT-00001'.")
get_dish_details = record_reader("get_dish_details", "dish_ref", fetcher("menu_items", "dish"), "Get a dish of the menu with all its plates: plate_ref, modifiers (spice level, portion, protein, preparation), cost and whether it is served today.", "The dish reference, such as 'DISH-0001'. Find it with list_all_dishes.")


@tool(kind="read")
def list_all_dishes(db: Store) -> dict:
    """List every dish on the menu as a map from its title to its dish_ref, sorted by title."""
    return {d["title"]: d["dish_ref"] for d in sorted(db.values("menu_items"), key=lambda d: d["title"])}


# ------------------------------------------------------------------------------------------
# write tools
# ------------------------------------------------------------------------------------------


@tool(kind="write")
def cancel_placed_ticket(db: Store, ticket_ref: str, reason: Reason) -> dict:
    """Cancel a ticket in state 'placed'. Everything paid on it (food payments and tips) is refunded to the instrument it came from.

    Args:
        ticket_ref: The ticket reference, such as 'TCKT-00001'.
        reason: Why the patron cancels: 'no longer needed', 'ordered by mistake' or 'change of plans'.
    """
    ticket = _ticket(db, ticket_ref)
    _placed(ticket, "cancelled")
    refunds = net_paid(ticket)
    rec = db.edit("tickets", ticket_ref)
    for ref, amount in sorted(refunds.items()):
        rec["charges"].append({"kind": "refund", "total": amount, "instrument_ref": ref})
    rec["state"] = "cancelled"
    rec["cancel_reason"] = reason
    return {"ticket": rec, "refund_total": money(sum(refunds.values()))}


@tool(kind="write")
def modify_placed_ticket_dropoff(db: Store, ticket_ref: str, line_one: str, line_two: str, municipality: str,
                                 province: str, nation: str, postal_code: str) -> dict:
    """Change the drop-off address of a placed delivery ticket. The kitchen delivers only within its city, so the new address must be in the same municipality and province as the current one.

    Args:
        ticket_ref: The ticket reference, such as 'TCKT-00001'.
        line_one: First address line (house number and street).
        line_two: Second address line (apartment, suite or unit); an empty string if there is none.
        municipality: City, such as 'Austin'.
        province: State, such as 'TX'.
        nation: Country, such as 'USA'.
        postal_code: Five-digit postal code, such as '78701'.
    """
    ticket = _ticket(db, ticket_ref)
    _placed(ticket, "modified")
    if ticket["service_mode"] != "delivery":
        raise ToolError(f"ticket {ticket_ref} is a {ticket['service_mode']} ticket; only delivery tickets have a drop-off address")
    new = {"line_one": _text("line_one", line_one), "line_two": _text("line_two", line_two, required=False),
           "municipality": _text("municipality", municipality), "province": _text("province", province),
           "nation": _text("nation", nation), "postal_code": _text("postal_code", postal_code)}
    if not _POSTAL.match(new["postal_code"]):
        raise ToolError(f"postal_code {postal_code!r} must be five digits, such as '78701'")
    cur = ticket["dropoff"]
    if (new["municipality"].lower(), new["province"].lower()) != (cur["municipality"].lower(), cur["province"].lower()):
        raise ToolError(f"the kitchen of this ticket delivers only within {cur['municipality']}, {cur['province']}; "
                        "an address elsewhere cannot be served (the patron may cancel and order from another city)")
    new["municipality"], new["province"] = cur["municipality"], cur["province"]
    return replace_field(db, "tickets", ticket_ref, "dropoff", new, f"ticket {ticket_ref} is already going to this address")


@tool(kind="write")
def modify_placed_ticket_table(db: Store, ticket_ref: str, zone: ZoneName, table_no: str, seat_count: int) -> dict:
    """Move a placed dine-in ticket to another table or change its number of seats. The table must belong to the zone, and a zone's tables seat a limited number: main hall 8, patio 6, bar 2, window 4, private room 12.

    Args:
        ticket_ref: The ticket reference, such as 'TCKT-00001'.
        zone: Dining zone: 'main hall' (tables 1-30), 'patio' (31-44), 'bar' (45-52), 'window' (53-60) or 'private room' (61-64).
        table_no: Table number within the zone, such as '12'.
        seat_count: Number of seats to set at the table, at least 1.
    """
    ticket = _ticket(db, ticket_ref)
    _placed(ticket, "modified")
    if ticket["service_mode"] != "dine_in":
        raise ToolError(f"ticket {ticket_ref} is a {ticket['service_mode']} ticket; only dine-in tickets have a table")
    table_no = table_no.strip()
    if zone_of_table(table_no) != zone:
        lo, hi, _ = ZONES[zone]
        raise ToolError(f"table {table_no!r} is not in the {zone}; its tables are numbered {lo} to {hi}")
    most = ZONES[zone][2]
    if not 1 <= seat_count <= most:
        raise ToolError(f"a table in the {zone} seats 1 to {most}; for {seat_count} seats choose another zone, "
                        "or transfer a group over 12 to a human agent")
    new = {"zone": zone, "table_no": table_no, "seat_count": seat_count}
    return replace_field(db, "tickets", ticket_ref, "table_info", new,
                         f"ticket {ticket_ref} already has exactly this table and seat count")


@tool(kind="write")
def modify_placed_ticket_items(db: Store, ticket_ref: str, plate_refs: list[str], new_plate_refs: list[str],
                               instrument_ref: str) -> dict:
    """Swap plates on a placed ticket for other plates of the same dish that are served today (a different portion, protein, spice level or preparation). Include every plate to change in one call. Tax is recomputed; the difference (food plus tax) is charged to, or refunded to, the given instrument.

    Args:
        ticket_ref: The ticket reference, such as 'TCKT-00001'.
        plate_refs: Plate refs of the ticket's lines to change, such as ['PLATE-00012']; repeat a ref to change several lines with it.
        new_plate_refs: The new plate refs, in the same order as plate_refs; each a plate of the same dish.
        instrument_ref: The patron's saved instrument for the difference, such as 'INST-00001'. A refund must go to an instrument that paid at least that much for the ticket.
    """
    ticket = _ticket(db, ticket_ref)
    _placed(ticket, "modified")
    if not plate_refs:
        raise ToolError("plate_refs must name at least one plate of the ticket")
    if len(plate_refs) != len(new_plate_refs):
        raise ToolError("plate_refs and new_plate_refs must have the same length (one new plate per plate)")
    _instrument(db, ticket, instrument_ref)
    have = Counter(ln["plate_ref"] for ln in ticket["line_entries"])
    for ref, n in Counter(plate_refs).items():
        if have[ref] < n:
            raise ToolError(f"plate {ref} is not on ticket {ticket_ref} (or not that many times)")
    taken: set[int] = set()
    swaps = []
    for old_ref, new_ref in zip(plate_refs, new_plate_refs):
        idx = next(i for i, ln in enumerate(ticket["line_entries"]) if ln["plate_ref"] == old_ref and i not in taken)
        taken.add(idx)
        dish = require(db, "menu_items", ticket["line_entries"][idx]["dish_ref"], "dish")
        plate = dish["selections"].get(new_ref)
        if plate is None:
            other, _ = _menu_plate(db, new_ref)
            raise ToolError(f"new plate {new_ref} belongs to {other['title']}, not to {dish['title']}; "
                            "a plate can only be swapped for another plate of the same dish")
        if new_ref == old_ref:
            raise ToolError(f"new plate {new_ref} is the plate the line already has")
        if not plate["served_today"]:
            raise ToolError(f"plate {new_ref} of {dish['title']} is not served today; pick a plate marked served_today")
        swaps.append((idx, dish, plate))
    old_tax = ticket["tax"]
    old_sub = ticket["subtotal"]
    rec = db.edit("tickets", ticket_ref)
    for idx, dish, plate in swaps:
        line = rec["line_entries"][idx]
        line.update(plate_ref=plate["plate_ref"], cost=plate["cost"], label=line_label(dish["title"], plate["modifiers"]))
    rec["subtotal"] = money(sum(ln["cost"] for ln in rec["line_entries"]))
    rec["tax"], _ = ticket_amounts(rec["subtotal"], rec["delivery_fee"])
    diff = money(rec["subtotal"] + rec["tax"] - old_sub - old_tax)
    if diff < 0 and food_net(ticket).get(instrument_ref, 0.0) < -diff:
        raise ToolError(f"a refund of {usd(-diff)} can only go to an instrument that paid at least that much for "
                        f"ticket {ticket_ref}; choose the instrument that paid for it")
    if diff:
        rec["charges"].append({"kind": "payment" if diff > 0 else "refund", "total": abs(diff), "instrument_ref": instrument_ref})
    return {"ticket": rec, "difference": diff}


@tool(kind="write")
def modify_placed_ticket_instrument(db: Store, ticket_ref: str, instrument_ref: str) -> dict:
    """Pay for a placed ticket with another saved instrument: the whole food payment is charged to the new instrument and refunded to the instrument(s) it came from. Tips stay where they are.

    Args:
        ticket_ref: The ticket reference, such as 'TCKT-00001'.
        instrument_ref: The patron's saved instrument to pay with from now on, such as 'INST-00001'.
    """
    ticket = _ticket(db, ticket_ref)
    _placed(ticket, "modified")
    _instrument(db, ticket, instrument_ref)
    moving = {ref: amount for ref, amount in food_net(ticket).items() if ref != instrument_ref and amount > 0}
    if not moving:
        raise ToolError(f"ticket {ticket_ref} is already paid with {instrument_ref}; pick a different instrument")
    total = money(sum(moving.values()))
    rec = db.edit("tickets", ticket_ref)
    rec["charges"].append({"kind": "payment", "total": total, "instrument_ref": instrument_ref})
    for ref, amount in sorted(moving.items()):
        rec["charges"].append({"kind": "refund", "total": amount, "instrument_ref": ref})
    return {"ticket": rec, "moved_total": total}


@tool(kind="write")
def add_tip_to_ticket(db: Store, ticket_ref: str, tip_total: float, instrument_ref: str) -> dict:
    """Add a tip to a ticket that is not cancelled, charged to a saved instrument. Tips are accepted up to 14 days after the ticket's date, and all tips on a ticket together may not exceed half of its food subtotal.

    Args:
        ticket_ref: The ticket reference, such as 'TCKT-00001'.
        tip_total: The tip amount in dollars, more than 0, such as 5.5.
        instrument_ref: The patron's saved instrument to charge, such as 'INST-00001'.
    """
    ticket = _ticket(db, ticket_ref)
    if ticket["state"] == "cancelled":
        raise ToolError(f"ticket {ticket_ref} is cancelled; a tip cannot be added to a cancelled ticket")
    if tip_total <= 0:
        raise ToolError("tip_total must be more than 0")
    if money(tip_total) != tip_total:
        raise ToolError("tip_total must be in dollars and cents (at most two decimals)")
    age = days_between(ticket["placed_on"], TODAY)
    if age > TIP_WINDOW_DAYS:
        raise ToolError(f"ticket {ticket_ref} is from {ticket['placed_on']}, {age} days ago; tips can be added only "
                        f"within {TIP_WINDOW_DAYS} days of the ticket's date")
    room = tip_room(ticket)
    if tip_total > room:
        raise ToolError(f"tips on a ticket may total at most {int(TIP_CAP_SHARE * 100)}% of its food subtotal "
                        f"({usd(ticket['subtotal'])}); at most {usd(max(room, 0))} more can be added to {ticket_ref}")
    _instrument(db, ticket, instrument_ref)
    rec = db.edit("tickets", ticket_ref)
    rec["charges"].append({"kind": "tip", "total": money(tip_total), "instrument_ref": instrument_ref})
    return rec


READ_TOOLS = [find_patron_ref_by_email, find_patron_ref_by_name_zip, get_patron_details, get_ticket_details,
              get_dish_details, list_all_dishes]
WRITE_TOOLS = [cancel_placed_ticket, modify_placed_ticket_dropoff, modify_placed_ticket_table,
               modify_placed_ticket_items, modify_placed_ticket_instrument, add_tip_to_ticket]
TOOLS = [*READ_TOOLS, *WRITE_TOOLS, *GENERIC_TOOLS]
AUTH_TOOLS = ["find_patron_ref_by_email", "find_patron_ref_by_name_zip"]
