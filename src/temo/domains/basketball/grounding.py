"""Basketball grounding hooks for Tracer: one per node of graph.json.

The user is a registered player talking to the association's player-services desk. Reads concern
any club, game or player (public data); writes concern only the player's own address and the games
of the player's own club (policy.md). Each hook picks, in the state as it is now, an entity the tool
accepts (a game in progress to log a play in, a scheduled game dated today to start, a game in
progress whose score is not tied to close...), so the call succeeds and a write changes the state.
Identity look-ups, persona and challenges are in ``people.py``.
"""
from __future__ import annotations

from temo.env.grounding import Ground, Grounder, GroundingFailed, Step, hook

from . import picks as P
from .people import (ADDRESS_ALIASES, CHALLENGES, authenticate, candidate_users, check_policy, internal_ids,
                     name_of, new_address, persona)
from .rules import CURRENT_SEASON, EVENT_WORDS, POINTS, SEASONS, TODAY, TRANSITIONS, game_time, \
    period_length, parse_stamp, stamp

HOOKS: dict = {}


def _season(g: Ground) -> str | None:
    return g.rng.choices([CURRENT_SEASON, SEASONS[0], None], [6, 2, 2])[0]


# -- clubs ------------------------------------------------------------------------------------------------
@hook(HOOKS)
def list_all_clubs(g: Ground) -> Step:
    clubs = g.run("list_all_clubs", {})
    if g.rng.random() < 0.5:
        ask = g.rng.choice(["How many clubs are registered with the association altogether?",
                            "I'm curious how many clubs the association has across all its leagues.",
                            "What is the total number of clubs in the association?"])
        return Step(args={}, ask=ask, outputs=[str(len(clubs))])
    nick = g.rng.choice(sorted(clubs)).rsplit(" ", 1)[1]
    n = sum(1 for name in clubs if name.endswith(" " + nick))
    ask = g.rng.choice([f"How many clubs in the association are called the {nick}?",
                        f"I keep mixing up teams named the {nick}; how many clubs use that name?"])
    return Step(args={}, ask=ask, outputs=[str(n)])


@hook(HOOKS)
def list_clubs_by_league(g: Ground) -> Step:
    if "league" in g.focus:
        league = g.focus["league"]
    elif "club" in g.focus:
        league = P.club(g, g.focus["club"])["league"]
    elif g.rng.random() < 0.5:
        league = P.club(g, P.my_club_id(g))["league"]
    else:
        league = g.pick("league", sorted({c["league"] for c in g.store.values("clubs")}))
    n = len(g.run("list_clubs_by_league", {"league": league}))
    ask = g.rng.choice([f"How many clubs play in the {league}?", f"How big is the {league}; how many clubs are in it?",
                        f"Could I find out the number of clubs in the {league}?"])
    return Step(args={"league": league}, ask=ask, outputs=[str(n)],
                facts=[g.fact("league_name", league, P.LEAGUE_ALIASES)], focus={"league": league})


@hook(HOOKS)
def get_club_details(g: Ground) -> Step:
    c = P.choose_club(g)
    what = P.club_phrase(g, c)
    kind = g.rng.choice(["arena", "city", "league"])
    if kind == "arena":
        ask = g.rng.choice([f"Which arena does {what} play its home games in?", f"What is the home arena of {what}?"])
        out = c["arena"]["name"]
    elif kind == "city":
        ask = g.rng.choice([f"Which city is {what} based in?", f"Where is {what} from?"])
        out = c["city"]
    else:
        ask = g.rng.choice([f"Which league does {what} play in?", f"What league is {what} part of?"])
        out = c["league"]
    return Step(args={"club_id": c["club_id"]}, ask=ask, outputs=[out], facts=[P.club_fact(g, c)],
                focus={"club": c["club_id"]})


