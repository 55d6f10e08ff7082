"""Simulator fidelity: does the simulated user sound like the emotion condition it was given?

For every completed cell of a run, the user's visible turns (termination tokens stripped) are
mapped by the emotion model (``temo.emotion``), each turn on its own and the conversation as a
whole, and the predicted family, fine emotion, politeness, urgency and trust are compared with the
task's condition:

- **agreement** (conversation level): share of emotion-arm cells whose whole conversation maps to
  the task's label; **turn agreement**: per cell, the share of its turns that do, averaged over cells;
- **baseline** (chance): the same agreement after shuffling the conditions among the cells of each
  domain (``shuffles`` seeded permutations, averaged). A user whose words ignore its condition
  scores at the baseline whatever the mapper's biases, because a permutation keeps both the
  predicted and the true label mix;
- the **neutral arm** (the same tasks, no emotion instruction) scored against the same conditions:
  how much of the condition leaks through the task content alone;
- the family **confusion** matrix, breakdowns per domain and per family, and bootstrap confidence
  intervals over tasks (so the trials of one task move together).

    from temo.metrics.fidelity import run_fidelity, compare, save_report
    report, arms = run_fidelity(records_or_run_dir)   # arms: the mapped cells per arm, for compare()
    report["agreement"]["family"], report["baseline"]["family"]
    compare(arms, other_arms)["difference"]["family"]   # {"value", "ci"}
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

import numpy as np

from ..core import EmotionCondition, EpisodeRecord
from ..core.taxonomy import EMOTIONS, FAMILIES, POLITENESS, TRUST, URGENCY
from ..users.base import read_termination
from .fidelity_mapping import CHUNK_CELLS, Progress, map_text_groups

DIMS: tuple[str, ...] = ("family", "emotion", "politeness", "urgency", "trust")
LABELS: dict[str, tuple[str, ...]] = {
    "family": tuple(FAMILIES), "emotion": EMOTIONS, "politeness": POLITENESS, "urgency": URGENCY, "trust": TRUST,
}
FILE_NAME = "fidelity.json"
SCHEMA_VERSION = 1


class NothingToMeasure(ValueError):
    pass


def labels_of(condition: EmotionCondition) -> dict[str, str]:
    return {"family": condition.family, "emotion": condition.emotion, "politeness": condition.politeness,
            "urgency": condition.urgency, "trust": condition.trust}


def clean_turns(contents: Iterable[Optional[str]]) -> list[str]:
    """User messages with ###STOP### / ###UNSATISFIED### removed and spaces collapsed; empty ones dropped."""
    out = []
    for content in contents:
        text = " ".join(read_termination(content or "")[1].split())
        if text:
            out.append(text)
    return out


def user_turns(record: EpisodeRecord) -> list[str]:
    """The user's visible messages of a record, cleaned (``clean_turns``)."""
    return clean_turns(m.content for m in record.messages if m.role == "user")


@dataclass
class Cell:
    cell_id: str
    task_id: str
    domain: str
    arm: str
    condition: EmotionCondition
    turns: list[str]


def cells_of(records: Iterable[EpisodeRecord]) -> list[Cell]:
    """Completed cells with at least one user turn, in cell-id order."""
    out = []
    for r in records:
        if not r.complete:
            continue
        turns = user_turns(r)
        if turns:
            out.append(Cell(r.cell_id, r.task_id, r.domain, r.arm, r.emotion, turns))
    return sorted(out, key=lambda c: c.cell_id)


def cells_from_run(run_dir: Path | str) -> list[Cell]:
    """The cells of a run directory, read straight from the cell files (several times faster than
    validating full records; a run of 3,480 cells holds about 60 MB of JSON)."""
    from ..harness.runstore import RunStore
    cells_dir = RunStore(run_dir).cells_dir
    out = []
    for path in sorted(cells_dir.glob("*.json")) if cells_dir.exists() else []:
        try:
            r = json.loads(path.read_text(encoding="utf-8"))
            if r["termination"] == "infra_error" or r.get("reward") is None:  # as EpisodeRecord.complete
                continue
            turns = clean_turns(m.get("content") for m in r["messages"] if m["role"] == "user")
            if turns:
                out.append(Cell(f"{r['task_id']}__{r['arm']}__{r['trial']}", r["task_id"], r["domain"], r["arm"],
                                EmotionCondition(**r["emotion"]), turns))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{path}: unreadable cell record ({' '.join(str(e).split())[:200]})") from e
    return sorted(out, key=lambda c: c.cell_id)


