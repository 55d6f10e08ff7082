"""Stage 6: map each feeling to one of the 594 conditions with the emotion model (the paper's way:
classifier space, kNN vote over the anchors, then one of that condition's 10 anchors drawn with a
seed), and store the condition, the confidence and the anchor. ``round_trip`` reports how often the
mapped family is the family the feeling was written for."""
from __future__ import annotations

from collections import Counter
from typing import Any


def condition(records: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    from ..emotion import map_feelings

    maps = map_feelings([r["feeling"] for r in records], seed=seed) if records else []
    return [{**r, "mapping": m.model_dump()} for r, m in zip(records, maps)]


def round_trip(records: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(records)
    fam = sum(1 for r in records if r["mapping"]["family"] == r["feeling_target"]["family"])
    emo = sum(1 for r in records if r["mapping"]["emotion"] == r["feeling_target"]["emotion"])
    return {"n": n, "family": round(fam / n, 3) if n else None, "emotion": round(emo / n, 3) if n else None,
            "families": dict(Counter(r["mapping"]["family"] for r in records))}
