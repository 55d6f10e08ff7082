"""From cell results to the report of `temo metrics`: per domain, per emotion family, per arm.

Conventions (also in `temo metrics --help`):

* Success = reward 1. A cell counts only when complete: records that ended in an infrastructure
  error, and planned cells with no record, are **missing**, counted apart and never failures.
* Per task, n = its completed trials and c = its successes; Avg = mean over tasks of c/n;
  Pass^k = mean over tasks with n >= k of C(c,k)/C(n,k) (tasks with n < k are left out and counted
  in ``pass_hat_excluded``); pass@k likewise with 1 - C(n-c,k)/C(n,k); k = 1..trials.
* Headline numbers of a domain are those of its *primary arm*: ``emotion`` when the domain has
  emotion-arm cells (as in the paper's tables), else ``neutral``. ``by_arm`` has each arm.
* ``by_family`` groups the emotion-arm tasks by the family of their emotion condition.
* ``emotion_minus_neutral`` = mean over tasks with completed trials in both arms of
  (task Avg in emotion arm - task Avg in neutral arm).
* Unsatisfied rate = share of completed cells that ended with ``###UNSATISFIED###`` (or reward -1);
  violation rate = share of completed cells with at least one policy violation.
* ``average`` = unweighted mean over domains of each rate (domains without a value are skipped);
  counts (tasks, cells, missing cells...) are summed.

All rates are fractions in [0, 1]; the table view shows percentages.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Optional, Sequence, Union

from ..core import EpisodeRecord
from ..core.taxonomy import FAMILIES
from fractions import Fraction

from .formulas import mean, mean_pass_at_k, mean_pass_hat_k

ARMS: tuple[str, ...] = ("emotion", "neutral")
SUCCESS_TOL = 1e-6

# Keys whose values are counts: summed (not averaged) in the "average" block.
COUNT_KEYS = frozenset(
    {
        "tasks", "cells", "missing_cells", "planned_cells", "tasks_without_results", "paired_tasks",
        "pass_hat_excluded", "pass_at_excluded", "unsatisfied_cells", "violation_cells", "successes",
    }
)


@dataclass(frozen=True)
class CellResult:
    """One (domain, task, arm, trial) cell reduced to what the metrics need.

    Built from an :class:`EpisodeRecord` with :func:`cell_from_record`, or by an importer.
    ``violations`` is None when the source does not record policy violations; ``family`` is None
    when the source has no emotion information.
    """

    domain: str
    task_id: str
    arm: str
    trial: int
    complete: bool
    success: bool = False
    unsatisfied: bool = False
    violations: Optional[int] = None
    family: Optional[str] = None
    reward: Optional[float] = None
    termination: Optional[str] = None

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.domain, self.task_id, self.arm, self.trial)


def cell_from_record(record: EpisodeRecord) -> CellResult:
    """Reduce a run record. Success = reward 1; unsatisfied = ended with ###UNSATISFIED### or reward -1."""
    complete = record.complete
    reward = record.reward.reward if (complete and record.reward is not None) else None
    return CellResult(
        domain=record.domain,
        task_id=record.task_id,
        arm=record.arm,
        trial=record.trial,
        complete=complete,
        success=complete and reward == 1,
        unsatisfied=complete and (record.termination == "user_unsatisfied" or reward == -1),
        violations=len(record.violations) if complete else None,
        family=record.emotion.family,
        reward=float(reward) if reward is not None else None,
        termination=record.termination,
    )


def to_cells(items: Iterable[Union[EpisodeRecord, CellResult]]) -> list[CellResult]:
    out = []
    for item in items:
        if isinstance(item, CellResult):
            out.append(item)
        elif isinstance(item, EpisodeRecord):
            out.append(cell_from_record(item))
        else:
            raise TypeError(f"expected EpisodeRecord or CellResult, got {type(item).__name__}")
    return out


# --------------------------------------------------------------------------------------------
# Blocks
# --------------------------------------------------------------------------------------------


def _rate(numerator: int, denominator: int) -> Optional[float]:
    return numerator / denominator if denominator else None


def _task_counts(cells: Sequence[CellResult]) -> dict[str, tuple[int, int]]:
    """task_id -> (n completed, c successes), tasks in first-seen order."""
    counts: dict[str, list[int]] = {}
    for cell in cells:
        nc = counts.setdefault(cell.task_id, [0, 0])
        if cell.complete:
            nc[0] += 1
            nc[1] += int(cell.success)
    return {t: (n, c) for t, (n, c) in counts.items()}


