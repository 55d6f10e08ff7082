"""Intent generators of the airline task builder, one per kind of request, and the `GENERATORS` table.

Each generator looks at the current state of the task's own store (so later intents see earlier
changes), picks a situation where the policy allows the request (or, for `refuse_cancel`, where it
does not), and returns the `Plan`s for it: the reference actions a careful agent would take (the reads
it needs, then the write) and the facts the user must supply. It returns [] when the user has no
suitable reservation. Booking a new trip lives in `booking.py`.
"""
from __future__ import annotations

from typing import Callable, Optional

from . import rules as R
from .booking import gen_book
from .generate import LAST_NAMES
from .plan import (
    CABIN_WORDS, PREFS, Ctx, Plan, choose_flight, direct_options, pay_text, pick_change_payment,
    pick_reservation, random_person, trip_text, yours,
)


def _cancel_reason(ctx: Ctx, res: dict) -> Optional[tuple[str, str]]:
    """Why this reservation may be cancelled, and how the user words their reason."""
    if any(ctx.status(s) == "cancelled" for s in res["flights"]):
        return "airline", "the airline cancelled one of my flights"
    if R.booked_within_window(res["created_at"]):
        return "24h", ctx.rng.choice(["I booked it by mistake yesterday", "my plans changed right after booking"])
    if res["cabin"] == "business":
        return "business", ctx.rng.choice(["my plans changed", "the meeting I was flying to was called off"])
    if res["insurance"] == "yes":
        return "insurance", ctx.rng.choice(["I have the flu and my doctor told me not to fly",
                                            "a passenger broke a leg and cannot travel",
                                            "a big storm is forecast and the trip is too risky because of the weather"])
    return None


def _cancellable(ctx: Ctx, res: dict) -> bool:
    flown = any(R.segment_flown(ctx.status(s), s["date"]) for s in res["flights"])
    return not flown and _cancel_reason(ctx, res) is not None


def _comp_eligible(ctx: Ctx, res: dict) -> bool:
    return ctx.user["membership"] in ("silver", "gold") or res["insurance"] == "yes" or res["cabin"] == "business"


def gen_cancel(ctx: Ctx) -> list[Plan]:
    res = pick_reservation(ctx, lambda r: _cancellable(ctx, r))
    if res is None:
        return []
    why, reason = _cancel_reason(ctx, res)
    rid = res["reservation_id"]
    ctx.used.add(rid)
    plan = Plan(
        kind="cancel",
        request=f"I want to cancel my {trip_text(ctx, res)} and get my money back.",
        goal=f"Cancel reservation {rid} (your {trip_text(ctx, res)}) with a full refund. Your reason: {reason}.",
        actions=[("get_reservation_details", {"reservation_id": rid}), ("cancel_reservation", {"reservation_id": rid})],
        facts=[("reservation_id", rid), ("cancellation_reason", reason)],
        details=[f"The reservation code is {rid}.", f"The reason: {reason}."],
        limits=["You want the whole reservation cancelled, not changed, and no travel certificate instead of a refund."],
        reservation=rid,
    )
    plans = [plan]
    if why == "airline" and _comp_eligible(ctx, res) and ctx.rng.random() < 0.6:
        n = len(res["passengers"])
        plans.append(Plan(
            kind="compensation",
            request="Also, having my flight cancelled on me was a real hassle. Is there any compensation for that?",
            goal="After the cancellation, complain that the airline cancelled your flight and ask for compensation.",
            actions=[("send_certificate", {"user_id": ctx.user_id, "amount": R.COMPENSATION_CANCELLED * n})],
            details=["You ask for compensation because the airline cancelled your flight."],
            limits=["Accept a travel certificate as compensation."],
            reservation=rid,
        ))
    return plans


def gen_refuse_cancel(ctx: Ctx) -> list[Plan]:
    def ok(r: dict) -> bool:
        return ctx.all_bookable(r) and _cancel_reason(ctx, r) is None

    res = pick_reservation(ctx, ok)
    if res is None:
        return []
    rid = res["reservation_id"]
    ctx.used.add(rid)
    return [Plan(
        kind="refuse_cancel",
        request=f"I'd like to cancel my {trip_text(ctx, res)}; my plans changed.",
        goal=f"Ask to cancel reservation {rid} (your {trip_text(ctx, res)}) because your plans changed.",
        actions=[("get_reservation_details", {"reservation_id": rid})],
        facts=[("reservation_id", rid), ("cancellation_reason", "my plans changed")],
        details=[f"The reservation code is {rid}.", "The reason: your plans changed. Nobody is ill and there is no bad weather."],
        limits=["If the agent explains that this reservation cannot be cancelled under the airline's rules, accept it "
                "and move on; do not ask for a human agent and do not invent another reason."],
        reservation=rid,
        writes=False,
    )]


