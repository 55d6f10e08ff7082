"""Tools of the basketball association's player-services desk: 17 read tools (14 domain + 3 generic)
and 3 write tools, with the names and arguments of the source toolkit (see README.md for the fixes).
"""
from __future__ import annotations

import re
from typing import Any, Literal, Optional

from temo.domains.kit.lookup import require
from temo.domains.kit.tooling import record_finder, record_reader
from temo.env import GENERIC_TOOLS, Store, ToolError, tool

from .rules import POINTS, TODAY, TRANSITIONS, parse_stamp, period_label, stamp_key

Status = Literal["scheduled", "in_progress", "final", "postponed"]
EventType = Literal["2PT", "3PT", "FT"]
_SEASON = re.compile(r"^(\d{4})-(\d{2})$")


# ------------------------------------------------------------------------------------------
# helpers (not tools)
# ------------------------------------------------------------------------------------------
def _club(db: Store, club_id: str) -> dict[str, Any]:
    return require(db, "clubs", club_id, "club")


def _game(db: Store, game_id: str) -> dict[str, Any]:
    return require(db, "games", game_id, "game")


def _player(db: Store, player_id: str) -> dict[str, Any]:
    return require(db, "players", player_id, "player")


def _season(season: Optional[str]) -> Optional[str]:
    if season is None:
        return None
    m = _SEASON.match(season.strip())
    if not m or (int(m.group(1)) + 1) % 100 != int(m.group(2)):
        raise ToolError(f"season {season!r} must look like '2024-25' (the starting year, a dash, the next year's last two digits)")
    return season.strip()


def _side(game: dict[str, Any], club_id: str) -> Optional[str]:
    for side in ("home", "away"):
        if game["clubs"][side]["club_id"] == club_id:
            return side
    return None


def _score(game: dict[str, Any]) -> dict[str, Any]:
    return {"game_id": game["game_id"], "date": game["date"], "status": game["status"],
            "home": dict(game["clubs"]["home"]), "away": dict(game["clubs"]["away"])}


# ------------------------------------------------------------------------------------------
# identity
# ------------------------------------------------------------------------------------------
find_player_id_by_email = record_finder("find_player_id_by_email", "email", "players", "email", "Find a registered player's id from their email address. Use it to authenticate the player.", "The player's email address, such as 'ana.lopez41@example.com'.", missing="no player with email {email}; ask the player to check the address")


@tool(kind="read")
def find_player_id_by_name(db: Store, first_name: str, last_name: str) -> str:
    """Find a registered player's id from their first and last name. Use it to authenticate a player who cannot give an email; then check their zip code against the record.

    Args:
        first_name: The player's first name, such as 'Ana'.
        last_name: The player's last name, such as 'Lopez'.
    """
    f, last = first_name.strip().lower(), last_name.strip().lower()
    hits = [p["player_id"] for p in db.values("players")
            if p["name"]["first_name"].lower() == f and p["name"]["last_name"].lower() == last]
    if not hits:
        raise ToolError(f"no player named {first_name} {last_name}; ask the player to check the spelling or give their email")
    if len(hits) > 1:
        raise ToolError(f"{len(hits)} players are named {first_name} {last_name}; ask for their email address instead")
    return hits[0]


get_player_details = record_reader("get_player_details", "player_id", _player, "Get a player's private record: name, home address, email, contracts (club, dates, salary) and the ids of the games they played. Share it only with that player.", "The player id, such as 'PL0042'.")


# ------------------------------------------------------------------------------------------
# clubs
# ------------------------------------------------------------------------------------------
@tool(kind="read")
def list_all_clubs(db: Store) -> dict:
    """List every club of the association, as a map from club name to club id."""
    return {c["name"]: c["club_id"] for c in sorted(db.values("clubs"), key=lambda c: c["name"])}


