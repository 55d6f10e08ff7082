"""Consistency checks over a basketball state (a plain ``{table: {key: record}}`` mapping or a Store):
the invariants listed in models.py. Used by the tests, on the frozen databases and after writes."""
from __future__ import annotations

from typing import Any

from .rules import POINTS, TODAY, stamp_key


def _table(state: Any, name: str) -> dict[str, Any]:
    if isinstance(state, dict):
        return state[name]
    return dict(state.items(name))


def problems(state: Any) -> list[str]:
    players, clubs, games = (_table(state, t) for t in ("players", "clubs", "games"))
    out: list[str] = []
    for pid, p in players.items():
        active = [cid for cid, c in clubs.items() if pid in c["roster"] and c["roster"][pid]["active"]]
        current = [c["club_id"] for c in p["contracts"].values() if c["start_date"] <= TODAY <= c["end_date"]]
        if len(active) != 1 or active != current:
            out.append(f"{pid}: active roster {active} vs current contract {current}")
        for c in p["contracts"].values():
            if c["club_id"] not in clubs or pid not in clubs[c["club_id"]]["roster"]:
                out.append(f"{pid}: contract {c['contract_id']} club has no roster entry")
        for gid in p["games"]:
            if gid not in games or not any(ln["player_id"] == pid for ln in games[gid]["box_score"]):
                out.append(f"{pid}: game {gid} without a box-score line")
    emails = [p["email"].lower() for p in players.values()]
    if len(set(emails)) != len(emails):
        out.append("duplicate emails")
    for cid, c in clubs.items():
        numbers = [e["profile"]["number"] for e in c["roster"].values() if e["active"]]
        if len(set(numbers)) != len(numbers):
            out.append(f"{cid}: two current players share a jersey number")
        for gid in c["games"]:
            g = games.get(gid)
            if g is None or cid not in (g["clubs"]["home"]["club_id"], g["clubs"]["away"]["club_id"]):
                out.append(f"{cid}: game {gid} does not involve the club")
    for gid, g in games.items():
        sides = {g["clubs"][s]["club_id"]: s for s in ("home", "away")}
        for cid in sides:
            if gid not in clubs[cid]["games"]:
                out.append(f"{gid}: missing from club {cid}'s games")
        for s in ("home", "away"):
            cid = g["clubs"][s]["club_id"]
            box = sum(ln["points"] for ln in g["box_score"] if ln["club_id"] == cid)
            if box != g["clubs"][s]["score"]:
                out.append(f"{gid}: {s} score {g['clubs'][s]['score']} but box score sums to {box}")
            if g["status"] == "in_progress":
                log = sum(e["points"] for e in g["scoring_history"] if e["club_id"] == cid)
                if log != g["clubs"][s]["score"]:
                    out.append(f"{gid}: {s} score differs from its live log ({log})")
        for ln in g["box_score"]:
            if ln["club_id"] not in sides or ln["player_id"] not in players or gid not in players[ln["player_id"]]["games"]:
                out.append(f"{gid}: bad box line {ln['player_id']}")
        logged: dict[str, int] = {}
        keys = []
        for e in g["scoring_history"]:
            if POINTS[e["event_type"]] != e["points"] or e["club_id"] not in sides:
                out.append(f"{gid}: bad event {e['event_id']}")
            logged[e["player_id"]] = logged.get(e["player_id"], 0) + e["points"]
            keys.append(stamp_key(e["timestamp"]))
        if keys != sorted(keys):
            out.append(f"{gid}: scoring log out of order")
        for pid, pts in logged.items():
            line = next((ln for ln in g["box_score"] if ln["player_id"] == pid), None)
            if line is None or line["points"] < pts:
                out.append(f"{gid}: {pid} logged {pts} points beyond the box score")
        ids = [i for per in g["periods"] for i in per["event_ids"]]
        if sorted(ids) != sorted(e["event_id"] for e in g["scoring_history"]):
            out.append(f"{gid}: periods and scoring history disagree")
        if [per["period_number"] for per in g["periods"]] != list(range(1, len(g["periods"]) + 1)):
            out.append(f"{gid}: periods not numbered 1..n")
        if g["status"] == "final" and g["clubs"]["home"]["score"] == g["clubs"]["away"]["score"]:
            out.append(f"{gid}: final game tied")
        if g["status"] in ("scheduled",) and g["date"] < TODAY:
            out.append(f"{gid}: scheduled in the past")
        if g["status"] == "in_progress" and g["date"] != TODAY:
            out.append(f"{gid}: in progress on another day")
    return out
