"""`temo run`: evaluate an agent against simulated users over tasks x arms x trials."""
from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Optional

import typer

from .common import fail, split_csv


def _role(kind: str, model, base_url, key_env, sampling: dict, extra: dict):
    from ..core import RoleConfig

    return RoleConfig(kind=kind, model=model, base_url=base_url, api_key_env=key_env,
                      sampling={k: v for k, v in sampling.items() if v is not None},
                      extra={k: v for k, v in extra.items() if v is not None})


def _json_option(value: Optional[str], flag: str) -> Optional[dict]:
    if not value:
        return None
    try:
        data = json.loads(value)
    except json.JSONDecodeError as e:
        fail(f"{flag}: not valid JSON ({e.msg})")
    if not isinstance(data, dict):
        fail(f"{flag}: expected a JSON object")
    return data


def _prices(path: Optional[Path]) -> Optional[dict]:
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        fail(f"--prices: {path} does not exist")
    except json.JSONDecodeError as e:
        fail(f"--prices: {path} is not valid JSON ({e.msg} at line {e.lineno})")
    if not isinstance(data, dict):
        fail(f"--prices: {path} must map model names to {{\"prompt\": $/1M, \"completion\": $/1M}}")
    return data


def run_command(
    domains: Optional[str] = typer.Option(None, "--domains", help="Comma-separated domains (default: all). See `temo domains`."),
    split: str = typer.Option("test", "--split", help="Task split: test or train."),
    task_ids: Optional[str] = typer.Option(None, "--task-ids", help="Comma-separated task ids to run (default: all)."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="At most N tasks per domain."),
    trials: int = typer.Option(3, "--trials", min=1, help="Trials per task and arm (the paper uses 3)."),
    arms: str = typer.Option("emotion", "--arms", help="Comma-separated arms: emotion, neutral (the same task without its emotion)."),
    agent: str = typer.Option("oracle", "--agent", help="oracle | probe:NAME | llm. Probes: redundant-questions, skip-confirmation, wrong-argument, early-stop."),
    agent_model: Optional[str] = typer.Option(None, "--agent-model", help="Model name served at --agent-base-url (llm agent)."),
    agent_base_url: Optional[str] = typer.Option(None, "--agent-base-url", help="OpenAI-compatible base URL, e.g. http://localhost:8000/v1."),
    agent_api_key_env: Optional[str] = typer.Option(None, "--agent-api-key-env", help="NAME of the environment variable holding the agent's API key (the key is never stored)."),
    agent_temperature: Optional[float] = typer.Option(None, "--agent-temperature", help="Agent sampling temperature (default: server default)."),
    agent_top_p: Optional[float] = typer.Option(None, "--agent-top-p"),
    agent_max_tokens: Optional[int] = typer.Option(None, "--agent-max-tokens"),
    agent_extra_body: Optional[str] = typer.Option(None, "--agent-extra-body", help='Server-specific sampling as JSON, e.g. \'{"top_k": 20, "min_p": 0}\'.'),
    agent_keep_reasoning: bool = typer.Option(True, "--agent-keep-reasoning/--no-agent-keep-reasoning", help="Keep the agent's reasoning in its own history."),
    agent_prompt: str = typer.Option("policy", "--agent-prompt", help="policy (the domain policy as system prompt, as in the paper) | wrapped (general agent instructions around it)."),
    user: str = typer.Option("scripted", "--user", help="scripted (offline, deterministic) | llm (emotion-conditioned simulator)."),
    user_model: Optional[str] = typer.Option(None, "--user-model", help="Model for the llm user (paper: Qwen3-235B-A22B-Instruct-2507)."),
    user_base_url: Optional[str] = typer.Option(None, "--user-base-url"),
    user_api_key_env: Optional[str] = typer.Option(None, "--user-api-key-env"),
    user_temperature: float = typer.Option(0.0, "--user-temperature", help="User simulator temperature (paper: 0)."),
    user_top_p: Optional[float] = typer.Option(None, "--user-top-p"),
    user_max_tokens: Optional[int] = typer.Option(None, "--user-max-tokens"),
    user_extra_body: Optional[str] = typer.Option(None, "--user-extra-body"),
    llm_concurrency: Optional[int] = typer.Option(None, "--llm-concurrency", min=1, help="Requests in flight per endpoint (default 64)."),
    llm_timeout: Optional[float] = typer.Option(None, "--llm-timeout", min=1, help="Seconds per request before it is retried (default 600)."),
    llm_max_retries: Optional[int] = typer.Option(None, "--llm-max-retries", min=0, help="Retries on 429/5xx/timeouts before the cell ends as an infrastructure error (default 6)."),
    prices: Optional[Path] = typer.Option(None, "--prices", help="JSON price table {model: {prompt, completion}} in $ per 1M tokens; without it cost is unknown (null)."),
    concurrency: int = typer.Option(8, "--concurrency", min=1, help="Episodes in flight at once."),
    max_turns: int = typer.Option(200, "--max-turns", min=2, help="Turn limit per episode (paper: 200)."),
    seed: int = typer.Option(0, "--seed", help="Run seed; every cell derives its own seed from (task, arm, trial, seed)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Run directory (default: runs/<time>-<agent>-<user>)."),
    resume: bool = typer.Option(False, "--resume", help="Continue the run in --out: run only missing cells and cells that hit infrastructure errors."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar and no table."),
) -> None:
    """Run episodes for tasks x arms x trials and write one record per cell to a run directory.

    With no flags it runs offline: the oracle agent against scripted emotional users on every
    domain's test tasks, 3 trials, and prints the metrics table.

    Examples:

      temo run --domains retail,airline --arms emotion,neutral

      temo run --domains retail --agent probe:redundant-questions --trials 1

      temo run --agent llm --agent-model Qwen/Qwen3-8B --agent-base-url http://localhost:8000/v1 \\
               --user llm --user-model Qwen/Qwen3-235B-A22B-Instruct-2507 --user-base-url http://gpu:8000/v1

      temo run --out runs/my-run --resume
    """
    from ..agents.registry import AgentSpecError, validate_agent_kind
    from ..domains import available
    from ..harness.runner import build_config, select_tasks
    from ..harness.runstore import RunStore, RunStoreError
    from ..users.registry import UserSpecError, validate_user_kind

    if out is None:
        if resume:
            fail("--resume needs --out DIR (the run directory to continue)")
        out = Path("runs") / f"{time.strftime('%Y%m%d-%H%M%S')}-{agent.replace(':', '-')}-{user}"
    store = RunStore(out)

    all_domains = available()
    chosen = split_csv(domains) or all_domains
    unknown = [d for d in chosen if d not in all_domains]
    if unknown:
        fail(f"--domains: unknown domain(s) {', '.join(unknown)}; available: {', '.join(all_domains)}")
    if split not in ("test", "train"):
        fail(f"--split: expected test or train, got {split!r}")
    arm_list = split_csv(arms)
    bad_arms = [a for a in arm_list if a not in ("emotion", "neutral")]
    if not arm_list or bad_arms:
        fail(f"--arms: expected a comma-separated subset of emotion,neutral, got {arms!r}")
    if agent_prompt not in ("policy", "wrapped"):
        fail(f"--agent-prompt: expected policy or wrapped, got {agent_prompt!r}")
    try:
        validate_agent_kind(agent)
        validate_user_kind(user)
    except (AgentSpecError, UserSpecError) as e:
        fail(f"--{'agent' if isinstance(e, AgentSpecError) else 'user'}: {e}")
    for role_name, kind, model, url in (("agent", agent, agent_model, agent_base_url), ("user", user, user_model, user_base_url)):
        if kind == "llm" and (not model or not url):
            fail(f"--{role_name} llm needs --{role_name}-model and --{role_name}-base-url")
        if url and "@" in url.split("://", 1)[-1].split("/", 1)[0]:
            fail(f"--{role_name}-base-url: do not put credentials in the URL (they would be stored); use --{role_name}-api-key-env")

    price_table = _prices(prices)
    client = {"prices": price_table, "concurrency": llm_concurrency, "timeout": llm_timeout, "max_retries": llm_max_retries}
    agent_role = _role(agent, agent_model, agent_base_url, agent_api_key_env,
                       {"temperature": agent_temperature, "top_p": agent_top_p, "max_tokens": agent_max_tokens,
                        "extra_body": _json_option(agent_extra_body, "--agent-extra-body")},
                       {"keep_reasoning": agent_keep_reasoning if agent == "llm" else None,
                        "prompt": agent_prompt if agent == "llm" else None, **(client if agent == "llm" else {})})
    user_role = _role(user, user_model, user_base_url, user_api_key_env,
                      {"temperature": user_temperature if user == "llm" else None, "top_p": user_top_p,
                       "max_tokens": user_max_tokens, "extra_body": _json_option(user_extra_body, "--user-extra-body")},
                      client if user == "llm" else {})
    if "llm" in (agent, user):
        from ..llm import LLMConfigError, check_role

        for role, name in ((agent_role, "agent"), (user_role, "user")):
            try:
                check_role(role, name)
            except LLMConfigError as e:
                fail(str(e))

    try:
        tasks = select_tasks(chosen, split, split_csv(task_ids) or None, limit)
    except ValueError as e:
        fail(f"--task-ids: {e}")
    if not any(tasks.values()):
        fail(f"no {split} tasks in {', '.join(chosen)}")
    config = build_config(chosen, split, tasks, arm_list, trials, agent_role, user_role, max_turns, seed, concurrency)

    if store.exists():
        if not resume:
            fail(f"--out: {out} already holds a run; pass --resume to continue it, or choose another --out")
        try:
            previous = store.load_config()
        except RunStoreError as e:
            fail(str(e))
        differs = previous.comparable(config)
        # Flags left at their defaults on resume mean "as before": take the stored configuration.
        if differs:
            typer.echo(f"resuming with the stored configuration of {out} (flags that differ are ignored: {', '.join(differs)})", err=True)
            config = previous
    elif resume:
        fail(f"--resume: {out} holds no run yet (no config.json); drop --resume to start one")
    else:
        store.save_config(config)

    if not quiet:
        import logging

        from rich.logging import RichHandler

        log = logging.getLogger("temo")
        if not log.handlers:  # retry warnings print above the progress bar, not through it
            log.addHandler(RichHandler(show_path=False, show_time=False))
            log.propagate = False
    asyncio.run(_execute(config, store, quiet))
    if not quiet:
        from .metrics import print_run_summary

        print_run_summary(out)
    typer.echo(f"run directory: {out}", err=True)


async def _execute(config, store, quiet: bool) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from ..harness.runner import execute

    if quiet:
        await execute(config, store)
        return
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("success {task.fields[ok]} · quit {task.fields[quit]} · infra {task.fields[infra]}"),
        TimeElapsedColumn(), TimeRemainingColumn(), transient=False,
    ) as progress:
        bar = progress.add_task("episodes", total=None, ok=0, quit=0, infra=0)
        counts = {"ok": 0, "quit": 0, "infra": 0}

        def on_start(total: int, done: int) -> None:
            progress.update(bar, total=total, completed=done)

        def on_cell(record) -> None:
            if record.termination == "infra_error":
                counts["infra"] += 1
            elif record.reward and record.reward.reward == 1:
                counts["ok"] += 1
            if record.termination == "user_unsatisfied":
                counts["quit"] += 1
            progress.update(bar, advance=1, **counts)

        await execute(config, store, on_cell=on_cell, on_start=on_start)
