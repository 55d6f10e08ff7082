"""`temo report`: one self-contained HTML file for one or more runs, plus the figures as SVG files.

Sections: runs, the Table 3-style metrics table (runs side by side), Pass^k curves, emotion-minus-
neutral deltas with bootstrap intervals, family x domain heatmaps, fault shares (Figure 12),
policy adherence, success by behavioural level, interaction pattern (Figure 8), user
hallucination flags, and a trajectory viewer (filter cells, open one to read the conversation
with tool calls, results, reasoning, the emotion instruction, the verdict and the replay diff).
Everything is inline (no CDN, no network): it opens from disk in any browser.
"""
from __future__ import annotations

import json
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any, Optional

from .cells import Run, load_run
from .faults import CATEGORIES, CATEGORY_OF, CATEGORY_TITLES, FAULTS
from .svg import bar_chart, heatmap, line_chart

MAX_RESULT_CHARS = 1500
DEFAULT_VIEWER_CELLS = 1000


def _pct(x: Optional[float], signed: bool = False) -> str:
    if x is None:
        return "–"
    return f"{100 * x:+.1f}" if signed else f"{100 * x:.1f}"


def run_label(run: Run) -> str:
    cfg = run.config
    agent = cfg.agent.model or cfg.agent.kind
    return f"{run.name} ({agent})"


class RunData:
    """Everything the report shows about one run."""

    def __init__(self, run: Run):
        from ..metrics import summarize
        from .analyses import analyze
        from .judging import judge_offline, summarize_verdicts
        from .verdicts import VerdictStore

        self.run = run
        self.label = run_label(run)
        records = [c.record for c in run.cells]
        self.metrics = summarize(records, planned_cells=run.config.cells(), trials=run.config.trials)
        self.offline = judge_offline(run)
        self.llm = VerdictStore(run.root, "llm").all(set(self.offline))
        self.judge = summarize_verdicts(run, self.offline, self.llm)
        self.analyses = analyze(run)
        from .judging import primary_verdicts

        self.verdicts = primary_verdicts(self.offline, self.llm)
        self.live_diffs = 0


# ---------------------------------------------------------------------------------------------
# Viewer data
# ---------------------------------------------------------------------------------------------


def _clip(text: Optional[str], limit: int = MAX_RESULT_CHARS) -> str:
    text = text or ""
    return text if len(text) <= limit else text[:limit] + f" … [{len(text) - limit} more characters]"


def cell_entry(rd: RunData, cell: Any, run_index: int) -> dict[str, Any]:
    rec = cell.record
    task = rd.run.task(rec.task_id)
    verdict = rd.verdicts.get(cell.id)
    offline = rd.offline.get(cell.id)
    msgs = []
    n = 0
    for m in rec.messages:
        if m.role == "system":
            continue
        if m.role in ("user", "assistant"):
            n += 1
        msgs.append({
            "role": m.role, "turn": n if m.role != "tool" else None, "content": _clip(m.content),
            "reasoning": _clip(m.reasoning) if m.reasoning else None, "name": m.name,
            "tool_calls": [{"name": tc.function.name, "arguments": _clip(tc.function.arguments, 2000)} for tc in (m.tool_calls or [])],
        })
    reward = rec.reward.reward if rec.reward else None
    return {
        "run": run_index, "id": cell.id, "task": rec.task_id, "domain": rec.domain, "arm": rec.arm, "trial": rec.trial,
        "family": rec.emotion.family if rec.arm == "emotion" else "neutral", "condition": rec.emotion.id,
        "reward": reward, "termination": str(rec.termination),
        "fault": verdict.critical_fault if verdict else None,
        "category": CATEGORY_OF.get(verdict.critical_fault) if verdict and verdict.critical_fault else None,
        "turns": n, "tool_calls": len(rec.tool_calls),
        "detail": {
            "instruction": task.instruction if task else None,
            "emotion_instruction": task.emotion_instruction if task and rec.arm == "emotion" else None,
            "reference": [{"name": a.name, "arguments": a.arguments} for a in task.actions] if task else [],
            "violations": [v.model_dump() for v in rec.violations],
            "missing_outputs": rec.reward.missing_outputs if rec.reward else [],
            "state_match": rec.reward.state_match if rec.reward else None,
            "messages": msgs,
            "verdict": verdict.model_dump(exclude={"replay_diff", "record_sha"}) if verdict else None,
            "replay_diff": _diff_of(rd, cell, offline),
        },
    }


