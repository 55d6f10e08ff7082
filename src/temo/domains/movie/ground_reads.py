"""Read hooks of the movie domain: catalogue, theaters, schedule, seats, prices and bookings."""
from __future__ import annotations

import re
from typing import Any

from temo.domains.kit.money import usd
from temo.env.grounding import Ground, GroundingFailed, Step

from . import phrases as P
from . import rules as R
from . import situation as S
from .hooking import booking_facts, booking_ref, drop_other_show, read_hook, title_of
from .plans import fresh_plan, new_show, plan_args

STOP = {"the", "of", "and", "in", "on", "to", "at", "for", "from", "with", "over", "under", "my", "end", "world"}


@read_hook
def list_movies(g: Ground) -> Step:
    movies = list(g.store.values("movies"))
    words: dict[str, list[str]] = {}
    for m in movies:
        for w in {w for w in re.findall(r"[A-Za-z']+", m["title"]) if len(w) >= 4 and w.lower() not in STOP}:
            words.setdefault(w.lower(), []).append(m["movie_id"])
    unique = {m["movie_id"]: sorted(w for w, ids in words.items() if ids == [m["movie_id"]]) for m in movies}
    pool = [m for m in movies if unique[m["movie_id"]]]
    pool = [m for m in pool if not S.was_asked(g, "list_movies", m["movie_id"])] or pool
    movie = g.pick("movie", pool, key=lambda m: m["movie_id"])
    S.mark_asked(g, "list_movies", movie["movie_id"])
    word = g.rng.choice(unique[movie["movie_id"]]).capitalize()
    ask = g.rng.choice([f"I'm trying to remember a movie with the word '{word}' in its title. What is its full title?",
                        f"There's a film with '{word}' in the name; what is the exact title?",
                        f"Which movie in the catalogue has '{word}' in its title?"])
    return Step(args={}, ask=ask, facts=[P.fact(g, "title_word", word)], outputs=[movie["title"]],
                focus={"movie": movie["movie_id"]})


@read_hook
def get_movie_details(g: Ground) -> Step:
    kinds = ["runtime", "release", "director"]
    mid = g.focus.get("movie")
    if not mid or not S.fresh_kinds(g, "get_movie_details", mid, kinds):
        pool = [m for m in g.store.values("movies") if m["movie_id"] != mid and S.fresh_kinds(g, "get_movie_details", m["movie_id"], kinds)]
        mid = g.pick("movie", pool, key=lambda m: m["movie_id"])["movie_id"]
    movie = g.store.get("movies", mid)
    title = movie["title"]
    kind = g.rng.choice(S.fresh_kinds(g, "get_movie_details", mid, kinds))
    S.mark_asked(g, "get_movie_details", mid, kind)
    if kind == "runtime":
        ask, out = g.rng.choice([f"How long is {title}?", f"What is the running time of {title}?"]), str(movie["runtime_minutes"])
    elif kind == "release":
        ask, out = g.rng.choice([f"When did {title} come out?", f"What is the release date of {title}?"]), movie["release_date"]
    else:
        ask, out = g.rng.choice([f"Who directed {title}?", f"I'd like to know the director of {title}."]), movie["crew"]["director"]
    return Step(args={"movie_id": movie["movie_id"]}, ask=ask, facts=[P.fact(g, "movie", title)], outputs=[out],
                focus={"movie": movie["movie_id"]})


@read_hook
def list_theaters(g: Ground) -> Step:
    tid = g.focus.get("theater")
    th = g.store.get("theaters", tid) if tid else None
    if th is None or S.was_asked(g, "list_theaters", th["address"]["city"]):
        pool = [t for t in g.store.values("theaters") if not S.was_asked(g, "list_theaters", t["address"]["city"])]
        th = g.pick("theater", pool, key=lambda t: t["theater_id"])
    city = th["address"]["city"]
    S.mark_asked(g, "list_theaters", city)
    drop_other_show(g, th["theater_id"])
    names = [t["name"] for t in g.store.values("theaters") if t["address"]["city"] == city]
    ask = g.rng.choice([f"Which Silverscreen cinemas are there in {city}?", f"I'm in {city}; which theaters of the chain are there?",
                        f"I'd like the names of the Silverscreen theaters in {city}."])
    return Step(args={}, ask=ask, facts=[P.fact(g, "city", city)], outputs=names,
                focus={"theater": th["theater_id"]})


