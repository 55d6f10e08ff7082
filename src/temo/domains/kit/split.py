"""Which split may use a person: a fixed hash, so test users never appear in training tasks."""
from __future__ import annotations

import hashlib


def split_of(key: str, test_share: float = 0.4) -> str:
    """``"test"`` for about ``test_share`` of keys, else ``"train"``; stable across runs and machines."""
    bucket = int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return "test" if bucket < test_share else "train"