MAX_LIVE_DIFFS = 200  # replays made while writing a report; `temo judge --diff` stores them all


def _diff_of(rd: RunData, cell: Any, offline: Any) -> list[dict[str, Any]]:
    """The stored replay diff, or computed now (for up to MAX_LIVE_DIFFS cells per run) for a
    failed cell whose state differs."""
    if offline is not None and offline.replay_diff:
        return offline.replay_diff
    if rd.live_diffs >= MAX_LIVE_DIFFS:
        return []
    rec = cell.record
    task = rd.run.task(rec.task_id)
    if task is None or rec.reward is None or rec.reward.state_match:
        return []
    from ..domains import available, get_domain
    from .replay_diff import state_diff

    if rec.domain not in available():
        return []
    rd.live_diffs += 1
    try:
        return state_diff(get_domain(rec.domain), task, rec)
    except Exception as e:  # the viewer still shows the conversation
        return [{"table": "", "key": "", "field": "", "agent": "", "reference": "", "change": f"replay failed: {e}"}]


def viewer_cells(runs: list[RunData], limit: int) -> tuple[list[dict[str, Any]], int]:
    """Cells for the viewer, failed ones first when there are more than ``limit``."""
    pool = [(i, rd, c) for i, rd in enumerate(runs) for c in rd.run.cells]
    pool.sort(key=lambda t: (t[2].record.reward is not None and t[2].record.reward.reward == 1, t[0], t[2].id))
    chosen = pool[:limit]
    chosen.sort(key=lambda t: (t[0], t[2].id))
    return [cell_entry(rd, c, i) for i, rd, c in chosen], len(pool) - len(chosen)


# ---------------------------------------------------------------------------------------------
# Sections
# ---------------------------------------------------------------------------------------------


def _domains(runs: list[RunData]) -> list[str]:
    out: list[str] = []
    for rd in runs:
        out.extend(d for d in rd.metrics["domains"] if d not in out)
    return out


def metrics_table(runs: list[RunData]) -> str:
    trials = max(rd.metrics["trials"] for rd in runs)
    head1 = "".join(f'<th colspan="{trials + 2}">{escape(rd.label)}</th>' for rd in runs)
    sub = "".join("<th>Avg</th>" + "".join(f"<th>Pass^{k}</th>" for k in range(1, trials + 1)) + "<th>Unsat.</th>" for _ in runs)
    rows = []
    for d in _domains(runs) + ["Average"]:
        cells = []
        for rd in runs:
            e = rd.metrics["average"] if d == "Average" else rd.metrics["domains"].get(d)
            if not e:
                cells.append("<td>–</td>" * (trials + 2))
                continue
            ph = e.get("pass_hat") or {}
            cells.append(f"<td>{_pct(e.get('avg'))}</td>" + "".join(f"<td>{_pct(ph.get(str(k)))}</td>" for k in range(1, trials + 1))
                         + f"<td>{_pct(e.get('unsatisfied_rate'))}</td>")
        cls = ' class="avg"' if d == "Average" else ""
        rows.append(f"<tr{cls}><th>{escape(d)}</th>{''.join(cells)}</tr>")
    return (f'<table class="metrics"><thead><tr><th rowspan="2">Domain</th>{head1}</tr><tr>{sub}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table><p class="note">Percent. Avg = mean success over trials; '
            'Pass^k = mean over tasks of C(c,k)/C(n,k); Unsat. = share of cells ended with ###UNSATISFIED###. '
            'Headline arm: emotion when present. Average: unweighted over domains.</p>')