@read_hook
def get_theater_details(g: Ground) -> Step:
    kinds = ["fee", "phone", "address"]
    tid = g.focus.get("theater")
    if not tid or not S.fresh_kinds(g, "get_theater_details", tid, kinds):
        pool = [t for t in g.store.values("theaters") if t["theater_id"] != tid
                and S.fresh_kinds(g, "get_theater_details", t["theater_id"], kinds)]
        tid = g.pick("theater", pool, key=lambda t: t["theater_id"])["theater_id"]
    th = g.store.get("theaters", tid)
    drop_other_show(g, tid)
    name = th["name"]
    kind = g.rng.choice(S.fresh_kinds(g, "get_theater_details", tid, kinds))
    S.mark_asked(g, "get_theater_details", tid, kind)
    if kind == "fee":
        ask, out = g.rng.choice([f"What booking fee does {name} charge?", f"How much is the booking fee at {name}?"]), \
            usd(th["pricing_rules"]["fees"]["booking_fee"])
    elif kind == "phone":
        ask, out = g.rng.choice([f"What is the phone number of {name}?", f"I need the phone number for {name}."]), th["contact"]["phone"]
    else:
        ask, out = g.rng.choice([f"What is the street address of {name}?", f"Where exactly is {name}? I need the street address."]), \
            th["address"]["address1"]
    return Step(args={"theater_id": th["theater_id"]}, ask=ask, facts=[P.fact(g, "theater", name)], outputs=[out],
                focus={"theater": th["theater_id"]})


@read_hook
def list_shows(g: Ground) -> Step:
    tid, mid = g.focus.get("theater"), g.focus.get("movie")
    options = S.bookable_shows(g, tid, mid) or S.bookable_shows(g, tid) or S.bookable_shows(g, None, mid)
    if not options:
        raise GroundingFailed("no_open_show")
    options = [x for x in options if not S.was_asked(g, "list_shows", f"{x[0]['theater_id']}/{x[1]['date']}")] or options
    th, s = g.pick("show", options, key=lambda x: x[1]["show_id"])
    S.mark_asked(g, "list_shows", f"{th['theater_id']}/{s['date']}")
    with_movie = mid == s["movie_id"] or g.rng.random() < 0.5
    args = {"theater_id": th["theater_id"], "date": s["date"], **({"movie_id": s["movie_id"]} if with_movie else {})}
    shows = [x for x in g.run("list_shows", args)
             if x["status"] == "scheduled" and R.minutes_until(x["date"], x["start_time_local"]) > 0]
    title = title_of(g, s["movie_id"])
    facts = [P.fact(g, "theater", th["name"]), P.fact(g, "show_date", s["date"])]
    if with_movie:
        facts.append(P.fact(g, "movie", title))
        outputs = [x["start_time_local"] for x in shows]
        ask = g.rng.choice([f"What times is {title} playing at {th['name']} on {s['date']}?",
                            f"When are the showings of {title} at {th['name']} on {s['date']}?"])
    else:
        outputs = list(dict.fromkeys(x["movie_title"] for x in shows))
        ask = g.rng.choice([f"What's playing at {th['name']} on {s['date']}?",
                            f"Which movies are showing at {th['name']} on {s['date']}?"])
    return Step(args=args, ask=ask, facts=facts, outputs=outputs, focus=S.show_focus(th, s))