@tool(kind="read")
def list_clubs_by_league(db: Store, league: str) -> dict:
    """List the clubs of one league, as a map from club name to club id. The league name is matched without regard to case.

    Args:
        league: The league's name, such as 'Cascadia League'.
    """
    want = league.strip().lower()
    out = {c["name"]: c["club_id"] for c in sorted(db.values("clubs"), key=lambda c: c["name"]) if c["league"].lower() == want}
    if not out:
        known = sorted({c["league"] for c in db.values("clubs")})
        raise ToolError(f"no league named {league!r}; the leagues are: {', '.join(known)}")
    return out


@tool(kind="read")
def get_club_details(db: Store, club_id: str) -> dict:
    """Get a club's public record: name, league, city, arena, roster (player ids with position, jersey number, height, weight, whether still active) and the ids of its games.

    Args:
        club_id: The club id, such as 'CL007'.
    """
    club = _club(db, club_id)
    public = {k: v for k, v in club.items() if k != "roster"}
    public["roster"] = {pid: {k: v for k, v in e.items() if k != "salary"} for pid, e in club["roster"].items()}
    return public


@tool(kind="read")
def list_club_roster_ids(db: Store, club_id: str, active_only: bool = True) -> list:
    """List the ids of the players on a club's roster: the current squad, or with active_only false also its former players.

    Args:
        club_id: The club id, such as 'CL007'.
        active_only: True (default) for the current squad only; false to include former players.
    """
    club = _club(db, club_id)
    return sorted(pid for pid, e in club["roster"].items() if e["active"] or not active_only)


@tool(kind="read")
def get_club_schedule(db: Store, club_id: str, season: Optional[str] = None, status: Optional[Status] = None) -> list:
    """List a club's games in date order (id, date, season, status, home and away club), optionally for one season and one status.

    Args:
        club_id: The club id, such as 'CL007'.
        season: Only games of this season, such as '2024-25'; leave out for every season.
        status: Only games with this status: scheduled, in_progress, final or postponed; leave out for all.
    """
    club = _club(db, club_id)
    season = _season(season)
    out = []
    for gid in club["games"]:
        g = _game(db, gid)
        if (season is None or g["season"] == season) and (status is None or g["status"] == status):
            out.append({"game_id": gid, "date": g["date"], "season": g["season"], "status": g["status"],
                        "home": g["clubs"]["home"]["name"], "away": g["clubs"]["away"]["name"]})
    return sorted(out, key=lambda e: (e["date"], e["game_id"]))


@tool(kind="read")
def get_club_record(db: Store, club_id: str, season: Optional[str] = None) -> dict:
    """Count a club's wins and losses over its final games, optionally for one season.

    Args:
        club_id: The club id, such as 'CL007'.
        season: Only games of this season, such as '2024-25'; leave out for every season.
    """
    club = _club(db, club_id)
    season = _season(season)
    wins = losses = 0
    for gid in club["games"]:
        g = _game(db, gid)
        if g["status"] != "final" or (season is not None and g["season"] != season):
            continue
        side = _side(g, club_id)
        other = "away" if side == "home" else "home"
        if g["clubs"][side]["score"] > g["clubs"][other]["score"]:
            wins += 1
        else:
            losses += 1
    return {"club_id": club_id, "name": club["name"], "season": season or "all", "wins": wins, "losses": losses,
            "record": f"{wins}-{losses}"}


# ------------------------------------------------------------------------------------------
# games and players
# ------------------------------------------------------------------------------------------
get_game_details = record_reader("get_game_details", "game_id", _game, "Get a game's full record: season, date, league, status, venue, clubs and scores, box score, periods and scoring history.", "The game id, such as 'GM0815'.")
get_game_score = record_reader("get_game_score", "game_id", lambda db, key: _score(_game(db, key)), "Get a game's score summary: date, status and each club's name, id and score.", "The game id, such as 'GM0815'.")
get_game_box_score = record_reader("get_game_box_score", "game_id", lambda db, key: _game(db, key)["box_score"], "Get a game's box score: one line per player who played (name, club, points, rebounds, assists, minutes).", "The game id, such as 'GM0815'.")
get_game_timeline = record_reader("get_game_timeline", "game_id", lambda db, key: _game(db, key)["scoring_history"], "Get a game's logged scoring plays in order (type, points, club, player, timestamp such as 'Q3 04:12' with the time left on the period clock). Games in progress have the complete log; final games keep their closing plays.", "The game id, such as 'GM0815'.")


