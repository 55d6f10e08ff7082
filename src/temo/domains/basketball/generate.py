"""Generate the basketball database: 1,000 players, 240 clubs, 1,468 games (paper Table 15).

A regional basketball association with twelve leagues (18 to 24 clubs each) and two seasons of
round-robin fixtures: 2023-24 (five rounds, all final) and 2024-25 (eight rounds; TODAY, 2025-03-15,
is the sixth round, with games already over, in progress, still to tip off and postponed). Every club
has four or five registered players; about one player in five moved clubs in the summer of 2024.

Deterministic for a seed: everything comes from one `random.Random`, never the clock. Seed 0 is the
evaluation database, seed 1 the separate training database (other clubs, people and games).
"""
from __future__ import annotations

import random
from typing import Any

from temo.domains.kit.dates import add_days
from temo.domains.kit.people import LAST_NAMES, STREET_KINDS, STREETS, full_name

from .rules import POINTS, QUARTERS, SEASONS, TODAY, game_time, period_length, stamp

SEPARATE_TRAIN_DB = True
N_PLAYERS = 1000
N_CLUBS = 240
N_GAMES = 1468
N_TRADE_PAIRS = 95

# league name -> (number of clubs, [(city, state, zip prefix)])
LEAGUES: list[tuple[str, int, list[tuple[str, str, str]]]] = [
    ("Northeast Premier League", 24, [("Boston", "MA", "021"), ("Providence", "RI", "029"), ("Hartford", "CT", "061"),
                                      ("Worcester", "MA", "016"), ("Portland", "ME", "041"), ("Burlington", "VT", "054"),
                                      ("Manchester", "NH", "031"), ("New Haven", "CT", "065")]),
    ("Empire State League", 22, [("Buffalo", "NY", "142"), ("Rochester", "NY", "146"), ("Syracuse", "NY", "132"),
                                 ("Albany", "NY", "122"), ("Yonkers", "NY", "107"), ("Ithaca", "NY", "148"),
                                 ("Utica", "NY", "135"), ("Binghamton", "NY", "139")]),
    ("Atlantic Coast League", 22, [("Baltimore", "MD", "212"), ("Richmond", "VA", "232"), ("Norfolk", "VA", "235"),
                                   ("Wilmington", "DE", "198"), ("Newark", "NJ", "071"), ("Trenton", "NJ", "086"),
                                   ("Annapolis", "MD", "214"), ("Alexandria", "VA", "223")]),
    ("Great Lakes League", 20, [("Detroit", "MI", "482"), ("Cleveland", "OH", "441"), ("Toledo", "OH", "436"),
                                ("Milwaukee", "WI", "532"), ("Grand Rapids", "MI", "495"), ("Erie", "PA", "165"),
                                ("Chicago", "IL", "606"), ("Gary", "IN", "464")]),
    ("Heartland League", 20, [("Omaha", "NE", "681"), ("Des Moines", "IA", "503"), ("Kansas City", "MO", "641"),
                              ("Wichita", "KS", "672"), ("Lincoln", "NE", "685"), ("Topeka", "KS", "666"),
                              ("Springfield", "MO", "658"), ("Cedar Rapids", "IA", "524")]),
    ("Carolina League", 20, [("Charlotte", "NC", "282"), ("Raleigh", "NC", "276"), ("Durham", "NC", "277"),
                             ("Greensboro", "NC", "274"), ("Columbia", "SC", "292"), ("Charleston", "SC", "294"),
                             ("Asheville", "NC", "288"), ("Greenville", "SC", "296")]),
    ("Gulf Coast League", 20, [("Houston", "TX", "770"), ("New Orleans", "LA", "701"), ("Mobile", "AL", "366"),
                               ("Tampa", "FL", "336"), ("Pensacola", "FL", "325"), ("Baton Rouge", "LA", "708"),
                               ("Corpus Christi", "TX", "784"), ("Galveston", "TX", "775")]),
    ("Lone Star League", 20, [("Austin", "TX", "787"), ("Dallas", "TX", "752"), ("San Antonio", "TX", "782"),
                              ("Fort Worth", "TX", "761"), ("El Paso", "TX", "799"), ("Lubbock", "TX", "794"),
                              ("Waco", "TX", "767"), ("Amarillo", "TX", "791")]),
    ("Mountain West League", 18, [("Denver", "CO", "802"), ("Salt Lake City", "UT", "841"), ("Boise", "ID", "837"),
                                  ("Colorado Springs", "CO", "809"), ("Provo", "UT", "846"), ("Cheyenne", "WY", "820"),
                                  ("Billings", "MT", "591"), ("Fort Collins", "CO", "805")]),
    ("Desert League", 18, [("Phoenix", "AZ", "850"), ("Tucson", "AZ", "857"), ("Albuquerque", "NM", "871"),
                           ("Las Vegas", "NV", "891"), ("Mesa", "AZ", "852"), ("Reno", "NV", "895"),
                           ("Santa Fe", "NM", "875"), ("Flagstaff", "AZ", "860")]),
    ("Pacific Coast League", 18, [("San Diego", "CA", "921"), ("Los Angeles", "CA", "900"), ("Oakland", "CA", "946"),
                                  ("Sacramento", "CA", "958"), ("San Jose", "CA", "951"), ("Fresno", "CA", "937"),
                                  ("Long Beach", "CA", "908"), ("Santa Barbara", "CA", "931")]),
    ("Cascadia League", 18, [("Seattle", "WA", "981"), ("Portland", "OR", "972"), ("Tacoma", "WA", "984"),
                             ("Spokane", "WA", "992"), ("Eugene", "OR", "974"), ("Salem", "OR", "973"),
                             ("Bellingham", "WA", "982"), ("Bend", "OR", "977")]),
]
NICKNAMES = (
    "Comets Hawks Rivermen Blaze Storm Titans Falcons Wolves Bears Lions Tigers Eagles Pioneers Rangers Knights "
    "Raptors Thunder Lightning Cyclones Vipers Stallions Mustangs Foxes Owls Ravens Wildcats Panthers Cougars Bulls "
    "Sharks Dolphins Pilots Rockets Voyagers Miners Lumberjacks Anchors Mariners Harbormen Express Flyers Aces "
    "Chargers Generals Sentinels Guardians Outlaws Bandits Coyotes Jaguars Hornets Spartans Warriors Monarchs "
    "Royals Dukes Barons Kings Phantoms Ghosts Heat Flames Suns Stars Tide Waves Rapids Glaciers Summit Peaks"
).split()
ARENA_KINDS = ["Arena", "Fieldhouse", "Center", "Pavilion", "Gymnasium", "Coliseum", "Sports Hall"]
EMAIL_DOMAINS = ["example.com", "example.org", "example.net", "hoopsmail.example.com"]