@hook(HOOKS)
def list_club_roster_ids(g: Ground) -> Step:
    c = P.choose_club(g)
    what = P.club_phrase(g, c)
    active_only = g.rng.random() < 0.7
    n = len(g.run("list_club_roster_ids", {"club_id": c["club_id"], "active_only": active_only}))
    if active_only:
        ask = g.rng.choice([f"How many registered players are on the current roster of {what}?",
                            f"How many players does {what} have under contract right now?"])
    else:
        ask = g.rng.choice([f"Counting former players too, how many players have been on the roster of {what}?",
                            f"How many players, past and present, appear on the roster of {what}?"])
    return Step(args={"club_id": c["club_id"], "active_only": active_only}, ask=ask, outputs=[str(n)],
                facts=[P.club_fact(g, c)], focus={"club": c["club_id"]})


@hook(HOOKS)
def get_club_schedule(g: Ground) -> Step:
    c = P.choose_club(g)
    cid, what = c["club_id"], P.club_phrase(g, c)
    kind = g.rng.choice(["next", "left", "past"])
    if kind == "next":
        games = g.run("get_club_schedule", {"club_id": cid, "season": CURRENT_SEASON, "status": "scheduled"})
        if games:
            nxt = games[0]
            gm = P.game(g, nxt["game_id"])
            other = gm["clubs"]["away" if gm["clubs"]["home"]["club_id"] == cid else "home"]["name"]
            ask = g.rng.choice([f"When is the next scheduled game of {what}, and who is it against?",
                                f"Who does {what} play next, and on what date?"])
            return Step(args={"club_id": cid, "season": CURRENT_SEASON, "status": "scheduled"}, ask=ask,
                        outputs=[nxt["date"], other], facts=[P.club_fact(g, c)],
                        focus={"club": cid, "game": nxt["game_id"]})
        kind = "past"
    if kind == "left":
        n = len(g.run("get_club_schedule", {"club_id": cid, "season": CURRENT_SEASON, "status": "scheduled"}))
        ask = g.rng.choice([f"How many games does {what} still have scheduled this season?",
                            f"How many scheduled games are left for {what} in the {CURRENT_SEASON} season?"])
        return Step(args={"club_id": cid, "season": CURRENT_SEASON, "status": "scheduled"}, ask=ask,
                    outputs=[str(n)], facts=[P.club_fact(g, c)], focus={"club": cid})
    n = len(g.run("get_club_schedule", {"club_id": cid, "season": SEASONS[0]}))
    ask = g.rng.choice([f"How many games did {what} play in the {SEASONS[0]} season?",
                        f"What was the number of games on the {SEASONS[0]} schedule of {what}?"])
    return Step(args={"club_id": cid, "season": SEASONS[0]}, ask=ask, outputs=[str(n)],
                facts=[P.club_fact(g, c), *P.season_fact(g, SEASONS[0])], focus={"club": cid})


@hook(HOOKS)
def get_club_record(g: Ground) -> Step:
    c = P.choose_club(g)
    season = _season(g)
    args = {"club_id": c["club_id"], **({"season": season} if season else {})}
    rec = g.run("get_club_record", args)
    span = P.SEASON_WORDS[season] + (f" ({season})" if season else "")
    ask = g.rng.choice([f"What is the win-loss record of {P.club_phrase(g, c)} {span}?",
                        f"How many games has {P.club_phrase(g, c)} won and lost {span}?"])
    return Step(args=args, ask=ask, outputs=[rec["record"]], facts=[P.club_fact(g, c), *P.season_fact(g, season)],
                focus={"club": c["club_id"]})


# -- games ------------------------------------------------------------------------------------------------
@hook(HOOKS)
def get_game_details(g: Ground) -> Step:
    gm = P.choose_game(g, lambda x: True, "no_game", lively=0.5)
    phrase = P.game_phrase(g, gm)
    if gm["status"] in ("scheduled", "postponed") and g.rng.random() < 0.5:
        ask = g.rng.choice([f"Is {phrase} still on the schedule, or has it been postponed?",
                            f"What is the current status of {phrase}: scheduled or postponed?"])
        out = gm["status"]
    else:
        ask = g.rng.choice([f"At which arena is {phrase}?" if gm["date"] >= TODAY else f"At which arena was {phrase} played?",
                            f"Which venue hosts {phrase}?"])
        out = gm["venue"]["name"]
    return Step(args={"game_id": gm["game_id"]}, ask=ask, outputs=[out], facts=P.game_facts(g, gm),
                focus={"game": gm["game_id"]})


