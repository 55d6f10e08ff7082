"""Write (or check) a domain's frozen databases from its seeded generator.

    python -m temo.domains.databases telecom            # write data/db.json[.gz] (and db_train where the domain has one)
    python -m temo.domains.databases telecom --check    # regenerate in memory and compare, byte for byte

A domain's `generate.py` provides `build_database(seed, split) -> {table: {key: record}}`, and sets
`SEPARATE_TRAIN_DB = True` when the paper gives it its own training database (school, basketball,
restaurant, travel, movie, bank). The evaluation database uses seed 0; the training one seed 1.
Files over 2 MB are gzipped with a zero mtime, so the bytes are reproducible.
"""
from __future__ import annotations

import argparse
import gzip
import importlib
import json
import sys
from pathlib import Path
from typing import Any

GZIP_OVER_BYTES = 2_000_000
SEEDS = {"db": 0, "db_train": 1}


def db_text(tables: dict[str, Any]) -> str:
    return json.dumps(tables, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def db_bytes(tables: dict[str, Any]) -> tuple[str, bytes]:
    """(file suffix, bytes) exactly as written to data/."""
    text = db_text(tables).encode()
    if len(text) > GZIP_OVER_BYTES:
        return ".json.gz", gzip.compress(text, mtime=0)
    return ".json", text


def domain_folder(name: str) -> Path:
    return Path(importlib.import_module(f"temo.domains.{name}").__file__).resolve().parent


def build(name: str) -> dict[str, dict[str, Any]]:
    gen = importlib.import_module(f"temo.domains.{name}.generate")
    out = {"db": gen.build_database(seed=SEEDS["db"], split="test")}
    if getattr(gen, "SEPARATE_TRAIN_DB", False):
        out["db_train"] = gen.build_database(seed=SEEDS["db_train"], split="train")
    return out


def write(name: str, built: dict[str, dict[str, Any]]) -> list[Path]:
    folder = domain_folder(name) / "data"
    folder.mkdir(exist_ok=True)
    paths = []
    for stem, tables in built.items():
        suffix, data = db_bytes(tables)
        for old in (folder / f"{stem}.json", folder / f"{stem}.json.gz"):
            old.unlink(missing_ok=True)
        path = folder / f"{stem}{suffix}"
        path.write_bytes(data)
        paths.append(path)
    return paths


def check(name: str, built: dict[str, dict[str, Any]]) -> list[str]:
    """Problems: files missing or different from a fresh generation."""
    folder = domain_folder(name) / "data"
    problems = []
    for stem, tables in built.items():
        suffix, data = db_bytes(tables)
        path = folder / f"{stem}{suffix}"
        if not path.exists():
            problems.append(f"{path} is missing: run python -m temo.domains.databases {name}")
        elif (gzip.decompress(path.read_bytes()) if suffix.endswith(".gz") else path.read_bytes()) != (
                gzip.decompress(data) if suffix.endswith(".gz") else data):
            problems.append(f"{path} differs from a fresh generation: run python -m temo.domains.databases {name}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m temo.domains.databases", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("domain")
    parser.add_argument("--check", action="store_true", help="compare a fresh generation with the files in data/")
    args = parser.parse_args(argv)
    built = build(args.domain)
    if args.check:
        problems = check(args.domain, built)
        for p in problems:
            print(p, file=sys.stderr)
        print("stale" if problems else "up to date")
        return 1 if problems else 0
    for p in write(args.domain, built):
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