@dataclass
class Mapped:
    """One arm's cells with their true and predicted labels, as label indices per dimension."""
    cells: list[Cell]
    truth: dict[str, np.ndarray] = field(default_factory=dict)      # (n,)
    conv: dict[str, np.ndarray] = field(default_factory=dict)       # (n, K) one-hot: the whole conversation
    turns: dict[str, np.ndarray] = field(default_factory=dict)      # (n, K): share of the cell's turns per label
    predicted: list[str] = field(default_factory=list)              # condition id of each conversation

    @property
    def n(self) -> int:
        return len(self.cells)


def _one_hot(idx: Sequence[int], k: int) -> np.ndarray:
    out = np.zeros((len(idx), k))
    out[np.arange(len(idx)), np.asarray(idx, int)] = 1.0
    return out


def build_mapped(cells: list[Cell], predictions: dict[str, str]) -> Mapped:
    """Arrays of one arm's cells from the text -> condition-id predictions."""
    m = Mapped(cells)
    conv_labels = []
    for c in cells:
        cid = predictions[conversation_text(c)]
        m.predicted.append(cid)
        conv_labels.append(labels_of(EmotionCondition.parse(cid)))
    turn_labels = [[labels_of(EmotionCondition.parse(predictions[t])) for t in c.turns] for c in cells]
    for d in DIMS:
        index = {v: i for i, v in enumerate(LABELS[d])}
        k = len(LABELS[d])
        m.truth[d] = np.array([index[labels_of(c.condition)[d]] for c in cells], int)
        m.conv[d] = _one_hot([index[lab[d]] for lab in conv_labels], k)
        hist = np.zeros((len(cells), k))
        for i, labs in enumerate(turn_labels):
            for lab in labs:
                hist[i, index[lab[d]]] += 1.0 / len(labs)
        m.turns[d] = hist
    return m


def conversation_text(cell: Cell) -> str:
    return " ".join(cell.turns)


def map_cells(cells: list[Cell], mapper=None, progress: Optional[Progress] = None,
              workers: Optional[int] = None) -> dict[str, Mapped]:
    """Map every turn and every conversation (each distinct text once); one Mapped per arm."""
    groups = [[t for c in cells[s: s + CHUNK_CELLS] for t in c.turns]
              + [conversation_text(c) for c in cells[s: s + CHUNK_CELLS]] for s in range(0, len(cells), CHUNK_CELLS)]
    predictions = map_text_groups(groups, mapper, progress, workers)
    arms: dict[str, list[Cell]] = {}
    for c in cells:
        arms.setdefault(c.arm, []).append(c)
    return {arm: build_mapped(cs, predictions) for arm, cs in arms.items()}


# ------------------------------------------------------------------------------- statistics
def shuffles(strata: Sequence[str], n_shuffles: int, seed: int) -> np.ndarray:
    """(n_shuffles, n) permutations of the cell indices, each within its stratum (domain)."""
    rng = np.random.default_rng(seed)
    strata = np.asarray(strata)
    out = np.tile(np.arange(len(strata)), (n_shuffles, 1))
    for s in np.unique(strata):
        idx = np.flatnonzero(strata == s)
        for r in range(n_shuffles):
            out[r, idx] = rng.permutation(idx)
    return out