def figures(runs: list[RunData]) -> dict[str, str]:
    figs: dict[str, str] = {}
    trials = max(rd.metrics["trials"] for rd in runs)
    ks = list(range(1, trials + 1))
    figs["pass_hat_k"] = line_chart(ks, {rd.label: [(rd.metrics["average"].get("pass_hat") or {}).get(str(k)) for k in ks] for rd in runs},
                                    "Pass^k (average over domains)", x_label="k")
    domains = _domains(runs)
    groups = domains + ["all"]
    series, errs = {}, {}
    for rd in runs:
        eff = rd.analyses["emotion_effect"]
        blocks = [eff["by_domain"].get(d, {}) for d in domains] + [eff["all"]]
        series[rd.label] = [b.get("delta") for b in blocks]
        errs[rd.label] = [b.get("ci95") for b in blocks]
    figs["emotion_delta"] = bar_chart(groups, series, "Emotion − neutral success per domain (95% bootstrap CI)", errors=errs,
                                      empty_note="no paired tasks: run with --arms emotion,neutral")
    for i, rd in enumerate(runs):
        fams = [f for f in ("anger", "fear", "disgust", "sadness", "enjoyment")]
        values = [[(rd.metrics["domains"].get(d, {}).get("by_family", {}).get(f) or {}).get("avg") for d in domains] for f in fams]
        figs[f"family_domain_{i + 1}"] = heatmap(fams, domains, values, f"Avg by family × domain (emotion arm): {rd.label}")
    cats = list(CATEGORIES)
    figs["fault_categories"] = bar_chart([CATEGORY_TITLES[c] for c in cats],
                                         {rd.label: [rd.judge["category_share"][c] for c in cats] for rd in runs},
                                         "Failed cells with a critical fault per category (Figure 12)", y_min=0.0)
    kinds = ["more_tool_calls", "equal", "more_follow_ups"]
    figs["interaction"] = bar_chart(["more tool calls", "equal", "more follow-ups"],
                                    {rd.label: [rd.analyses["interaction"]["all"][k]["share"] for k in kinds] for rd in runs},
                                    "Episodes by tool calls vs follow-up questions (Figure 8)", y_min=0.0)
    return figs


