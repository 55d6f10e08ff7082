"""Judge a run and summarise the verdicts: fault shares per domain, family and arm (Figure 12).

Which cells are judged: every complete cell whose reward is not 1 (the *failed* cells), plus the
cells that passed but broke a recorded policy rule (counted apart, as ``passed_with_policy_breach``).
Cells that ended for reasons outside the agent (infrastructure, harness or user-side errors) are
not judged and are counted in ``not_judged``.

Per cell the *primary* verdict is the LLM judge's when it gave a valid one, else the offline
judge's. ``by_fault`` counts failed cells by their primary critical fault; ``category_share`` is
the share of failed cells with at least one critical agent fault in each category (Figure 12).
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Optional

from .cells import Run, is_failed, is_judgeable
from .faults import CATEGORIES, EMOTIONAL_OUTCOME_REASONS, FAULTS, Verdict
from .judge import JUDGE_VERSION, offline_verdict
from .verdicts import VerdictStore


def to_judge(run: Run) -> list:
    """Cells the judges look at: failed ones, and passed ones with recorded policy violations."""
    return [c for c in run.cells if is_judgeable(c.record) and (is_failed(c.record) or c.record.violations)]


def judge_offline(run: Run, redo: bool = False, progress: Optional[Callable[[int], None]] = None,
                  with_diff: bool = False) -> dict[str, Verdict]:
    """Offline verdicts of every cell to judge (stored ones reused). ``with_diff`` also replays
    each failed cell to store its field-by-field state diff (the report computes it on demand)."""
    from ..domains import available, get_domain

    store = VerdictStore(run.root, "offline")
    installed = set(available())
    out: dict[str, Verdict] = {}
    for cell in to_judge(run):
        v = None if redo else store.fresh(cell.id, cell.sha, JUDGE_VERSION)
        if v is not None and with_diff and v.failed and not v.replay_diff:
            v = None  # judged before without its diff
        if v is not None and v.with_reference != (run.task(cell.record.task_id) is not None):
            v = None  # the task's reference appeared or went away since
        if v is None:
            rec = cell.record
            domain = get_domain(rec.domain) if rec.domain in installed else None
            v = offline_verdict(cell, run.task(rec.task_id), domain, with_diff=with_diff)
            store.write(v)
        out[cell.id] = v
        if progress:
            progress(1)
    return out


def _critical_categories(v: Verdict) -> set[str]:
    cats = {f.category for f in v.faults if f.severity == "critical" and f.source == "agent"}
    if v.critical is not None and v.critical.source == "agent":
        cats.add(v.critical.category)
    return cats


def _block(verdicts: list[Verdict]) -> dict[str, Any]:
    failed = [v for v in verdicts if v.failed]
    by_fault = Counter(v.critical_fault for v in failed if v.critical_fault)
    cat_cells = Counter(c for v in failed for c in _critical_categories(v))
    n = len(failed)
    return {
        "failed": n,
        "by_fault": {f: by_fault.get(f, 0) for f in FAULTS},
        "fault_share": {f: (by_fault.get(f, 0) / n if n else None) for f in FAULTS},
        "by_category": {c: sum(by_fault.get(f, 0) for f in fs) for c, fs in CATEGORIES.items()},
        "category_share": {c: (cat_cells.get(c, 0) / n if n else None) for c in CATEGORIES},
        "abandoned": sum(1 for v in failed if v.emotional_outcome.abandoned),
    }


def primary_verdicts(offline: dict[str, Verdict], llm: dict[str, Verdict]) -> dict[str, Verdict]:
    out = dict(offline)
    for cid, v in llm.items():
        if v.status == "ok" and v.critical is not None or (v.status == "ok" and not v.failed):
            out[cid] = v
    return out


def agreement(offline: dict[str, Verdict], llm: dict[str, Verdict]) -> Optional[dict[str, Any]]:
    both = [(offline[c], llm[c]) for c in llm if c in offline and llm[c].status == "ok" and offline[c].failed]
    if not both:
        return None
    same_fault = sum(1 for a, b in both if a.critical_fault == b.critical_fault)
    same_cat = sum(1 for a, b in both if a.critical and b.critical and a.critical.category == b.critical.category)
    same_abandon = sum(1 for a, b in both if a.emotional_outcome.abandoned == b.emotional_outcome.abandoned)
    pairs = Counter(f"{a.critical_fault}->{b.critical_fault}" for a, b in both if a.critical_fault != b.critical_fault)
    return {
        "cells": len(both),
        "fault": same_fault / len(both),
        "category": same_cat / len(both),
        "abandoned": same_abandon / len(both),
        "disagreements": dict(pairs.most_common(10)),
    }


def summarize_verdicts(run: Run, offline: dict[str, Verdict], llm: Optional[dict[str, Verdict]] = None) -> dict[str, Any]:
    llm = llm or {}
    primary = primary_verdicts(offline, llm)
    verdicts = list(primary.values())
    not_judged = Counter(str(c.record.termination) for c in run.cells if not is_judgeable(c.record))
    out: dict[str, Any] = {
        "run": str(run.root),
        "cells": sum(1 for c in run.cells if is_judgeable(c.record)),
        "judged": len(verdicts),
        "not_judged": dict(not_judged),
        "passed_with_policy_breach": sum(1 for v in verdicts if not v.failed and v.critical_fault == "policy_breach"),
        "judges": {"offline": len(offline), "llm": sum(1 for v in llm.values() if v.status == "ok"),
                   "llm_invalid": sum(1 for v in llm.values() if v.status != "ok")},
        "categories": {c: list(fs) for c, fs in CATEGORIES.items()},
    }
    out.update(_block(verdicts))
    failed = [v for v in verdicts if v.failed]
    out["emotional_outcome"] = {
        "abandoned": sum(1 for v in failed if v.emotional_outcome.abandoned),
        "reasons": {r: sum(1 for v in failed if v.emotional_outcome.reason == r) for r in EMOTIONAL_OUTCOME_REASONS},
    }
    for key, of in (("by_domain", lambda v: v.domain), ("by_family", lambda v: v.family or "none"),
                    ("by_arm", lambda v: v.arm)):
        groups: dict[str, list[Verdict]] = {}
        for v in verdicts:
            groups.setdefault(of(v), []).append(v)
        out[key] = {g: _block(vs) for g, vs in groups.items()}
    out["by_judge"] = {"offline": _block(list(offline.values()))}
    if llm:
        out["by_judge"]["llm"] = _block([v for v in llm.values() if v.status == "ok"])
        models = sorted({v.model for v in llm.values() if v.model})
        hashes = sorted({v.prompt_hash for v in llm.values() if v.prompt_hash})
        out["llm"] = {"models": models, "prompt_hashes": hashes}
    out["agreement"] = agreement(offline, llm)
    return out

