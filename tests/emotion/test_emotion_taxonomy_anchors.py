"""Taxonomy counts and the shipped anchors (no encoder needed)."""
import json
import re
from collections import Counter

from typer.testing import CliRunner

from temo.cli.emotion import app
from temo.core import EmotionCondition
from temo.emotion import anchors as A

runner = CliRunner()


def test_taxonomy_json_counts():
    r = runner.invoke(app, ["taxonomy", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert sum(len(v) for v in d["families"].values()) == 22
    assert len(d["families"]) == 5
    assert d["politeness"] == ["warm", "neutral", "cold"]
    assert d["urgency"] == ["low", "moderate", "high"]
    assert d["trust"] == ["trusting", "cautious", "skeptical"]
    assert d["conditions"] == 594 and d["anchors"] == 5940


def test_taxonomy_table():
    r = runner.invoke(app, ["taxonomy"])
    assert r.exit_code == 0 and "frustration" in r.output and "594" in r.output


def test_shipped_anchors_equal_fresh_generation():
    fresh = A.generate()
    shipped = A.load_anchors()
    assert [(a.condition_id, a.index, a.text) for a in fresh] == [(a.condition_id, a.index, a.text) for a in shipped]


def test_anchors_unique_ten_per_condition_second_person():
    anchors = A.load_anchors()
    assert len(anchors) == 5940
    assert len({a.text for a in anchors}) == 5940
    per = Counter(a.condition_id for a in anchors)
    assert set(per) == {c.id for c in EmotionCondition.all()}
    assert set(per.values()) == {10}
    for a in anchors:
        assert a.text.startswith("You") or " you" in a.text.lower()
        assert 1 <= len(re.findall(r"[.!?](?:\s|$)", a.text)) <= 3, a.text


def test_neighbouring_conditions_distinguishable():
    # conditions differing in one dimension share no anchor sentence for that dimension
    a = set(A.anchors_for("frustration.cold.high.skeptical"))
    b = set(A.anchors_for("frustration.cold.high.trusting"))
    assert not a & b


def test_anchors_cli_and_unknown_condition():
    r = runner.invoke(app, ["anchors", "relief.warm.low.trusting", "--json"])
    assert r.exit_code == 0
    assert len(json.loads(r.output)["anchors"]) == 10
    r = runner.invoke(app, ["anchors", "joy.warm.low.trusting"])
    assert r.exit_code == 2
    assert "unknown emotion" in r.output and len(r.output.strip().splitlines()) == 1


def test_cli_module_imports_nothing_heavy():
    import subprocess
    import sys
    code = ("import sys, temo.cli.emotion; "
            "bad=[m for m in ('torch','numpy','tokenizers','sentence_transformers') if m in sys.modules]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)