def _show_for_read(g: Ground) -> tuple[dict, dict, bool]:
    """(theater, show, from_booking): the focused show, else the focused booking's show, else an open show."""
    fs = S.focus_show(g)
    if fs:
        return fs[0], fs[1], False
    bid = g.focus.get("booking")
    if bid and g.store.get("bookings", bid):
        th, s = S.booking_show(g, g.store.get("bookings", bid))
        return th, s, True
    options = S.bookable_shows(g, g.focus.get("theater"), g.focus.get("movie")) or S.bookable_shows(g)
    th, s = g.pick("show", options, key=lambda x: x[1]["show_id"], reason="no_open_show")
    return th, s, False


@read_hook
def get_show_details(g: Ground) -> Step:
    kinds = ["end", "format", "hall"]
    th, s, _ = _show_for_read(g)
    if not S.fresh_kinds(g, "get_show_details", s["show_id"], kinds):
        pool = [x for x in S.bookable_shows(g, th["theater_id"]) if x[1]["show_id"] != s["show_id"]]
        th, s = g.pick("show", pool, key=lambda x: x[1]["show_id"], reason="no_open_show")
    text = P.show_text(g, th, s)
    kind = g.rng.choice(S.fresh_kinds(g, "get_show_details", s["show_id"], kinds))
    S.mark_asked(g, "get_show_details", s["show_id"], kind)
    if kind == "end":
        ask, out = g.rng.choice([f"What time does {text} end?", f"When does {text} finish?"]), s["end_time_local"]
    elif kind == "format":
        ask, out = g.rng.choice([f"Which format is {text} in?", f"Is {text} in 2D, 3D, IMAX or Dolby?"]), s["format"]
    else:
        ask, out = g.rng.choice([f"Which auditorium is {text} in?", f"In which screen or hall is {text}?"]), \
            th["auditoriums"][s["auditorium_id"]]["name"]
    return Step(args={"theater_id": th["theater_id"], "show_id": s["show_id"], "date": s["date"]}, ask=ask, outputs=[out],
                facts=P.show_facts(g, th, s), focus=S.show_focus(th, s))


@read_hook
def get_show_status(g: Ground) -> Step:
    fs = S.focus_show(g)
    booking = None
    if fs is None:
        mine = [b for b in S.my_bookings(g) if b["status"] == "confirmed"]
        if mine:
            hit = [b for b in mine if S.booking_show(g, b)[1]["status"] == "canceled"]
            pool = hit if hit and g.rng.random() < 0.6 else mine
            booking = g.pick("booking", pool, key=lambda b: b["booking_id"])
            fs = S.booking_show(g, booking)
        else:
            _th, _s, _ = _show_for_read(g)
            fs = (_th, _s)
    th, s = fs
    if booking is not None:
        ask = g.rng.choice([f"Is the show on {booking_ref(g, booking)} still going ahead?",
                            f"I've heard some shows were called off; is the one on {booking_ref(g, booking)} still on?"])
        facts, focus = booking_facts(g, booking), {"booking": booking["booking_id"], **S.show_focus(th, s)}
    else:
        text = P.show_text(g, th, s)
        ask = g.rng.choice([f"Is {text} still on?", f"Has {text} been canceled, or is it going ahead?"])
        facts, focus = P.show_facts(g, th, s), S.show_focus(th, s)
    return Step(args={"theater_id": th["theater_id"], "show_id": s["show_id"]}, ask=ask, facts=facts,
                outputs=[s["status"]], focus=focus)


@read_hook
def get_seat_availability(g: Ground) -> Step:
    th, s, _ = _show_for_read(g)
    found = g.run("get_seat_availability", {"theater_id": th["theater_id"], "show_id": s["show_id"]})
    text = P.show_text(g, th, s)
    ask = g.rng.choice([f"How many seats are still free for {text}?", f"How full is {text}? I'd like the number of free seats."])
    return Step(args={"theater_id": th["theater_id"], "show_id": s["show_id"]}, ask=ask, facts=P.show_facts(g, th, s),
                outputs=[str(len(found["available"]))], focus=S.show_focus(th, s))


