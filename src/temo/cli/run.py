"""`temo run`: evaluate an agent against simulated users over tasks x arms x trials."""
from __future__ import annotations

import asyncio
import errno
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
    except IsADirectoryError:
        fail(f"--prices: {path} is a directory; give a JSON file")
    except UnicodeDecodeError:
        fail(f"--prices: {path} is not UTF-8 text; give a JSON file")
    except OSError as e:
        fail(f"--prices: cannot read {path} ({e.strerror or e})")
    except json.JSONDecodeError as e:
        fail(f"--prices: {path} is not valid JSON ({e.msg} at line {e.lineno})")
    if not isinstance(data, dict):
        fail(f"--prices: {path} must map model names to {{\"prompt\": $/1M, \"completion\": $/1M}}")
    return data


def run_command(
    ctx: typer.Context,
    domains: Optional[str] = typer.Option(None, "--domains", help="Comma-separated domains (default: all). See `temo domains`."),
    split: str = typer.Option("test", "--split", help="Task split: test or train."),
    task_ids: Optional[str] = typer.Option(None, "--task-ids", help="Comma-separated task ids to run (default: all)."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="At most N tasks per domain."),
    trials: int = typer.Option(3, "--trials", min=1, help="Trials per task and arm (the paper uses 3)."),
    arms: str = typer.Option("emotion", "--arms", help="Comma-separated arms: emotion, neutral (the same task without its emotion)."),
    agent: str = typer.Option("oracle", "--agent", help="oracle | probe:NAME[@RATE] | llm. Probes: redundant-questions, skip-confirmation, wrong-argument, early-stop; "
                                                     "@RATE (0-1] commits the flaw at each opportunity with that probability, seeded per cell."),
    agent_model: Optional[str] = typer.Option(None, "--agent-model", help="Model name served at --agent-base-url (llm agent)."),
    agent_base_url: Optional[str] = typer.Option(None, "--agent-base-url", help="OpenAI-compatible base URL, e.g. http://localhost:8000/v1."),
    agent_api_key_env: Optional[str] = typer.Option(None, "--agent-api-key-env", help="NAME of the environment variable holding the agent's API key (the key is never stored)."),
    agent_temperature: Optional[float] = typer.Option(None, "--agent-temperature", help="Agent sampling temperature (default: server default)."),
    agent_top_p: Optional[float] = typer.Option(None, "--agent-top-p"),
    agent_max_tokens: Optional[int] = typer.Option(None, "--agent-max-tokens", help="Cap on each agent reply's tokens (default: the server's). Set it for small models, e.g. 256, or one reply can fill the context."),
    agent_extra_body: Optional[str] = typer.Option(None, "--agent-extra-body", help='Server-specific sampling as JSON, e.g. \'{"top_k": 20, "min_p": 0}\'.'),
    agent_keep_reasoning: bool = typer.Option(True, "--agent-keep-reasoning/--no-agent-keep-reasoning", help="Keep the agent's reasoning in its own history."),
    agent_prompt: str = typer.Option("policy", "--agent-prompt", help="policy (the domain policy as system prompt, as in the paper) | wrapped (general agent instructions around it)."),
    user: str = typer.Option("scripted", "--user", help="scripted (offline, deterministic) | llm (emotion-conditioned simulator)."),
    user_model: Optional[str] = typer.Option(None, "--user-model", help="Model for the llm user (paper: Qwen3-235B-A22B-Instruct-2507)."),
    user_base_url: Optional[str] = typer.Option(None, "--user-base-url"),
    user_api_key_env: Optional[str] = typer.Option(None, "--user-api-key-env"),
    user_temperature: float = typer.Option(0.0, "--user-temperature", help="User simulator temperature (paper: 0)."),
    user_top_p: Optional[float] = typer.Option(None, "--user-top-p"),
    user_max_tokens: Optional[int] = typer.Option(None, "--user-max-tokens", help="Cap on each llm user reply's tokens (default: the server's); e.g. 256 for small models."),
    user_extra_body: Optional[str] = typer.Option(None, "--user-extra-body"),
    llm_concurrency: Optional[int] = typer.Option(None, "--llm-concurrency", min=1, help="Requests in flight per endpoint (default 64)."),
    llm_timeout: Optional[float] = typer.Option(None, "--llm-timeout", min=1, help="Seconds per request before it is retried (default 600)."),
    llm_max_retries: Optional[int] = typer.Option(None, "--llm-max-retries", min=0, help="Retries on 429/5xx/timeouts before the cell ends as an infrastructure error (default 6)."),
    prices: Optional[Path] = typer.Option(None, "--prices", help="JSON price table {model: {prompt, completion}} in $ per 1M tokens; without it cost is unknown (null)."),
    concurrency: int = typer.Option(8, "--concurrency", min=1, help="Episodes in flight at once."),
    max_turns: int = typer.Option(200, "--max-turns", min=2, help="Turn limit per episode (paper: 200)."),
    seed: int = typer.Option(0, "--seed", help="Run seed; every cell derives its own seed from (task, arm, trial, seed)."),
    reward_rule: Optional[str] = typer.Option(None, "--reward-rule", metavar="paper|goal-first", show_default=False,
                                              help="paper (default): any ###UNSATISFIED### ending scores -1, as in the paper. "
                                                   "goal-first: a quit after the goal state was reached keeps reward 1. "
                                                   "Recorded in config.json; `temo regrade --reward-rule` changes it later."),
    out: Optional[Path] = typer.Option(None, "--out", help="Run directory (default: runs/<time>-<agent>-<user>)."),
    resume: bool = typer.Option(False, "--resume", help="Continue the run in --out with its stored configuration: run only missing cells and cells that hit infrastructure errors (a flag that contradicts the stored run exits 2)."),
    retry_errors: bool = typer.Option(False, "--retry-errors", help="With --resume: also re-run cells that ended in harness_error or user_error (a plain --resume keeps them)."),
    no_endpoint_check: bool = typer.Option(False, "--no-endpoint-check", help="Do not ask the LLM endpoints once before the run (GET /models) to catch a wrong base URL or key early."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar and no table."),
) -> None:
    """Run episodes for tasks x arms x trials and write one record per cell to a run directory.

    With no flags it runs offline: the oracle agent against scripted emotional users on every
    domain's test tasks, 3 trials, and prints the metrics table.

    Examples:

      temo run --domains retail,airline --arms emotion,neutral

      temo run --domains retail --agent probe:redundant-questions --trials 1

      temo run --domains retail --agent probe:redundant-questions@0.3 --trials 3   # Pass^3 < Pass^1

      temo run --agent llm --agent-model Qwen/Qwen3-8B --agent-base-url http://localhost:8000/v1 \\
               --user llm --user-model Qwen/Qwen3-235B-A22B-Instruct-2507 --user-base-url http://gpu:8000/v1

      temo run --out runs/my-run --resume
    """
    from ..agents.registry import AgentSpecError, validate_agent_kind
    from ..domains import available
    from ..harness.runner import build_config, changed_tasks, select_tasks, tasks_by_id
    from ..harness.runstore import RunLocked, RunStore, RunStoreError
    from ..users.registry import UserSpecError, validate_user_kind
    from .run_checks import cells_problem, explicit_flags, out_dir_problem, resume_conflicts, write_error

    given = explicit_flags(ctx)
    if out is None:
        if resume:
            fail("--resume needs --out DIR (the run directory to continue)")
        out = Path("runs") / f"{time.strftime('%Y%m%d-%H%M%S')}-{agent.replace(':', '-')}-{user}"
    problem = out_dir_problem(out)
    if problem:
        fail(problem)
    store = RunStore(out)
    previous = None
    if store.exists():
        if not resume:
            fail(f"--out: {out} already holds a run; pass --resume to continue it, or choose another --out")
        try:
            previous = store.load_config()
        except RunStoreError as e:
            fail(" ".join(str(e).split()))
    elif store.cell_files():
        fail(f"--out: {out} holds cell records but no config.json, so nothing says how they were made; "
             "temo will not reuse them: choose another --out")
    elif resume:
        fail(f"--resume: {out} holds no run yet (no config.json); drop --resume to start one")

    all_domains = available()
    if domains is not None and not split_csv(domains):
        fail(f"--domains: no domain named in {domains!r}; e.g. --domains retail,airline (see `temo domains`)")
    if task_ids is not None and not split_csv(task_ids):
        fail(f"--task-ids: no task id named in {task_ids!r}")
    if previous is not None:
        # A resume runs the stored configuration; a flag given now must agree with it.
        absent = [d for d in previous.domains if d not in all_domains]
        if absent:
            fail(f"{store.config_path}: the run uses domain(s) {', '.join(absent)}, which are not installed "
                 f"(installed: {', '.join(all_domains)})")

        def keep(name: str, value, stored):
            return value if name in given else stored

        split, arms = keep("split", split, previous.split), keep("arms", arms, ",".join(previous.arms))
        trials, max_turns, seed = keep("trials", trials, previous.trials), keep("max_turns", max_turns, previous.max_turns), keep("seed", seed, previous.seed)
        agent, agent_model = keep("agent", agent, previous.agent.kind), keep("agent_model", agent_model, previous.agent.model)
        agent_base_url = keep("agent_base_url", agent_base_url, previous.agent.base_url)
        agent_api_key_env = keep("agent_api_key_env", agent_api_key_env, previous.agent.api_key_env)
        user, user_model = keep("user", user, previous.user.kind), keep("user_model", user_model, previous.user.model)
        user_base_url = keep("user_base_url", user_base_url, previous.user.base_url)
        user_api_key_env = keep("user_api_key_env", user_api_key_env, previous.user.api_key_env)
    chosen = split_csv(domains) or (previous.domains if previous is not None else all_domains)
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
    from ..llm import base_url_problem

    for role_name, kind, model, url in (("agent", agent, agent_model, agent_base_url), ("user", user, user_model, user_base_url)):
        if kind == "llm" and (not model or not url):
            fail(f"--{role_name} llm needs --{role_name}-model and --{role_name}-base-url")
        problem = base_url_problem(url) if url else None
        if problem:
            fail(f"--{role_name}-base-url: {problem}" + (f"; use --{role_name}-api-key-env NAME" if "stored" in problem else ""))

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

    if previous is not None:
        try:
            changed = changed_tasks(previous)
        except (KeyError, ValueError) as e:
            fail(f"{store.config_path}: cannot load the run's tasks ({' '.join(str(e).split())})")
        if changed:
            shown = ", ".join(changed[:8]) + (f" and {len(changed) - 8} more" if len(changed) > 8 else "")
            fail(f"--resume: the frozen tasks changed since {out} started ({shown}); old conversations would be "
                 "graded against new tasks: start a new run in another --out")
    if previous is not None and not (given & {"domains", "task_ids", "limit", "split"}):
        current = tasks_by_id(previous.domains, previous.split)
        tasks = {d: [current[t] for t in previous.task_ids.get(d, [])] for d in previous.domains}
    else:
        try:
            tasks = select_tasks(chosen, split, split_csv(task_ids) or None, limit)
        except ValueError as e:
            fail(f"--task-ids: {e}")
    if not any(tasks.values()):
        fail(f"no {split} tasks in {', '.join(chosen)}")
    problem = cells_problem(sum(len(v) for v in tasks.values()), len(arm_list), trials)
    if problem:
        fail(problem)
    from ..harness.grader import DEFAULT_REWARD_RULE, REWARD_RULES

    if reward_rule is not None and reward_rule not in REWARD_RULES:
        fail(f"--reward-rule: expected one of {', '.join(REWARD_RULES)}, got {reward_rule!r}")
    config = build_config(chosen, split, tasks, arm_list, trials, agent_role, user_role, max_turns, seed, concurrency,
                          reward_rule=reward_rule or DEFAULT_REWARD_RULE)

    if previous is not None:
        if reward_rule is not None and reward_rule != previous.effective_reward_rule:
            fail(f"--reward-rule: {out} is scored under {previous.effective_reward_rule!r}; "
                 f"resume without the flag, then re-score with `temo regrade {out} --reward-rule {reward_rule}`")
        conflicts = resume_conflicts(given, previous, config)
        if conflicts:
            fail(f"--resume: {'; '.join(conflicts)}: {out} was started otherwise; resume without "
                 f"{'that flag' if len(conflicts) == 1 else 'these flags'}, or start a new run in another --out")
        config = _with_operational_flags(previous, given, concurrency, client)  # a run keeps its rule

    if not no_endpoint_check:
        _check_endpoints(config)
    try:
        lock = store.lock()
    except RunLocked as e:
        fail(str(e))
    except OSError as e:
        fail(f"--out: cannot write to {out} ({write_error(e)})")
    try:
        if previous is None:
            try:
                store.save_config(config)
            except OSError as e:
                fail(f"--out: cannot write {store.config_path} ({write_error(e)})", 1 if e.errno == errno.ENOSPC else 2)
        if not quiet:
            import logging

            from rich.logging import RichHandler

            log = logging.getLogger("temo")
            if not log.handlers:  # retry warnings print above the progress bar, not through it
                log.addHandler(RichHandler(show_path=False, show_time=False))
                log.propagate = False
        try:
            summary = asyncio.run(_execute(config, store, quiet, retry_errors))
        except KeyboardInterrupt:
            fail(f"interrupted; the cells written so far are kept in {out}; resume with: temo run --out {out} --resume", 130)
        except OSError as e:
            todo = "free space" if e.errno == errno.ENOSPC else "fix that"
            fail(f"cannot write to {out} ({write_error(e)}); the cells already written are valid; "
                 f"{todo}, then resume with: temo run --out {out} --resume", 1)
    finally:
        lock.release()
    for line in summary.quarantined:
        typer.echo(line, err=True)
    if not quiet:
        from .metrics import print_run_summary

        print_run_summary(out)
    _report_errors(config, store, summary, out)
    typer.echo(f"run directory: {out}", err=True)


def _with_operational_flags(previous, given: set, concurrency: int, client: dict):
    """The stored configuration, with the flags that only change how the rest is run applied."""
    updates: dict = {}
    if "concurrency" in given:
        updates["concurrency"] = concurrency
    names = {"llm_concurrency": "concurrency", "llm_timeout": "timeout", "llm_max_retries": "max_retries", "prices": "prices"}
    for role_name in ("agent", "user"):
        role = getattr(previous, role_name)
        if role.kind == "llm" and given & set(names):
            extra = dict(role.extra or {})
            extra.update({key: client[key] for flag, key in names.items() if flag in given})
            updates[role_name] = role.model_copy(update={"extra": extra})
    return previous.model_copy(update=updates)


def _check_endpoints(config) -> None:
    """Ask each LLM endpoint once before any episode (see temo.llm.check_endpoint)."""
    roles = [(name, getattr(config, name)) for name in ("agent", "user") if getattr(config, name).kind == "llm"]
    if not roles:
        return
    from ..llm import LLMConfigError, LLMSettings, check_endpoint

    seen = set()
    for name, role in roles:
        try:
            settings = LLMSettings.from_role(role, name=name)
        except LLMConfigError as e:
            fail(str(e))
        if (settings.base_url, settings.api_key_env) in seen:
            continue
        seen.add((settings.base_url, settings.api_key_env))
        problem = check_endpoint(settings)
        if problem:
            fail(problem.message + "; nothing was run (skip this check with --no-endpoint-check)", problem.exit_code)


def _report_errors(config, store, summary, out) -> None:
    """After a run: error reasons grouped with counts, an llm agent that never called a tool, and
    a run whose every cell failed on infrastructure (exit 1, naming the endpoint)."""
    from ..harness.runstore import RunStoreError
    from ..llm import public_url
    from ..metrics.errors import error_lines, error_reasons

    try:
        records = [r for r in store.records()]
    except RunStoreError:
        return
    for line in error_lines(error_reasons(records)):
        typer.echo(line, err=True)
    if config.agent.kind == "llm":
        acted = [r for r in records if r.counters.get("agent_turns", 0) > 1]
        if acted and not any(r.tool_calls for r in acted):
            typer.echo(f"warning: the llm agent made no tool call in any of {len(acted)} cell(s). Does the server "
                       "put the tools in the model's prompt? (llama-cpp-python needs --chat_format "
                       "chatml-function-calling; temo sends tool_choice \"auto\"; see docs/llm.md)", err=True)
    ran = summary.ran
    if ran and summary.terminations.get("infra_error", 0) == ran:
        urls = sorted({public_url(r.base_url) for r in (config.agent, config.user) if r.kind == "llm" and r.base_url})
        first = next((r.error for r in records if r.termination == "infra_error" and r.error), "")
        typer.echo(f"run directory: {out}", err=True)
        fail(f"every cell run ({ran}) failed on infrastructure at {', '.join(urls) or 'the endpoint'}: "
             f"{' '.join(first.split())[:300]}; fix the endpoint, then: temo run --out {out} --resume", 1)


async def _execute(config, store, quiet: bool, retry_errors: bool = False):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from ..harness.runner import execute

    if quiet:
        return await execute(config, store, retry_errors=retry_errors)
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("success {task.fields[ok]} · quit {task.fields[quit]} · infra {task.fields[infra]}"),
        TimeElapsedColumn(), TimeRemainingColumn(), transient=False,
    ) as progress:
        bar = progress.add_task("episodes", total=None, ok=0, quit=0, infra=0)
        counts = {"ok": 0, "quit": 0, "infra": 0}

        def tally(record) -> None:
            if record.termination == "infra_error":
                counts["infra"] += 1
            elif record.reward and record.reward.reward == 1:
                counts["ok"] += 1
            if record.termination == "user_unsatisfied":
                counts["quit"] += 1

        def on_start(total: int, done: int) -> None:
            planned = {f"{t}__{a}__{k}" for _, t, a, k in config.cells()}
            for record in store.records():  # on resume, the cells kept from before count too
                if record.complete and record.cell_id in planned:
                    tally(record)
            progress.update(bar, total=total, completed=done, **counts)

        def on_cell(record) -> None:
            tally(record)
            progress.update(bar, advance=1, **counts)

        return await execute(config, store, on_cell=on_cell, on_start=on_start, retry_errors=retry_errors)