@hook(HOOKS)
def get_game_score(g: Ground) -> Step:
    gm = P.choose_game(g, lambda x: x["status"] in ("final", "in_progress"), "no_played_game", lively=0.5)
    phrase = P.game_phrase(g, gm)
    if gm["status"] == "final":
        ask = g.rng.choice([f"What was the final score of {phrase}?", f"How did {phrase} end?"])
    else:
        ask = g.rng.choice([f"What's the score right now in {phrase}?", f"Where does the score stand in {phrase}?"])
    return Step(args={"game_id": gm["game_id"]}, ask=ask, outputs=[P.score_text(gm)], facts=P.game_facts(g, gm),
                focus={"game": gm["game_id"]})


@hook(HOOKS)
def get_game_box_score(g: Ground) -> Step:
    gm = P.choose_game(g, lambda x: bool(x["box_score"]), "no_box_score", lively=0.5)
    phrase = P.game_phrase(g, gm)
    mine = next((ln for ln in gm["box_score"] if ln["player_id"] == g.user_id), None)
    facts = P.game_facts(g, gm)
    if mine is not None and g.rng.random() < 0.6:
        if g.rng.random() < 0.5:
            ask = g.rng.choice([f"How many points did I score in {phrase}?", f"What's my points total in {phrase}?"])
            out = str(mine["points"])
        else:
            ask = g.rng.choice([f"How many rebounds did I get in {phrase}?", f"What are my rebounds in {phrase}?"])
            out = str(mine["options"]["rebounds"])
        return Step(args={"game_id": gm["game_id"]}, ask=ask, outputs=[out], facts=facts,
                    focus={"game": gm["game_id"], "player": g.user_id})
    sides = []
    for side in ("home", "away"):
        lines = [ln for ln in gm["box_score"] if ln["club_id"] == gm["clubs"][side]["club_id"]]
        top = max((ln["points"] for ln in lines), default=-1)
        best = [ln for ln in lines if ln["points"] == top]
        if len(best) == 1:
            sides.append((side, best[0]))
    if not sides:
        raise GroundingFailed("no_single_top_scorer")
    side, best = g.rng.choice(sides)
    c = P.club(g, gm["clubs"][side]["club_id"])
    if not P.is_mine(g, gm):
        team = f"the {c['name']}"
    else:
        team = "us" if c["club_id"] == P.my_club_id(g) else "the other side"
    ask = g.rng.choice([f"Who was the top scorer for {team} in {phrase}?",
                        f"Which player scored the most points for {team} in {phrase}?"])
    return Step(args={"game_id": gm["game_id"]}, ask=ask, outputs=[best["name"]], facts=facts + [P.club_fact(g, c)],
                focus={"game": gm["game_id"]})


@hook(HOOKS)
def get_game_timeline(g: Ground) -> Step:
    gm = P.choose_game(g, lambda x: bool(x["scoring_history"]), "no_scoring_log", lively=0.5)
    phrase = P.game_phrase(g, gm)
    log = gm["scoring_history"]
    if g.rng.random() < 0.5:
        ask = g.rng.choice([f"At what point of {phrase} was the last scoring play logged?",
                            f"When was the most recent basket in the scoring log of {phrase}?"])
        out = log[-1]["timestamp"]
    else:
        ask = g.rng.choice([f"How many three-pointers are in the scoring log of {phrase}?",
                            f"Counting only the logged plays, how many threes were made in {phrase}?"])
        out = str(sum(1 for e in log if e["event_type"] == "3PT"))
    return Step(args={"game_id": gm["game_id"]}, ask=ask, outputs=[out], facts=P.game_facts(g, gm),
                focus={"game": gm["game_id"]})


