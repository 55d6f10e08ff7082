"""Write hooks of the movie domain: book, cancel, change seats."""
from __future__ import annotations

from typing import Any

from temo.domains.kit.ids import next_id
from temo.domains.kit.money import money, usd
from temo.env.grounding import Ground, GroundingFailed, Step

from . import phrases as P
from . import rules as R
from . import situation as S
from .checks import seat_order
from .hooking import booking_facts, booking_ref, write_hook
from .plans import fresh_plan, new_show, plan_args, plan_details

DELIVERY = {"e-ticket": "I'd like e-tickets sent by email.", "box-office": "I'll pick the tickets up at the box office.",
            "kiosk": "I'll print the tickets at the kiosk in the lobby."}


@write_hook
def create_booking(g: Ground) -> Step:
    plan = g.notes.get("plan")
    if plan and plan["booking"] is None:
        th, s = S.show_of(g, plan["theater"], plan["show"])
        free = {x["seat_id"] for x in S.free_seats(g, th, s)}
        if not S.open_show(s) or not all(x["seat_id"] in free for x in plan["seats"]):
            plan = None
    else:
        plan = None
    if plan is None:
        th, s = new_show(g)
        plan = fresh_plan(g, th, s)
    total = g.run("price_preview", plan_args(plan))["totals"]["grand_total"]
    method = S.pay_with(g, total)
    delivery = g.rng.choices(list(DELIVERY), [0.6, 0.2, 0.2])[0]
    u = g.user
    args = {**plan_args(plan), "customer": {"name": dict(u["name"]), "email": u["email"], "phone": u["phone"]},
            "delivery_method": delivery, "payments": [{"amount": total, "method": S.method_arg(method)}]}
    order = ["theater_id", "show_id", "customer", "seats", "delivery_method", "payments", "concessions"]
    args = {k: args[k] for k in order if k in args}
    bid = next_id(g.store, "bookings", "BKG", 4)
    g.notes.setdefault("created", set()).add(bid)
    S.used(g).add(bid)
    g.notes["plan"] = None
    text = P.show_text(g, th, s)
    ask = g.rng.choice([f"I'd like to book {P.tickets_text(plan['seats'])} for {text}.",
                        f"Please book {P.tickets_text(plan['seats'])} for {text}.",
                        f"I want to buy tickets for {text}: {P.tickets_text(plan['seats'])}."])
    details, facts = plan_details(g, plan)
    details += [DELIVERY[delivery], f"I'll pay with {P.method_text(method)}."]
    facts += [P.fact(g, "email", u["email"]), P.fact(g, "phone", u["phone"]),
              P.fact(g, "first_name", u["name"]["first_name"]), P.fact(g, "last_name", u["name"]["last_name"]),
              P.fact(g, "delivery_method", delivery), P.fact(g, "payment_method", P.method_text(method).replace("my ", "", 1))]
    return Step(args=args, ask=ask, details=details, facts=P.show_facts(g, th, s) + facts,
                output_from=lambda res: [res["booking_id"], usd(res["totals"]["grand_total"])],
                preferences=["Only seats that are not wheelchair spaces; no special requests."],
                focus={"booking": bid, **S.show_focus(th, s)}, uses=S.show_focus(th, s))


@write_hook
def cancel_booking(g: Ground) -> Step:
    cands = [b for b in S.my_bookings(g) if S.cancellable(g, b)]
    b = g.pick("booking", cands, key=lambda x: x["booking_id"], reason="no_cancellable_booking")
    bid = b["booking_id"]
    th, s = S.booking_show(g, b)
    S.used(g).add(bid)
    g.notes.setdefault("left_shows", set()).add(s["show_id"])
    if s["status"] == "canceled":
        ask = g.rng.choice([f"The theater called off the show on my booking {bid}; please cancel it and refund me.",
                            f"My show was canceled by the cinema, so I'd like booking {bid} canceled and my money back."])
    else:
        ask = g.rng.choice([f"Please cancel booking {bid}; I can't make it anymore.", f"I need to cancel my booking {bid}.",
                            f"Something came up, so I'd like to cancel booking {bid} and get a refund."])
    return Step(args={"booking_id": bid}, ask=ask, details=[f"It's for {P.show_text(g, th, s)}."],
                facts=booking_facts(g, b), outputs=[usd(R.net_paid(b["payment_history"]))],
                focus={"booking": bid, **S.show_focus(th, s)})