def _table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    h = "".join(f"<th>{escape(x)}</th>" for x in head)
    body = "".join("<tr>" + "".join(f"<td>{x}</td>" for x in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>'


def faults_section(runs: list[RunData]) -> str:
    head = ["Category", "Fault"] + [rd.label for rd in runs]
    rows = []
    for f in FAULTS:
        if not any(rd.judge["by_fault"][f] for rd in runs):
            continue
        rows.append([escape(CATEGORY_TITLES[CATEGORY_OF[f]]), escape(f)]
                    + [f"{rd.judge['by_fault'][f]} ({_pct(rd.judge['fault_share'][f])}%)" for rd in runs])
    rows.append(["", "<b>failed cells judged</b>"] + [str(rd.judge["failed"]) for rd in runs])
    rows.append(["", "passed with policy breach"] + [str(rd.judge["passed_with_policy_breach"]) for rd in runs])
    rows.append(["", "abandoned by the user"] + [str(rd.judge["emotional_outcome"]["abandoned"]) for rd in runs])
    agree = [rd.judge.get("agreement") for rd in runs]
    if any(agree):
        rows.append(["", "judge agreement (fault)"] + [f"{_pct(a['fault'])}% of {a['cells']}" if a else "–" for a in agree])
    return _table(head, rows, "faults")


def analyses_section(runs: list[RunData]) -> str:
    out = ["<h3>Policy adherence (per 100 episodes)</h3>"]
    rows = []
    for rd in runs:
        p = rd.analyses["policy"]
        for name, b in [("all", p["all"]), *p["by_domain"].items()]:
            rows.append([escape(rd.label), escape(name), str(b["episodes"]), f"{b['unconfirmed_writes_per_100']:.1f}" if b["episodes"] else "–",
                         f"{b['writes_before_auth_per_100']:.1f}" if b["episodes"] else "–",
                         f"{b['unnecessary_transfers_per_100']:.1f}" if b["episodes"] else "–"])
    out.append(_table(["Run", "Group", "Episodes", "Unconfirmed writes", "Writes before auth", "Unneeded transfers"], rows, "policy"))
    out.append("<h3>Emotion effect by family and by behavioural level</h3>")
    rows = []
    for rd in runs:
        eff = rd.analyses["emotion_effect"]
        for fam, b in eff["by_family"].items():
            ci = b["ci95"]
            rows.append([escape(rd.label), "family", escape(fam), str(b["paired_tasks"]), _pct(b["delta"], True),
                         f"[{_pct(ci[0], True)}, {_pct(ci[1], True)}]" if ci else "–"])
        for dim, levels in eff["by_level"].items():
            for level, b in levels.items():
                rows.append([escape(rd.label), escape(dim), escape(level), str(b["cells"]),
                             f"success {_pct(b['success_rate'])}%", _pct(b["paired"]["delta"], True)])
    out.append(_table(["Run", "Group", "Value", "Tasks / cells", "Δ emotion − neutral (pts) / success", "95% CI / Δ"], rows, "effect"))
    out.append("<h3>Interaction pattern</h3>")
    rows = []
    for rd in runs:
        b = rd.analyses["interaction"]["all"]
        rows.append([escape(rd.label), str(b["episodes"]), f"{b['mean_tool_calls'] or 0:.1f}", f"{b['mean_follow_ups'] or 0:.1f}",
                     *[f"{_pct(b[k]['share'])}% (success {_pct(b[k]['success_rate'])}%)" for k in ("more_tool_calls", "equal", "more_follow_ups")]])
    out.append(_table(["Run", "Episodes", "Tool calls / ep", "Follow-ups / ep", "More tool calls", "Equal", "More follow-ups"], rows, "interaction"))
    out.append("<h3>User hallucination (flagged for review)</h3>")
    rows = []
    for rd in runs:
        h = rd.analyses["user_hallucination"]
        a = h["all"]
        examples = "; ".join(f"{escape(x['cell'])} t{x['turn']}: {escape(', '.join(x['tokens']))}" for x in h["flagged"][:5])
        rows.append([escape(rd.label), str(a["flagged_turns"]), f"{a['failed_with_flag']} / {a['failed_cells']}", examples or "–"])
    out.append(_table(["Run", "Flagged user turns", "Failed cells with a flag", "Examples"], rows, "hallucination"))
    return "".join(out)


def fidelity_section(runs: list[RunData]) -> str:
    """Simulator fidelity (``temo fidelity RUN`` stores it beside the run): how often the emotion
    model reads the user's conversation as the task's condition, against the shuffled baseline."""
    from ..metrics.fidelity import load_stored

    dims = ("family", "emotion", "politeness", "urgency", "trust")
    rows, missing = [], []
    for rd in runs:
        rep = load_stored(rd.run.root)
        if not rep or "agreement" not in rep:
            missing.append(rd.run.name)
            continue
        rows.append([escape(rd.label)] + [f"{_pct(rep['agreement'].get(d))}% (chance {_pct(rep['baseline'].get(d))}%)"
                                          for d in dims])
    out = _table(["Run", *dims], rows, "fidelity") if rows else ""
    if missing:
        out += (f'<p class="note">No stored fidelity for {escape(", ".join(missing))}: run '
                f'<code>temo fidelity RUN</code> and rebuild the report.</p>')
    return out


def _asset(name: str) -> str:
    return resources.files("temo.analysis").joinpath("viewer", name).read_text(encoding="utf-8")


def _json_script(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def build_report(run_dirs: list[Path], out: Path, viewer_limit: int = DEFAULT_VIEWER_CELLS,
                 figures_dir: Optional[Path] = None) -> dict[str, Any]:
    """Write the HTML report (and the figures as SVG files); returns what was written."""
    runs = [RunData(load_run(p)) for p in run_dirs]
    figs = figures(runs)
    cells, left_out = viewer_cells(runs, viewer_limit)
    figures_dir = figures_dir or out.with_name(out.stem + "_figures")
    figures_dir.mkdir(parents=True, exist_ok=True)
    for name, svg in figs.items():
        (figures_dir / f"{name}.svg").write_text(svg, encoding="utf-8")
    overview = _table(
        ["#", "Run", "Agent", "User", "Domains", "Arms", "Trials", "Cells", "Warnings"],
        [[str(i + 1), escape(rd.run.name), escape(rd.run.config.agent.model or rd.run.config.agent.kind),
          escape(rd.run.config.user.model or rd.run.config.user.kind), escape(", ".join(rd.run.config.domains)),
          escape(", ".join(rd.run.config.arms)), str(rd.run.config.trials), str(len(rd.run.cells)),
          escape("; ".join(rd.metrics["warnings"] + rd.run.warnings)[:400]) or "–"] for i, rd in enumerate(runs)], "overview")
    heat = "".join(f'<div class="fig">{figs[k]}</div>' for k in figs if k.startswith("family_domain_"))
    note = f'<p class="note">{left_out} passing cell(s) left out of the viewer (limit {viewer_limit}; failed cells first).</p>' if left_out else ""
    body = f"""
<header><h1>temo report</h1><nav><a href="#runs">Runs</a><a href="#metrics">Metrics</a><a href="#plots">Plots</a>
<a href="#faults">Faults</a><a href="#analyses">Analyses</a><a href="#fidelity">Fidelity</a><a href="#viewer">Trajectories</a></nav></header>
<section id="runs"><h2>Runs</h2>{overview}</section>
<section id="metrics"><h2>Metrics (Table 3 style)</h2>{metrics_table(runs)}</section>
<section id="plots"><h2>Plots</h2><div class="figs"><div class="fig">{figs['pass_hat_k']}</div><div class="fig">{figs['emotion_delta']}</div></div>
<h3>Family × domain</h3><div class="figs">{heat}</div></section>
<section id="faults"><h2>Why agents fail: critical faults</h2><div class="figs"><div class="fig">{figs['fault_categories']}</div></div>{faults_section(runs)}</section>
<section id="analyses"><h2>Behaviour analyses</h2><div class="figs"><div class="fig">{figs['interaction']}</div></div>{analyses_section(runs)}</section>
<section id="fidelity"><h2>Simulator fidelity</h2>{fidelity_section(runs)}</section>
<section id="viewer"><h2>Trajectories</h2>{note}
<div id="filters"></div><div id="viewer-body"><div id="cell-list"><table id="cells"><thead><tr><th>Run</th><th>Cell</th><th>Domain</th><th>Family</th>
<th>Arm</th><th>Reward</th><th>Fault</th><th>Turns</th></tr></thead><tbody></tbody></table></div><div id="cell-detail"><p class="hint">
Select a cell (click, or j/k and Enter). / focuses the search.</p></div></div></section>
"""
    data = {"runs": [{"name": rd.run.name, "label": rd.label} for rd in runs], "cells": cells, "faults": list(FAULTS)}
    html = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>temo report: {escape(', '.join(rd.run.name for rd in runs))}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{_asset('viewer.css')}</style></head>
<body>{body}
<script type="application/json" id="temo-data">{_json_script(data)}</script>
<script>{_asset('viewer.js')}</script></body></html>
"""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
    return {"out": str(out), "figures": sorted(str(figures_dir / f"{k}.svg") for k in figs), "runs": [str(p) for p in run_dirs],
            "viewer_cells": len(cells), "viewer_left_out": left_out, "bytes": len(html.encode())}
