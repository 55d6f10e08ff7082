"""Fixtures of the llm tests: a loopback fake OpenAI server; helpers live in llm_helpers.py."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from llm_fake_server import FakeLLMServer  # noqa: E402


@pytest.fixture
def fake():
    with FakeLLMServer() as server:
        yield server


@pytest.fixture
async def pooled():
    """Close the pooled HTTP clients of the test's event loop afterwards."""
    yield
    from temo.llm import aclose_clients

    await aclose_clients()
