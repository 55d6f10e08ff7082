"""`temo tasks`: inspect task sets."""
from __future__ import annotations

import typer

from .common import fail, print_json

app = typer.Typer(no_args_is_help=True, help="Inspect task sets.")


def _find(task_id: str):
    from ..domains import available, get_domain

    domain = task_id.split("-", 1)[0]
    names = [domain] if domain in available() else available()
    for name in names:
        for split in ("test", "train"):
            for t in get_domain(name).tasks(split):
                if t.id == task_id:
                    return t
    return None


@app.command("show")
def show(task_id: str = typer.Argument(..., help="Task id, e.g. retail-test-003."),
         json_out: bool = typer.Option(False, "--json", help="Print the task as JSON.")) -> None:
    """Show one task: scenario, reference actions, emotion condition and user instruction."""
    task = _find(task_id)
    if task is None:
        fail(f"unknown task id {task_id!r}; list them with `temo tasks list DOMAIN`")
    if json_out:
        print_json(task.model_dump(mode="json"))
        return
    from rich.console import Console
    from rich.panel import Panel

    c = Console()
    c.print(Panel.fit(f"[bold]{task.id}[/] · {task.domain} · {task.split} · emotion {task.emotion.id} ({task.emotion.family})"))
    c.print(f"[bold]Persona[/]: {task.scenario.persona}")
    for i, intent in enumerate(task.scenario.intents):
        c.print(f"[bold]Intent {i}[/]: {intent.request}")
        for d in intent.details:
            c.print(f"   · {d}")
    c.print("[bold]Known facts[/]: " + ", ".join(f"{f.key}={f.value}" for f in task.scenario.known))
    c.print("[bold]Reference actions[/]:")
    for a in task.actions:
        c.print(f"   [{a.intent}] {a.name}({', '.join(f'{k}={v!r}' for k, v in a.arguments.items())})")
    if task.outputs:
        c.print("[bold]Required outputs[/]: " + "; ".join(task.outputs))
    c.print(Panel(task.instruction, title="instruction"))
    if task.emotion_instruction:
        c.print(Panel(task.emotion_instruction, title="emotion instruction (emotion arm only)"))


@app.command("list")
def list_tasks(domain: str = typer.Argument(..., help="Domain name."),
               split: str = typer.Option("test", "--split", help="test or train."),
               json_out: bool = typer.Option(False, "--json")) -> None:
    """List a domain's tasks with their intents and emotion family."""
    from ..domains import available, get_domain

    if domain not in available():
        fail(f"unknown domain {domain!r}; available: {', '.join(available())}")
    if split not in ("test", "train"):
        fail(f"--split: expected test or train, got {split!r}")
    tasks = get_domain(domain).tasks(split)
    rows = [{"id": t.id, "intents": len(t.scenario.intents), "actions": len(t.actions), "emotion": t.emotion.id,
             "family": t.emotion.family} for t in tasks]
    if json_out:
        print_json(rows)
        return
    from ..metrics.render import plural

    for r in rows:
        typer.echo(f"{r['id']}\t{plural(r['intents'], 'intent')}\t{plural(r['actions'], 'action')}\t{r['emotion']}")


