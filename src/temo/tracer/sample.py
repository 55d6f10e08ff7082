"""Stage 2: sample traces, seeded random walks on a domain's tool graph.

A trace is 1–3 intents; each intent is a walk of 2–6 tools that starts at a root-eligible tool and
follows edges to tools not yet visited by that walk. **Dead ends**: a walk that reaches a tool with no
unvisited successor stops there; if it has at least 2 tools it is kept, shorter than drawn; a walk
that would have a single tool is redrawn from another root (up to 20 times), and if none works the
trace keeps the intents it has (a trace with no intent is discarded). Traces are deduplicated on their
exact nested tool sequence.

Splits: a trace's flat tool sequence is hashed; about 30% of sequences may serve test tasks and the
rest training tasks, so the two splits never share a tool sequence.
"""
from __future__ import annotations

import hashlib
import random
from typing import Any

from ..env import ToolGraph

WALK_LENGTHS = (2, 3, 4, 5, 6)
INTENT_COUNTS = (1, 2, 3)
INTENT_WEIGHTS = (0.45, 0.35, 0.2)
TEST_SHARE = 0.3


def walk(graph: ToolGraph, rng: random.Random, length: int, succ: dict[str, list[str]]) -> list[str]:
    """One walk of up to ``length`` tools from a random root; [] when every try dead-ends at 1 tool."""
    for _ in range(20):
        node = rng.choice(graph.roots)
        path = [node]
        while len(path) < length:
            options = [n for n in succ[node] if n not in path]
            if not options:
                break  # dead end: keep what we have
            node = rng.choice(options)
            path.append(node)
        if len(path) >= 2:
            return path
    return []


def sample_trace(graph: ToolGraph, rng: random.Random, succ: dict[str, list[str]]) -> list[list[str]]:
    n = rng.choices(INTENT_COUNTS, INTENT_WEIGHTS)[0]
    intents = []
    for _ in range(n):
        w = walk(graph, rng, rng.choice(WALK_LENGTHS), succ)
        if w:
            intents.append(w)
    return intents


def split_of_sequence(trace: list[list[str]]) -> str:
    flat = ">".join(t for intent in trace for t in intent)
    bucket = int(hashlib.sha256(flat.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return "test" if bucket < TEST_SHARE else "train"


def sample(graph: ToolGraph, n: int, seed: int, domain: str = "") -> list[dict[str, Any]]:
    """``n`` draws, deduplicated, in draw order; each record has ``trace``, ``split`` and an ``id``."""
    rng = random.Random(f"sample:{domain}:{seed}")
    succ = {node: sorted(graph.successors(node)) for node in graph.nodes}
    seen: set[tuple] = set()
    out = []
    for _ in range(n):
        trace = sample_trace(graph, rng, succ)
        key = tuple(tuple(i) for i in trace)
        if not trace or key in seen:
            continue
        seen.add(key)
        out.append({"id": f"{domain}-trace-{len(out):05d}", "domain": domain, "trace": trace,
                    "split": split_of_sequence(trace)})
    return out


def unique_traces(graph: ToolGraph, n: int = 20000, seed: int = 0) -> int:
    """How many distinct traces ``n`` draws give (the paper reports retail 2,603, airline 8,175)."""
    return len(sample(graph, n, seed))
