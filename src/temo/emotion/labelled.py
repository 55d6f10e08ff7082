"""Labelled feelings on disk: one JSON object per line with text, emotion, politeness, urgency,
trust (family optional; other fields such as author, domain and style are kept)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from temo.core.taxonomy import DIMENSIONS, FAMILY_OF

FIELDS = ("family", "emotion", "politeness", "urgency", "trust")


def jsonl_rows(path: Path, where: str = "") -> Iterator[tuple[int, Any]]:
    """(line number, value) for each non-blank line of a JSONL file; a line that is not JSON raises
    ValueError "<where>line N: not valid JSON (...)"."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{where}line {n}: not valid JSON ({e.msg})") from None


def load_labelled(path: Path) -> list[dict]:
    """Labelled feelings; a bad line raises ValueError naming its line number and what is wrong."""
    rows = []
    for n, d in jsonl_rows(path):
        missing = [f for f in ("text",) + FIELDS[1:] if not isinstance(d, dict) or not d.get(f)]
        if missing:
            raise ValueError(f"line {n}: missing field(s) {', '.join(missing)}")
        if d["emotion"] not in FAMILY_OF:
            raise ValueError(f"line {n}: unknown emotion {d['emotion']!r}")
        for dim, levels in DIMENSIONS.items():
            if d[dim] not in levels:
                raise ValueError(f"line {n}: {dim} must be one of {', '.join(levels)}, not {d[dim]!r}")
        if d.setdefault("family", FAMILY_OF[d["emotion"]]) != FAMILY_OF[d["emotion"]]:
            raise ValueError(f"line {n}: {d['emotion']} belongs to {FAMILY_OF[d['emotion']]}, not {d['family']}")
        rows.append(d)
    if not rows:
        raise ValueError("no labelled feelings in the file")
    return rows