S1_DATES = ["2023-11-11", "2023-12-09", "2024-01-13", "2024-02-10", "2024-03-09"]
S2_DATES = ["2024-11-09", "2024-11-30", "2024-12-14", "2025-01-18", "2025-02-15", TODAY, "2025-03-22", "2025-03-29"]
SEASON_START = {SEASONS[0]: "2023-07-01", SEASONS[1]: "2024-07-01"}
TRADE_DAY = "2024-07-01"

# position -> (height range cm, weight range kg)
BODY = {"PG": ((178, 193), (75, 90)), "SG": ((185, 198), (80, 95)), "SF": ((196, 206), (90, 104)),
        "PF": ((201, 211), (98, 112)), "C": ((206, 220), (105, 125))}


def _shift(date: str, days: int) -> str:
    return add_days(date, days) if days else date


def _round_robin(order: list[str]) -> list[list[tuple[str, str]]]:
    """All n-1 rounds of a single round robin (circle method) for an even number of clubs."""
    n = len(order)
    ring = list(order)
    rounds = []
    for _ in range(n - 1):
        rounds.append([(ring[i], ring[n - 1 - i]) for i in range(n // 2)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def _clubs(rng: random.Random) -> dict[str, dict[str, Any]]:
    clubs: dict[str, dict[str, Any]] = {}
    names: set[str] = set()
    n = 0
    for league, size, cities in LEAGUES:
        nicks = rng.sample(NICKNAMES, len(NICKNAMES))
        for k in range(size):
            city, state, zip3 = cities[k % len(cities)]
            nick = next(x for x in nicks if f"{city} {x}" not in names)
            nicks.remove(nick)
            name = f"{city} {nick}"
            names.add(name)
            n += 1
            cid = f"CL{n:03d}"
            host = rng.choice([rng.choice(LAST_NAMES), city, nick.rstrip("s")])
            addr = f"{rng.randint(10, 2999)} {rng.choice(STREETS)} {rng.choice(STREET_KINDS)}, {city}, {state} {zip3}{rng.randint(0, 99):02d}"
            clubs[cid] = {"club_id": cid, "name": name, "league": league, "city": city,
                          "arena": {"name": f"{host} {rng.choice(ARENA_KINDS)}", "address": addr},
                          "roster": {}, "games": [], "_state": state, "_zip3": zip3}
    return clubs


def _contract(source: str, club_id: str, start_year: int, years: int, salary: float, end: str | None = None) -> dict:
    return {"source": source, "club_id": club_id, "start_date": f"{start_year}-07-01",
            "end_date": end or f"{start_year + years}-06-30", "extra_info": {"salary": salary, "years": years}}


def _salary(rng: random.Random) -> float:
    return float(rng.randrange(35_000, 420_000, 500))


def _players(rng: random.Random, clubs: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    ids = sorted(clubs)
    big = set(rng.sample(ids, N_PLAYERS - 4 * N_CLUBS))  # these clubs have five players, the rest four
    players: dict[str, dict[str, Any]] = {}
    emails: set[str] = set()
    n = 0
    for cid in ids:
        club = clubs[cid]
        positions = ["PG", "SG", "SF", "PF", "C"] if cid in big else ["PG", rng.choice(["SG", "SF"]), "PF", "C"]
        numbers = rng.sample(range(0, 56), len(positions))
        for pos, number in zip(positions, numbers):
            n += 1
            pid = f"PL{n:04d}"
            first, last = full_name(rng)
            while True:
                mail = f"{first.lower()}.{last.lower()}{rng.randint(1, 999)}@{rng.choice(EMAIL_DOMAINS)}"
                if mail not in emails:
                    emails.add(mail)
                    break
            (h_lo, h_hi), (w_lo, w_hi) = BODY[pos]
            players[pid] = {
                "player_id": pid, "name": {"first_name": first, "last_name": last},
                "address": {"street": f"{rng.randint(10, 9999)} {rng.choice(STREETS)} {rng.choice(STREET_KINDS)}"
                                      + rng.choice(["", "", "", f", Apt {rng.randint(1, 40)}{rng.choice('ABCD')}"]),
                            "city": club["city"], "state": club["_state"], "country": "USA",
                            "zip": f"{club['_zip3']}{rng.randint(0, 99):02d}"},
                "email": mail, "contracts": [], "games": [],
                "_club": cid, "_pos": pos, "_number": number, "_ppg": rng.uniform(6, 24),
                "_body": (rng.randint(h_lo, h_hi), rng.randint(w_lo, w_hi)),
            }
    # summer 2024 moves: pairs of players swap clubs, so every club keeps its size in both seasons
    pool = sorted(players)
    rng.shuffle(pool)
    pairs, used = [], set()
    for a in pool:
        if len(pairs) >= N_TRADE_PAIRS or a in used:
            continue
        b = next((b for b in pool if b not in used and b != a and players[b]["_club"] != players[a]["_club"]), None)
        if b is not None:
            used.update((a, b))
            pairs.append((a, b))
    before = {pid: p["_club"] for pid, p in players.items()}
    for a, b in pairs:
        before[a], before[b] = players[b]["_club"], players[a]["_club"]
    for pid in sorted(players):
        p = players[pid]
        start = rng.randint(2019, 2022) if pid in used else rng.randint(2019, 2023)
        history = []
        if rng.random() < 0.15:  # an earlier spell at another club
            old = rng.choice([c for c in ids if c not in (p["_club"], before[pid])])
            s0 = start - rng.randint(2, 4)
            history.append(_contract(rng.choice(["draft", "free agency"]), old, s0, start - s0, _salary(rng)))
        first_source = "free agency" if history else rng.choice(["draft", "draft", "free agency"])
        if pid in used:
            history.append(_contract(first_source, before[pid], start, 2024 - start, _salary(rng)))
            years = rng.randint(1, 4)
            history.append(_contract(rng.choice(["trade", "trade", "free agency"]), p["_club"], 2024, years, _salary(rng)))
        else:
            years = rng.randint(max(2, 2025 - start), 2025 - start + 3)
            history.append(_contract(first_source, p["_club"], start, years, _salary(rng)))
        p["contracts"] = history
    return players


def _finish_people(players: dict[str, dict[str, Any]], clubs: dict[str, dict[str, Any]]) -> None:
    """Contract ids, and roster entries (active for the contract covering TODAY)."""
    n = 0
    for pid in sorted(players):
        p = players[pid]
        out = {}
        for c in p["contracts"]:
            n += 1
            cid = f"CT{n:04d}"
            out[cid] = {"contract_id": cid, **c}
        p["contracts"] = out
        height, weight = p["_body"]
        for c in sorted(out.values(), key=lambda c: c["start_date"]):
            club = clubs[c["club_id"]]
            active = c["start_date"] <= TODAY <= c["end_date"]
            taken = {e["profile"]["number"] for e in club["roster"].values()}
            number = p["_number"]
            if not active:  # a former player's number must not clash with the current squad's
                current = {players[q]["_number"] for q in players if players[q]["_club"] == c["club_id"]}
                if number in taken | current:
                    number = min(set(range(0, 56)) - taken - current)
            club["roster"][pid] = {"player_id": pid, "active": active, "salary": c["extra_info"]["salary"],
                                   "profile": {"position": p["_pos"], "number": number, "height_cm": height,
                                               "weight_kg": weight}}


def _spells(players: dict[str, dict[str, Any]]) -> dict[str, list[tuple[str, str, str]]]:
    """club id -> [(player id, contract start, contract end)]"""
    out: dict[str, list[tuple[str, str, str]]] = {}
    for pid in sorted(players):
        for c in players[pid]["contracts"].values():
            out.setdefault(c["club_id"], []).append((pid, c["start_date"], c["end_date"]))
    return out


def _lineup(spells: dict[str, list[tuple[str, str, str]]], club_id: str, date: str) -> list[str]:
    return [pid for pid, start, end in spells.get(club_id, []) if start <= date <= end]


def _line(p: dict[str, Any], club_id: str, points: int, minutes: int, rng: random.Random) -> dict[str, Any]:
    big = p["_pos"] in ("PF", "C")
    scale = minutes / 32
    return {"name": f"{p['name']['first_name']} {p['name']['last_name']}", "club_id": club_id,
            "player_id": p["player_id"], "points": points,
            "options": {"rebounds": round(rng.randint(5, 13) * scale) if big else round(rng.randint(1, 7) * scale),
                        "assists": round(rng.randint(4, 10) * scale) if p["_pos"] == "PG" else round(rng.randint(0, 5) * scale),
                        "minutes": minutes}}


def _final(game: dict[str, Any], side_players: dict[str, list[str]], players: dict, rng: random.Random) -> None:
    lines, totals = [], {}
    for side in ("home", "away"):
        club_id = game["clubs"][side]["club_id"]
        roster = side_players[side]
        playing = [p for p in roster if rng.random() > 0.05] or roster
        total = 0
        for pid in playing:
            pts = max(0, round(rng.gauss(players[pid]["_ppg"], 5)))
            lines.append(_line(players[pid], club_id, pts, rng.randint(18, 38), rng))
            total += pts
        totals[side] = total
    if totals["home"] == totals["away"]:  # no draws in basketball: a late free throw decides it
        line = next(ln for ln in lines if ln["club_id"] == game["clubs"]["home"]["club_id"])
        line["points"] += 1
        totals["home"] += 1
    for side in ("home", "away"):
        game["clubs"][side]["score"] = totals[side]
    game["box_score"] = lines
    # the archive keeps the closing plays of the fourth quarter
    left = {ln["player_id"]: ln["points"] for ln in lines}
    clock = rng.randint(150, 300)
    events = []
    for k in range(rng.randint(3, 5)):
        scorers = sorted(pid for pid, pts in left.items() if pts > 0)
        if not scorers or clock <= 0:
            break
        pid = rng.choice(scorers)
        kinds = [t for t, v in POINTS.items() if v <= left[pid]]
        kind = rng.choices(kinds, [{"2PT": 5, "3PT": 3, "FT": 2}[t] for t in kinds])[0]
        left[pid] -= POINTS[kind]
        club_id = next(ln["club_id"] for ln in lines if ln["player_id"] == pid)
        events.append({"event_id": f"{game['game_id']}-E{k + 1:03d}", "event_type": kind, "points": POINTS[kind],
                       "club_id": club_id, "player_id": pid, "timestamp": stamp(QUARTERS, clock)})
        clock -= rng.randint(8, 60)
    game["scoring_history"] = events
    game["periods"] = [{"period_number": n, "event_ids": [e["event_id"] for e in events] if n == QUARTERS else [],
                        "player_ids": sorted({e["player_id"] for e in events}) if n == QUARTERS else []}
                       for n in range(1, QUARTERS + 1)]


def _live(game: dict[str, Any], side_players: dict[str, list[str]], players: dict, rng: random.Random) -> None:
    """A game in progress: the complete scoring log so far, with box lines and scores that match it."""
    period = rng.choices([1, 2, 3, 4], [2, 3, 3, 2])[0]
    left_now = rng.randint(20, period_length(period) - 20)
    end = game_time(period, left_now)
    side_of = {pid: side for side in ("home", "away") for pid in side_players[side]}
    points = {pid: 0 for pid in side_of}
    events, t, k = [], rng.randint(10, 40), 0
    while t < end:
        side = rng.choice(("home", "away"))
        roster = side_players[side]
        pid = rng.choices(roster, [players[p]["_ppg"] for p in roster])[0]
        kind = rng.choices(["2PT", "3PT", "FT"], [55, 25, 20])[0]
        number, passed = 1, t
        while passed >= period_length(number):
            passed -= period_length(number)
            number += 1
        k += 1
        events.append({"event_id": f"{game['game_id']}-E{k:03d}", "event_type": kind, "points": POINTS[kind],
                       "club_id": game["clubs"][side]["club_id"], "player_id": pid,
                       "timestamp": stamp(number, period_length(number) - passed)})
        points[pid] += POINTS[kind]
        t += rng.randint(18, 56)
    played = end / 60
    lines = []
    for side in ("home", "away"):
        club_id = game["clubs"][side]["club_id"]
        for pid in side_players[side]:
            lines.append(_line(players[pid], club_id, points[pid], max(1, round(played * rng.uniform(0.5, 0.95))), rng))
        game["clubs"][side]["score"] = sum(points[p] for p in side_players[side])
    game["box_score"] = lines
    game["scoring_history"] = events
    game["periods"] = []
    for n in range(1, period + 1):
        mine = [e for e in events if e["timestamp"].startswith(f"Q{n} ")]
        game["periods"].append({"period_number": n, "event_ids": [e["event_id"] for e in mine],
                                "player_ids": sorted({e["player_id"] for e in mine})})


def _status(rng: random.Random, date: str) -> str:
    if date < TODAY:
        return "postponed" if rng.random() < 0.02 else "final"
    if date > TODAY:
        return "postponed" if rng.random() < 0.05 else "scheduled"
    return rng.choices(["in_progress", "final", "scheduled", "postponed"], [45, 17, 33, 5])[0]


def _games(rng: random.Random, clubs: dict[str, dict[str, Any]], players: dict) -> dict[str, dict[str, Any]]:
    fixtures = []  # (date, league index, home, away)
    for li, (league, _, _) in enumerate(LEAGUES):
        members = sorted(c for c in clubs if clubs[c]["league"] == league)
        rng.shuffle(members)
        rounds = _round_robin(members)
        offset = rng.choice([-1, 0, 0, 1])
        dates = S1_DATES + S2_DATES
        for r, date in enumerate(dates):
            day = date if date == TODAY else _shift(date, offset)
            for i, (a, b) in enumerate(rounds[r]):
                home, away = (a, b) if (r + i) % 2 == 0 else (b, a)
                fixtures.append((day, li, home, away, r == len(dates) - 1))
    last_round = [f for f in fixtures if f[4]]
    keep_last = set(rng.sample(range(len(last_round)), N_GAMES - (len(fixtures) - len(last_round))))
    chosen = [f for f in fixtures if not f[4]] + [f for i, f in enumerate(last_round) if i in keep_last]
    chosen.sort(key=lambda f: (f[0], f[1], clubs[f[2]]["name"]))
    games: dict[str, dict[str, Any]] = {}
    spells = _spells(players)
    for n, (date, li, home, away, _) in enumerate(chosen, 1):
        gid = f"GM{n:04d}"
        h, a = clubs[home], clubs[away]
        season = SEASONS[0] if date < SEASON_START[SEASONS[1]] else SEASONS[1]
        game = {"game_id": gid, "season": season, "date": date, "league": LEAGUES[li][0],
                "status": "final" if season == SEASONS[0] else _status(rng, date),
                "venue": {"name": h["arena"]["name"], "address": h["arena"]["address"]},
                "clubs": {"home": {"name": h["name"], "club_id": home, "score": 0},
                          "away": {"name": a["name"], "club_id": away, "score": 0}},
                "box_score": [], "periods": [], "scoring_history": []}
        sides = {"home": _lineup(spells, home, date), "away": _lineup(spells, away, date)}
        if game["status"] == "final":
            _final(game, sides, players, rng)
        elif game["status"] == "in_progress":
            _live(game, sides, players, rng)
        games[gid] = game
        h["games"].append(gid)
        a["games"].append(gid)
        for line in game["box_score"]:
            players[line["player_id"]]["games"].append(gid)
    return games


def build_database(seed: int = 0, split: str = "test") -> dict[str, dict[str, Any]]:
    """{"players", "clubs", "games"} at the paper's sizes, for ``seed`` (``split`` is informational)."""
    rng = random.Random(seed)
    clubs = _clubs(rng)
    players = _players(rng, clubs)
    _finish_people(players, clubs)
    games = _games(rng, clubs, players)
    for c in clubs.values():
        for k in ("_state", "_zip3"):
            c.pop(k)
    for p in players.values():
        for k in [k for k in p if k.startswith("_")]:
            p.pop(k)
    assert (len(players), len(clubs), len(games)) == (N_PLAYERS, N_CLUBS, N_GAMES)
    return {"players": players, "clubs": clubs, "games": games}
