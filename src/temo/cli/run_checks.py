"""Checks `temo run` makes before it writes anything: the run directory, base URLs, the numbers
of cells, and a resume against the stored configuration. Each returns the one line to print."""
from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Optional

MAX_CELLS = 1_000_000  # a run's planned cells live in memory; beyond this it is a typo

# flag (parameter name) -> (flag as typed, the part of a RunConfig it sets)
CONFIG_FLAGS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "domains": ("--domains", lambda c: c.domains),
    "split": ("--split", lambda c: c.split),
    "task_ids": ("--task-ids", lambda c: c.task_ids),
    "limit": ("--limit", lambda c: c.task_ids),
    "trials": ("--trials", lambda c: c.trials),
    "arms": ("--arms", lambda c: c.arms),
    "max_turns": ("--max-turns", lambda c: c.max_turns),
    "seed": ("--seed", lambda c: c.seed),
    "agent": ("--agent", lambda c: c.agent.kind),
    "agent_model": ("--agent-model", lambda c: c.agent.model),
    "agent_base_url": ("--agent-base-url", lambda c: c.agent.base_url),
    "agent_api_key_env": ("--agent-api-key-env", lambda c: c.agent.api_key_env),
    "agent_temperature": ("--agent-temperature", lambda c: c.agent.sampling.get("temperature")),
    "agent_top_p": ("--agent-top-p", lambda c: c.agent.sampling.get("top_p")),
    "agent_max_tokens": ("--agent-max-tokens", lambda c: c.agent.sampling.get("max_tokens")),
    "agent_extra_body": ("--agent-extra-body", lambda c: c.agent.sampling.get("extra_body")),
    "agent_keep_reasoning": ("--agent-keep-reasoning", lambda c: c.agent.extra.get("keep_reasoning")),
    "agent_prompt": ("--agent-prompt", lambda c: c.agent.extra.get("prompt")),
    "user": ("--user", lambda c: c.user.kind),
    "user_model": ("--user-model", lambda c: c.user.model),
    "user_base_url": ("--user-base-url", lambda c: c.user.base_url),
    "user_api_key_env": ("--user-api-key-env", lambda c: c.user.api_key_env),
    "user_temperature": ("--user-temperature", lambda c: c.user.sampling.get("temperature")),
    "user_top_p": ("--user-top-p", lambda c: c.user.sampling.get("top_p")),
    "user_max_tokens": ("--user-max-tokens", lambda c: c.user.sampling.get("max_tokens")),
    "user_extra_body": ("--user-extra-body", lambda c: c.user.sampling.get("extra_body")),
}
# Flags that only change how the remaining cells are run; a resume may change them.
OPERATIONAL_FLAGS = ("concurrency", "llm_concurrency", "llm_timeout", "llm_max_retries", "prices")


def explicit_flags(ctx: Any) -> set[str]:
    """Parameters the user typed (or set through the environment), not left at their defaults."""
    given = {"COMMANDLINE", "ENVIRONMENT"}  # by name: typer may bring its own copy of click
    return {name for name in ctx.params if getattr(ctx.get_parameter_source(name), "name", None) in given}


def _show(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def resume_conflicts(flags: set[str], stored: Any, given: Any) -> list[str]:
    """The flags given on a resume whose value differs from the stored configuration."""
    out = []
    for name in sorted(flags):
        if name not in CONFIG_FLAGS:
            continue
        flag, part = CONFIG_FLAGS[name]
        if part(stored) != part(given):
            out.append(f"{flag} (the run has {_show(part(stored))}, given {_show(part(given))})")
    return out


def out_dir_problem(out: Path) -> Optional[str]:
    """Why --out cannot hold a run (a file, a path under a file, not writable), or None.
    Creates nothing."""
    if out.exists() and not out.is_dir():
        return f"--out: {out} is a file, not a directory"
    place = out
    for parent in (out, *out.parents):
        if parent.exists():
            if not parent.is_dir():
                return f"--out: {out} is under {parent}, which is a file"
            place = parent
            break
    try:  # a real write: access() says yes to root even where the file system says no
        fd, probe = tempfile.mkstemp(prefix=".temo-write-check-", dir=place)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return f"--out: cannot write to {place} ({write_error(e)})"
    return None


def write_error(e: OSError) -> str:
    if e.errno == errno.ENOSPC:
        return "no space left on the device"
    if e.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if e.errno == errno.EROFS:
        return "read-only file system"
    return e.strerror or str(e)


def cells_problem(n_tasks: int, arms: int, trials: int) -> Optional[str]:
    cells = n_tasks * arms * trials
    if cells > MAX_CELLS:
        return (f"--trials: {trials} trials x {arms} arm(s) x {n_tasks} task(s) = {cells:,} cells, more than "
                f"{MAX_CELLS:,}; the paper uses 3 trials")
    return None