@tool(kind="read")
def get_player_total_points(db: Store, player_id: str, season: Optional[str] = None) -> dict:
    """Add up a player's points over the box scores of the games they played (including a game in progress), optionally for one season.

    Args:
        player_id: The player id, such as 'PL0042'.
        season: Only games of this season, such as '2024-25'; leave out for every season.
    """
    player = _player(db, player_id)
    season = _season(season)
    total = games = 0
    for gid in player["games"]:
        g = _game(db, gid)
        if season is not None and g["season"] != season:
            continue
        for line in g["box_score"]:
            if line["player_id"] == player_id:
                total += line["points"]
                games += 1
    return {"player_id": player_id, "season": season or "all", "games_played": games, "total_points": total}


# ------------------------------------------------------------------------------------------
# write tools
# ------------------------------------------------------------------------------------------
@tool(kind="write")
def modify_player_address(db: Store, player_id: str, street: str, city: str, state: str, country: str, zip: str) -> dict:
    """Replace a player's home address on file. Only for the authenticated player's own record.

    Args:
        player_id: The player id, such as 'PL0042'.
        street: Street and house number, with any apartment, such as '12 Oak Lane, Apt 3B'.
        city: The city, such as 'Denver'.
        state: The state, such as 'CO'.
        country: The country, such as 'USA'.
        zip: The zip code, such as '80205'.
    """
    player = _player(db, player_id)
    new = {"street": street.strip(), "city": city.strip(), "state": state.strip(), "country": country.strip(), "zip": zip.strip()}
    for k, v in new.items():
        if not v:
            raise ToolError(f"{k} must not be empty; ask the player for the full new address")
    if new == player["address"]:
        raise ToolError("this is already the address on file; nothing to change")
    rec = db.edit("players", player_id)
    rec["address"] = new
    return {"player_id": player_id, "address": dict(new)}


@tool(kind="write")
def update_game_status(db: Store, game_id: str, new_status: Status) -> dict:
    """Change a game's status. Allowed: scheduled -> in_progress (only on the game's date) or postponed; postponed -> scheduled (only if its date has not passed); in_progress -> final (only if the score is not tied). A final game cannot change.

    Args:
        game_id: The game id, such as 'GM0815'.
        new_status: The new status: scheduled, in_progress, final or postponed.
    """
    game = _game(db, game_id)
    old = game["status"]
    if new_status == old:
        raise ToolError(f"game {game_id} is already {old}; nothing to change")
    if new_status not in TRANSITIONS[old]:
        allowed = " or ".join(TRANSITIONS[old]) or "nothing (a final game is closed)"
        raise ToolError(f"a {old} game cannot become {new_status}; from {old} it can only move to {allowed}")
    if new_status == "in_progress" and game["date"] != TODAY:
        raise ToolError(f"game {game_id} is dated {game['date']}; a game can only be started on its game date ({TODAY} today)")
    if new_status in ("scheduled", "postponed") and game["date"] < TODAY:
        raise ToolError(f"game {game_id} was dated {game['date']}, which has passed; a new date must be set by league "
                        "operations staff, so offer a transfer to a human agent")
    home, away = game["clubs"]["home"]["score"], game["clubs"]["away"]["score"]
    if new_status == "final" and home == away:
        raise ToolError(f"the score is tied {home}-{away}; a basketball game cannot end in a tie (overtime must be played "
                        "and its scoring recorded first)")
    rec = db.edit("games", game_id)
    rec["status"] = new_status
    if new_status == "in_progress" and not rec["periods"]:
        rec["periods"] = [{"period_number": 1, "event_ids": [], "player_ids": []}]
    return _score(rec)