@hook(HOOKS)
def get_player_total_points(g: Ground) -> Step:
    pid, cid = P.choose_player(g)
    season = _season(g)
    args = {"player_id": pid, **({"season": season} if season else {})}
    total = g.run("get_player_total_points", args)["total_points"]
    who, facts = P.player_words(g, pid, cid)
    span = P.SEASON_WORDS[season] + (f" ({season})" if season else "")
    if who == "I":
        ask = g.rng.choice([f"How many points have I scored {span}?", f"What's my points total {span}?"])
    else:
        ask = g.rng.choice([f"How many points has {who} scored {span}?", f"What's the points total of {who} {span}?"])
    return Step(args=args, ask=ask, outputs=[str(total)], facts=facts + P.season_fact(g, season),
                focus={"player": pid})


# -- writes -----------------------------------------------------------------------------------------------
@hook(HOOKS)
def modify_player_address(g: Ground) -> Step:
    if g.notes.get("address_changed"):
        raise GroundingFailed("address_already_changed")
    a = new_address(g)
    g.notes["address_changed"] = True
    text = f"{a['street']}, {a['city']}, {a['state']} {a['zip']}, {a['country']}"
    ask = g.rng.choice(["I've moved, so the home address on my player record needs updating.",
                        "Please change the home address the association has on file for me.",
                        "I have a new home address and want my registration to show it."])
    return Step(args={"player_id": g.user_id, **a}, ask=ask, details=[f"The new address is {text}."],
                facts=[g.fact(f"new_{k}", v, ADDRESS_ALIASES[k]) for k, v in a.items()],
                preferences=["Only the home address should change."])


def _status_options(g: Ground, gm: dict) -> list[str]:
    if not P.is_mine(g, gm):
        return []
    gid, status = gm["game_id"], gm["status"]
    if gid in g.used.get("status", set()) and not (status == "in_progress" and gid in g.used.get("scored", set())):
        return []
    out = []
    for new in TRANSITIONS[status]:
        if new == "in_progress" and gm["date"] != TODAY:
            continue
        if new in ("scheduled", "postponed") and gm["date"] < TODAY:
            continue
        if new == "final" and gm["clubs"]["home"]["score"] == gm["clubs"]["away"]["score"]:
            continue
        out.append(new)
    return out


@hook(HOOKS)
def update_game_status(g: Ground) -> Step:
    gm = P.choose_game(g, lambda x: bool(_status_options(g, x)), "no_game_to_update", own_share=1.0)
    options = _status_options(g, gm)
    new = "in_progress" if "in_progress" in options and g.rng.random() < 0.8 else g.rng.choice(options)
    gid, opp, phrase = gm["game_id"], P.opponent(g, gm), P.game_phrase(g, gm)
    outputs, details = [], P.game_details(g, gm)
    if new == "in_progress":
        ask = g.rng.choice([f"Our game against the {opp} is tipping off right now; please mark it as in progress.",
                            f"We've just started {phrase}; can it be set to in progress?"])
    elif new == "postponed":
        ask = g.rng.choice([f"{phrase[0].upper() + phrase[1:]} can't go ahead as planned; please mark it as postponed.",
                            f"The league asked us to postpone {phrase}; please record it as postponed."])
        details.append(g.rng.choice(["The arena is closed for repairs that day.", "The other club has too many injured players to play."]))
    elif new == "scheduled":
        ask = g.rng.choice([f"Our postponed game against the {opp} {P.when(gm)} is back on; please put it back on the schedule.",
                            f"{phrase[0].upper() + phrase[1:]} will be played after all, so it should be scheduled again."])
    else:
        ask = g.rng.choice([f"{phrase[0].upper() + phrase[1:]} has just finished; please mark it as final.",
                            f"The final buzzer just went in our game against the {opp}; please close it as final and tell me the final score."])
        outputs = [P.score_text(gm)]
    g.used.setdefault("status", set()).add(gid)
    words = new.replace("_", " ")
    return Step(args={"game_id": gid, "new_status": new}, ask=ask, details=details, outputs=outputs,
                facts=[*P.game_facts(g, gm), g.fact("new_status", words, ["new status", "status", "what status"])],
                focus={"game": gid})


