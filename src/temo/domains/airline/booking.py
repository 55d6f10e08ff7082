"""The `book` intent of the airline task builder: a new one-way or round trip for the user, alone or
with a saved or new companion, found with the search tools and paid by card, gift card or a split.
"""
from __future__ import annotations

from . import rules as R
from .plan import CABIN_WORDS, PREFS, Ctx, Plan, choose_flight, direct_options, pay_text, random_person, yours


def gen_book(ctx: Ctx) -> list[Plan]:
    rng, user = ctx.rng, ctx.user
    cabin = rng.choices(list(R.CABINS), [0.25, 0.55, 0.2])[0]
    saved = user["saved_passengers"]
    me = {"first_name": user["name"]["first_name"], "last_name": user["name"]["last_name"], "dob": user["dob"]}
    who = rng.choices(["me", "saved", "new"], [0.55, 0.3 if saved else 0, 0.15])[0]
    facts: list[tuple[str, str]] = []
    pax = [me]
    if who == "saved":
        comp = rng.choice(saved)
        pax.append(dict(comp))
        pax_text = f"you and {comp['first_name']} {comp['last_name']} (saved in your profile)"
        facts.append(("passengers", f"me and {comp['first_name']} {comp['last_name']}, who is saved in my profile"))
    elif who == "new":
        comp = random_person(rng)
        pax.append(comp)
        pax_text = f"you and your friend {comp['first_name']} {comp['last_name']} (born {comp['dob']})"
        facts += [("passengers", f"me and my friend {comp['first_name']} {comp['last_name']}"),
                  ("passenger_first_name", comp["first_name"]), ("passenger_last_name", comp["last_name"]),
                  ("passenger_dob", comp["dob"])]
    else:
        pax_text = "just you"
        facts.append(("passengers", "just me"))
    n = len(pax)
    pref = rng.choice(list(PREFS))
    codes = sorted(a["code"] for a in ctx.store.values("airports"))
    direct = {(f["origin"], f["destination"]) for f in ctx.store.values("flights")}
    actions: list[tuple[str, dict]] = []
    for _ in range(12):
        origin, dest = rng.sample(codes, 2)
        day = R.add_days(R.TODAY, rng.randint(3, 20))
        if (origin, dest) in direct:
            chosen = choose_flight(direct_options(ctx, origin, dest, day, cabin, n), pref, cabin)
            if chosen is None:
                continue
            segs = [(chosen, day)]
            actions = [("search_direct_flight", {"origin": origin, "destination": dest, "date": day})]
            round_trip = rng.random() < 0.45
            ret = None
            if round_trip:
                ret = R.add_days(day, rng.randint(2, 6))
                back = choose_flight(direct_options(ctx, dest, origin, ret, cabin, n), pref, cabin)
                if back is None:
                    continue
                segs.append((back, ret))
                actions.append(("search_direct_flight", {"origin": dest, "destination": origin, "date": ret}))
        else:
            round_trip, ret = False, None
            pairs = []
            firsts = [f for f in ctx.store.values("flights") if f["origin"] == origin]
            for a in firsts:
                ia = a["dates"].get(day, {})
                if ia.get("status") != R.BOOKABLE or ia["available_seats"][cabin] < n or a["destination"] == dest:
                    continue
                for b in direct_options(ctx, a["destination"], dest, day, cabin, n):
                    if R.minutes(b["scheduled_departure_time_est"]) >= R.minutes(a["scheduled_arrival_time_est"]) + R.MIN_LAYOVER_MIN:
                        pairs.append(({**a, "prices": ia["prices"]}, b))
            if not pairs:
                continue
            pref = "cheapest"
            pairs.sort(key=lambda p: p[0]["prices"][cabin] + p[1]["prices"][cabin])
            if len(pairs) > 1 and sum(p["prices"][cabin] for p in pairs[0]) == sum(p["prices"][cabin] for p in pairs[1]):
                continue
            segs = [(pairs[0][0], day), (pairs[0][1], day)]
            actions = [("search_direct_flight", {"origin": origin, "destination": dest, "date": day}),
                       ("search_onestop_flight", {"origin": origin, "destination": dest, "date": day})]
        break
    else:
        return []
    bags = rng.randint(0, n + 1)
    nonfree = R.nonfree_bags(bags, user["membership"], cabin, n)
    insurance = rng.choice(["yes", "no", "no"])
    total = sum(f["prices"][cabin] for f, _ in segs) * n + (R.INSURANCE_FEE * n if insurance == "yes" else 0) + R.BAG_FEE * nonfree
    methods = sorted(user["payment_methods"].values(), key=lambda m: m["id"])
    cards = [m for m in methods if m["source"] == "credit_card"]
    gifts_full = [m for m in methods if m["source"] == "gift_card" and (m["amount"] or 0) >= total]
    partial = [m for m in methods if m["source"] in ("gift_card", "certificate") and 0 < (m["amount"] or 0) < total]
    style = rng.choices(["card", "gift", "split"], [0.5, 0.25 if gifts_full else 0, 0.35 if partial else 0])[0]
    if style == "gift":
        g = rng.choice(gifts_full)
        payments = [{"payment_id": g["id"], "amount": total}]
        pay = pay_text(g)
    elif style == "split":
        p, c = rng.choice(partial), rng.choice(cards)
        payments = [{"payment_id": p["id"], "amount": p["amount"]}, {"payment_id": c["id"], "amount": round(total - p["amount"], 2)}]
        pay = f"use the full balance of {pay_text(p)} first and put the rest on {pay_text(c)}"
    else:
        c = rng.choice(cards)
        payments = [{"payment_id": c["id"], "amount": total}]
        pay = pay_text(c)
    origin, dest = segs[0][0]["origin"], (segs[0][0]["destination"] if round_trip else segs[-1][0]["destination"])
    day = segs[0][1]
    flight_type = "round_trip" if round_trip else "one_way"
    actions.append(("book_reservation", {
        "user_id": ctx.user_id, "origin": origin, "destination": dest, "flight_type": flight_type, "cabin": cabin,
        "flights": [{"flight_number": f["flight_number"], "date": d} for f, d in segs], "passengers": pax,
        "payment_methods": payments, "total_baggages": bags, "nonfree_baggages": nonfree, "insurance": insurance}))
    trip = "a round trip" if round_trip else "a one-way trip"
    when = f"leaving {day}" + (f" and returning {ret}" if ret else "")
    style_text = "nonstop" if len(segs) == 1 or round_trip else "with one stop (there is no nonstop flight)"
    facts = [("trip_type", "round trip" if round_trip else "one way"), ("origin", origin), ("destination", dest),
             ("departure_date", day), *([("return_date", ret)] if ret else []), ("cabin", cabin), *facts,
             ("bags", str(bags)), ("insurance", insurance), ("payment_method", pay)]
    word = CABIN_WORDS[cabin]
    return [Plan(
        kind="book",
        request=f"I want to book {trip} from {ctx.city(origin)} to {ctx.city(dest)}.",
        goal=(f"Book {trip} from {ctx.city(origin)} ({origin}) to {ctx.city(dest)} ({dest}), {when}, in {word}, "
              f"for {pax_text}, with {bags} checked bag(s) in total, {'with' if insurance == 'yes' else 'without'} "
              f"travel insurance. Payment: {yours(pay)}."),
        actions=actions,
        facts=facts,
        details=[f"Trip: {trip}, {ctx.city(origin)} ({origin}) to {ctx.city(dest)} ({dest}), {when}.",
                 f"Cabin: {word}. Travellers: {pax_text}.", f"Checked bags: {bags} in total.",
                 f"Travel insurance: {insurance}.", f"Payment: {yours(pay)}."],
        preferences=[f"Flights {style_text}; on each day you want {PREFS[pref][0]}."],
        limits=["Do not accept a different cabin, date or airport."],
    )]
