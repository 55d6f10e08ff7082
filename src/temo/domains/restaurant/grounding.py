"""Restaurant grounding hooks for Tracer: one per node of the restaurant graph.

Each hook picks, in the state as it is now, a ticket, dish or plate the tool accepts (placed tickets
for cancel and changes, delivery tickets for the drop-off, dine-in tickets for the table, plates of
the same dish served today, tickets inside the tip window) and says in the patron's own words what
they want. Patrons know their e-mail (or name and postal code), their ticket numbers, dish names and
their cards by issuer and last four digits; never guest, dish, plate or instrument refs.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from temo.domains.kit.internal_ids import internal_ids_of
from temo.domains.kit.money import money, usd
from temo.domains.kit.wording import and_join
from temo.env.grounding import Ground, Grounder, GroundingFailed, Step, hook

from .catalog import menu_words
from .challenges import CHALLENGES
from .generate import city_of, location
from .ground_help import PLACED_WRITES, instruments, mark, my_tickets, pay_fact, read_ask, ticket_fact, tip_ok
from .phrases import (ADDRESS_ALIASES, address_text, dish_plate, instrument_phrase, line_phrase, personas, state_word,
                      ticket_summary)
from .rules import CANCEL_REASONS, ZONES, food_net, net_paid, ticket_amounts, tip_room, zone_of_table

HOOKS: dict = {}


@lru_cache(maxsize=4)
def _menu_words(titles: tuple[str, ...]) -> dict[str, list[str]]:
    return menu_words(list(titles))


# -- read hooks --------------------------------------------------------------------------------------
@hook(HOOKS)
def get_ticket_details(g: Ground) -> Step:
    mine = my_tickets(g)
    fresh = [t for t in mine if t["ticket_ref"] not in g.used.get("cancelled", set())]
    pool = fresh or mine
    placed = [t for t in pool if t["state"] == "placed"]
    if placed and g.rng.random() < 0.65 and g.focus.get("ticket") not in {t["ticket_ref"] for t in pool}:
        pool = placed
    t = g.pick("ticket", pool, key=lambda x: x["ticket_ref"], reason="no_ticket")
    ref = t["ticket_ref"]
    paid = money(sum(net_paid(t).values()))
    if t["state"] != "cancelled" and paid > 0 and g.rng.random() < 0.45:
        own = g.rng.choice([f"How much have I been charged in total on ticket {ref}, tips included?",
                            f"What is the total I paid for ticket {ref}?",
                            f"I'd like to know the full amount charged on ticket {ref}."])
        outputs = [usd(paid)]
    else:
        own = g.rng.choice([f"What's the status of my ticket {ref}?", f"Where does my ticket {ref} stand right now?",
                            f"I'd like an update on ticket {ref}.", f"Has the kitchen started on ticket {ref} yet?"])
        outputs = [state_word(t["state"])]
    return Step(args={"ticket_ref": ref}, ask=read_ask(g, own), facts=[ticket_fact(g, t)], outputs=outputs,
                focus={"ticket": ref})


@hook(HOOKS)
def list_all_dishes(g: Ground) -> Step:
    menu = {d["title"]: d for d in g.store.values("menu_items")}
    if g.rng.random() < 0.2:
        own = g.rng.choice(["How many different dishes are on the menu?", "I'm curious how many dishes the menu has."])
        return Step(args={}, ask=read_ask(g, own), outputs=[str(len(menu))])
    words = _menu_words(tuple(sorted(menu)))
    ordered = {g.store.get("menu_items", ln["dish_ref"])["title"] for t in my_tickets(g, "placed") for ln in t["line_entries"]}
    near = [w for w, ts in words.items() if ordered & set(ts)]
    word = g.pick("menu_word", near if near and g.rng.random() < 0.7 else sorted(words))
    titles = words[word]
    own = g.rng.choice([f"Which dishes with \"{word}\" in the name are on the menu?",
                        f"I'm looking for something with \"{word}\" in its name; which dishes are there?",
                        f"What are all the \"{word}\" dishes on the menu?"])
    pick = menu[g.rng.choice(sorted(ordered & set(titles)) or titles)]
    g.notes["listed_dish"] = (g.intent, pick["dish_ref"])
    return Step(args={}, ask=read_ask(g, own), outputs=titles, focus={"dish": pick["dish_ref"]},
                uses={"menu_word": word})


@hook(HOOKS)
def get_dish_details(g: Ground) -> Step:
    listed = g.notes.get("listed_dish")
    tref = g.focus.get("ticket")
    if listed and listed[0] == g.intent:
        cands = [listed[1]]
    elif tref and g.store.get("tickets", tref)["guest_ref"] == g.user_id:
        cands = sorted({ln["dish_ref"] for ln in g.store.get("tickets", tref)["line_entries"]})
    else:
        cands = sorted(g.store.keys("menu_items"))
    dish = g.store.get("menu_items", g.pick("dish", cands))
    title = dish["title"]
    plates = [p for _, p in sorted(dish["selections"].items())]
    today = [p for p in plates if p["served_today"]]
    if today and g.rng.random() < 0.35:
        cheapest = min(p["cost"] for p in today)
        own = g.rng.choice([f"What's the cheapest way to order the {title} today?",
                            f"What does the least expensive version of the {title} cost today?"])
        outputs = [usd(cheapest)]
    else:
        plate = g.rng.choice(today or plates)
        phrase = dish_plate(title, plate)
        own = g.rng.choice([f"How much is {phrase}?", f"What does {phrase} cost?",
                            f"I'd like the price of {phrase}."])
        outputs = [usd(plate["cost"])]
    return Step(args={"dish_ref": dish["dish_ref"]}, ask=read_ask(g, own), outputs=outputs,
                facts=[g.fact("dish_name", title, ["dish", "which dish", "dish name", "name of the dish"])],
                focus={"dish": dish["dish_ref"]})


# -- write hooks -------------------------------------------------------------------------------------
@hook(HOOKS)
def cancel_placed_ticket(g: Ground) -> Step:
    cands = [t for t in my_tickets(g, "placed") if t["ticket_ref"] not in g.used.get("written", set())]
    t = g.pick("ticket", cands, key=lambda x: x["ticket_ref"], reason="no_placed_ticket")
    ref, reason = t["ticket_ref"], g.rng.choice(CANCEL_REASONS)
    refund = money(sum(net_paid(t).values()))
    mark(g, "cancelled", ref)
    ask = g.rng.choice([f"Please cancel my ticket {ref}.", f"I want to call off ticket {ref} before the kitchen starts on it.",
                        f"I need ticket {ref} cancelled, please."])
    return Step(args={"ticket_ref": ref, "reason": reason}, ask=ask,
                details=[ticket_summary(t), f"The reason is: {reason}."],
                facts=[ticket_fact(g, t), g.fact("cancel_reason", reason, ["reason", "why", "reason for cancelling"])],
                outputs=[usd(refund)], focus={"ticket": ref})


@hook(HOOKS)
def modify_placed_ticket_dropoff(g: Ground) -> Step:
    cands = my_tickets(g, "placed", "delivery", skip="dropoff")
    t = g.pick("ticket", cands, key=lambda x: x["ticket_ref"], reason="no_placed_delivery")
    cur = t["dropoff"]
    for _ in range(10):
        new = location(g.rng, city_of(cur))
        if new["line_one"] != cur["line_one"] and new["postal_code"] != cur["postal_code"]:
            break
    else:
        raise GroundingFailed("no_new_address")
    ref = t["ticket_ref"]
    mark(g, "dropoff", ref)
    ask = g.rng.choice([f"I need my delivery {ref} to go to a different address.",
                        f"Please change where ticket {ref} gets dropped off.",
                        f"The delivery on ticket {ref} should come to another address in town."])
    details = [f"The new address is {address_text(new)}."]
    if not new["line_two"]:
        details.append("There is no apartment or suite number.")
    facts = [ticket_fact(g, t)] + [g.fact(f"new_{k}", v, ADDRESS_ALIASES[k]) for k, v in new.items() if v]
    return Step(args={"ticket_ref": ref, **new}, ask=ask, details=details, facts=facts, focus={"ticket": ref})


@hook(HOOKS)
def modify_placed_ticket_table(g: Ground) -> Step:
    cands = my_tickets(g, "placed", "dine_in", skip="table")
    t = g.pick("ticket", cands, key=lambda x: x["ticket_ref"], reason="no_placed_dine_in")
    cur = t["table_info"]
    zone = g.rng.choice(sorted(ZONES))
    lo, hi, most = ZONES[zone]
    table_no = str(g.rng.choice([n for n in range(lo, hi + 1) if str(n) != cur["table_no"]]))
    seats = min(cur["seat_count"], most) if g.rng.random() < 0.5 else g.rng.randint(1, most)
    if zone_of_table(table_no) != zone:
        raise GroundingFailed("bad_table")  # cannot happen: the number comes from the zone's range
    ref = t["ticket_ref"]
    mark(g, "table", ref)
    ask = g.rng.choice([f"We'd like to move our table for ticket {ref}.", f"Please change the table on my ticket {ref}.",
                        f"Can the table for ticket {ref} be switched? Our plans changed a bit."])
    return Step(args={"ticket_ref": ref, "zone": zone, "table_no": table_no, "seat_count": seats}, ask=ask,
                details=[f"We'd like table {table_no} in the {zone}, with {seats} seat{'s' if seats > 1 else ''}."],
                facts=[ticket_fact(g, t), g.fact("zone", zone, ["zone", "area", "section", "where"]),
                       g.fact("table_number", table_no, ["table number", "which table", "table"]),
                       g.fact("seat_count", seats, ["seats", "how many seats", "number of seats", "party size", "how many people"])],
                focus={"ticket": ref})


def _alternatives(g: Ground, line: dict[str, Any]) -> list[dict[str, Any]]:
    """Plates the line may become: same dish, served today, another plate; other prices first."""
    dish = g.store.get("menu_items", line["dish_ref"])
    alts = [p for ref, p in sorted(dish["selections"].items()) if p["served_today"] and ref != line["plate_ref"]]
    return [p for p in alts if p["cost"] != line["cost"]] or alts


def _swap_difference(t: dict[str, Any], swaps: list[tuple[int, dict[str, Any]]]) -> float:
    costs = [ln["cost"] for ln in t["line_entries"]]
    for idx, plate in swaps:
        costs[idx] = plate["cost"]
    sub = money(sum(costs))
    tax, _ = ticket_amounts(sub, t["delivery_fee"])
    return money(sub + tax - t["subtotal"] - t["tax"])


@hook(HOOKS)
def modify_placed_ticket_items(g: Ground) -> Step:
    cands = [t for t in my_tickets(g, "placed", skip="items") if any(_alternatives(g, ln) for ln in t["line_entries"])]
    dish = g.focus.get("dish")
    holding = [t for t in cands if any(ln["dish_ref"] == dish and _alternatives(g, ln) for ln in t["line_entries"])]
    if holding and g.focus.get("ticket") not in {t["ticket_ref"] for t in cands}:
        cands = holding
    t = g.pick("ticket", cands, key=lambda x: x["ticket_ref"], reason="no_swappable_ticket")
    lines = [i for i, ln in enumerate(t["line_entries"]) if _alternatives(g, ln)]
    first_seen: dict[str, int] = {}
    for i in lines:  # the tool changes the first line holding a plate, so use first occurrences only
        first_seen.setdefault(t["line_entries"][i]["plate_ref"], i)
    lines = sorted(first_seen.values())
    preferred = [i for i in lines if t["line_entries"][i]["dish_ref"] == dish]
    chosen = preferred[:1] or [g.rng.choice(lines)]
    rest = [i for i in lines if i not in chosen]
    if rest and g.rng.random() < 0.3:
        chosen.append(g.rng.choice(rest))
    chosen.sort()
    swaps, diff = [], 0.0
    for attempt in range(8):
        if attempt == 4:  # same prices only: bring in another line whose plates differ in price
            more = [i for i in rest if i not in chosen
                    and any(p["cost"] != t["line_entries"][i]["cost"] for p in _alternatives(g, t["line_entries"][i]))]
            if more:
                chosen = sorted(chosen + [g.rng.choice(more)])
        swaps = [(i, g.rng.choice(_alternatives(g, t["line_entries"][i]))) for i in chosen]
        diff = _swap_difference(t, swaps)
        if diff:
            break
    if not diff:
        raise GroundingFailed("no_price_difference")
    if diff > 0:
        options = instruments(g)
    else:
        paid = food_net(t)
        options = [inst for inst in instruments(g) if paid.get(inst["instrument_ref"], 0.0) >= -diff]
    if not options:
        raise GroundingFailed("no_instrument_for_difference")
    inst = g.rng.choice(options)
    ref = t["ticket_ref"]
    mark(g, "items", ref)
    titles = {t["line_entries"][i]["dish_ref"]: g.store.get("menu_items", t["line_entries"][i]["dish_ref"])["title"] for i in chosen}
    old = and_join([line_phrase(t["line_entries"][i]) for i, _ in swaps])
    new = and_join([dish_plate(titles[t["line_entries"][i]["dish_ref"]], p) for i, p in swaps])
    ask = g.rng.choice([f"I'd like to change what I ordered on ticket {ref}.",
                        f"I picked the wrong version of a dish on ticket {ref} and want to switch it.",
                        f"Please swap a dish on ticket {ref} for a different version."])
    money_word = "charged to" if diff > 0 else "refunded to"
    return Step(args={"ticket_ref": ref, "plate_refs": [t["line_entries"][i]["plate_ref"] for i, _ in swaps],
                      "new_plate_refs": [p["plate_ref"] for _, p in swaps], "instrument_ref": inst["instrument_ref"]},
                ask=ask, details=[f"Change {old}.", f"I want {new} instead.",
                                  f"The difference should be {money_word} {instrument_phrase(inst)}."],
                facts=[ticket_fact(g, t), g.fact("plates_to_change", old, ["which dish", "which item", "what to change", "which plate"]),
                       g.fact("new_plates", new, ["new version", "instead", "which version", "new plate", "replacement"]),
                       pay_fact(g, "difference_payment", inst)],
                outputs=[usd(abs(diff))], preferences=["Only the dishes named should change; everything else stays."],
                focus={"ticket": ref})


@hook(HOOKS)
def modify_placed_ticket_instrument(g: Ground) -> Step:
    options = []
    for t in my_tickets(g, "placed", skip="instrument"):
        paid = food_net(t)
        alts = [inst for inst in instruments(g) if any(r != inst["instrument_ref"] and v > 0 for r, v in paid.items())]
        if alts:
            options.append((t, alts))
    t, alts = g.pick("ticket", options, key=lambda x: x[0]["ticket_ref"], reason="no_other_instrument")
    inst = g.rng.choice(alts)
    moved = money(sum(v for r, v in food_net(t).items() if r != inst["instrument_ref"] and v > 0))
    ref = t["ticket_ref"]
    mark(g, "instrument", ref)
    ask = g.rng.choice([f"I'd like to pay for ticket {ref} with a different card.",
                        f"Please move the payment for ticket {ref} to another of my saved cards.",
                        f"Can I switch how ticket {ref} is paid?"])
    return Step(args={"ticket_ref": ref, "instrument_ref": inst["instrument_ref"]}, ask=ask,
                details=[f"I want to pay with {instrument_phrase(inst)}."],
                facts=[ticket_fact(g, t), pay_fact(g, "new_payment_method", inst)],
                outputs=[usd(moved)], focus={"ticket": ref})


@hook(HOOKS)
def add_tip_to_ticket(g: Ground) -> Step:
    cands = [t for t in my_tickets(g, skip="tip") if tip_ok(t)]
    t = g.pick("ticket", cands, key=lambda x: x["ticket_ref"], reason="no_tippable_ticket")
    room = tip_room(t)
    share = g.rng.choice([0.1, 0.15, 0.18, 0.2, 0.25])
    amount = float(max(1, min(int(room), round(t["subtotal"] * share))))
    inst = g.rng.choice(instruments(g))
    ref = t["ticket_ref"]
    mark(g, "tip", ref)
    who = {"dine_in": "the staff", "takeout": "the kitchen", "delivery": "the driver"}[t["service_mode"]]
    if t["state"] == "delivered":
        ask = g.rng.choice([f"I'd like to add a tip for {who} on ticket {ref}.", f"Please put a tip on my ticket {ref}.",
                            f"I want to leave a tip on ticket {ref}; {who} did a great job."])
    else:
        ask = g.rng.choice([f"I'd like to add a tip for {who} on ticket {ref} ahead of time.",
                            f"Please put a tip on my ticket {ref} now, so it's already taken care of.",
                            f"I want to tip {who} in advance on ticket {ref}."])
    return Step(args={"ticket_ref": ref, "tip_total": amount, "instrument_ref": inst["instrument_ref"]}, ask=ask,
                details=[f"The tip is {usd(amount)}.", f"Put it on {instrument_phrase(inst)}."],
                facts=[ticket_fact(g, t), g.fact("tip_amount", usd(amount), ["tip", "how much", "amount", "tip amount"]),
                       pay_fact(g, "tip_payment_method", inst)],
                focus={"ticket": ref})


# -- identity, people, challenges -------------------------------------------------------------------
def authenticate(g: Ground) -> list:
    u = g.user
    if g.rng.random() < 0.6:
        email = u["contact_email"]
        steps = [("find_patron_ref_by_email", {"email": email}, [g.fact("email", email, ["email address", "e-mail", "email"])])]
    else:
        given, family, postal = u["identity"]["given"], u["identity"]["family"], u["location"]["postal_code"]
        steps = [("find_patron_ref_by_name_zip", {"given": given, "family": family, "postal_code": postal},
                  [g.fact("first_name", given, ["first name", "given name", "full name", "name"]),
                   g.fact("last_name", family, ["last name", "family name", "surname", "full name", "name"]),
                   g.fact("zip", postal, ["zip code", "postal code", "postcode"])])]
    return steps + [("get_patron_details", {"guest_ref": g.user_id}, [])]


# -- users and ids ----------------------------------------------------------------------------------
def candidate_users(db, split: str, trace: list[list[str]]) -> list[str]:
    """Patrons whose tickets and cards can serve the trace's tools: a write tool used in several intents
    needs that many distinct tickets, and a cancellation needs a placed ticket of its own."""
    n = Counter(t for intent in trace for t in intent)
    need_placed = max([n[t] for t in PLACED_WRITES - {"cancel_placed_ticket"}] + [0]) + n["cancel_placed_ticket"]
    tickets = db.tables["tickets"]
    out = []
    for ref, p in sorted(db.tables[GROUNDER.user_table].items()):
        mine = [tickets[r] for r in p["ticket_log"]]
        placed = [t for t in mine if t["state"] == "placed"]
        if not mine or len(placed) < need_placed:
            continue
        if sum(t["service_mode"] == "delivery" for t in placed) < n["modify_placed_ticket_dropoff"]:
            continue
        if sum(t["service_mode"] == "dine_in" for t in placed) < n["modify_placed_ticket_table"]:
            continue
        if n["modify_placed_ticket_instrument"] and len(p["saved_instruments"]) < 2:
            continue
        if sum(tip_ok(t) for t in mine) < n["add_tip_to_ticket"]:
            continue
        out.append(ref)
    return out


internal_ids = internal_ids_of(tables=("patrons", "menu_items"),
                               held={"patrons": ("saved_instruments",), "menu_items": ("selections",)})


def check_policy(actions, g: Ground) -> list[str]:
    """Every write acts on a ticket of the authenticated patron, with that patron's instruments."""
    problems = []
    patron = g.store.get("patrons", g.user_id)
    for a in actions:
        ref = a.arguments.get("ticket_ref")
        if ref is not None and ref not in patron["ticket_log"]:
            problems.append(f"{a.name} on a ticket of another patron")
        inst = a.arguments.get("instrument_ref")
        if inst is not None and inst not in patron["saved_instruments"]:
            problems.append(f"{a.name} with an instrument of another patron")
    return problems


def persona(g: Ground) -> str:
    return g.rng.choice(personas())


def name_of(g: Ground) -> str:
    return f"{g.user['identity']['given']} {g.user['identity']['family']}"


GROUNDER = Grounder(
    user_table="patrons", hooks=HOOKS, authenticate=authenticate, persona=persona, name_of=name_of,
    challenges=CHALLENGES,
    candidate_users=candidate_users, internal_ids=internal_ids, check_policy=check_policy,
    context="the guest-service desk of a restaurant group", test_share=1.0,
)
