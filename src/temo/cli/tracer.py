"""`temo tracer`: build tasks with Tracer, one stage at a time or all at once.

Every stage reads and writes JSONL (one record per line), so each can be inspected and re-run alone:

    temo tracer sample    --domain retail --split test --out traces.jsonl
    temo tracer ground    --domain retail --in traces.jsonl --out grounded.jsonl [--count 70]
    temo tracer instruct  --domain retail --in grounded.jsonl --out instructed.jsonl
    temo tracer feel      --in instructed.jsonl --out felt.jsonl
    temo tracer condition --in felt.jsonl --out conditioned.jsonl
    temo tracer verify    --domain retail --in conditioned.jsonl --out tasks.jsonl
    temo tracer build     --domains retail,airline [--seed 0] [--check]
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Optional

import typer

from .common import fail, print_json, split_csv

app = typer.Typer(no_args_is_help=True, help=__doc__)

SEED = typer.Option(0, "--seed", help="Seed of every random choice (same seed, same files).")


def _domain(name: str):
    from ..domains import available, get_domain

    if name not in available():
        fail(f"--domain: unknown domain {name!r}; available: {', '.join(available())}")
    return get_domain(name)


def _read(path: str) -> list[dict[str, Any]]:
    p = Path(path)
    if not p.exists():
        fail(f"--in: {path} does not exist")
    out = []
    for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                fail(f"{path} line {i}: not JSON ({e.msg})")
            if not isinstance(rec, dict):
                fail(f"{path} line {i}: expected a JSON object")
            out.append(rec)
    return out


def _need(records: list[dict[str, Any]], path: str, *keys: str) -> None:
    for i, r in enumerate(records, 1):
        for k in keys:
            if k not in r:
                fail(f"{path} line {i}: missing field {k!r} (run the previous stage first)")


def _write(path: str, records: list[dict[str, Any]]) -> None:
    Path(path).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    typer.echo(f"wrote {len(records)} records to {path}")


def _writer(model: Optional[str], base_url: Optional[str], key_env: Optional[str]):
    if not model and not base_url:
        return None
    if not (model and base_url):
        fail("--writer-model and --writer-base-url go together")
    from ..llm.settings import LLMSettings

    return LLMSettings(role="writer", model=model, base_url=base_url, api_key_env=key_env, sampling={"temperature": 0.7})


@app.command("sample")
def sample_cmd(domain: str = typer.Option(..., "--domain", help="Domain name."),
               split: str = typer.Option("test", "--split", help="test or train (their tool sequences are disjoint)."),
               draws: int = typer.Option(20000, "--draws", min=1, help="Random walks to draw before deduplication."),
               out: str = typer.Option(..., "--out", help="Output JSONL of traces."), seed: int = SEED) -> None:
    """Sample traces: 1-3 intents, each a random walk of 2-6 tools from a root of the domain's graph."""
    from ..tracer.sample import sample

    if split not in ("test", "train"):
        fail("--split: give test or train")
    recs = [r for r in sample(_domain(domain).graph, draws, seed, domain) if r["split"] == split]
    _write(out, recs)


@app.command("ground")
def ground_cmd(domain: str = typer.Option(..., "--domain"), inp: str = typer.Option(..., "--in", help="Traces (JSONL)."),
               out: str = typer.Option(..., "--out"), count: int = typer.Option(0, "--count", min=0, help="Stop after this many (0: all)."),
               seed: int = SEED) -> None:
    """Ground traces by execution: the domain's hooks pick entities, every step runs on a store."""
    from ..tracer.ground import ground_trace, load_grounder

    dom = _domain(domain)
    recs = _read(inp)
    _need(recs, inp, "id", "trace", "split")
    grounder = load_grounder(dom)
    usage, drops, kept = Counter(), Counter(), []
    for r in recs:
        g = ground_trace(dom, grounder, r, usage, drops, seed)
        if g:
            kept.append(g)
            if count and len(kept) >= count:
                break
    _write(out, kept)
    if drops:
        typer.echo("dropped: " + ", ".join(f"{k} {v}" for k, v in drops.most_common()))


@app.command("instruct")
def instruct_cmd(domain: str = typer.Option(..., "--domain"), inp: str = typer.Option(..., "--in"), out: str = typer.Option(..., "--out"),
                 writer_model: Optional[str] = typer.Option(None, "--writer-model", help="LLM rewrite: model name."),
                 writer_base_url: Optional[str] = typer.Option(None, "--writer-base-url", help="LLM rewrite: OpenAI-compatible base URL."),
                 writer_key_env: Optional[str] = typer.Option(None, "--writer-api-key-env", help="Env var holding the API key."),
                 seed: int = SEED) -> None:
    """Write the user scenario and instruction (offline writer; an LLM rewrite with --writer-*)."""
    from ..tracer.ground import load_grounder
    from ..tracer.instruct import instruct

    recs = _read(inp)
    _need(recs, inp, "grounded")
    _write(out, instruct(recs, load_grounder(_domain(domain)).context, seed, _writer(writer_model, writer_base_url, writer_key_env)))