def _next_stamp(g: Ground, gm: dict) -> str:
    """A time after the last logged play, in the current period (or the next one when its clock is low)."""
    current = gm["periods"][-1]["period_number"] if gm["periods"] else 1
    left = period_length(current)
    if gm["scoring_history"]:
        n, l = parse_stamp(gm["scoring_history"][-1]["timestamp"])
        if game_time(n, l) >= game_time(current, period_length(current)):
            current, left = n, l
    if left > 30:
        return stamp(current, g.rng.randint(max(0, left - 120), left - 5))
    if current < 4:
        return stamp(current + 1, g.rng.randint(360, period_length(current + 1) - 10))
    return stamp(current, g.rng.randint(0, left))


@hook(HOOKS)
def record_scoring_event(g: Ground) -> Step:
    gm = P.choose_game(g, lambda x: x["status"] == "in_progress" and P.is_mine(g, x), "no_own_game_in_progress",
                       own_share=1.0)
    gid, mine = gm["game_id"], P.my_club_id(g)
    other = gm["clubs"]["away" if gm["clubs"]["home"]["club_id"] == mine else "home"]["club_id"]
    ours = g.rng.random() < 0.75
    cid = mine if ours else other
    squad = sorted(p for p, e in P.club(g, cid)["roster"].items() if e["active"])
    if ours and g.rng.random() < 0.5:
        pid = g.user_id
    else:
        pid = g.rng.choice([p for p in squad if p != g.user_id])
    kind = g.rng.choices(["2PT", "3PT", "FT"], [5, 3, 2])[0]
    when = _next_stamp(g, gm)
    words = EVENT_WORDS[kind]
    who, facts = P.player_words(g, pid, cid)
    opp = P.opponent(g, gm)
    if who == "I":
        ask = g.rng.choice([f"I just made a {words} in our game against the {opp}, and it isn't in the scoring log yet; please add it.",
                            f"Please log my {words} in today's game against the {opp}."])
    elif ours:
        ask = g.rng.choice([f"Please log a {words} by {who} in our game against the {opp}.",
                            f"The scoring log of our game against the {opp} is missing a {words} by {who}; please add it."])
    else:
        ask = g.rng.choice([f"To be fair to the other side: {who} scored a {words} against us that is missing from the log; please add it.",
                            f"A {words} by {who} in their game against us today still needs to be logged; please record it."])
    home, away = gm["clubs"]["home"]["score"], gm["clubs"]["away"]["score"]
    if gm["clubs"]["home"]["club_id"] == cid:
        home += POINTS[kind]
    else:
        away += POINTS[kind]
    g.used.setdefault("scored", set()).add(gid)
    return Step(args={"game_id": gid, "event_type": kind, "points": POINTS[kind], "club_id": cid, "player_id": pid,
                      "timestamp": when},
                ask=ask, details=[*P.game_details(g, gm), f"It was a {words} ({kind}, {POINTS[kind]} point{'s' if POINTS[kind] > 1 else ''}), scored at {when} on the game clock.",
                                  "Once it is logged, I'd like to hear the new score."],
                facts=[*P.game_facts(g, gm), *facts,
                       g.fact("scoring_play", f"{words} ({kind})", ["type of play", "what kind of basket", "event type", "kind of score", "shot"]),
                       g.fact("game_clock", when, ["time", "game clock", "clock", "timestamp", "quarter", "when did it happen"])],
                outputs=[f"{home}-{away}"], focus={"game": gid})


GROUNDER = Grounder(
    user_table="players", hooks=HOOKS, authenticate=authenticate, candidate_users=candidate_users,
    persona=persona, name_of=name_of, challenges=CHALLENGES, internal_ids=internal_ids, check_policy=check_policy,
    test_share=1.0,
    context="the player-services desk of a regional basketball association",
)
