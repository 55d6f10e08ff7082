"""Records of the basketball world: players, clubs and games (paper Table 15: 1,000 / 240 / 1,468).

These pydantic models document every table of `data/db.json[.gz]`; a test validates each record.
Tools work on the plain JSON records.

Consistency the generator keeps and the write tools preserve:
- a player is on exactly one club's roster with ``active=True``: the club of the contract that
  covers TODAY; earlier contracts match inactive roster entries of the earlier clubs;
- ``club.games`` lists every game the club plays in; ``player.games`` lists the games in which the
  player has a box-score line;
- in every game, a club's score equals the sum of the box-score points of its players;
- for games in progress, ``scoring_history`` is the complete live log, so it also sums to the score;
  for final games the archive keeps only the closing plays of the fourth period (each play's points
  are part of its scorer's box-score total);
- ``periods[*].event_ids`` name the events of ``scoring_history`` logged in that period.
"""
from __future__ import annotations

from typing import Literal


from temo.domains.kit.records import Name, StreetAddress, Strict as _Strict

GAME_STATUSES = ("scheduled", "in_progress", "final", "postponed")
GameStatus = Literal["scheduled", "in_progress", "final", "postponed"]
EventType = Literal["2PT", "3PT", "FT"]
Position = Literal["PG", "SG", "SF", "PF", "C"]
ContractSource = Literal["draft", "trade", "free agency"]


Address = StreetAddress


class ContractTerms(_Strict):
    salary: float
    years: int


class Contract(_Strict):
    contract_id: str
    source: ContractSource
    club_id: str
    start_date: str
    end_date: str
    extra_info: ContractTerms


class Player(_Strict):
    player_id: str
    name: Name
    address: Address
    email: str
    contracts: dict[str, Contract]
    games: list[str]


class Profile(_Strict):
    position: Position
    number: int
    height_cm: int
    weight_kg: int


class RosterEntry(_Strict):
    player_id: str
    profile: Profile
    active: bool
    salary: float


class Arena(_Strict):
    name: str
    address: str


class Club(_Strict):
    club_id: str
    name: str
    league: str
    city: str
    arena: Arena
    roster: dict[str, RosterEntry]
    games: list[str]


class Side(_Strict):
    name: str
    club_id: str
    score: int


class Sides(_Strict):
    home: Side
    away: Side


class LineStats(_Strict):
    rebounds: int
    assists: int
    minutes: int


class BoxLine(_Strict):
    name: str
    club_id: str
    player_id: str
    points: int
    options: LineStats


class Period(_Strict):
    period_number: int
    event_ids: list[str]
    player_ids: list[str]


class ScoringEvent(_Strict):
    event_id: str
    event_type: EventType
    points: int
    club_id: str
    player_id: str
    timestamp: str  # "Q3 04:12": period and time left on its clock


class Venue(_Strict):
    name: str
    address: str


class Game(_Strict):
    game_id: str
    season: str
    date: str
    status: GameStatus
    venue: Venue
    clubs: Sides
    box_score: list[BoxLine]
    periods: list[Period]
    scoring_history: list[ScoringEvent]
    league: str


TABLE_MODELS = {"players": Player, "clubs": Club, "games": Game}
