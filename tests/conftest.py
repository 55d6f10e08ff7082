"""Shared fixtures."""
from __future__ import annotations

from pathlib import Path

import pytest

from toydomain import ToyDomain, toy_task


@pytest.fixture
def toy_domain(tmp_path: Path) -> ToyDomain:
    dom = ToyDomain(tmp_path)
    dom._task_list = [toy_task()]
    return dom