def _scores(hist: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Per-cell agreement of the predictions (hist rows) with the given labels; any leading shape."""
    return hist[np.arange(hist.shape[0]), labels] if labels.ndim == 1 else hist[np.arange(hist.shape[0])[None, :], labels]


def _rate(values: np.ndarray, mask: np.ndarray) -> Optional[float]:
    total = mask.sum()
    return round(float((values * mask).sum() / total), 4) if total else None


def agreement_table(m: Mapped, level: str, perms: np.ndarray,
                    group_true: Optional[np.ndarray] = None, group_value: Any = None,
                    shuffled_group: Optional[np.ndarray] = None) -> dict[str, dict[str, Optional[float]]]:
    """{"agreement": {dim: x}, "baseline": {dim: x}} over the cells where ``group_true == group_value``.

    The baseline uses the cells whose *shuffled* condition is in the group when ``shuffled_group``
    (R, n) is given (per family), else the same cells (overall, per domain: shuffles stay inside
    a domain).
    """
    hists = m.conv if level == "conversation" else m.turns
    keep = np.ones(m.n, bool) if group_true is None else (group_true == group_value)
    keep_shuffled = np.broadcast_to(keep, perms.shape) if shuffled_group is None else (shuffled_group == group_value)
    agreement, baseline = {}, {}
    for d in DIMS:
        agreement[d] = _rate(_scores(hists[d], m.truth[d]), keep)
        baseline[d] = _rate(_scores(hists[d], m.truth[d][perms]), keep_shuffled)
    return {"agreement": agreement, "baseline": baseline}


def task_bootstrap(m: Mapped, n_boot: int, seed: int, tasks: Optional[Sequence[str]] = None) -> dict[str, np.ndarray]:
    """Conversation agreement per dimension on ``n_boot`` resamples of the tasks (cluster bootstrap).

    With ``tasks`` (a fixed order), resample exactly those (for a paired comparison of two runs).
    """
    task_of = [c.task_id for c in m.cells]
    order = list(tasks) if tasks is not None else sorted(set(task_of))
    pos = {t: i for i, t in enumerate(order)}
    rows = np.array([i for i, t in enumerate(task_of) if t in pos], int)
    tix = np.array([pos[task_of[i]] for i in rows], int)
    n_cells = np.bincount(tix, minlength=len(order)).astype(float)
    draws = np.random.default_rng(seed).integers(0, len(order), size=(n_boot, len(order)))
    counts = np.stack([np.bincount(row, minlength=len(order)) for row in draws]).astype(float)
    out = {}
    for d in DIMS:
        per_task = np.bincount(tix, weights=_scores(m.conv[d], m.truth[d])[rows], minlength=len(order))
        out[d] = (counts @ per_task) / np.maximum(counts @ n_cells, 1e-12)
    return out


def _ci(samples: np.ndarray) -> list[float]:
    lo, hi = np.percentile(samples, [2.5, 97.5])
    return [round(float(lo), 4), round(float(hi), 4)]


def confusion(m: Mapped) -> dict[str, Any]:
    """Family confusion of the conversations: rows = the condition's family, columns = predicted."""
    k = len(LABELS["family"])
    mat = np.zeros((k, k), int)
    np.add.at(mat, (m.truth["family"], m.conv["family"].argmax(axis=1)), 1)
    chance = mat.sum(axis=1) * mat.sum(axis=0) / max(mat.sum(), 1)
    return {"labels": list(LABELS["family"]), "matrix": mat.tolist(),
            "chance_diagonal": [round(float(x), 2) for x in chance]}


def family_mix(m: Mapped) -> dict[str, float]:
    """Share of conversations mapped to each family (how the user sounds, whatever its condition)."""
    share = m.conv["family"].mean(axis=0) if m.n else np.zeros(len(LABELS["family"]))
    return {f: round(float(x), 4) for f, x in zip(LABELS["family"], share)}


def arm_report(m: Mapped, n_shuffles: int, seed: int) -> dict[str, Any]:
    perms = shuffles([c.domain for c in m.cells], n_shuffles, seed)
    conv = agreement_table(m, "conversation", perms)
    out: dict[str, Any] = {
        "cells": m.n, "tasks": len({c.task_id for c in m.cells}),
        "turns": int(sum(len(c.turns) for c in m.cells)),
        "agreement": conv["agreement"], "baseline": conv["baseline"],
        "turn": agreement_table(m, "turn", perms),
        "family_mix": family_mix(m),
    }
    domain = np.array([c.domain for c in m.cells])
    out["by_domain"] = {d: {"cells": int((domain == d).sum()), **agreement_table(m, "conversation", perms, domain, d)}
                        for d in dict.fromkeys(c.domain for c in m.cells)}
    fam = np.array(LABELS["family"])[m.truth["family"]]
    shuffled_fam = fam[perms]
    out["by_family"] = {f: {"cells": int((fam == f).sum()),
                            **agreement_table(m, "conversation", perms, fam, f, shuffled_fam)}
                        for f in LABELS["family"] if (fam == f).any()}
    out["confusion"] = confusion(m)
    return out


def fidelity_of_mapped(arms: dict[str, Mapped], n_shuffles: int = 100, n_boot: int = 1000,
                       seed: int = 0) -> dict[str, Any]:
    """The fidelity report of one run (see the module doc); needs emotion-arm cells."""
    emo = arms.get("emotion")
    if emo is None or not emo.n:
        raise NothingToMeasure("no completed emotion-arm cells with user turns to measure")
    report = arm_report(emo, n_shuffles, seed)
    boot = task_bootstrap(emo, n_boot, seed)
    report["ci"] = {d: _ci(boot[d]) for d in DIMS}
    neutral = arms.get("neutral")
    report["neutral"] = None if neutral is None or not neutral.n else {
        k: v for k, v in arm_report(neutral, n_shuffles, seed).items() if k not in ("by_family", "confusion")}
    report["settings"] = {"seed": seed, "shuffles": n_shuffles, "bootstrap": n_boot, "level": "conversation",
                          "baseline": "conditions shuffled among the cells of each domain"}
    report["cell_predictions"] = [
        {"cell": c.cell_id, "condition": c.condition.id, "predicted": p,
         "turn_agreement": {d: round(float(emo.turns[d][i, emo.truth[d][i]]), 4) for d in DIMS}}
        for i, (c, p) in enumerate(zip(emo.cells, emo.predicted))]
    return report


# ------------------------------------------------------------------------------- comparison
def compare(a: dict[str, Mapped], b: dict[str, Mapped], n_boot: int = 1000, seed: int = 0) -> dict[str, Any]:
    """Run A minus run B in conversation agreement, with a bootstrap CI over tasks.

    Paired (the same tasks resampled in both runs) when the runs share tasks; else the two runs are
    resampled independently.
    """
    ma, mb = a["emotion"], b["emotion"]
    common = sorted({c.task_id for c in ma.cells} & {c.task_id for c in mb.cells})
    if common:
        ba, bb = task_bootstrap(ma, n_boot, seed, common), task_bootstrap(mb, n_boot, seed, common)
    else:
        ba, bb = task_bootstrap(ma, n_boot, seed), task_bootstrap(mb, n_boot, seed + 1)
    point_a = _point(ma, common or None)
    point_b = _point(mb, common or None)
    diff = {d: {"value": round(point_a[d] - point_b[d], 4), "ci": _ci(ba[d] - bb[d])} for d in DIMS}
    return {"paired_tasks": len(common), "difference": diff}


def _point(m: Mapped, tasks: Optional[Sequence[str]]) -> dict[str, float]:
    keep = np.ones(m.n, bool) if tasks is None else np.isin([c.task_id for c in m.cells], list(tasks))
    return {d: float(_scores(m.conv[d], m.truth[d])[keep].mean()) for d in DIMS}


# ------------------------------------------------------------------------------- storage
def fingerprint(cells: list[Cell], model: str) -> str:
    """Identifies what a stored report was computed from: the cells' conditions and turns, the model."""
    h = hashlib.sha256(json.dumps({"model": model, "schema": SCHEMA_VERSION}).encode())
    for c in cells:
        h.update(json.dumps([c.cell_id, c.condition.id, c.turns]).encode())
    return h.hexdigest()[:20]


def model_id(mapper) -> str:
    """What identifies the emotion model's predictions: encoder, anchors and training data."""
    from ..emotion.mapper import anchors_hash, written_hash
    return f"{mapper.encoder.name}|{anchors_hash()}|{written_hash()}"


def run_fidelity(source: Iterable[EpisodeRecord] | Path | str, mapper=None, n_shuffles: int = 100,
                 n_boot: int = 1000, seed: int = 0, progress: Optional[Progress] = None,
                 workers: Optional[int] = None) -> tuple[dict[str, Any], dict[str, Mapped]]:
    """(report, mapped arms) of one run, from its records or its directory; the report carries
    the fingerprint of its inputs. Raises ValueError when there is nothing to measure."""
    if mapper is None:
        from ..emotion import get_mapper
        mapper = get_mapper()
    cells = cells_from_run(source) if isinstance(source, (str, Path)) else cells_of(source)
    arms = map_cells(cells, mapper, progress, workers)
    report = fidelity_of_mapped(arms, n_shuffles, n_boot, seed)
    report["model"] = model_id(mapper)
    report["fingerprint"] = fingerprint(cells, report["model"])
    return report, arms


def save_report(run_dir: Path | str, report: dict[str, Any]) -> Path:
    """Write RUN/fidelity.json atomically."""
    from ..harness.runstore import atomic_write
    path = Path(run_dir) / FILE_NAME
    atomic_write(path, json.dumps({"schema_version": SCHEMA_VERSION, **report}, indent=1) + "\n")
    return path


def load_stored(run_dir: Path | str, records: Optional[Iterable[EpisodeRecord]] = None,
                mapper=None) -> Optional[dict[str, Any]]:
    """The stored report of a run (RUN/fidelity.json), or None if absent, unreadable or (when the
    records are given) computed from other conversations or another emotion model."""
    path = Path(run_dir) / FILE_NAME
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if records is not None:
        if mapper is None:
            from ..emotion import get_mapper
            mapper = get_mapper()
        if report.get("fingerprint") != fingerprint(cells_of(records), model_id(mapper)):
            return None
    return report