@app.command("feel")
def feel_cmd(inp: str = typer.Option(..., "--in"), out: str = typer.Option(..., "--out"), seed: int = SEED,
             writer_model: Optional[str] = typer.Option(None, "--writer-model"),
             writer_base_url: Optional[str] = typer.Option(None, "--writer-base-url"),
             writer_key_env: Optional[str] = typer.Option(None, "--writer-api-key-env")) -> None:
    """Describe each user's feeling from the scenario only (no database)."""
    from ..tracer.feel import feel

    recs = _read(inp)
    _need(recs, inp, "scenario")
    _write(out, feel(recs, seed, inp, _writer(writer_model, writer_base_url, writer_key_env)))


@app.command("condition")
def condition_cmd(inp: str = typer.Option(..., "--in"), out: str = typer.Option(..., "--out"), seed: int = SEED) -> None:
    """Map each feeling to one of the 594 emotion conditions and draw one of its anchors."""
    from ..tracer.condition import condition, round_trip

    recs = _read(inp)
    _need(recs, inp, "feeling", "feeling_target")
    done = condition(recs, seed)
    _write(out, done)
    typer.echo(f"round trip: {json.dumps(round_trip(done))}")


@app.command("verify")
def verify_cmd(domain: str = typer.Option(..., "--domain"), inp: str = typer.Option(..., "--in"),
               out: str = typer.Option(..., "--out", help="Verified tasks (one Task per line).")) -> None:
    """Verify tasks (replay, authentication first, effects, policy, facts in the instruction, no internal ids)."""
    from ..tracer.build import task_of
    from ..tracer.ground import load_grounder
    from ..tracer.verify import problems

    dom = _domain(domain)
    grounder = load_grounder(dom)
    recs = _read(inp)
    _need(recs, inp, "grounded", "scenario", "instruction")
    internal: dict[str, set] = {}
    kept, drops = [], Counter()
    for r in recs:
        split = r["split"]
        if split not in internal:
            internal[split] = grounder.internal_ids(dom.database(split)) if grounder.internal_ids else set()
        task = task_of(r, domain, split, len(kept))
        found = problems(task, r, dom, grounder, internal[split])
        for f in found:
            drops[f] += 1
        if not found:
            kept.append(json.loads(task.model_dump_json()))
    _write(out, kept)
    if drops:
        typer.echo("dropped: " + ", ".join(f"{k} {v}" for k, v in drops.most_common()))


@app.command("build")
def build_cmd(domains: Optional[str] = typer.Option(None, "--domains", help="Comma-separated (default: every domain with a grounding module)."),
              seed: int = SEED,
              check: bool = typer.Option(False, "--check", help="Rebuild in memory and compare with the frozen files byte for byte."),
              test: Optional[int] = typer.Option(None, "--test", min=1, help="Test tasks per domain (default: the paper's)."),
              train: Optional[int] = typer.Option(None, "--train", min=0, help="Training tasks per domain (default: the paper's Table 6)."),
              json_out: bool = typer.Option(False, "--json", help="Print the build report as JSON."),
              writer_model: Optional[str] = typer.Option(None, "--writer-model"),
              writer_base_url: Optional[str] = typer.Option(None, "--writer-base-url"),
              writer_key_env: Optional[str] = typer.Option(None, "--writer-api-key-env")) -> None:
    """Run every stage and freeze each domain's tasks in its data/ folder (or --check them)."""
    from rich.progress import Progress

    from ..domains import available
    from ..tracer.build import build, check as check_files, counts_for, write

    names = split_csv(domains) or [d for d in available() if _has_grounding(d)]
    for n in names:
        if n not in available():
            fail(f"--domains: unknown domain {n!r}; available: {', '.join(available())}")
        if not _has_grounding(n):
            fail(f"--domains: {n} has no grounding module (domains/{n}/grounding.py)")
    writer = _writer(writer_model, writer_base_url, writer_key_env)
    reports, stale = {}, []
    for n in names:
        dom = _domain(n)
        counts = counts_for(n)
        if test is not None:
            counts["test"] = test
        if train is not None:
            counts["train"] = train
        with Progress(transient=True) as bar:
            job = bar.add_task(f"{n}: grounding", total=sum(counts.values()))
            try:
                built = build(dom, seed, counts, progress=lambda k: bar.advance(job, k), writer=writer)
            except RuntimeError as e:
                fail(str(e), code=1)
        reports[n] = built["report"]
        if check:
            stale += check_files(dom, built)
        else:
            for p in write(dom, built):
                typer.echo(f"wrote {p}")
    if json_out:
        print_json(reports)
    if check:
        for s in stale:
            typer.echo(s, err=True)
        typer.echo("stale" if stale else "up to date")
        raise typer.Exit(1 if stale else 0)


def _has_grounding(name: str) -> bool:
    from ..domains import get_domain

    return (get_domain(name).folder / "grounding.py").exists()
