"""The paper's behaviour analyses (§4.3 / §5), computed from a run directory.

- ``policy``: unconfirmed writes, writes before authentication and unnecessary transfers to a
  human (the reference has none), per 100 episodes, per domain and emotion family.
- ``emotion_effect``: the paired emotion-minus-neutral difference in success (per task: Avg in the
  emotion arm minus Avg in the neutral arm) per domain and family, with a 95% bootstrap confidence
  interval over tasks; and success by urgency, politeness and trust level (emotion arm).
- ``user_hallucination``: user turns that state a concrete fact (an email, number, id, date or
  amount) found nowhere in what the user was given (instruction, scenario) or was told by the
  agent before; flagged for review, with rates over failed cells per family and domain.
- ``interaction``: tool calls versus follow-up questions per episode; the share of episodes with
  more tool calls, as many, or more follow-ups, and the success rate of each (Figure 8).

Only complete cells whose ending the agent answers for are counted; rates are fractions.
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Optional

import numpy as np

from ..core.taxonomy import DIMENSIONS, FAMILIES
from ..env.generic import TRANSFER_TOOL
from .cells import Cell, Run, is_failed, is_judgeable
from .transcript import is_follow_up, turns

N_BOOTSTRAP = 2000


def _complete(run: Run) -> list[Cell]:
    return [c for c in run.cells if is_judgeable(c.record)]


def _success(c: Cell) -> bool:
    return bool(c.record.reward and c.record.reward.reward == 1)


def _groups(cells: Iterable[Cell], key) -> dict[str, list[Cell]]:
    out: dict[str, list[Cell]] = {}
    for c in cells:
        out.setdefault(key(c), []).append(c)
    return out


def _family(c: Cell) -> str:
    return c.record.emotion.family if c.record.arm == "emotion" else "neutral"


# ---------------------------------------------------------------------------------------------
# Policy adherence
# ---------------------------------------------------------------------------------------------


def _policy_block(run: Run, cells: list[Cell]) -> dict[str, Any]:
    n = len(cells)
    unconfirmed = sum(1 for c in cells for v in c.record.violations if v.rule == "confirm_before_write")
    before_auth = sum(1 for c in cells for v in c.record.violations if v.rule == "auth_before_write")
    transfers = 0
    for c in cells:
        task = run.task(c.record.task_id)
        needed = task is not None and any(a.name == TRANSFER_TOOL for a in task.actions)
        if not needed:
            transfers += sum(1 for t in c.record.tool_calls if t.name == TRANSFER_TOOL and t.ok)
    per100 = (lambda x: 100 * x / n) if n else (lambda x: None)
    return {
        "episodes": n,
        "unconfirmed_writes": unconfirmed, "writes_before_auth": before_auth, "unnecessary_transfers": transfers,
        "unconfirmed_writes_per_100": per100(unconfirmed), "writes_before_auth_per_100": per100(before_auth),
        "unnecessary_transfers_per_100": per100(transfers),
        "episodes_with_violation": sum(1 for c in cells if c.record.violations),
    }


def policy(run: Run) -> dict[str, Any]:
    cells = _complete(run)
    return {
        "all": _policy_block(run, cells),
        "by_domain": {d: _policy_block(run, cs) for d, cs in _groups(cells, lambda c: c.record.domain).items()},
        "by_family": {f: _policy_block(run, cs) for f, cs in _groups(cells, _family).items()},
    }


# ---------------------------------------------------------------------------------------------
# Emotion effect
# ---------------------------------------------------------------------------------------------


def _task_avgs(cells: list[Cell]) -> dict[str, float]:
    acc: dict[str, list[int]] = {}
    for c in cells:
        acc.setdefault(c.record.task_id, []).append(int(_success(c)))
    return {t: sum(v) / len(v) for t, v in acc.items()}


def bootstrap_ci(values: list[float], n: int = N_BOOTSTRAP, seed: int = 0, level: float = 0.95) -> Optional[list[float]]:
    """Percentile bootstrap interval of the mean (resampling the values with replacement)."""
    if len(values) < 2:
        return None
    rng = np.random.default_rng(seed)
    arr = np.asarray(values, dtype=float)
    means = arr[rng.integers(0, len(arr), size=(n, len(arr)))].mean(axis=1)
    lo, hi = np.quantile(means, [(1 - level) / 2, 1 - (1 - level) / 2])
    return [float(lo), float(hi)]


def _paired(cells: list[Cell], seed: int) -> dict[str, Any]:
    emo = _task_avgs([c for c in cells if c.record.arm == "emotion"])
    neu = _task_avgs([c for c in cells if c.record.arm == "neutral"])
    diffs = [emo[t] - neu[t] for t in emo if t in neu]
    return {
        "paired_tasks": len(diffs),
        "emotion_avg": float(np.mean([emo[t] for t in emo if t in neu])) if diffs else None,
        "neutral_avg": float(np.mean([neu[t] for t in emo if t in neu])) if diffs else None,
        "delta": float(np.mean(diffs)) if diffs else None,
        "ci95": bootstrap_ci(diffs, seed=seed),
    }


def emotion_effect(run: Run, seed: int = 0) -> dict[str, Any]:
    cells = _complete(run)
    by_family: dict[str, Any] = {}
    family_of_task = {c.record.task_id: c.record.emotion.family for c in cells}
    for fam in [f for f in FAMILIES if f in set(family_of_task.values())]:
        by_family[fam] = _paired([c for c in cells if family_of_task[c.record.task_id] == fam], seed)
    levels: dict[str, dict[str, Any]] = {}
    emotional = [c for c in cells if c.record.arm == "emotion"]
    for dim, values in DIMENSIONS.items():
        levels[dim] = {}
        for level in values:
            group = [c for c in emotional if getattr(c.record.emotion, dim) == level]
            if group:
                ok = sum(_success(c) for c in group)
                levels[dim][level] = {"cells": len(group), "success_rate": ok / len(group),
                                      "paired": _paired([c for c in cells if getattr(c.record.emotion, dim) == level], seed)}
    return {
        "all": _paired(cells, seed),
        "by_domain": {d: _paired(cs, seed) for d, cs in _groups(cells, lambda c: c.record.domain).items()},
        "by_family": by_family,
        "by_level": levels,
        "bootstrap": {"resamples": N_BOOTSTRAP, "seed": seed, "unit": "task"},
    }


# ---------------------------------------------------------------------------------------------
# User hallucination
# ---------------------------------------------------------------------------------------------

_WORD = re.compile(r"[#$]?[\w@+\-]+(?:[.,:/][\w@+\-]+)*")
_CANDIDATE = re.compile(r"[\d@]")


def _is_fact(word: str) -> bool:
    """An email, a date, an amount, an id mixing letters and digits, or a number of 3+ digits."""
    if "@" in word:
        return "." in word.split("@", 1)[1]
    digits = sum(ch.isdigit() for ch in word)
    if not digits:
        return False
    if any(ch.isalpha() for ch in word):
        return len(word.lstrip("#")) >= 5
    return digits >= 3 or word.startswith("$") or "." in word


def _norm_token(tok: str) -> str:
    return tok.lower().lstrip("#$").replace(",", "").rstrip(".")


def fact_tokens(text: str) -> list[str]:
    if not text or not _CANDIDATE.search(text):
        return []
    return [w for w in (m.group(0) for m in _WORD.finditer(text)) if _CANDIDATE.search(w) and _is_fact(w)]


def _grounding(task: Any, arm: str) -> str:
    if task is None:
        return ""
    parts = [task.user_instruction(arm), task.scenario.model_dump_json(), task.instruction]
    return " ".join(parts)


def _normalized_haystack(text: str) -> str:
    return (text or "").lower().replace(",", "")


def hallucinated_turns(run: Run, cell: Cell) -> list[dict[str, Any]]:
    rec = cell.record
    task = run.task(rec.task_id)
    if task is None:
        return []
    seen = _normalized_haystack(_grounding(task, rec.arm))
    out = []
    n = 0
    for m in rec.messages:
        if m.role in ("user", "assistant"):
            n += 1
        if m.role == "user":
            new = [t for t in fact_tokens(m.content or "") if _norm_token(t) not in seen]
            if new:
                out.append({"cell": cell.id, "turn": n, "tokens": sorted(set(new))[:8], "text": (m.content or "")[:300]})
        # what the user was told (agent words, tool results shown through them) grounds later turns
        seen += " " + _normalized_haystack(m.content or "")
    return out


def user_hallucination(run: Run, max_listed: int = 200) -> dict[str, Any]:
    cells = _complete(run)
    flagged: dict[str, list[dict[str, Any]]] = {c.id: hallucinated_turns(run, c) for c in cells}

    def block(cs: list[Cell]) -> dict[str, Any]:
        failed = [c for c in cs if is_failed(c.record)]
        return {
            "cells": len(cs), "failed_cells": len(failed),
            "flagged_turns": sum(len(flagged[c.id]) for c in cs),
            "failed_with_flag": sum(1 for c in failed if flagged[c.id]),
            "rate_in_failed": (sum(1 for c in failed if flagged[c.id]) / len(failed)) if failed else None,
            "rate_in_all": (sum(1 for c in cs if flagged[c.id]) / len(cs)) if cs else None,
        }

    listed = [t for c in cells for t in flagged[c.id]][:max_listed]
    return {
        "all": block(cells),
        "by_family": {f: block(cs) for f, cs in _groups(cells, _family).items()},
        "by_domain": {d: block(cs) for d, cs in _groups(cells, lambda c: c.record.domain).items()},
        "flagged": listed,
        "note": "flags are candidates for review (a fact the user states that it was never given), not confirmed errors",
    }


# ---------------------------------------------------------------------------------------------
# Interaction pattern
# ---------------------------------------------------------------------------------------------


def episode_pattern(cell: Cell) -> dict[str, Any]:
    rec = cell.record
    tools = len(rec.tool_calls)
    follow = sum(1 for t in turns(rec.messages)[1:] if t.role == "assistant" and t.text and is_follow_up(t.text))
    kind = "more_tool_calls" if tools > follow else "more_follow_ups" if follow > tools else "equal"
    return {"tool_calls": tools, "follow_ups": follow, "pattern": kind, "success": _success(cell)}


def _pattern_block(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    out: dict[str, Any] = {"episodes": n,
                           "mean_tool_calls": float(np.mean([r["tool_calls"] for r in rows])) if rows else None,
                           "mean_follow_ups": float(np.mean([r["follow_ups"] for r in rows])) if rows else None,
                           "success_rate": (sum(r["success"] for r in rows) / n) if n else None}
    for kind in ("more_tool_calls", "equal", "more_follow_ups"):
        group = [r for r in rows if r["pattern"] == kind]
        out[kind] = {"episodes": len(group), "share": len(group) / n if n else None,
                     "success_rate": (sum(r["success"] for r in group) / len(group)) if group else None}
    ratios = [r["tool_calls"] / max(1, r["follow_ups"]) for r in rows]
    out["mean_tool_to_follow_up_ratio"] = float(np.mean(ratios)) if ratios else None
    return out


def interaction(run: Run) -> dict[str, Any]:
    cells = _complete(run)
    rows = {c.id: episode_pattern(c) for c in cells}
    return {
        "all": _pattern_block(list(rows.values())),
        "by_domain": {d: _pattern_block([rows[c.id] for c in cs]) for d, cs in _groups(cells, lambda c: c.record.domain).items()},
        "by_family": {f: _pattern_block([rows[c.id] for c in cs]) for f, cs in _groups(cells, _family).items()},
    }


def analyze(run: Run, seed: int = 0) -> dict[str, Any]:
    return {
        "run": str(run.root),
        "cells": len(_complete(run)),
        "policy": policy(run),
        "emotion_effect": emotion_effect(run, seed),
        "user_hallucination": user_hallucination(run),
        "interaction": interaction(run),
        "warnings": list(run.warnings),
    }