def _reseat_options(g: Ground, b: dict[str, Any]) -> list[tuple[str, list[dict], dict]]:
    """(variant, new seat list, info) for a booking: add a seat, drop one, move, or change a ticket type."""
    th, s = S.booking_show(g, b)
    cur = [{"seat_id": x["seat_id"], "ticket_type": x["ticket_type"]} for x in b["seats"]]
    ids = [x["seat_id"] for x in cur]
    out = []
    extra = S.neighbour(g, th, s, ids, b["booking_id"]) if len(cur) < R.MAX_SEATS else None
    if extra:
        t = g.rng.choice(["adult", "adult", "child", "senior"])
        out.append(("add", sorted(cur + [{"seat_id": extra, "ticket_type": t}], key=lambda x: seat_order(x["seat_id"])),
                    {"seat": extra, "type": t}))
    if len(cur) >= 2:
        drop = g.rng.choice(cur)
        out.append(("drop", [x for x in cur if x is not drop], {"seat": drop["seat_id"]}))
    block = S.seat_block(g, th, s, len(cur), avoid=set(ids))
    if block:
        out.append(("move", [{"seat_id": i, "ticket_type": x["ticket_type"]} for i, x in zip(block, cur)], {}))
    x = g.rng.choice(cur)
    new_type = g.rng.choice([t for t in R.TICKET_TYPES if t != x["ticket_type"]])
    if s["price_schema"][new_type] != s["price_schema"][x["ticket_type"]]:
        out.append(("type", [dict(y, ticket_type=new_type) if y is x else y for y in cur],
                    {"seat": x["seat_id"], "old": x["ticket_type"], "new": new_type}))
    g.rng.shuffle(out)
    return out


def _difference(g: Ground, b: dict[str, Any], seats: list[dict]) -> float:
    th, s = S.booking_show(g, b)
    lines = R.seat_lines(s, th["pricing_rules"]["tax_rate_percent"], seats)
    return money(R.totals(lines, b["concessions"], th["pricing_rules"]["fees"]["booking_fee"])["grand_total"]
                 - b["totals"]["grand_total"])


@write_hook
def update_booking_seats(g: Ground) -> Step:
    plan = g.notes.get("plan")
    cands = [b for b in S.my_bookings(g) if S.reseatable(g, b)]
    if plan and plan["booking"] and any(b["booking_id"] == plan["booking"] for b in cands):
        b = g.store.get("bookings", plan["booking"])
        added = [x for x in plan["seats"] if x["seat_id"] not in {y["seat_id"] for y in b["seats"]}]
        choice = ("add", plan["seats"], {"seat": added[0]["seat_id"], "type": added[0]["ticket_type"]})
    else:
        b = g.pick("booking", cands, key=lambda x: x["booking_id"], reason="no_reseatable_booking")
        options = _reseat_options(g, b)
        if not options:
            raise GroundingFailed("no_reseat_option")
        choice = options[0]
    variant, seats, info = choice
    bid = b["booking_id"]
    S.used(g).add(bid)
    g.notes["plan"] = None
    S.see(g, bid)
    diff = _difference(g, b, seats)
    args: dict[str, Any] = {"booking_id": bid, "seats": [dict(x) for x in seats]}
    facts = booking_facts(g, b)
    details: list[str] = []
    if diff > 0:
        original = next(p["method"]["payment_method_id"] for p in b["payment_history"] if p["amount"] > 0)
        method = S.pay_with(g, diff, prefer=bid)
        args["payment"] = {"amount": diff, "method": S.method_arg(method)}
        details.append(f"Any extra cost goes on {P.method_text(method)}" +
                       (", the same as before." if method["payment_method_id"] == original else "."))
        facts.append(P.fact(g, "payment_method", P.method_text(method).replace("my ", "", 1)))
    ref = booking_ref(g, b)
    if variant == "add":
        ask = g.rng.choice([f"A friend is joining us, so I'd like to add one more seat to {ref}.",
                            f"I need one extra seat on {ref}."])
        details.insert(0, f"The extra seat should be {info['seat']}, next to ours, on {'an' if info['type'] == 'adult' else 'a'} "
                          f"{info['type']} ticket.")
        facts += [P.fact(g, "seat_to_add", info["seat"]), P.fact(g, "ticket_types", f"{info['type']} for the extra seat")]
    elif variant == "drop":
        ask = g.rng.choice([f"One of us can't come, so please release a seat from {ref}.",
                            f"I'd like to give back one seat on {ref}; the rest stay."])
        details.insert(0, f"Release seat {info['seat']} and keep the others.")
        facts.append(P.fact(g, "seat_to_drop", info["seat"]))
    elif variant == "move":
        ask = g.rng.choice([f"I'd like to move the seats on {ref} to a different spot.", f"Please change the seats on {ref}."])
        details.insert(0, f"I'd like {P.seats_text(seats)} instead. {P.types_detail(seats)}")
        facts.append(P.fact(g, "new_seats", P.seats_text(seats)))
    else:
        ask = g.rng.choice([f"One ticket on {ref} should be {'an' if info['new'] == 'adult' else 'a'} {info['new']} ticket "
                            f"instead of {'an' if info['old'] == 'adult' else 'a'} {info['old']} ticket.",
                            f"I booked the wrong ticket type for one seat on {ref}; it should be {info['new']}."])
        details.insert(0, f"It's the ticket for seat {info['seat']}; the seat itself stays the same.")
        facts.append(P.fact(g, "ticket_change", f"seat {info['seat']} as {info['new']}"))
    outputs = [usd(abs(diff))] if diff else []
    th, s = S.booking_show(g, b)
    return Step(args=args, ask=ask, details=details, facts=facts, outputs=outputs,
                preferences=["Keep every other seat and ticket on the booking exactly as it is."],
                focus={"booking": bid, **S.show_focus(th, s)})