@tool(kind="write")
def record_scoring_event(db: Store, game_id: str, event_type: EventType, points: int, club_id: str, player_id: str,
                         timestamp: str) -> dict:
    """Log a scoring play in a game in progress: adds it to the scoring history, to the club's score and to the player's box-score line.

    Args:
        game_id: The game id, such as 'GM0815'.
        event_type: 2PT (a two-point basket), 3PT (a three-pointer) or FT (a free throw).
        points: The points of the play: 2 for 2PT, 3 for 3PT, 1 for FT.
        club_id: The id of the scoring club, which must be the home or away club of the game.
        player_id: The id of the scoring player, who must be on that club's current roster.
        timestamp: When it happened: the period and the time left on its clock, such as 'Q3 04:12' or 'OT1 02:30'.
    """
    game = _game(db, game_id)
    if game["status"] != "in_progress":
        raise ToolError(f"game {game_id} is {game['status']}; scoring plays can only be logged for a game in progress")
    if points != POINTS[event_type]:
        raise ToolError(f"a {event_type} is worth {POINTS[event_type]} point(s), not {points}")
    side = _side(game, club_id)
    if side is None:
        raise ToolError(f"club {club_id} does not play in game {game_id}; use the home or away club")
    _player(db, player_id)
    entry = _club(db, club_id)["roster"].get(player_id)
    if entry is None or not entry["active"]:
        raise ToolError(f"player {player_id} is not on the current roster of club {club_id}")
    try:
        number, _ = parse_stamp(timestamp)
        when = stamp_key(timestamp)
    except ValueError as e:
        raise ToolError(str(e)) from None
    current = game["periods"][-1]["period_number"] if game["periods"] else 1
    if number < current:
        raise ToolError(f"the game is already in {period_label(current)}; a play cannot be logged in an earlier period")
    if game["scoring_history"] and when < stamp_key(game["scoring_history"][-1]["timestamp"]):
        raise ToolError(f"the last logged play was at {game['scoring_history'][-1]['timestamp']}; a new play cannot be earlier")
    rec = db.edit("games", game_id)
    taken = [int(e["event_id"].rsplit("-E", 1)[1]) for e in rec["scoring_history"]]
    event = {"event_id": f"{game_id}-E{max(taken, default=0) + 1:03d}", "event_type": event_type, "points": points,
             "club_id": club_id, "player_id": player_id, "timestamp": timestamp.strip()}
    rec["scoring_history"].append(event)
    rec["clubs"][side]["score"] += points
    while not rec["periods"] or rec["periods"][-1]["period_number"] < number:
        rec["periods"].append({"period_number": len(rec["periods"]) + 1, "event_ids": [], "player_ids": []})
    period = rec["periods"][-1]
    period["event_ids"].append(event["event_id"])
    if player_id not in period["player_ids"]:
        period["player_ids"].append(player_id)
    line = next((ln for ln in rec["box_score"] if ln["player_id"] == player_id), None)
    if line is None:
        p = db.get("players", player_id)
        rec["box_score"].append({"name": f"{p['name']['first_name']} {p['name']['last_name']}", "club_id": club_id,
                                 "player_id": player_id, "points": points,
                                 "options": {"rebounds": 0, "assists": 0, "minutes": 0}})
        db.edit("players", player_id)["games"].append(game_id)
    else:
        line["points"] += points
    return {"game_id": game_id, "event": dict(event), "score": _score(rec)}


TOOLS = [
    find_player_id_by_email, find_player_id_by_name, get_player_details,
    list_all_clubs, list_clubs_by_league, get_club_details, list_club_roster_ids, get_club_schedule, get_club_record,
    get_game_details, get_game_score, get_game_box_score, get_game_timeline, get_player_total_points,
    modify_player_address, update_game_status, record_scoring_event,
    *GENERIC_TOOLS,
]
AUTH_TOOLS = ["find_player_id_by_email", "find_player_id_by_name"]
