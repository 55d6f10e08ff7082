"""`temo metrics`: scores of a run directory, or of another tool's results file."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from .common import fail, load_run, print_json

REFERENCE_USER_WARNING = (
    "user simulator differs from the paper's reference (Qwen3-235B-A22B-Instruct-2507, temperature 0); "
    "scores are not comparable with the paper's tables"
)


def _one_line(err: BaseException | str, limit: int = 400) -> str:
    text = " ".join(str(err).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _role_facts(role: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": role.kind}
    if role.model:
        out["model"] = role.model
    if role.sampling:
        out["sampling"] = role.sampling
    return out


def _load_run(path: Path, domain: Optional[str]) -> dict[str, Any]:
    from ..metrics import summarize

    if not path.exists():
        fail(f"{path}: no such run directory")
    if path.is_file():
        fail(f"{path}: is a file, not a run directory; to score another tool's results use --import taubench {path}")
    _, config, records = load_run(path)
    planned = config.cells()
    if domain is not None:
        if domain not in config.domains:
            fail(f"domain {domain!r} is not in this run; it has: {', '.join(config.domains) or 'none'}")
        planned = [c for c in planned if c[0] == domain]
        records = [r for r in records if r.domain == domain]
    report = summarize(records, planned_cells=planned, trials=config.trials)
    # (only an llm user can differ from the paper's reference simulator)
    warnings = [] if config.reference_user_simulator or config.user.kind != "llm" else [REFERENCE_USER_WARNING]
    report["warnings"] = warnings + report["warnings"]
    report["usage"] = _usage(records)
    from ..metrics.errors import error_reasons

    report["errors"] = error_reasons(records)
    for term, why in (("harness_error", "an exception inside temo, a bug to report; not scored; traceback in each "
                                         "cell's record; `temo run --out RUN --resume --retry-errors` re-runs them"),
                      ("user_error", "the user model's endpoint rejected its request; not scored and not counted "
                                     "against the agent; `--resume --retry-errors` re-runs them")):
        n = sum(g["cells"] for g in report["errors"].get(term, []))
        if n:
            report["warnings"].insert(0, f"{n} cell(s) ended in {term.upper()} ({why})")
    report["run"] = {
        "dir": str(path),
        "agent": _role_facts(config.agent),
        "user": _role_facts(config.user),
        "trials": config.trials,
        "arms": list(config.arms),
        "domains": list(config.domains),
        "split": config.split,
        "seed": config.seed,
        "max_turns": config.max_turns,
        "task_set_hash": config.task_set_hash,
        "reference_user_simulator": config.reference_user_simulator,
        "records": len(records),
    }
    report["reward_rule"] = _reward_rule_facts(config, records)
    report["run"]["reward_rule"] = report["reward_rule"]["name"]
    stale = report["reward_rule"]["cells_under_other_rule"]
    if stale:
        report["warnings"].append(f"{stale} cell(s) were scored under another reward rule than the run's "
                                  f"({report['reward_rule']['name']}); run `temo regrade {path}`")
    return report


def _reward_rule_facts(config: Any, records: list) -> dict[str, Any]:
    from ..harness.grader import LEGACY_REWARD_RULE, REWARD_RULES

    name = config.effective_reward_rule
    other = sum(1 for r in records if r.reward is not None and (r.reward.rule or LEGACY_REWARD_RULE) != name)
    return {"name": name, "recorded": config.reward_rule is not None, "description": REWARD_RULES[name],
            "cells_under_other_rule": other}


def reward_rule_line(report: dict[str, Any]) -> Optional[str]:
    """The footer line naming the reward rule a run's table was scored under."""
    rule = report.get("reward_rule")
    if not rule:
        return None
    note = "" if rule["recorded"] else " (not recorded in config.json: the rule runs were made under before temo recorded it)"
    return f"reward rule: {rule['name']}{note} — {rule['description']}"


def _usage(records: list) -> dict[str, Any]:
    """Token usage per role over the run; cost stays null unless every request had a price."""
    from ..core import Usage

    totals: dict[str, Usage] = {}
    for r in records:
        for role, u in r.usage.items():
            totals[role] = totals[role].add(u) if role in totals else u
    return {role: u.model_dump() for role, u in sorted(totals.items()) if u.requests}


def _load_import(fmt: str, path: Path, domain: Optional[str]) -> dict[str, Any]:
    from ..metrics import ImportFormatError, load_results, summarize

    try:
        result = load_results(fmt, path, domain=domain)
    except ImportFormatError as e:
        fail(_one_line(e))
    report = summarize(result.cells)
    report["warnings"] = result.warnings + report["warnings"]
    report["source"] = {"format": fmt, "file": str(path), "entries": result.entries, "emotion_info": result.has_emotion}
    return report


