"""Nothing a model sends can crash a run (issue 13, section 1): a hostile agent through the real CLI,
then resume; and the environment on its own against every case and a seeded fuzz."""
from __future__ import annotations

import json
import math
import random

import pytest
from typer.testing import CliRunner

import hostile_agent
from temo.cli.app import app
from temo.domains import get_domain
from temo.env.environment import Environment
from temo.env.generic import safe_arithmetic
from temo.env.tool import ToolError
from temo.harness.runstore import RunStore

runner = CliRunner()


def _strict_json(text: str):
    def no_constant(name):
        raise AssertionError(f"non-finite number {name} written to a record")

    return json.loads(text, parse_constant=no_constant)


def test_hostile_agent_through_the_cli_then_resume(tmp_path, monkeypatch):
    hostile_agent.register(monkeypatch)
    out = tmp_path / "run"
    args = ["run", "--agent", "hostile", "--domains", "retail,airline", "--limit", "2", "--trials", "2",
            "--max-turns", "8", "--concurrency", "2", "--out", str(out), "-q"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    store = RunStore(out)
    config = store.load_config()
    files = store.cell_files()
    assert len(files) == len(config.cells()) == 8  # every cell stored, the crashing ones included
    records = list(store.records())
    by_term = {}
    for path, rec in zip(files, records):
        text = path.read_bytes().decode("utf-8")  # strictly encodable
        _strict_json(text)  # and no NaN / Infinity anywhere
        by_term.setdefault(rec.termination, []).append(rec)
    crashed = by_term.pop("harness_error")
    assert len(crashed) == 2 and all(r.trial == hostile_agent.CRASH_TRIAL for r in crashed)
    assert all("hostile agent exploded" in r.error and "Traceback" in r.error for r in crashed)
    assert all(r.reward is None for r in crashed)
    others = [r for rs in by_term.values() for r in rs]
    assert len(others) == 6
    for rec in others:
        assert rec.reward is not None and rec.reward.reward != 1  # graded (the store hashed fine), a failure
        assert len(rec.tool_calls) > 300
        assert not any(c.ok and c.kind == "write" for c in rec.tool_calls)  # nothing hostile was written
        assert all(c.result.startswith("Error:") for c in rec.tool_calls if not c.ok)
        results = {c.raw_arguments[:40]: c.result for c in rec.tool_calls if c.name == "calculate"}
        assert any("not a real number" in r for r in results.values())
        assert any("too large" in r for r in results.values())
        assert any("nested more than" in c.result for c in rec.tool_calls)
        assert any("lone surrogate" in c.result for c in rec.tool_calls)
        assert any("NaN is not a valid JSON number" in c.result for c in rec.tool_calls)
        assert not any("at at" in c.result or "internal" == c.error for c in rec.tool_calls)

    # a plain resume keeps the harness_error cells (re-running would crash the same way)
    before = {p.name: p.read_bytes() for p in files}
    res = runner.invoke(app, ["run", "--out", str(out), "--resume", "-q"])
    assert res.exit_code == 0, res.output
    assert res.stderr.count("harness_error") >= 1 and "flags that differ" not in res.stderr
    assert {p.name: p.read_bytes() for p in store.cell_files()} == before

    # temo metrics counts them loudly
    res = runner.invoke(app, ["metrics", str(out), "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert sum(g["cells"] for g in report["errors"]["harness_error"]) == 2
    assert any("hostile agent exploded" in g["reason"] for g in report["errors"]["harness_error"])
    assert any("2 cell(s) ended in HARNESS_ERROR" in w for w in report["warnings"])

    # an explicit retry runs them again (and they crash again, as stored records, not as a traceback)
    res = runner.invoke(app, ["run", "--out", str(out), "--resume", "--retry-errors", "-q"])
    assert res.exit_code == 0, res.output
    after = {p.name: p.read_bytes() for p in store.cell_files()}
    changed = [n for n in after if after[n] != before[n]]
    assert sorted(changed) == sorted(f"{r.cell_id}.json" for r in crashed)


@pytest.mark.parametrize("domain_name", ["retail", "airline", "bank", "telecom"])
def test_no_call_leaves_a_non_finite_or_unencodable_value_in_the_store(domain_name):
    """Every tool, every numeric field NaN/inf/huge, every text field a lone surrogate, plus a fuzz:
    each call answers an observation, the state hash never changes and never raises."""
    try:
        domain = get_domain(domain_name)
    except Exception:
        pytest.skip(f"domain {domain_name} not installed")
    store = domain.store("test")
    env = Environment(domain.tools, store)
    base = store.hash()
    rng = random.Random(13)
    n = 0
    for name, tool in sorted(domain.tools.items()):
        props = tool.schema["parameters"].get("properties", {})
        texts = hostile_agent.hostile_texts(name, props, big=False) + hostile_agent.fuzz_texts(rng, list(props) or ["x"], 40)
        dicts = [{k: v for k in props} for v in (float("nan"), float("inf"), -float("inf"), 10**40, "X\ud83d")]
        for args in [*texts, *dicts]:
            outcome = env.execute(name, args)
            n += 1
            assert isinstance(outcome.observation, str)
            outcome.observation.encode("utf-8")  # encodable (raises otherwise)
            if outcome.ok:
                continue  # a well-formed call by luck (a read)
            assert outcome.observation.startswith("Error:")
    assert n > 200
    assert store.hash() == base  # nothing hostile was written
    for table, keys in store.changed().items():  # and nothing half-written stays in the overlay
        for key in keys:
            rec = store.get(table, key)
            assert rec is None or json.dumps(rec, allow_nan=False).encode("utf-8")


def test_deep_nesting_is_an_error_observation_not_a_recursion_error():
    domain = get_domain("retail")
    env = Environment(domain.tools, domain.store("test"))
    for depth in (40, 500, 5000, 200_000):
        text = '{"expression": ' + "[" * depth + "]" * depth + "}"
        outcome = env.execute("calculate", text)
        assert not outcome.ok and outcome.observation.startswith("Error:") and outcome.error in ("bad_json", "bad_args")
    # nesting passed as an already-parsed dict (a non-LLM agent) is refused too
    deep: dict = {}
    node = deep
    for _ in range(3000):
        node["a"] = {}
        node = node["a"]
    outcome = env.execute("calculate", {"expression": deep})
    assert not outcome.ok and "nested more than" in outcome.observation


def test_nan_payment_is_refused_and_the_state_unchanged():
    domain = get_domain("airline")
    task = next(t for t in domain.tasks("test") if any(a.name == "book_reservation" for a in t.actions))
    good = next(a.arguments for a in task.actions if a.name == "book_reservation")
    store = domain.store("test")
    env = Environment(domain.tools, store)
    before = store.hash()
    template = json.dumps({**good, "payment_methods": [{**good["payment_methods"][0], "amount": 12345}]})
    for raw in ("NaN", "Infinity", "-Infinity", "1e999"):
        outcome = env.execute("book_reservation", template.replace("12345", raw))
        assert not outcome.ok and outcome.observation.startswith("Error:"), outcome
        assert outcome.arguments is None  # the rejected value is not even kept in the record
    for value in (float("nan"), float("inf")):  # an agent that passes parsed arguments
        args = {**good, "payment_methods": [{**good["payment_methods"][0], "amount": value}]}
        assert not env.execute("book_reservation", args).ok
    assert store.hash() == before
    assert env.execute("book_reservation", json.dumps(good)).ok  # the same call with a real amount works


def test_a_json_error_reads_plainly():
    domain = get_domain("retail")
    env = Environment(domain.tools, domain.store("test"))
    outcome = env.execute("calculate", '{"expression": "1+')
    assert outcome.observation.startswith("Error: arguments for calculate are rejected: not valid JSON")
    assert "at at" not in outcome.observation and "column" in outcome.observation


@pytest.mark.parametrize("expression, words", [
    ("(-8)**0.5", "not a real number"), ("1e308*10", "too large"), ("1e308+1e308", "too large"),
    ("9**64", "too large"), ("2**64*2**64*2**64", "too large"),
])
def test_calculate_never_returns_complex_or_infinite(expression, words):
    with pytest.raises(ToolError, match=words):
        safe_arithmetic(expression)
    assert safe_arithmetic("(120 + 35.5) * 0.9") == pytest.approx(139.95)
    assert math.isfinite(safe_arithmetic("2**0.5"))


def test_calculate_overflow_is_a_domain_error_not_internal():
    domain = get_domain("retail")
    env = Environment(domain.tools, domain.store("test"))
    outcome = env.execute("calculate", json.dumps({"expression": "1e308*10"}))
    assert not outcome.ok and outcome.error == "domain" and "too large" in outcome.observation
