"""Shared CLI helpers: the one-line error contract and JSON output."""
from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one line to stderr and exit (2 = bad input)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def load_run(path):
    """(store, config, records) of a run directory, or exit 2 with one line saying what is wrong."""
    from ..harness.runstore import RunStore, RunStoreError

    store = RunStore(path)
    try:
        return store, store.load_config(), list(store.records())
    except RunStoreError as e:
        fail(" ".join(str(e).split()))
    except OSError as e:
        fail(f"{path}: cannot read ({e})")


def split_csv(value: str | None) -> list[str]:
    return [v.strip() for v in (value or "").split(",") if v.strip()]