@app.command("stats")
def stats(domains: str = typer.Option(None, "--domains", help="Comma-separated (default: all)."),
          json_out: bool = typer.Option(False, "--json", help="Print JSON."),
          markdown: bool = typer.Option(False, "--markdown", help="Print the dataset card (docs/benchmark.md).")) -> None:
    """Per domain and split: tasks, intents and actions per task, family and emotion mix, share of tasks with
    required outputs and with a policy challenge, next to the paper's counts; plus Tracer's build report."""
    import json as _json
    from collections import Counter

    from ..domains import available, get_domain
    from ..tracer.build import counts_for
    from .common import split_csv

    names = split_csv(domains) or available()
    bad = [n for n in names if n not in available()]
    if bad:
        fail(f"--domains: unknown domain(s) {', '.join(bad)}; available: {', '.join(available())}")
    out = {}
    for n in names:
        dom = get_domain(n)
        rep_path = dom.folder / "data" / "tracer_report.json"
        report = _json.loads(rep_path.read_text()) if rep_path.exists() else {}
        entry = {"paper": counts_for(n), "unique_traces": report.get("unique_traces")}
        for split in ("test", "train"):
            ts = dom.tasks(split)
            k = len(ts) or 1
            entry[split] = {
                "tasks": len(ts),
                "intents_per_task": round(sum(len(t.scenario.intents) for t in ts) / k, 2),
                "actions_per_task": round(sum(len(t.actions) for t in ts) / k, 2),
                "families": dict(sorted(Counter(t.emotion.family for t in ts).items())),
                "fine_emotions": len({t.emotion.emotion for t in ts}),
                "with_outputs": round(sum(1 for t in ts if t.outputs) / k, 3),
                "with_challenge": round(sum(1 for t in ts if any(i.refusal for i in t.scenario.intents)) / k, 3),
                "round_trip_family": (report.get(split) or {}).get("round_trip", {}).get("family"),
                "max_tasks_per_entity": (report.get(split) or {}).get("max_tasks_per_entity"),
            }
        out[n] = entry
    if json_out:
        print_json(out)
        return
    if markdown:
        typer.echo(_card(out))
        return
    for n, e in out.items():
        typer.echo(f"{n}: unique traces {e['unique_traces']}; paper test/train {e['paper']['test']}/{e['paper']['train']}")
        for split in ("test", "train"):
            s = e[split]
            fam = ", ".join(f"{f} {c}" for f, c in s["families"].items())
            typer.echo(f"  {split}: {s['tasks']} tasks, {s['intents_per_task']} intents and {s['actions_per_task']} actions per task; "
                       f"outputs {s['with_outputs']:.0%}, challenges {s['with_challenge']:.0%}; {s['fine_emotions']} emotions; {fam}")


@app.command("export")
def export(domains: str = typer.Option(None, "--domains", help="Comma-separated (default: all)."),
           split: str = typer.Option("test", "--split", help="test or train.")) -> None:
    """Print the frozen tasks as JSONL, one Task per line (feeling and emotion mapping in `meta`)."""
    from ..domains import available, get_domain
    from .common import split_csv

    if split not in ("test", "train"):
        fail(f"--split: expected test or train, got {split!r}")
    names = split_csv(domains) or available()
    bad = [n for n in names if n not in available()]
    if bad:
        fail(f"--domains: unknown domain(s) {', '.join(bad)}; available: {', '.join(available())}")
    for n in names:
        for t in get_domain(n).tasks(split):
            typer.echo(t.model_dump_json())


def _card(stats: dict) -> str:
    from ..tracer import BENCHMARK_VERSION

    lines = [f"# τ-Emotion-Bench task sets (benchmark version {BENCHMARK_VERSION})", "",
             "Made by Tracer (`temo tracer build`, seed 0); regenerate this card with "
             "`temo tasks stats --markdown > docs/benchmark.md`. Paper counts: Table 2 (test) and Table 6 (training); "
             "paper unique traces: retail 2,603, airline 8,175, 42,138 in all.", "",
             "| domain | split | tasks (paper) | intents/task | actions/task | outputs | challenges | fine emotions | "
             "anger/fear/disgust/sadness/enjoyment | family round trip | max tasks per entity | unique traces |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for n, e in stats.items():
        for split in ("test", "train"):
            s = e[split]
            fam = "/".join(str(s["families"].get(f, 0)) for f in ("anger", "fear", "disgust", "sadness", "enjoyment"))
            spread = ", ".join(f"{k} {v}" for k, v in (s["max_tasks_per_entity"] or {}).items())
            lines.append(f"| {n} | {split} | {s['tasks']} ({e['paper'][split]}) | {s['intents_per_task']} | {s['actions_per_task']} | "
                         f"{s['with_outputs']:.0%} | {s['with_challenge']:.0%} | {s['fine_emotions']} | {fam} | "
                         f"{s['round_trip_family']} | {spread} | {e['unique_traces'] if split == 'test' else ''} |")
    lines += ["", "- *outputs*: share of tasks with values the agent must tell the user (graded in its messages).",
              "- *challenges*: share of tasks with one request the policy forbids; the reference leaves it out.",
              "- *family round trip*: how often the emotion model mapped a feeling to the family it was written for.",
              "- *max tasks per entity*: the most tasks any one user, order, reservation... appears in, per split."]
    return "\n".join(lines)
