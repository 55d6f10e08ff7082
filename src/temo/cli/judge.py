"""`temo judge`: why did the agent fail? Fault shares per domain, family and arm."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from .common import fail, print_json


def _progress(total: int, label: str, quiet: bool):
    from contextlib import nullcontext

    if quiet or total == 0:
        return nullcontext(lambda k: None)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    class _Bar:
        def __enter__(self):
            self.p = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True)
            self.p.__enter__()
            self.job = self.p.add_task(label, total=total)
            return lambda k: self.p.advance(self.job, k)

        def __exit__(self, *exc: Any):
            return self.p.__exit__(*exc)

    return _Bar()


def judge_command(
    run: Path = typer.Argument(..., help="Run directory written by `temo run`.", show_default=False),
    judge_model: Optional[str] = typer.Option(None, "--judge-model", help="LLM judge: model name (adds the faults that need reading)."),
    judge_base_url: Optional[str] = typer.Option(None, "--judge-base-url", help="LLM judge: OpenAI-compatible base URL, e.g. http://localhost:8000/v1."),
    judge_api_key_env: Optional[str] = typer.Option(None, "--judge-api-key-env", help="NAME of the environment variable holding the judge's API key."),
    judge_temperature: float = typer.Option(0.0, "--judge-temperature", help="LLM judge sampling temperature (the paper: 0)."),
    judge_concurrency: int = typer.Option(8, "--judge-concurrency", min=1, help="LLM judge: requests in flight."),
    judge_attempts: int = typer.Option(3, "--judge-attempts", min=1, help="LLM judge: requests per cell when replies fail validation."),
    judge_retries: int = typer.Option(6, "--judge-retries", min=0, help="LLM judge: transport retries per request (backoff)."),
    no_response_format: bool = typer.Option(False, "--no-response-format", help="LLM judge: do not send the JSON schema as response_format (for servers that reject it; the schema stays in the prompt)."),
    diff: bool = typer.Option(False, "--diff", help="Also store each failed cell's replay diff (records that differ from the reference, field by field) in its verdict; slower (one replay per cell)."),
    redo: bool = typer.Option(False, "--redo", help="Judge every cell again (default: reuse stored verdicts of unchanged cells)."),
    json_out: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Why did the agent fail? The critical fault of every failed cell, with fault shares.

    For every failed cell: the critical fault (of the paper's 15, in 5 categories), its turn, a
    short reason, and the emotional outcome (did the user abandon, and why).

    The offline judge always runs (no model needed): it replays the agent's tool calls against the
    task's reference actions and reads the recorded termination, policy violations and questions.
    With --judge-model and --judge-base-url an LLM judge also reads each failed conversation and
    adds the faults that need reading; where both ran, their agreement is reported. Cells that
    passed but broke a recorded policy rule are judged too and counted apart.

    \b
    Verdicts are stored beside the cells, RUN/judge/offline/<cell>.json and RUN/judge/llm/<cell>.json;
    a second run reuses them while the cell (and the judge's model and prompt) are unchanged.

    \b
    Examples:
      temo judge runs/qwen3-8b                       # offline judge, fault shares table
      temo judge runs/qwen3-8b --json                # {"failed", "by_fault", "category_share", "by_domain", ...}
      temo judge runs/qwen3-8b --judge-model Qwen/Qwen3-235B-A22B-Instruct-2507 --judge-base-url http://localhost:8001/v1

    \b
    JSON: "failed" = failed cells judged; "by_fault" = failed cells per critical fault (the LLM
    judge's where it gave a valid verdict, else the offline judge's); "category_share" = share of
    failed cells with a critical agent fault in each category (the paper's Figure 12); the same
    per "by_domain", "by_family", "by_arm"; "by_judge"; "agreement" (null unless both ran).
    """
    from ..analysis.cells import RunReadError, is_failed, load_run
    from ..analysis.judging import judge_offline, summarize_verdicts, to_judge

    if (judge_model is None) != (judge_base_url is None):
        fail("--judge-model and --judge-base-url go together")
    if judge_base_url is not None and not judge_base_url.startswith(("http://", "https://")):
        fail(f"--judge-base-url must be an http(s) URL, got {judge_base_url!r}")
    try:
        loaded = load_run(run)
    except RunReadError as e:
        fail(str(e))
    cells = to_judge(loaded)
    with _progress(len(cells), "offline judge", quiet or json_out) as advance:
        offline = judge_offline(loaded, redo=redo, progress=advance, with_diff=diff)
    llm: dict = {}
    errors: list[str] = []
    if judge_model is not None:
        from ..analysis.llm_judge import judge_llm, llm_settings
        from ..llm import LLMConfigError

        settings = llm_settings(judge_model, judge_base_url, judge_api_key_env, judge_temperature, judge_concurrency,
                                judge_retries, response_format=not no_response_format)
        try:
            settings.api_key()
        except LLMConfigError as e:
            fail(str(e))
        failed_cells = [c for c in cells if is_failed(c.record)]
        with _progress(len(failed_cells), "LLM judge", quiet or json_out) as advance:
            llm, errors = judge_llm(loaded, failed_cells, settings, redo=redo, max_attempts=judge_attempts, progress=advance)
    else:
        from ..analysis.verdicts import VerdictStore

        llm = VerdictStore(loaded.root, "llm").all({c.id for c in cells})  # earlier LLM verdicts, if any
    summary = summarize_verdicts(loaded, offline, llm)
    summary["warnings"] = loaded.warnings + ([f"{len(errors)} cell(s) got no LLM verdict (endpoint failure); "
                                              f"run again to judge them, e.g. {errors[0]}"] if errors else [])
    if json_out:
        print_json(summary)
    else:
        print_summary(summary)
    if errors and not llm:
        raise typer.Exit(1)


