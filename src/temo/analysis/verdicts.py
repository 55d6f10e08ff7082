"""Verdicts beside the cells: RUN/judge/<judge>/<cell>.json, one file per cell, resumable.

A stored verdict is reused while the cell file it judged is unchanged (same sha256) and, for the
LLM judge, while the model and the prompt's hash are the same; otherwise the cell is judged again.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

from ..harness.runstore import atomic_write
from .faults import Verdict


class VerdictStore:
    def __init__(self, run_root: Path | str, judge: str):
        self.dir = Path(run_root) / "judge" / judge
        self.judge = judge

    def path(self, cell_id: str) -> Path:
        return self.dir / f"{cell_id}.json"

    def read(self, cell_id: str) -> Optional[Verdict]:
        p = self.path(cell_id)
        if not p.exists():
            return None
        try:
            return Verdict.model_validate_json(p.read_text(encoding="utf-8"))
        except Exception:
            return None  # an unreadable verdict is simply judged again

    def fresh(self, cell_id: str, sha: str, version: str, prompt_hash: Optional[str] = None,
              model: Optional[str] = None) -> Optional[Verdict]:
        v = self.read(cell_id)
        if v is None or v.record_sha != sha or v.judge_version != version:
            return None
        if prompt_hash is not None and (v.prompt_hash != prompt_hash or v.model != model):
            return None
        return v

    def write(self, verdict: Verdict, durable: bool = False) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        path = self.path(verdict.cell)
        if not durable:
            # Recomputable (offline) verdicts: a plain write; a torn file reads as missing and is redone.
            path.write_text(verdict.model_dump_json(), encoding="utf-8")
            return
        atomic_write(path, verdict.model_dump_json())  # an LLM verdict costs money: never torn

    def all(self, cell_ids: Optional[Iterable[str]] = None) -> dict[str, Verdict]:
        if not self.dir.exists():
            return {}
        wanted = set(cell_ids) if cell_ids is not None else None
        out: dict[str, Verdict] = {}
        for p in sorted(self.dir.glob("*.json")):
            if wanted is not None and p.stem not in wanted:
                continue
            v = self.read(p.stem)
            if v is not None:
                out[p.stem] = v
        return out
