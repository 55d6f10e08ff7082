"""One row per cell, with the metrics' fields and the judge's verdict, for pandas, DuckDB, notebooks."""
from __future__ import annotations

from typing import Any

from .cells import Run, is_judgeable
from .faults import CATEGORY_OF
from .judging import primary_verdicts
from .verdicts import VerdictStore

COLUMNS = (
    "run", "cell", "task_id", "domain", "arm", "trial", "family", "emotion", "politeness", "urgency", "trust",
    "condition", "termination", "complete", "reward", "success", "state_match", "missing_outputs", "user_quit",
    "violations", "tool_calls", "tool_errors", "turns", "agent_prompt_tokens", "agent_completion_tokens",
    "duration_s", "judge", "critical_fault", "fault_category", "critical_turn", "critical_reason", "abandoned",
    "abandon_reason",
)


def cell_rows(run: Run) -> list[dict[str, Any]]:
    offline = VerdictStore(run.root, "offline").all()
    llm = VerdictStore(run.root, "llm").all()
    verdicts = primary_verdicts(offline, llm)
    rows = []
    for c in run.cells:
        rec = c.record
        r = rec.reward
        v = verdicts.get(c.id)
        if v is not None and v.record_sha != c.sha:
            v = None  # judged before the cell changed
        agent_usage = rec.usage.get("agent")
        rows.append({
            "run": run.name, "cell": c.id, "task_id": rec.task_id, "domain": rec.domain, "arm": rec.arm, "trial": rec.trial,
            "family": rec.emotion.family, "emotion": rec.emotion.emotion, "politeness": rec.emotion.politeness,
            "urgency": rec.emotion.urgency, "trust": rec.emotion.trust, "condition": rec.emotion.id,
            "termination": str(rec.termination), "complete": is_judgeable(rec),
            "reward": r.reward if r else None, "success": bool(r and r.reward == 1),
            "state_match": r.state_match if r else None, "missing_outputs": len(r.missing_outputs) if r else None,
            "user_quit": r.user_quit if r else None, "violations": len(rec.violations),
            "tool_calls": len(rec.tool_calls), "tool_errors": rec.counters.get("tool_errors", 0),
            "turns": rec.counters.get("turns"),
            "agent_prompt_tokens": agent_usage.prompt_tokens if agent_usage else None,
            "agent_completion_tokens": agent_usage.completion_tokens if agent_usage else None,
            "duration_s": rec.duration_s,
            "judge": v.judge if v else None, "critical_fault": v.critical_fault if v else None,
            "fault_category": CATEGORY_OF.get(v.critical_fault) if v and v.critical_fault else None,
            "critical_turn": v.critical.turn if v and v.critical else None,
            "critical_reason": v.critical.reason if v and v.critical else None,
            "abandoned": v.emotional_outcome.abandoned if v else None,
            "abandon_reason": v.emotional_outcome.reason if v else None,
        })
    return rows