# -- prices and the write tools ---------------------------------------------------------------------
@read_hook
def price_preview(g: Ground) -> Step:
    th, s = new_show(g)
    bid = g.focus.get("booking")
    b = g.store.get("bookings", bid) if bid else None
    if b is not None and b["show_id"] == s["show_id"] and S.reseatable(g, b) and len(b["seats"]) < R.MAX_SEATS:
        extra = S.neighbour(g, th, s, [x["seat_id"] for x in b["seats"]], bid)
        if extra:
            seats = [{"seat_id": x["seat_id"], "ticket_type": x["ticket_type"]} for x in b["seats"]] + \
                    [{"seat_id": extra, "ticket_type": "adult"}]
            plan = {"theater": th["theater_id"], "show": s["show_id"], "seats": seats, "concessions": [], "booking": bid}
            total = g.run("price_preview", plan_args(plan))["totals"]["grand_total"]
            g.notes["plan"] = plan
            ask = f"What would booking {bid} cost in total with one more adult seat, {extra}?"
            return Step(args=plan_args(plan), ask=ask, facts=[P.fact(g, "booking_id", bid), P.fact(g, "seat_to_add", extra)],
                        details=[f"The extra seat would be {extra}, next to ours."], outputs=[usd(total)],
                        focus={"booking": bid, **S.show_focus(th, s)})
    plan = fresh_plan(g, th, s)
    total = g.run("price_preview", plan_args(plan))["totals"]["grand_total"]
    g.notes["plan"] = plan
    text = P.show_text(g, th, s)
    snack = f", with {P.concessions_text(plan['concessions'])}," if plan["concessions"] else ""
    ask = g.rng.choice([f"How much would {P.tickets_text(plan['seats'])} for {text}{snack} come to, all in?",
                        f"What's the total price for {P.tickets_text(plan['seats'])} to {text}{snack} including fees and tax?"])
    facts = [P.fact(g, "ticket_types", P.types_text(plan["seats"]))]
    if plan["concessions"]:
        facts.append(P.fact(g, "concessions", P.concessions_text(plan["concessions"])))
    return Step(args=plan_args(plan), ask=ask, facts=P.show_facts(g, th, s) + facts, outputs=[usd(total)],
                focus=S.show_focus(th, s))


@read_hook
def get_booking_details(g: Ground) -> Step:
    bid = g.focus.get("booking")
    b = g.store.get("bookings", bid) if bid else None
    if b is None or b["customer_id"] != g.user_id:
        mine = S.my_bookings(g)
        b = g.pick("booking", [x for x in mine if x["status"] == "confirmed"] or mine, key=lambda x: x["booking_id"])
    def options(x: dict[str, Any]) -> list[str]:
        return S.fresh_kinds(g, "get_booking_details", x["booking_id"],
                             ["start", "seats", "paid"] if x["status"] == "confirmed" else ["status"])

    if not options(b):
        pool = [x for x in S.my_bookings(g) if options(x)]
        b = g.pick("booking", pool, key=lambda x: x["booking_id"], reason="no_booking_question_left")
    bid = b["booking_id"]
    S.see(g, bid)
    ref = booking_ref(g, b)
    kind = g.rng.choice(options(b))
    S.mark_asked(g, "get_booking_details", bid, kind)
    if kind == "start":
        ask, outs = g.rng.choice([f"What time does the show on {ref} start?", f"I forgot the start time of the show on {ref}."]), \
            [b["start_time_local"]]
    elif kind == "seats":
        ask, outs = g.rng.choice([f"Which seats are on {ref}?", f"I'd like the seat numbers on {ref} read back."]), \
            [x["seat_id"] for x in b["seats"]]
    elif kind == "paid":
        ask, outs = g.rng.choice([f"How much did {ref} cost in total?", f"What was the grand total of {ref}?"]), \
            [usd(b["totals"]["grand_total"])]
    else:
        ask, outs = g.rng.choice([f"What is the status of {ref} now?", f"Is {ref} still active?"]), [b["status"]]
    th, s = S.booking_show(g, b)
    return Step(args={"booking_id": bid}, ask=ask, facts=booking_facts(g, b), outputs=outs,
                focus={"booking": bid, **S.show_focus(th, s)})