def metrics_command(
    path: Optional[Path] = typer.Argument(
        None,
        metavar="RUN|FILE",
        help="A run directory written by `temo run`; with --import, another tool's results file.",
        show_default=False,
    ),
    import_format: Optional[str] = typer.Option(
        None, "--import", metavar="FORMAT", help="Read results from another tool: taubench.", show_default=False
    ),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON (rates are fractions in [0, 1])."),
    domain: Optional[str] = typer.Option(
        None,
        "--domain",
        metavar="NAME",
        help="Run: report only this domain. --import: the domain name to file the results under "
        "(default: the entries' own domain/env field, else 'imported').",
        show_default=False,
    ),
) -> None:
    """Score a run: Avg@k, Pass^k, unsatisfied rate, missing cells; per domain, family and arm.

    Per domain and on average (unweighted over domains), plus per emotion family, per arm and the
    paired emotion-minus-neutral delta.

    \b
    Examples:
      temo metrics runs/qwen-retail                  # table like the paper's Table 3
      temo metrics runs/qwen-retail --json           # machine-readable report
      temo metrics runs/qwen-retail --domain retail  # one domain only
      temo metrics --import taubench results.json --domain airline

    \b
    Definitions (k = the run's trials, 3 in the paper):
      success      = reward 1 (reward -1: the user ended ###UNSATISFIED###; a failure)
      Avg@k        = mean over tasks of (successes / completed trials)
      Pass^k       = mean over tasks of C(c,k)/C(n,k), n completed trials, c successes;
                     tasks with n < k are left out (and counted)
      pass@k       = mean over tasks of 1 - C(n-c,k)/C(n,k)   (JSON only)
      unsatisfied  = share of completed cells that ended with ###UNSATISFIED###
      violations   = share of completed cells with at least one recorded policy
                     violation (auth_before_write, confirm_before_write)
      missing      = planned cells with no complete record (infrastructure error or not
                     run yet); never counted as failures; rerun them with --resume
      Average      = unweighted mean over domains
    Headline numbers use the emotion arm when there is one (the paper's setting).

    \b
    JSON: {"domains": {NAME: {"tasks", "trials", "avg", "pass_hat": {"1",...},
    "pass_at", "unsatisfied_rate", "missing_cells", "by_family", "by_arm",
    "emotion_minus_neutral", "violation_rate", ...}}, "average": {...},
    "run" | "source", "reward_rule": {"name", "recorded", "description"}, "warnings": [...]}.

    \b
    Reward rule (config.json `reward_rule`, shown under the table):
      paper        reward 1 needs the goal state and no ###UNSATISFIED### ending; any
                   ###UNSATISFIED### ending is -1 (the default, as in the paper)
      goal-first   a quit after the goal state was reached keeps reward 1
    Re-score a run under the other rule with `temo regrade RUN --reward-rule NAME`.
    """
    if import_format is not None:
        if path is None:
            fail(f"--import {import_format} needs a results FILE: temo metrics --import taubench FILE")
        report = _load_import(import_format, path, domain)
        title = f"{path.name} ({import_format})"
    else:
        if path is None:
            fail("give a run directory (temo metrics RUN) or a results file (temo metrics --import taubench FILE)")
        report = _load_run(path, domain)
        title = f"{path.name}"
        run = report["run"]
        agent = run["agent"].get("model") or run["agent"]["kind"]
        user = run["user"].get("model") or run["user"]["kind"]
        title += f" — agent {agent}, user {user}, {run['trials']} trial(s), reward rule {run['reward_rule']}"

    if json_out:
        print_json(report)
        return

    from rich.console import Console

    from ..metrics import print_report

    if not report["domains"]:
        Console(stderr=True).print("[yellow]no results to score[/]")
    else:
        print_report(report, Console(), title=title)
    _print_rule(report, Console())
    _print_usage(report, Console())
    err = Console(stderr=True)
    from ..metrics.errors import error_lines

    for line in error_lines(report.get("errors") or {}):
        err.print(line, highlight=False, markup=False)
    for w in report["warnings"]:
        err.print(f"[yellow]warning:[/] {w}", highlight=False)


def _print_rule(report: dict[str, Any], console: Any) -> None:
    line = reward_rule_line(report)
    if line:
        console.print(line, highlight=False)


def _print_usage(report: dict[str, Any], console: Any) -> None:
    for role, u in (report.get("usage") or {}).items():
        cost = "unknown (no --prices)" if u["cost"] is None else f"${u['cost']:.4f}"
        from ..metrics.render import plural

        console.print(f"{role}: {plural(u['requests'], 'request')}, {u['prompt_tokens']:,} prompt + "
                      f"{u['completion_tokens']:,} completion tokens, cost {cost}", highlight=False)


def print_run_summary(path: Path) -> None:
    """Print the metrics table of a run (used at the end of `temo run`)."""
    from rich.console import Console

    from ..metrics import print_report

    report = _load_run(path, None)
    if report["domains"]:
        print_report(report, Console(), title=f"{path.name} — reward rule {report['reward_rule']['name']}")
    _print_rule(report, Console())
    _print_usage(report, Console())
    err = Console(stderr=True)
    for w in report["warnings"]:
        err.print(f"[yellow]warning:[/] {w}", highlight=False)
