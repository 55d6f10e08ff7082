"""`temo emotion ...`: the taxonomy, the anchors, and mapping free-form feelings to conditions.

Heavy things (numpy arrays, the tokenizer, the trained heads) load only inside `map`.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

app = typer.Typer(help="Emotion taxonomy, anchor instructions, and feeling -> condition mapping.",
                  no_args_is_help=True, add_completion=False)


def _fail(msg: str) -> None:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(2)


@app.command()
def taxonomy(json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """The 5 families / 22 fine emotions, the three dimensions, and the counts."""
    from temo.core.taxonomy import ANCHORS_PER_CONDITION, FAMILIES, N_CONDITIONS, POLITENESS, TRUST, URGENCY

    data = {
        "families": {f: list(es) for f, es in FAMILIES.items()},
        "politeness": list(POLITENESS), "urgency": list(URGENCY), "trust": list(TRUST),
        "conditions": N_CONDITIONS, "anchors": N_CONDITIONS * ANCHORS_PER_CONDITION,
    }
    if json_out:
        typer.echo(json.dumps(data))
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title="Emotion taxonomy (Atlas of Emotions)")
    t.add_column("family")
    t.add_column("fine emotions")
    for f, es in FAMILIES.items():
        t.add_row(f, ", ".join(es))
    c = Console()
    c.print(t)
    c.print(f"politeness: {', '.join(POLITENESS)}\nurgency: {', '.join(URGENCY)}\ntrust: {', '.join(TRUST)}")
    c.print(f"{data['conditions']} conditions x {ANCHORS_PER_CONDITION} anchors = {data['anchors']} anchors")


def _read_feelings(path: Path) -> list[str]:
    if not path.exists():
        _fail(f"{path}: no such file")
    texts: list[str] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        _fail(f"{path}: cannot read ({e})")
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            _fail(f"{path.name} line {n}: not valid JSON ({e.msg})")
        if not isinstance(obj, dict) or "text" not in obj:
            _fail(f'{path.name} line {n}: expected an object with a "text" field')
        text = obj["text"]
        if not isinstance(text, str) or not text.strip():
            _fail(f"{path.name} line {n}: empty text")
        texts.append(text)
    if not texts:
        _fail(f"{path.name}: no feelings in file")
    return texts


@app.command("map")
def map_cmd(
    text: Optional[str] = typer.Argument(None, help="A free-form feeling description."),
    file: Optional[Path] = typer.Option(None, "--file", "-f", help='JSONL, one {"text": ...} per line.'),
    seed: int = typer.Option(0, "--seed", help="Seed of the anchor draw."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON (one object per line with --file)."),
    encoder: Optional[str] = typer.Option(None, "--encoder", help="static (default), minilm or openai."),
) -> None:
    """Map a feeling (or a JSONL file of feelings) to a condition and one of its anchors."""
    if (text is None) == (file is None):
        _fail("give either TEXT or --file FEELINGS.jsonl (not both)")
    if file is not None:
        texts = _read_feelings(file)
    else:
        if not text.strip():
            _fail("empty feeling text")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # bytes that are not UTF-8 arrive as lone surrogates
            _fail("TEXT is not valid UTF-8; give the feeling as UTF-8 text")
        texts = [text]
    from temo.emotion.encoder import EncoderUnavailable
    from temo.emotion.mapper import get_mapper

    try:
        mapper = get_mapper(encoder)
    except (EncoderUnavailable, ValueError) as e:
        _fail(str(e))
    results = mapper.map_many(texts, seed=seed)
    if json_out:
        sys.stdout.write("".join(json.dumps(r.model_dump()) + "\n" for r in results))
        return
    from rich.console import Console

    c = Console()
    for r in results:
        c.print(f"[bold]{r.condition_id}[/bold] ({r.family}, confidence {r.confidence:.2f})")
        c.print(f"  {r.instruction}")


@app.command()
def anchors(
    condition_id: str = typer.Argument(..., help="emotion.politeness.urgency.trust"),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """List the 10 anchor instructions of a condition."""
    from temo.emotion.anchors import anchors_for

    try:
        texts = anchors_for(condition_id)
    except ValueError as e:
        msg = e.errors()[0]["msg"] if hasattr(e, "errors") else str(e)
        _fail(f"unknown condition id {condition_id!r}: {msg.removeprefix('Value error, ')}")
    if json_out:
        typer.echo(json.dumps({"condition_id": condition_id.strip(), "anchors": texts}))
        return
    for i, t in enumerate(texts):
        typer.echo(f"{i}. {t}")


if __name__ == "__main__":  # pragma: no cover
    app()
