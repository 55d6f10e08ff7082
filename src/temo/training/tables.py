"""The paper's statistics of a collection, computed from its records:

- Table 6: per domain, tasks, rollouts, lost rollouts, R=1 / R=0 / R=-1, success %, trajectories
  kept by each selection rule, and the Tracer-High / Tracer-Low counts.
- Table 7: per domain, over the kept trajectories (before the cap): average user turns, assistant
  turns, tool calls, gold actions, and reasoning per assistant turn.
- The emotion mix (Figures 9 and 10): emotion families (and fine emotions) of the kept, Tracer-High,
  Tracer-Low and failed trajectories.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Optional

from ..core import EpisodeRecord
from ..core.taxonomy import FAMILY_OF
from .collect import Collection, CollectSettings
from .select import LOW_DOMAINS, PRESETS, RULES, Selection, is_lost, keeps, outcome, select, user_quit

_PIECE = re.compile(r"\w+|[^\w\s]")


def approx_tokens(text: Optional[str]) -> int:
    """A tokenizer-free token estimate: words and punctuation marks (close to BPE counts for English)."""
    return len(_PIECE.findall(text or ""))


def trajectory_stats(record: EpisodeRecord, gold_actions: int) -> dict[str, float]:
    assistant = [m for m in record.messages if m.role == "assistant"]
    reasoning = [m.reasoning or "" for m in assistant]
    n = max(1, len(assistant))
    return {
        "user_turns": sum(1 for m in record.messages if m.role == "user"),
        "assistant_turns": len(assistant),
        "tool_calls": len(record.tool_calls),
        "gold_actions": gold_actions,
        "reasoning_tokens": sum(approx_tokens(r) for r in reasoning) / n,
        "reasoning_chars": sum(len(r) for r in reasoning) / n,
    }


def _settings_selection(collection: Collection, settings: CollectSettings, preset: Optional[str] = None) -> Selection:
    return select(collection.records, settings.rule, settings.cap or None, settings.seed, preset=preset)


def table6(collection: Collection, settings: Optional[CollectSettings] = None) -> dict[str, Any]:
    settings = settings or collection.settings
    high = _settings_selection(collection, settings, "tracer-high")
    low = _settings_selection(collection, settings, "tracer-low")
    by_domain: dict[str, list[EpisodeRecord]] = {d: [] for d in collection.domains}
    for r in collection.records:
        by_domain.setdefault(r.domain, []).append(r)
    rows: dict[str, dict[str, Any]] = {}
    for domain in collection.domains:
        records = by_domain.get(domain, [])
        outcomes = Counter(outcome(r) for r in records)
        rollouts = sum(1 for r in records if not is_lost(r))
        rows[domain] = {
            "tasks": len(collection.config.task_ids.get(domain, [])),
            "rollouts": rollouts,
            "lost": outcomes["lost"],
            "missing": collection.planned(domain) - len(records),
            "r1": outcomes["1"], "r0": outcomes["0"], "r_minus1": outcomes["-1"],
            "success_pct": round(100 * outcomes["1"] / rollouts, 1) if rollouts else None,
            "kept": {rule: sum(1 for r in records if keeps(rule, r)) for rule in RULES},
            "quit_after_goal": sum(1 for r in records if keeps("state-only", r) and user_quit(r)),
            "tracer_high": len(high.chosen.get(domain, [])) if domain in PRESETS["tracer-high"].domains else None,
            "tracer_low": len(low.chosen.get(domain, [])) if domain in LOW_DOMAINS else None,
        }
    total: dict[str, Any] = {k: sum(row[k] for row in rows.values()) for k in
                             ("tasks", "rollouts", "lost", "missing", "r1", "r0", "r_minus1", "quit_after_goal")}
    total["success_pct"] = round(100 * total["r1"] / total["rollouts"], 1) if total["rollouts"] else None
    total["kept"] = {rule: sum(row["kept"][rule] for row in rows.values()) for rule in RULES}
    for key in ("tracer_high", "tracer_low"):
        values = [row[key] for row in rows.values() if row[key] is not None]
        total[key] = sum(values) if values else None
    return {"rule": settings.rule, "cap": settings.cap or None, "seed": settings.seed,
            "domains": rows, "total": total}


def table7(collection: Collection, settings: Optional[CollectSettings] = None) -> dict[str, Any]:
    settings = settings or collection.settings
    keys = ("user_turns", "assistant_turns", "tool_calls", "gold_actions", "reasoning_tokens", "reasoning_chars")
    per_domain: dict[str, list[dict[str, float]]] = {d: [] for d in collection.domains}
    for r in collection.records:
        if keeps(settings.rule, r):
            task = collection.tasks.get(r.task_id)
            per_domain.setdefault(r.domain, []).append(trajectory_stats(r, len(task.actions) if task else 0))

    def mean(stats: list[dict[str, float]]) -> dict[str, Any]:
        out: dict[str, Any] = {"n": len(stats)}
        for k in keys:
            out[k] = round(sum(s[k] for s in stats) / len(stats), 1) if stats else None
        return out

    return {"rule": settings.rule, "domains": {d: mean(s) for d, s in per_domain.items()},
            "all": mean([s for stats in per_domain.values() for s in stats])}


def emotion_mix(collection: Collection, settings: Optional[CollectSettings] = None) -> dict[str, Any]:
    """Shares of each emotion family and fine emotion in the kept, selected and failed groups."""
    settings = settings or collection.settings
    high = _settings_selection(collection, settings, "tracer-high").rows()
    low = _settings_selection(collection, settings, "tracer-low").rows()
    done = [r for r in collection.records if not is_lost(r)]
    groups = {
        "kept": [r for r in done if keeps(settings.rule, r)],
        "tracer-high": high,
        "tracer-low": low,
        "failed: user quit": [r for r in done if not keeps(settings.rule, r) and user_quit(r)],
        "failed: other": [r for r in done if not keeps(settings.rule, r) and not user_quit(r)],
    }
    out: dict[str, Any] = {"rule": settings.rule, "groups": {}}
    for name, records in groups.items():
        families = Counter(FAMILY_OF[r.emotion.emotion] for r in records)
        fine = Counter(r.emotion.emotion for r in records)
        n = len(records)
        out["groups"][name] = {
            "n": n,
            "families": {f: round(100 * c / n, 1) for f, c in families.most_common()} if n else {},
            "emotions": {e: round(100 * c / n, 1) for e, c in fine.most_common()} if n else {},
        }
    return out


def report(collection: Collection, settings: Optional[CollectSettings] = None) -> dict[str, Any]:
    """Everything `temo collect DIR --json` prints."""
    settings = settings or collection.settings
    return {
        "dir": str(collection.root),
        "settings": settings.model_dump(),
        "agent": collection.config.agent.kind if not collection.config.agent.model
        else f"{collection.config.agent.kind}:{collection.config.agent.model}",
        "user": collection.config.user.kind if not collection.config.user.model
        else f"{collection.config.user.kind}:{collection.config.user.model}",
        "split": collection.config.split,
        "max_turns": collection.config.max_turns,
        "table6": table6(collection, settings),
        "table7": table7(collection, settings),
        "emotion_mix": emotion_mix(collection, settings),
    }


# -- rendering (rich) -------------------------------------------------------------------------


def _fmt(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.1f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def render(data: dict[str, Any], console=None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    t6, t7, mix = data["table6"], data["table7"], data["emotion_mix"]
    cap = f"cap {t6['cap']}" if t6["cap"] else "no cap"
    table = Table(title=f"Table 6 · rollouts and selection (rule: {t6['rule']}; Tracer-High {cap}, Tracer-Low uncapped)")
    table.caption = ("Lost: infrastructure errors, discarded. Kept IA: interaction-aware rule (goal reached, user did not "
                     "quit); Kept SO: state-only rule (goal reached). High/Low: Tracer-High / Tracer-Low under the rule.")
    heads = ["Domain", "Tasks", "Rollouts", "Lost", "R=1", "R=0", "R=−1", "Succ. %", "Kept IA", "Kept SO", "High", "Low"]
    for h in heads:
        table.add_column(h, justify="left" if h == "Domain" else "right")

    def row6(name: str, r: dict[str, Any]) -> list[str]:
        return [name, *(_fmt(r[k]) for k in ("tasks", "rollouts", "lost", "r1", "r0", "r_minus1", "success_pct")),
                _fmt(r["kept"]["interaction-aware"]), _fmt(r["kept"]["state-only"]), _fmt(r["tracer_high"]), _fmt(r["tracer_low"])]

    for domain, r in t6["domains"].items():
        table.add_row(*row6(domain, r))
    table.add_section()
    table.add_row(*row6("Total", t6["total"]), style="bold")
    console.print(table)
    notes = []
    if t6["total"]["lost"]:
        notes.append(f"{t6['total']['lost']} rollouts lost to infrastructure errors were discarded (re-run them with --resume)")
    if t6["total"]["missing"]:
        notes.append(f"{t6['total']['missing']} planned rollouts have no record yet (--resume runs them)")
    if t6["total"]["quit_after_goal"]:
        notes.append(f"{t6['total']['quit_after_goal']} rollouts reached the goal but the user quit: state-only keeps them, interaction-aware does not")
    for note in notes:
        console.print(f"[dim]{note}[/dim]")

    table = Table(title=f"Table 7 · kept trajectories (rule: {t7['rule']}, before the cap)")
    table.caption = "Averages per trajectory; reasoning per assistant turn (tokens approximate: words and punctuation)."
    for h in ("Domain", "Kept", "User turns", "Asst. turns", "Tool calls", "Gold actions", "Reason. tok", "Reason. chars"):
        table.add_column(h, justify="left" if h == "Domain" else "right")
    keys = ("n", "user_turns", "assistant_turns", "tool_calls", "gold_actions", "reasoning_tokens", "reasoning_chars")
    for domain, r in t7["domains"].items():
        table.add_row(domain, *(_fmt(r[k]) for k in keys))
    table.add_section()
    table.add_row("All", *(_fmt(t7["all"][k]) for k in keys), style="bold")
    console.print(table)

    groups = mix["groups"]
    families = sorted({f for g in groups.values() for f in g["families"]})
    table = Table(title="Emotion families of kept and failed trajectories (% of each group; Figures 9 and 10)")
    table.add_column("Family")
    for name, g in groups.items():
        table.add_column(f"{name} (n={g['n']})", justify="right")
    for fam in families:
        table.add_row(fam, *(_fmt(g["families"].get(fam, 0.0)) if g["n"] else "–" for g in groups.values()))
    console.print(table)
