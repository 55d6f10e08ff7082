"""The 5,940 anchor instructions: 10 second-person instructions for each of the 594 conditions.

Generated offline and deterministically from a seed out of the pieces in ``lexicon_anchor``; the
result ships as ``data/anchors.jsonl`` and a test checks that the shipped file equals a fresh
generation. Regenerate with ``python -m temo.emotion.anchors`` (writes the shipped file).

Composition of anchor k of a condition: feeling sentence k of the emotion (a seeded permutation
of its ten, so the ten anchors of a condition all open differently), then a politeness+urgency
sentence and a trust sentence with seeded phrasings, in one of two orders.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from temo.core import EmotionCondition
from temo.core.taxonomy import ANCHORS_PER_CONDITION

from .lexicon_anchor import FEEL, POLITENESS_HOW, TRUST_HOW, URGENCY_HOW

DATA_DIR = Path(__file__).resolve().parent / "data"
ANCHORS_FILE = DATA_DIR / "anchors.jsonl"
DEFAULT_SEED = 20261015


@dataclass(frozen=True)
class Anchor:
    condition_id: str
    index: int
    text: str

    @property
    def condition(self) -> EmotionCondition:
        return EmotionCondition.parse(self.condition_id)


def _compose(cond: EmotionCondition, rng: random.Random) -> list[str]:
    feel = list(FEEL[cond.emotion])
    rng.shuffle(feel)
    out: list[str] = []
    for k in range(ANCHORS_PER_CONDITION):
        how = f"{rng.choice(POLITENESS_HOW[cond.politeness])} {rng.choice(URGENCY_HOW[cond.urgency])}"
        trust = rng.choice(TRUST_HOW[cond.trust])
        parts = [feel[k], how, trust] if rng.random() < 0.6 else [feel[k], trust, how]
        out.append(" ".join(parts))
    return out


def generate(seed: int = DEFAULT_SEED) -> list[Anchor]:
    """All 5,940 anchors, in taxonomy order (condition by condition, index 0..9)."""
    anchors: list[Anchor] = []
    for cond in EmotionCondition.all():
        rng = random.Random(f"{cond.id}:{seed}")
        texts = _compose(cond, rng)
        anchors.extend(Anchor(cond.id, i, t) for i, t in enumerate(texts))
    texts = [a.text for a in anchors]
    if len(set(texts)) != len(texts):  # pragma: no cover - guarded by construction and tests
        raise RuntimeError("anchor generation produced duplicates; change the seed or the lexicon")
    return anchors


def dump(anchors: list[Anchor], path: Path = ANCHORS_FILE) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for a in anchors:
            f.write(json.dumps({"condition_id": a.condition_id, "index": a.index, "text": a.text}) + "\n")


@lru_cache(maxsize=1)
def load_anchors(path: str | None = None) -> tuple[Anchor, ...]:
    """The shipped anchors (or another file with the same format)."""
    p = Path(path) if path else ANCHORS_FILE
    out = []
    with p.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                out.append(Anchor(d["condition_id"], int(d["index"]), d["text"]))
    return tuple(out)


@lru_cache(maxsize=1)
def _by_condition() -> dict[str, tuple[str, ...]]:
    groups: dict[str, list[str]] = {}
    for a in load_anchors():
        groups.setdefault(a.condition_id, []).append(a.text)
    return {k: tuple(v) for k, v in groups.items()}


def anchors_for(condition: EmotionCondition | str) -> list[str]:
    """The 10 anchor instructions of a condition (object or id). Raises ValueError if unknown."""
    cond = condition if isinstance(condition, EmotionCondition) else EmotionCondition.parse(condition)
    return list(_by_condition()[cond.id])


def main() -> None:  # python -m temo.emotion.anchors
    anchors = generate()
    dump(anchors)
    print(f"wrote {len(anchors)} anchors to {ANCHORS_FILE}")


if __name__ == "__main__":
    main()
