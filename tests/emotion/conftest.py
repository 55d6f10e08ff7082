"""Fixtures the emotion tests share."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def private_cache(tmp_path_factory):
    """Point ``TEMO_CACHE_DIR`` at an empty folder for one module, so its tests train and embed from
    scratch instead of reading what an earlier run left in the user's cache."""
    mp = pytest.MonkeyPatch()
    mp.setenv("TEMO_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    yield
    mp.undo()