def arm_block(cells: Sequence[CellResult], trials: int, missing: int = 0, planned_tasks: Iterable[str] = ()) -> dict[str, Any]:
    """Metrics of one group of cells (one domain and arm): Avg, Pass^1..trials, pass@1..trials, rates.

    ``cells`` may include incomplete ones (ignored in rates); ``planned_tasks`` adds tasks that
    have no cell at all so that ``tasks_without_results`` counts them.
    """
    counts = _task_counts(cells)
    for t in planned_tasks:
        counts.setdefault(t, (0, 0))
    with_results = [(n, c) for n, c in counts.values() if n > 0]
    complete = [c for c in cells if c.complete]
    pass_hat, pass_at, hat_excl, at_excl = {}, {}, {}, {}
    for k in range(1, max(1, trials) + 1):
        pass_hat[str(k)], hat_excl[str(k)] = mean_pass_hat_k(with_results, k)
        pass_at[str(k)], at_excl[str(k)] = mean_pass_at_k(with_results, k)
    known_violations = [c for c in complete if c.violations is not None]
    unsat = sum(c.unsatisfied for c in complete)
    viol = sum(1 for c in known_violations if c.violations)
    return {
        "tasks": len(with_results),
        "tasks_without_results": len(counts) - len(with_results),
        "cells": len(complete),
        "successes": sum(c.success for c in complete),
        "avg": mean(Fraction(c, n) for n, c in with_results),
        "pass_hat": pass_hat,
        "pass_at": pass_at,
        "pass_hat_excluded": hat_excl,
        "unsatisfied_cells": unsat,
        "unsatisfied_rate": _rate(unsat, len(complete)),
        "violation_cells": viol if known_violations else None,
        "violation_rate": _rate(viol, len(known_violations)),
        "missing_cells": missing,
    }


def family_blocks(emotion_cells: Sequence[CellResult], neutral_cells: Sequence[CellResult]) -> dict[str, dict[str, Any]]:
    """Per emotion family (of the task's condition), from emotion-arm cells; neutral twins for the delta."""
    by_family: dict[str, list[CellResult]] = {}
    for cell in emotion_cells:
        if cell.complete and cell.family:
            by_family.setdefault(cell.family, []).append(cell)
    neutral_counts = _task_counts(neutral_cells)
    order = [f for f in FAMILIES if f in by_family] + sorted(f for f in by_family if f not in FAMILIES)
    out: dict[str, dict[str, Any]] = {}
    for fam in order:
        cells = by_family[fam]
        counts = _task_counts(cells)
        paired = [(counts[t], neutral_counts[t]) for t in counts if neutral_counts.get(t, (0, 0))[0] > 0]
        unsat = sum(c.unsatisfied for c in cells)
        out[fam] = {
            "tasks": len(counts),
            "cells": len(cells),
            "avg": mean(Fraction(c, n) for n, c in counts.values()),
            "unsatisfied_rate": _rate(unsat, len(cells)),
            "neutral_avg": mean(Fraction(nc, nn) for _, (nn, nc) in paired) if paired else None,
            "emotion_minus_neutral": mean(Fraction(ec, en) - Fraction(nc, nn) for (en, ec), (nn, nc) in paired) if paired else None,
        }
    return out


def paired_delta(emotion_cells: Sequence[CellResult], neutral_cells: Sequence[CellResult]) -> tuple[Optional[float], int]:
    """Mean over tasks with completed trials in both arms of (emotion Avg - neutral Avg); (delta, tasks)."""
    e, n = _task_counts(emotion_cells), _task_counts(neutral_cells)
    diffs = [Fraction(e[t][1], e[t][0]) - Fraction(n[t][1], n[t][0]) for t in e if e[t][0] > 0 and n.get(t, (0, 0))[0] > 0]
    return mean(diffs), len(diffs)


