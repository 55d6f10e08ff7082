"""Stage 1 and 2: graphs follow the paper; sampled traces are seeded, deduplicated and split by sequence."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from temo.domains import available, get_domain
from temo.env import ToolGraph
from temo.tracer import graph as G
from temo.tracer.sample import sample, split_of_sequence, walk

SHARED = Path(__file__).resolve().parents[3] / "shared"
FACTS = json.loads((SHARED / "paper_facts.json").read_text())["domains"] if SHARED.exists() else {}
RELEASED = json.loads((SHARED / "sources" / "paper_graphs.json").read_text())["graphs"] if SHARED.exists() else {}


@pytest.mark.parametrize("name", available())
def test_graph_meets_the_paper(name):
    dom = get_domain(name)
    assert G.validate(dom, FACTS.get(name, {}).get("graph")) == []
    if name in RELEASED:
        assert {tuple(e) for e in dom.graph.edges} == {tuple(e) for e in RELEASED[name]["edges"]}
        assert sorted(dom.graph.roots) == sorted(RELEASED[name]["roots"])


def test_svg_marks_roots_and_columns(tmp_path):
    dom = get_domain("retail")
    svg = G.to_svg(dom)
    assert svg.count("<rect") == len(dom.graph.nodes)
    assert svg.count('stroke-width="3"') == len(dom.graph.roots)
    assert svg.count("marker-end") == len(dom.graph.edges)


def test_sampling_is_seeded_deduplicated_and_bounded():
    g = get_domain("retail").graph
    a, b = sample(g, 3000, 7, "retail"), sample(g, 3000, 7, "retail")
    assert a == b and a != sample(g, 3000, 8, "retail")
    keys = [json.dumps(r["trace"]) for r in a]
    assert len(keys) == len(set(keys))
    edges = set(map(tuple, g.edges))
    for r in a:
        assert 1 <= len(r["trace"]) <= 3
        for intent in r["trace"]:
            assert 2 <= len(intent) <= 6 and intent[0] in g.roots
            assert len(set(intent)) == len(intent)
            assert all((x, y) in edges for x, y in zip(intent, intent[1:]))
        assert r["split"] == split_of_sequence(r["trace"])


def test_dead_end_walks_are_kept_short_or_redrawn():
    g = ToolGraph(nodes=["a", "b", "c"], edges=[("a", "b"), ("c", "a")], roots=["a", "b"])
    succ = {n: g.successors(n) for n in g.nodes}
    rng = random.Random(0)
    for _ in range(50):
        w = walk(g, rng, 6, succ)
        assert w == ["a", "b"]  # b is a dead end: kept at 2 tools; a walk from b alone is redrawn
    lonely = ToolGraph(nodes=["x", "y"], edges=[("y", "x")], roots=["x"])
    assert walk(lonely, rng, 4, {"x": [], "y": ["x"]}) == []


def test_test_and_training_traces_never_share_a_tool_sequence():
    recs = sample(get_domain("airline").graph, 5000, 0, "airline")
    seqs = {s: {json.dumps([t for i in r["trace"] for t in i]) for r in recs if r["split"] == s} for s in ("test", "train")}
    assert seqs["test"] and seqs["train"] and not seqs["test"] & seqs["train"]
