"""Shared pieces of the basketball grounding hooks: what the player knows, how they say it, and which
clubs and games fit a tool's preconditions in the state as it is now.

Players know their email, their name and zip code, their club and its opponents, game dates, the
names and jersey numbers of teammates, and what happened on court. They never know player, club,
game, contract or event ids.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from temo.domains.kit.vocabulary import aliases
from temo.env.grounding import Ground, GroundingFailed

from .rules import CURRENT_SEASON, SEASONS, TODAY, current_contract

_ALIASES = aliases(__file__)
CLUB_ALIASES = _ALIASES["club"]
MATCHUP_ALIASES = _ALIASES["matchup"]
DATE_ALIASES = _ALIASES["date"]
LEAGUE_ALIASES = _ALIASES["league"]
SEASON_ALIASES = _ALIASES["season"]
PLAYER_ALIASES = _ALIASES["player"]
NUMBER_ALIASES = _ALIASES["number"]
SEASON_WORDS = {CURRENT_SEASON: "this season", SEASONS[0]: "last season", None: "over every season on record"}


# -- the user ------------------------------------------------------------------------------------------
def my_club_id(g: Ground) -> str:
    c = current_contract(g.user)
    if c is None:
        raise GroundingFailed("player_without_club")
    return c["club_id"]


def club(g: Ground, club_id: str) -> dict[str, Any]:
    return g.store.get("clubs", club_id)


def game(g: Ground, game_id: str) -> dict[str, Any]:
    return g.store.get("games", game_id)


def person(g: Ground, player_id: str) -> str:
    n = g.store.get("players", player_id)["name"]
    return f"{n['first_name']} {n['last_name']}"


def jersey(g: Ground, club_id: str, player_id: str) -> int:
    return club(g, club_id)["roster"][player_id]["profile"]["number"]


def teammates(g: Ground) -> list[str]:
    c = club(g, my_club_id(g))
    return sorted(pid for pid, e in c["roster"].items() if e["active"] and pid != g.user_id)


# -- words ----------------------------------------------------------------------------------------------
def is_mine(g: Ground, gm: dict[str, Any]) -> bool:
    mine = my_club_id(g)
    return mine in (gm["clubs"]["home"]["club_id"], gm["clubs"]["away"]["club_id"])


def opponent(g: Ground, gm: dict[str, Any]) -> str:
    mine = my_club_id(g)
    side = "away" if gm["clubs"]["home"]["club_id"] == mine else "home"
    return gm["clubs"][side]["name"]


def matchup(gm: dict[str, Any]) -> str:
    return f"{gm['clubs']['home']['name']} vs {gm['clubs']['away']['name']}"


def when(gm: dict[str, Any]) -> str:
    return "today" if gm["date"] == TODAY else f"on {gm['date']}"


def game_phrase(g: Ground, gm: dict[str, Any]) -> str:
    if is_mine(g, gm):
        return f"our game against the {opponent(g, gm)} {when(gm)}"
    return f"the {matchup(gm)} game {when(gm)}"


def score_text(gm: dict[str, Any]) -> str:
    """Scores are said home first (as the policy asks): '81-77'."""
    return f"{gm['clubs']['home']['score']}-{gm['clubs']['away']['score']}"


def game_facts(g: Ground, gm: dict[str, Any]) -> list:
    return [g.fact("matchup", matchup(gm), MATCHUP_ALIASES), g.fact("game_date", gm["date"], DATE_ALIASES)]


def game_details(g: Ground, gm: dict[str, Any]) -> list[str]:
    home, away = gm["clubs"]["home"]["name"], gm["clubs"]["away"]["name"]
    return [f"It is the game with the {home} at home against the {away}, played on {gm['date']}."]


def club_fact(g: Ground, c: dict[str, Any]):
    return g.fact("club_name", c["name"], CLUB_ALIASES)


def club_phrase(g: Ground, c: dict[str, Any]) -> str:
    return f"my club (the {c['name']})" if c["club_id"] == my_club_id(g) else "the " + c["name"]


def season_fact(g: Ground, season: str | None) -> list:
    return [g.fact("season", season, SEASON_ALIASES)] if season else []


# -- choosing ---------------------------------------------------------------------------------------------
def choose_club(g: Ground) -> dict[str, Any]:
    """The focused club, else a club of the focused league, else the player's own club or any club."""
    if "club" in g.focus:
        cands = [g.focus["club"]]
    elif "league" in g.focus:
        cands = sorted(k for k, c in g.store.items("clubs") if c["league"] == g.focus["league"])
    elif g.rng.random() < 0.5:
        cands = [my_club_id(g)]
    else:
        cands = sorted(g.store.keys("clubs"))
    return club(g, g.pick("club", cands))


def current(gm: dict[str, Any]) -> bool:
    """A game a player can still act on: in progress, or scheduled or postponed from today on."""
    return gm["status"] == "in_progress" or (gm["status"] in ("scheduled", "postponed") and gm["date"] >= TODAY)


def choose_game(g: Ground, fits: Callable[[dict[str, Any]], bool], reason: str, own_share: float = 0.7,
                lively: float = 0.0) -> dict[str, Any]:
    """A game that ``fits``: the focused one, else one of the focused (or own) club's, else any.

    ``lively``: the chance to look first among the own club's current games (today's, the coming ones),
    the games a later write in the same request can act on."""
    fid = g.focus.get("game")
    if fid and fits(game(g, fid)):
        return game(g, fid)
    pools: list[Iterable[str]] = []
    if "club" in g.focus:
        pools.append(club(g, g.focus["club"])["games"])
    if g.rng.random() < own_share:
        own = club(g, my_club_id(g))["games"]
        if g.rng.random() < lively:
            pools.append([gid for gid in own if current(game(g, gid))])
        pools.append(own)
    pools.append(sorted(g.store.keys("games")))
    for pool in pools:
        cands = [gid for gid in pool if fits(game(g, gid))]
        if cands:
            return game(g, g.pick("game", cands))
    raise GroundingFailed(reason)


def choose_player(g: Ground) -> tuple[str, str | None]:
    """(player id, club id for words): the focused player, else the user, a teammate, or a player of the
    focused club."""
    if "player" in g.focus:
        pid = g.focus["player"]
        return pid, None if pid == g.user_id else _club_of(g, pid)
    fc = g.focus.get("club")
    if fc and fc != my_club_id(g):
        squad = sorted(p for p, e in club(g, fc)["roster"].items() if e["active"])
        return g.pick("player", squad), fc
    if g.rng.random() < 0.55 or not teammates(g):
        return g.user_id, None
    return g.pick("player", teammates(g)), my_club_id(g)


def _club_of(g: Ground, pid: str) -> str:
    c = current_contract(g.store.get("players", pid))
    return c["club_id"]


def player_words(g: Ground, pid: str, club_id: str | None) -> tuple[str, list]:
    """How the user names a player, and the facts for it."""
    if pid == g.user_id:
        return "I", []
    name, number = person(g, pid), jersey(g, club_id, pid)
    facts = [g.fact("player_name", name, PLAYER_ALIASES), g.fact("jersey_number", number, NUMBER_ALIASES)]
    if club_id == my_club_id(g):
        return f"my teammate {name} (our number {number})", facts
    c = club(g, club_id)
    return f"{name}, number {number} of the {c['name']}", facts + [club_fact(g, c)]
