"""Why cells ended in an error: the reasons of agent_error, user_error, infra_error and
harness_error cells, grouped, with counts (shown by `temo run`, `temo metrics` and `temo show`)."""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Iterable

ERROR_TERMINATIONS = ("infra_error", "agent_error", "user_error", "harness_error")
_ATTEMPTS = re.compile(r" failed after \d+ attempt\(s\)")


def error_reason(termination: str, error: str | None) -> str:
    """One line that groups well: a traceback's last line, else the text's first line."""
    text = (error or "").strip()
    if not text:
        return "(no reason recorded)"
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    line = lines[-1] if termination == "harness_error" and len(lines) > 1 else lines[0]
    line = _ATTEMPTS.sub(" failed", line)
    return line if len(line) <= 240 else line[:237] + "..."


def error_reasons(records: Iterable[Any]) -> dict[str, list[dict[str, Any]]]:
    """{termination: [{"reason", "cells"}, ...]} for the error terminations, most frequent first."""
    counts: dict[str, Counter] = {}
    for r in records:
        if r.termination in ERROR_TERMINATIONS:
            counts.setdefault(r.termination, Counter())[error_reason(r.termination, r.error)] += 1
    return {t: [{"reason": reason, "cells": n} for reason, n in counts[t].most_common()]
            for t in ERROR_TERMINATIONS if t in counts}


def error_lines(reasons: dict[str, list[dict[str, Any]]], limit: int = 5) -> list[str]:
    """Printable lines: one header per termination, then its most frequent reasons."""
    meaning = {
        "infra_error": "endpoint failures, not graded; `--resume` re-runs them",
        "agent_error": "the agent's endpoint rejected its request; graded as failures",
        "user_error": "the user model's endpoint rejected its request; not graded, not re-run by --resume",
        "harness_error": "an exception inside temo; not graded, traceback in the cell record; "
                         "`--resume --retry-errors` re-runs them",
    }
    out = []
    for term, groups in reasons.items():
        total = sum(g["cells"] for g in groups)
        out.append(f"{total} {term} cell(s) ({meaning.get(term, '')}):")
        for g in groups[:limit]:
            out.append(f"  {g['cells']} x {g['reason']}")
        if len(groups) > limit:
            out.append(f"  ... and {len(groups) - limit} other reason(s); see `temo show RUN --failed`")
    return out