# --------------------------------------------------------------------------------------------
# Averaging over domains
# --------------------------------------------------------------------------------------------


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def average_blocks(blocks: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Unweighted mean over domains, key by key: rates are averaged over the domains that have a
    value (None = no value), counts (:data:`COUNT_KEYS`) are summed, nested dicts recurse, strings
    are kept when all agree and become ``"mixed"`` otherwise."""
    keys: list[str] = []
    for b in blocks:
        keys.extend(k for k in b if k not in keys)
    out: dict[str, Any] = {}
    for key in keys:
        vals = [b[key] for b in blocks if key in b]
        present = [v for v in vals if v is not None]
        if present and all(isinstance(v, dict) for v in present):
            if key in COUNT_KEYS:  # dict of counts (e.g. pass_hat_excluded): sum per sub-key
                sub = {}
                for v in present:
                    for k2, x in v.items():
                        sub[k2] = sub.get(k2, 0) + (x or 0)
                out[key] = sub
            else:
                out[key] = average_blocks(present)
        elif key in COUNT_KEYS:
            out[key] = sum(v for v in present if _is_num(v)) if present else None
        elif present and all(_is_num(v) for v in present):
            out[key] = mean(present)
        elif present and all(isinstance(v, str) for v in present):
            out[key] = present[0] if len(set(present)) == 1 else "mixed"
        else:
            out[key] = None
    return out


# --------------------------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------------------------


def _primary_arm(arms_seen: Iterable[str]) -> str:
    arms = list(dict.fromkeys(arms_seen))
    for arm in ARMS:
        if arm in arms:
            return arm
    return arms[0] if arms else "emotion"


def summarize(
    records: Iterable[Union[EpisodeRecord, CellResult]],
    planned_cells: Optional[Iterable[tuple[str, str, str, int]]] = None,
    trials: Optional[int] = None,
) -> dict[str, Any]:
    """The metrics report as a JSON-ready dict: ``{"domains": {NAME: {...}}, "average": {...},
    "trials", "warnings", "scale"}`` (see the module docstring for definitions).

    ``planned_cells`` is the run's grid of (domain, task_id, arm, trial) (``RunConfig.cells()``);
    planned cells without a complete record are missing. Without it, only records that are
    themselves incomplete count as missing. ``trials`` is k (Pass^1..k); by default the number of
    trials in the plan, else the highest trial index seen plus one.
    """
    cells = to_cells(records)
    warnings: list[str] = []

    # One result per cell: a complete record beats an incomplete one, later beats earlier.
    by_key: dict[tuple[str, str, str, int], CellResult] = {}
    duplicates = 0
    for cell in cells:
        old = by_key.get(cell.key)
        if old is not None:
            duplicates += 1
            if old.complete and not cell.complete:
                continue
        by_key[cell.key] = cell
    if duplicates:
        warnings.append(f"{duplicates} duplicate result(s) for the same (task, arm, trial) cell; kept one per cell")

    planned = list(dict.fromkeys(planned_cells)) if planned_cells is not None else None
    if trials is None:
        source = planned if planned else list(by_key)
        trials = max((t for *_, t in source), default=-1) + 1
    trials = max(1, int(trials))

    if planned is not None:
        planned_set = set(planned)
        extra = [k for k in by_key if k not in planned_set]
        if extra:
            warnings.append(f"{len(extra)} record(s) are outside the run's planned grid; they are included")
        grid = planned + extra
    else:
        grid = list(by_key)

    domains: list[str] = list(dict.fromkeys(d for d, *_ in grid))
    report_domains: dict[str, dict[str, Any]] = {}
    total_missing = total_planned = 0
    missing_why: Counter = Counter()  # termination of each incomplete cell, or "not run"
    for dom in domains:
        keys = [k for k in grid if k[0] == dom]
        arms = list(dict.fromkeys(k[2] for k in keys))
        primary = _primary_arm(arms)
        missing_keys = [k for k in keys if k not in by_key or not by_key[k].complete]
        arm_cells: dict[str, list[CellResult]] = {a: [by_key[k] for k in keys if k[2] == a and k in by_key] for a in arms}
        by_arm = {}
        for arm in arms:
            by_arm[arm] = arm_block(
                arm_cells[arm],
                trials,
                missing=sum(1 for k in missing_keys if k[2] == arm),
                planned_tasks=[k[1] for k in keys if k[2] == arm],
            )
        entry: dict[str, Any] = {"arm": primary, "trials": trials}
        entry.update(by_arm[primary])
        entry["missing_cells"] = len(missing_keys)  # every arm of the domain
        entry["planned_cells"] = len(keys)
        entry["by_family"] = family_blocks(arm_cells.get("emotion", []), arm_cells.get("neutral", []))
        entry["by_arm"] = by_arm
        delta, paired = paired_delta(arm_cells.get("emotion", []), arm_cells.get("neutral", []))
        entry["emotion_minus_neutral"] = delta
        entry["paired_tasks"] = paired
        report_domains[dom] = entry
        total_missing += len(missing_keys)
        total_planned += len(keys)
        missing_why.update((by_key[k].termination or "incomplete") if k in by_key else "not run" for k in missing_keys)

    average = average_blocks(list(report_domains.values())) if report_domains else {}
    if average:
        average["trials"] = trials
        average["domains_counted"] = sum(1 for e in report_domains.values() if e["avg"] is not None)

    if total_missing:
        warnings.append(
            f"{total_missing} of {total_planned} cells have no complete result "
            f"({', '.join(f'{n} {why}' for why, n in missing_why.most_common())}); "
            "they are excluded from the scores, not counted as failures"
        )
    no_result = [d for d, e in report_domains.items() if e["avg"] is None]
    if no_result:
        warnings.append(f"no completed cells in domain(s) {', '.join(no_result)}; left out of the average")
    for k, n in (average.get("pass_hat_excluded") or {}).items():
        if n:
            warnings.append(f"Pass^{k}: {n} task(s) with fewer than {k} completed trials are left out")
    return {
        "domains": report_domains,
        "average": average,
        "trials": trials,
        "scale": "fraction",
        "warnings": warnings,
    }