def gen_bags(ctx: Ctx) -> list[Plan]:
    res = pick_reservation(ctx, ctx.all_bookable)
    if res is None:
        return []
    rid, n_pax, cabin = res["reservation_id"], len(res["passengers"]), res["cabin"]
    add = ctx.rng.choice([1, 1, 2, 2, 3])
    total = res["total_baggages"] + add
    nonfree = max(res["nonfree_baggages"], R.nonfree_bags(total, ctx.user["membership"], cabin, n_pax))
    fee = (nonfree - res["nonfree_baggages"]) * R.BAG_FEE
    method = pick_change_payment(ctx, fee)
    if method is None:
        return []
    ctx.used.add(rid)
    pay = pay_text(method)
    word = "bag" if add == 1 else "bags"
    return [Plan(
        kind="bags",
        request=f"I need to add checked {word} to my {trip_text(ctx, res)}.",
        goal=f"Add {add} checked {word} to reservation {rid} (your {trip_text(ctx, res)}), paying any fee with {yours(pay)}.",
        actions=[("get_reservation_details", {"reservation_id": rid}),
                 ("update_reservation_baggages", {"reservation_id": rid, "total_baggages": total,
                                                  "nonfree_baggages": nonfree, "payment_id": method["id"]})],
        facts=[("reservation_id", rid), ("bags", str(add)), ("payment_method", pay)],
        details=[f"The reservation code is {rid}.", f"You want to add {add} more checked {word}.", f"Pay with {yours(pay)}."],
        limits=[f"You want exactly {add} additional {word}; you do not want to remove any bags."],
        reservation=rid,
    )]


def _date_changeable(ctx: Ctx, r: dict) -> bool:
    one = r["flight_type"] == "one_way" and len(r["flights"]) == 1
    two = r["flight_type"] == "round_trip" and len(r["flights"]) == 2
    return r["cabin"] != "basic_economy" and (one or two) and ctx.all_bookable(r)


def gen_change_date(ctx: Ctx) -> list[Plan]:
    cands = ctx.reservations(lambda r: _date_changeable(ctx, r))
    ctx.rng.shuffle(cands)
    for res in cands[:4]:
        rid, cabin, n = res["reservation_id"], res["cabin"], len(res["passengers"])
        which = 0 if res["flight_type"] == "one_way" else ctx.rng.choice([0, 1])
        seg = res["flights"][which]
        lo = R.add_days(R.TODAY, 1) if which == 0 else R.add_days(res["flights"][0]["date"], 1)
        hi = R.LAST_DATE if (which == 1 or len(res["flights"]) == 1) else R.add_days(res["flights"][1]["date"], -1)
        days = [d for d in R.dates_between(lo, hi) if d != seg["date"]] if lo <= hi else []
        ctx.rng.shuffle(days)
        pref = ctx.rng.choice(list(PREFS))
        for day in days[:6]:
            chosen = choose_flight(direct_options(ctx, seg["origin"], seg["destination"], day, cabin, n), pref, cabin)
            if chosen is None:
                continue
            new = [{"flight_number": s["flight_number"], "date": s["date"]} for s in res["flights"]]
            new[which] = {"flight_number": chosen["flight_number"], "date": day}
            diff = (chosen["prices"][cabin] - seg["price"]) * n
            method = pick_change_payment(ctx, diff)
            if method is None:
                return []
            ctx.used.add(rid)
            pay = pay_text(method)
            leg = "flight" if res["flight_type"] == "one_way" else ("outbound flight" if which == 0 else "return flight")
            route = f"{ctx.city(seg['origin'])} to {ctx.city(seg['destination'])}"
            return [Plan(
                kind="change_date",
                request=f"I need to move my {leg} ({route}) to another day.",
                goal=(f"Move the {leg} of reservation {rid} ({route}, now on {seg['date']}) to {day}, same cabin, "
                      f"on {PREFS[pref][0]}. Pay or receive any fare difference with {yours(pay)}."),
                actions=[("get_reservation_details", {"reservation_id": rid}),
                         ("search_direct_flight", {"origin": seg["origin"], "destination": seg["destination"], "date": day}),
                         ("update_reservation_flights", {"reservation_id": rid, "cabin": cabin, "flights": new,
                                                         "payment_id": method["id"]})],
                facts=[("reservation_id", rid), ("new_date", day), ("payment_method", pay)],
                details=[f"The reservation code is {rid}.", f"Move the {leg} to {day}; everything else stays the same.",
                         f"On that day you want {PREFS[pref][0]} (nonstop).", f"Use {yours(pay)} for any price difference."],
                preferences=[f"For the new {leg}, you want {PREFS[pref][0]}, nonstop, in your current cabin."],
                limits=["Do not change the cabin, the passengers or the other flights."],
                reservation=rid,
            )]
    return []