def _pct(x: Optional[float]) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


SHORT_FAULT = {"missed_action": "missed", "wrong_order": "order", "extra_action": "extra", "repeated_action": "repeat",
               "misread_intent": "misread", "early_stop": "early", "wrong_arguments": "args", "schema_error": "schema",
               "hallucination": "halluc.", "inconsistent": "incons.", "revealed_early": "reveal", "policy_breach": "policy",
               "friction": "friction", "emotional_neglect": "neglect", "wrong_transfer": "transfer"}
SHORT = {"missing_or_extra_action": "Miss/extra", "incomplete": "Incompl.", "wrong_tool_call": "Tool call",
         "integrity": "Integrity", "policy_and_interaction": "Policy/int."}


def print_summary(summary: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    from ..analysis.faults import CATEGORIES, CATEGORY_OF, CATEGORY_TITLES, FAULTS

    console = Console()
    domains = list(summary["by_domain"])
    console.print(f"[bold]{summary['run']}[/]: {summary['failed']} failed cell(s) judged of {summary['cells']} complete; "
                  f"{summary['passed_with_policy_breach']} passed with a policy breach; "
                  f"{summary['emotional_outcome']['abandoned']} abandoned by the user", highlight=False)
    if summary["failed"]:
        present = [f for f in FAULTS if summary["by_fault"][f]]
        table = Table(title="Critical fault of failed cells, % of the group's failed cells")
        table.add_column("Group")
        for f in present:
            table.add_column(SHORT_FAULT[f], justify="right")
        table.add_column("Failed", justify="right")
        groups = [("all", summary)] + [(d, summary["by_domain"][d]) for d in domains]
        for name, block in groups:
            if block["failed"]:
                table.add_row(name, *[_pct(block["fault_share"][f]) for f in present], str(block["failed"]))
        console.print(table)
        console.print("  " + "; ".join(f"{SHORT_FAULT[f]} = {f} ({CATEGORY_TITLES[CATEGORY_OF[f]]})" for f in present),
                      highlight=False, style="dim")
        cats = Table(title="Failed cells with a critical agent fault in each category, % (Figure 12)")
        cats.add_column("By")
        cats.add_column("Group")
        for cat in CATEGORIES:
            cats.add_column(SHORT[cat], justify="right")
        cats.add_column("Failed", justify="right")
        rows = [("", "all", summary)] + [("domain", k, v) for k, v in summary["by_domain"].items()] \
            + [("family", k, v) for k, v in summary["by_family"].items()] + [("arm", k, v) for k, v in summary["by_arm"].items()]
        for by, name, block in rows:
            if block["failed"]:
                cats.add_row(by, name, *[_pct(block["category_share"][c]) for c in CATEGORIES], str(block["failed"]))
        console.print(cats)
    reasons = {k: v for k, v in summary["emotional_outcome"]["reasons"].items() if v}
    if reasons:
        console.print("Why users abandoned: " + ", ".join(f"{k} {v}" for k, v in reasons.items()), highlight=False)
    agree = summary.get("agreement")
    if agree:
        console.print(f"Judge agreement on {agree['cells']} cell(s): critical fault {_pct(agree['fault'])}%, "
                      f"category {_pct(agree['category'])}%, abandoned {_pct(agree['abandoned'])}%", highlight=False)
    if summary["judges"].get("llm_invalid"):
        console.print(f"[yellow]{summary['judges']['llm_invalid']} LLM verdict(s) invalid after every attempt (offline verdict used)[/]")
    if summary["not_judged"]:
        console.print("Not judged (not the agent's doing): " + ", ".join(f"{k} {v}" for k, v in summary["not_judged"].items()),
                      highlight=False)
    err = Console(stderr=True)
    for w in summary.get("warnings", []):
        err.print(f"[yellow]warning:[/] {w}", highlight=False)
