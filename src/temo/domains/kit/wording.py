"""Small pieces of English the domains' user texts share."""
from __future__ import annotations

from typing import Iterable


def and_join(parts: Iterable[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"`` (no serial comma); empty parts are left out, and no parts
    give ``""``."""
    items = [p for p in parts if p]
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