def _upgradable(ctx: Ctx, r: dict) -> bool:
    return r["cabin"] != "business" and len(r["flights"]) <= 2 and ctx.all_bookable(r)


def gen_upgrade(ctx: Ctx) -> list[Plan]:
    cands = ctx.reservations(lambda r: _upgradable(ctx, r))
    ctx.rng.shuffle(cands)
    for res in cands[:4]:
        rid, n = res["reservation_id"], len(res["passengers"])
        new_cabin = "business" if res["cabin"] == "economy" else ctx.rng.choice(["economy", "business"])
        infos = [ctx.flight_day(s["flight_number"], s["date"]) for s in res["flights"]]
        if any(i["available_seats"][new_cabin] < n for i in infos):
            continue
        diff = sum(i["prices"][new_cabin] for i in infos) * n - sum(s["price"] for s in res["flights"]) * n
        if diff <= 0:
            continue
        method = pick_change_payment(ctx, diff)
        if method is None:
            return []
        ctx.used.add(rid)
        pay = pay_text(method)
        searches = []
        for s in res["flights"]:
            args = {"origin": s["origin"], "destination": s["destination"], "date": s["date"]}
            if ("search_direct_flight", args) not in searches:
                searches.append(("search_direct_flight", args))
        flights = [{"flight_number": s["flight_number"], "date": s["date"]} for s in res["flights"]]
        budget = (int(diff) // 100 + 1) * 100 + 100
        word = CABIN_WORDS[new_cabin]
        return [Plan(
            kind="upgrade",
            request=f"I'd like to upgrade my {trip_text(ctx, res)} to {word}.",
            goal=f"Upgrade reservation {rid} (your {trip_text(ctx, res)}) to {word} on the same flights, paying with {yours(pay)}.",
            actions=[("get_reservation_details", {"reservation_id": rid}), *searches,
                     ("update_reservation_flights", {"reservation_id": rid, "cabin": new_cabin, "flights": flights,
                                                     "payment_id": method["id"]})],
            facts=[("reservation_id", rid), ("cabin", new_cabin), ("payment_method", pay)],
            details=[f"The reservation code is {rid}.", f"You want {word} for every flight, same flights and dates.",
                     f"Pay the difference with {yours(pay)}."],
            preferences=[f"You are willing to pay up to ${budget} in total for the upgrade."],
            limits=["Keep the same flights and dates."],
            reservation=rid,
        )]
    return []


def gen_passengers(ctx: Ctx) -> list[Plan]:
    res = pick_reservation(ctx, ctx.all_bookable)
    if res is None:
        return []
    rid = res["reservation_id"]
    pax = [dict(p) for p in res["passengers"]]
    i = ctx.rng.randrange(len(pax))
    old = pax[i]
    old_name = f"{old['first_name']} {old['last_name']}"
    me = ctx.user["name"]
    is_me = (old["first_name"], old["last_name"]) == (me["first_name"], me["last_name"])
    mode = "replace" if is_me else ctx.rng.choice(["replace", "replace", "dob", "last_name"])
    rng = ctx.rng
    if mode == "replace":
        new = random_person(rng)
        facts = [("passenger_first_name", new["first_name"]), ("passenger_last_name", new["last_name"]),
                 ("passenger_dob", new["dob"])]
        whom = f"yourself ({old_name})" if is_me else old_name
        what = f"replace {whom} with {new['first_name']} {new['last_name']} (born {new['dob']})"
        who = "me" if is_me else old_name
        request = f"Someone else will travel instead of {who} on my {trip_text(ctx, res)}."
    elif mode == "dob":
        y, m, d = old["dob"].split("-")
        new = dict(old, dob=f"{y}-{m}-{(int(d) % 28) + 1:02d}")
        facts = [("passenger_dob", new["dob"])]
        what = f"correct the date of birth of {old_name} to {new['dob']}"
        request = f"The date of birth of one passenger on my {trip_text(ctx, res)} is wrong."
    else:
        new = dict(old, last_name=rng.choice([n for n in LAST_NAMES if n != old["last_name"]]))
        facts = [("passenger_last_name", new["last_name"])]
        what = f"change the last name of {old_name} to {new['last_name']} (a recent name change)"
        request = f"A passenger on my {trip_text(ctx, res)} has changed their last name."
    if new in pax:
        return []
    pax[i] = new
    ctx.used.add(rid)
    return [Plan(
        kind="passengers",
        request=request,
        goal=f"On reservation {rid} (your {trip_text(ctx, res)}), {what}.",
        actions=[("get_reservation_details", {"reservation_id": rid}),
                 ("update_reservation_passengers", {"reservation_id": rid, "passengers": pax})],
        facts=[("reservation_id", rid), ("passenger_to_change", old_name), *facts],
        details=[f"The reservation code is {rid}.", f"You want to {what}.", "All other passengers stay as they are."],
        limits=["Do not add or remove passengers."],
        reservation=rid,
    )]


def _disruption(ctx: Ctx, r: dict) -> Optional[str]:
    """"cancelled" or "delayed" when one kind of disruption hits the reservation's coming flights."""
    st = [ctx.status(s) for s in r["flights"] if s["date"] >= R.TODAY]
    if "cancelled" in st and "delayed" not in st:
        return "cancelled"
    if "delayed" in st and "cancelled" not in st:
        return "delayed"
    return None


def _compensable(ctx: Ctx, r: dict) -> bool:
    return (_disruption(ctx, r) is not None and _comp_eligible(ctx, r)
            and not any(R.segment_flown(ctx.status(s), s["date"]) for s in r["flights"]))


def gen_compensation(ctx: Ctx) -> list[Plan]:
    res = pick_reservation(ctx, lambda r: _compensable(ctx, r))
    if res is None:
        return []
    rid, k, n = res["reservation_id"], _disruption(ctx, res), len(res["passengers"])
    seg = next(s for s in res["flights"] if ctx.status(s) == k)
    amount = (R.COMPENSATION_CANCELLED if k == "cancelled" else R.COMPENSATION_DELAYED) * n
    ctx.used.add(rid)
    what = "was cancelled by the airline" if k == "cancelled" else "is delayed"
    return [Plan(
        kind="compensation",
        request=f"My flight from {ctx.city(seg['origin'])} to {ctx.city(seg['destination'])} on {seg['date']} {what}. "
                "This is really unacceptable and I want some compensation.",
        goal=f"Complain that your flight on reservation {rid} ({ctx.city(seg['origin'])} to {ctx.city(seg['destination'])}, "
             f"{seg['date']}) {what}, and ask for compensation. You do not want to change or cancel the trip.",
        actions=[("get_reservation_details", {"reservation_id": rid}),
                 ("send_certificate", {"user_id": ctx.user_id, "amount": amount})],
        facts=[("reservation_id", rid)],
        details=[f"The reservation code is {rid}.", f"The flight {what}; you want compensation for the trouble.",
                 "You do not want to change or cancel the reservation."],
        limits=["Accept a travel certificate as compensation. Do not ask to cancel or rebook."],
        reservation=rid,
    )]


def fits(ctx: Ctx) -> dict[str, int]:
    """For the user of ``ctx``: how many reservations each reservation-changing write could use (the
    finders' own conditions, before any payment is chosen), plus ``active`` and ``any`` counts. A
    change or bag fee needs a credit card or a gift card (an empty one counts: a refund earlier in the
    task may fill it)."""
    can_pay = any(m["source"] in ("credit_card", "gift_card") for m in ctx.user["payment_methods"].values())
    count = lambda ok: len(ctx.reservations(ok))  # noqa: E731
    return {
        "cancel_reservation": count(lambda r: _cancellable(ctx, r)),
        "update_reservation_baggages": count(ctx.all_bookable) if can_pay else 0,
        "update_reservation_flights": count(lambda r: _date_changeable(ctx, r) or _upgradable(ctx, r)) if can_pay else 0,
        "update_reservation_passengers": count(ctx.all_bookable),
        "send_certificate": count(lambda r: _compensable(ctx, r)),
        "active": count(lambda r: True),
        "any": len(ctx.user["reservations"]),
    }


# intent kind -> generator
GENERATORS: dict[str, Callable[[Ctx], list[Plan]]] = {
    "cancel": gen_cancel, "bags": gen_bags, "change_date": gen_change_date, "upgrade": gen_upgrade,
    "passengers": gen_passengers, "book": gen_book, "compensation": gen_compensation, "refuse_cancel": gen_refuse_cancel,
}
