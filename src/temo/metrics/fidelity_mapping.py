"""Mapping many user texts with the emotion model, fast: each distinct text once, each encoding
once, and on several cores (fork) when there is enough work.

The predictions do not depend on how the texts are grouped or split among processes: the mapper
scores each text on its own.
"""
from __future__ import annotations

import copy
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable, Optional, Sequence

import numpy as np

Progress = Callable[[int, int], None]  # (texts mapped so far, total)
CHUNK_CELLS = 200   # cells per unit of work: their turns and conversations are mapped together
MAP_BATCH = 1024    # texts per call of the mapper
MIN_PARALLEL_TEXTS = 4000


class MemoEncoder:
    """Wraps the mapper's encoder and encodes each distinct text once.

    A conversation's clauses are its turns' clauses, and lines such as "Yes, please go ahead."
    recur in thousands of cells, so the clause model would otherwise encode the same text many
    times. A text's encoding does not depend on its batch, so the predictions are unchanged."""

    def __init__(self, encoder):
        self.inner = encoder
        self.name = encoder.name
        self.dim = encoder.dim
        self._cache: dict[tuple[str, int], np.ndarray] = {}

    def encode(self, texts: Sequence[str], token_weights: Optional[np.ndarray] = None) -> np.ndarray:
        key = 0 if token_weights is None else id(token_weights)
        missing = [t for t in dict.fromkeys(texts) if (t, key) not in self._cache]
        if missing:
            vecs = (self.inner.encode(missing) if token_weights is None
                    else self.inner.encode(missing, token_weights=token_weights))
            self._cache.update(((t, key), v) for t, v in zip(missing, vecs))
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        return np.stack([self._cache[(t, key)] for t in texts])


def memoizing(mapper):
    """A shallow copy of ``mapper`` whose encoder encodes each distinct text once."""
    twin = copy.copy(mapper)
    twin.encoder = MemoEncoder(mapper.encoder)
    return twin


def _map_unique(mapper, texts: list[str]) -> list[str]:
    out: list[str] = []
    for s in range(0, len(texts), MAP_BATCH):
        out.extend(m.condition_id for m in mapper.map_many(texts[s: s + MAP_BATCH]))
    return out


_WORKER_MAPPER = None  # set in the parent before forking; the children inherit it


def _worker(texts: list[str]) -> list[str]:
    return _map_unique(memoizing(_WORKER_MAPPER), texts)


def default_workers() -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(2, cores))


def map_text_groups(groups: list[list[str]], mapper=None, progress: Optional[Progress] = None,
                    workers: Optional[int] = None) -> dict[str, str]:
    """Condition id of every text in ``groups``. A group (the turns and conversations of some
    cells) is one unit of work: its texts share clauses, so they share an encoding cache."""
    global _WORKER_MAPPER
    if mapper is None:
        from ..emotion import get_mapper
        mapper = get_mapper()
    seen: set[str] = set()
    units = []
    for g in groups:
        unique = [t for t in dict.fromkeys(g) if t not in seen]
        seen.update(unique)
        if unique:
            units.append(unique)
    total, done = len(seen), 0
    out: dict[str, str] = {}
    workers = default_workers() if workers is None else max(1, workers)
    can_fork = "fork" in multiprocessing.get_all_start_methods()
    if workers > 1 and can_fork and len(units) > 1 and total >= MIN_PARALLEL_TEXTS:
        _WORKER_MAPPER = mapper
        old = os.environ.get("TOKENIZERS_PARALLELISM")
        os.environ["TOKENIZERS_PARALLELISM"] = "false"  # one core per process; no fork warning
        try:
            with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
                futures = {pool.submit(_worker, u): u for u in units}
                for fut in as_completed(futures):
                    unit = futures[fut]
                    out.update(zip(unit, fut.result()))
                    done += len(unit)
                    if progress:
                        progress(done, total)
        finally:
            _WORKER_MAPPER = None
            if old is None:
                os.environ.pop("TOKENIZERS_PARALLELISM", None)
            else:
                os.environ["TOKENIZERS_PARALLELISM"] = old
        return out
    memo = memoizing(mapper)
    for unit in units:
        out.update(zip(unit, _map_unique(memo, unit)))
        done += len(unit)
        if progress:
            progress(done, total)
    return out
