"""`temo collect`: roll out the training tasks once and report what Tracer would keep.

Collection *is* a run (`temo run` on the training split, one trial, emotion arm, 50 interaction
steps): the same run directory, the same `--resume`, the same agent, user and endpoint flags. The
run flags are taken from `temo run` itself (its signature), so the two commands cannot drift apart.
"""
from __future__ import annotations

import inspect
import time
import typing
from pathlib import Path
from typing import Optional

import typer

from .common import fail, print_json
from .run import run_command

from ..training.protocol import ARMS, MAX_STEPS, SPLIT, TRIALS

# The paper's collection protocol; these run flags are fixed, not offered.
_FIXED = {"split": SPLIT, "trials": TRIALS, "arms": ",".join(ARMS)}


def _report(root: Path, rule: Optional[str], cap: Optional[int], preset: Optional[str], seed: Optional[int],
            as_json: bool, save: bool, quiet: bool = False) -> None:
    from ..training.collect import CollectionError, CollectSettings, load_collection, save_settings
    from ..training.tables import render, report

    try:
        collection = load_collection(root)
        stored = collection.settings
        settings = CollectSettings(
            rule=rule or stored.rule,
            cap=stored.cap if cap is None else (cap or None),
            preset=preset or stored.preset,
            seed=stored.seed if seed is None else seed,
        ).check()
    except CollectionError as e:
        fail(str(e))
    if save:
        save_settings(root, settings)
    data = report(collection, settings)
    if as_json:
        print_json(data)
    elif not quiet:
        render(data)


def collect_command(
    run_dir: Optional[Path] = typer.Argument(None, help="An existing collection to report on (no rollouts are run)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Collection directory to write (default: runs/collect-<time>-<agent>-<user>)."),
    preset: Optional[str] = typer.Option(None, "--preset", help="tracer-high (all ten domains, capped) | tracer-low (airline, retail, telecom, telehealth, uncapped). Sets the domains when --domains is not given."),
    select_rule: Optional[str] = typer.Option(None, "--select", help="interaction-aware (the paper: goal reached and the user did not quit) | state-only (goal reached, whatever the user felt). Default: interaction-aware."),
    cap: Optional[int] = typer.Option(None, "--cap", min=0, help="Most kept trajectories per domain, a seeded random sample (default 250; 0 = no cap)."),
    sample_seed: Optional[int] = typer.Option(None, "--sample-seed", help="Seed of the per-domain sample (default 0)."),
    as_json: bool = typer.Option(False, "--json", help="Print the Table 6 / Table 7 numbers and the emotion mix as JSON."),
    **run_options,
) -> None:
    """Roll out every training task once (agent x emotion-conditioned user, 50 interaction steps) and
    print Table 6 (outcomes, kept per rule and preset), Table 7 (turns, tool calls, reasoning of
    the kept trajectories) and the emotion-family mix of kept and failed trajectories.

    Rollouts lost to infrastructure errors are discarded and counted, never kept as failures;
    `--resume` re-runs them. Selection settings are stored in DIR/collect.json and used by
    `temo export sft`; they can be changed later without re-running anything.

    Examples:

      temo collect --domains retail,airline --agent oracle --user scripted --out runs/collect --limit 20

      temo collect --preset tracer-low --agent llm --agent-model Qwen/Qwen3-8B --agent-base-url http://localhost:8000/v1 \\
                   --user llm --user-model Qwen/Qwen3-235B-A22B-Instruct-2507 --user-base-url http://gpu:8001/v1 --out runs/tracer

      temo collect runs/collect --select state-only      # the same rollouts, the naive rule

      temo collect runs/collect --json
    """
    from ..training.select import PRESETS, RULES

    if select_rule is not None and select_rule not in RULES:
        fail(f"--select: expected one of {', '.join(RULES)}, got {select_rule!r}")
    if preset is not None and preset not in PRESETS:
        fail(f"--preset: expected one of {', '.join(PRESETS)}, got {preset!r}")
    if run_dir is not None:
        if out is not None:
            fail("give either DIR (report on an existing collection) or --out DIR (collect), not both")
        _report(run_dir, select_rule, cap, preset, sample_seed, as_json, save=False)
        return

    agent, user = run_options["agent"], run_options["user"]
    if out is None:
        if run_options.get("resume"):
            fail("--resume needs --out DIR (the collection to continue)")
        out = Path("runs") / f"collect-{time.strftime('%Y%m%d-%H%M%S')}-{agent.replace(':', '-')}-{user}"
    if preset is not None and not run_options.get("domains"):
        run_options["domains"] = ",".join(PRESETS[preset].domains)
    quiet = bool(run_options.pop("quiet", False))
    run_command(**run_options, **_FIXED, out=out, quiet=quiet or as_json)
    _report(out, select_rule, cap, preset, sample_seed, as_json, save=True, quiet=quiet)


def _collect_signature() -> None:
    """Give `collect_command` the run flags of `temo run` (minus the fixed ones), so typer offers them."""
    own = inspect.signature(collect_command)
    run_sig = inspect.signature(run_command, eval_str=True)
    hints = typing.get_type_hints(run_command)
    params = [p for p in own.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    taken = {p.name for p in params}
    for p in run_sig.parameters.values():
        if p.name in _FIXED or p.name in taken:
            continue
        if p.name == "max_turns":
            p = p.replace(default=typer.Option(MAX_STEPS, "--max-turns", min=2,
                                               help=f"Interaction-step limit per rollout (paper: {MAX_STEPS})."))
        params.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY))
    collect_command.__signature__ = own.replace(parameters=params)  # type: ignore[attr-defined]
    own_hints = typing.get_type_hints(collect_command)
    collect_command.__annotations__ = {**{k: v for k, v in hints.items() if k not in _FIXED}, **own_hints}


_collect_signature()
