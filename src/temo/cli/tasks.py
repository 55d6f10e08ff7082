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
    for r in rows:
        typer.echo(f"{r['id']}\t{r['intents']} intents\t{r['actions']} actions\t{r['emotion']}")
