"""The domains. Each subfolder with a `tools.py` is one executable world (see `temo.env.domain`)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..env.domain import Domain, DomainError

# The paper's order; folders not listed here are appended alphabetically.
PAPER_ORDER = ["airline", "retail", "telecom", "telehealth", "school", "basketball", "restaurant", "travel", "movie", "bank"]


def _built(folder: Path) -> bool:
    return (folder / "tools.py").exists() and any((folder / "data" / f"db{s}").exists() for s in (".json", ".json.gz"))


def available() -> list[str]:
    """Domains with tools and a built database (a folder still in development is left out)."""
    here = Path(__file__).resolve().parent
    found = {p.name for p in here.iterdir() if p.is_dir() and _built(p)}
    return [d for d in PAPER_ORDER if d in found] + sorted(found - set(PAPER_ORDER))


@lru_cache(maxsize=None)
def get_domain(name: str) -> Domain:
    if name not in available():
        raise DomainError(f"unknown domain {name!r}; available: {', '.join(available()) or 'none'}")
    return Domain.load(name)


__all__ = ["available", "get_domain", "Domain", "DomainError"]
