"""Which collected rollouts become training data: explicit, recorded selection rules.

A rollout is judged on the fields of its record, never on the reward number alone (the reward rule
for a quit after the goal is a run option that may change):

- **lost**: the cell was cut short by infrastructure (endpoint down, harness or user-side fault):
  discarded and counted, never kept as a failure.
- **interaction-aware** (the paper's rule): the goal was reached (final state matches the reference
  and every required output was said) *and* the user did not end with ``###UNSATISFIED###``.
- **state-only** (the naive rule it is compared with): the goal was reached, whatever the user felt.

Then a per-domain cap: a seeded random sample of at most ``cap`` kept trajectories per domain.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable, Optional

from ..core import EpisodeRecord

RULES = ("interaction-aware", "state-only")
DEFAULT_RULE = "interaction-aware"
DEFAULT_CAP = 250

HIGH_DOMAINS = ("airline", "retail", "telecom", "telehealth", "school", "basketball", "restaurant", "travel", "movie", "bank")
LOW_DOMAINS = ("airline", "retail", "telecom", "telehealth")


@dataclass(frozen=True)
class Preset:
    """A named training set of the paper: which domains, and whether each domain is capped."""

    name: str
    domains: tuple[str, ...]
    capped: bool
    description: str


PRESETS = {
    "tracer-high": Preset("tracer-high", HIGH_DOMAINS, True,
                          "all ten domains, at most --cap (250) kept trajectories per domain"),
    "tracer-low": Preset("tracer-low", LOW_DOMAINS, False,
                         "airline, retail, telecom, telehealth; every kept trajectory (no cap)"),
}

# Terminations that say nothing about the agent: the episode was cut short around it.
LOST_TERMINATIONS = frozenset({"infra_error", "harness_error", "user_error"})


def is_lost(record: EpisodeRecord) -> bool:
    return record.termination in LOST_TERMINATIONS or record.reward is None


def goal_reached(record: EpisodeRecord) -> bool:
    r = record.reward
    return r is not None and r.state_match and r.outputs_ok


def user_quit(record: EpisodeRecord) -> bool:
    return record.termination == "user_unsatisfied"


def keeps(rule: str, record: EpisodeRecord) -> bool:
    """Whether ``rule`` keeps this rollout as a training trajectory."""
    if rule not in RULES:
        raise ValueError(f"unknown selection rule {rule!r}; choose one of: {', '.join(RULES)}")
    if is_lost(record) or not goal_reached(record):
        return False
    return rule == "state-only" or not user_quit(record)


def outcome(record: EpisodeRecord) -> str:
    """The record's reward as Table 6 counts it: "1", "0", "-1" (or "lost")."""
    if is_lost(record):
        return "lost"
    return str(record.reward.reward)  # type: ignore[union-attr]


def cap_sample(records: list[EpisodeRecord], cap: Optional[int], seed: int, domain: str) -> list[EpisodeRecord]:
    """At most ``cap`` records, a seeded random sample independent of input order (None or 0: all)."""
    ordered = sorted(records, key=lambda r: r.cell_id)
    if not cap or len(ordered) <= cap:
        return ordered
    rng = random.Random(f"cap:{domain}:{seed}")
    return sorted(rng.sample(ordered, cap), key=lambda r: r.cell_id)


@dataclass
class Selection:
    """The outcome of one rule + cap over a collection, per domain."""

    rule: str
    cap: Optional[int]
    seed: int
    preset: Optional[str] = None
    kept: dict[str, list[EpisodeRecord]] = field(default_factory=dict)  # before the cap
    chosen: dict[str, list[EpisodeRecord]] = field(default_factory=dict)  # after the cap

    def rows(self) -> list[EpisodeRecord]:
        return [r for d in self.chosen for r in self.chosen[d]]

    def describe(self) -> dict:
        return {"rule": self.rule, "cap": self.cap, "seed": self.seed, "preset": self.preset,
                "kept": {d: len(v) for d, v in self.kept.items()},
                "chosen": {d: len(v) for d, v in self.chosen.items()}}


def select(
    records: Iterable[EpisodeRecord], rule: str = DEFAULT_RULE, cap: Optional[int] = DEFAULT_CAP, seed: int = 0,
    preset: Optional[str] = None,
) -> Selection:
    """Apply ``rule`` to every rollout, then the per-domain cap. A preset restricts the domains and,
    for tracer-low, lifts the cap (the paper keeps every successful trajectory there)."""
    if rule not in RULES:
        raise ValueError(f"unknown selection rule {rule!r}; choose one of: {', '.join(RULES)}")
    chosen_preset = PRESETS.get(preset) if preset else None
    if preset and chosen_preset is None:
        raise ValueError(f"unknown preset {preset!r}; choose one of: {', '.join(PRESETS)}")
    if chosen_preset is not None and not chosen_preset.capped:
        cap = None
    by_domain: dict[str, list[EpisodeRecord]] = {}
    for record in records:
        if chosen_preset is not None and record.domain not in chosen_preset.domains:
            continue
        by_domain.setdefault(record.domain, [])
        if keeps(rule, record):
            by_domain[record.domain].append(record)
    out = Selection(rule=rule, cap=cap, seed=seed, preset=preset)
    for domain, kept in by_domain.items():
        out.kept[domain] = sorted(kept, key=lambda r: r.cell_id)
        out.chosen[domain] = cap_sample(kept, cap, seed, domain)
    return out
