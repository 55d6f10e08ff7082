"""`temo export sft`: TRL conversational rows that load with `datasets` and survive a chat template."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from temo.agents import registry
from temo.cli.app import app
from temo.training.collect import load_collection
from temo.training.export import read_rows
from temo.training.tiny import chat_template, render_with_jinja, row_tools
from training_agents import pesters

runner = CliRunner()


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    registry._AGENTS["pester"] = "training_agents:create_pester"
    try:
        out = tmp_path_factory.mktemp("export") / "col"
        result = runner.invoke(app, ["collect", "--domains", "retail,airline", "--agent", "pester", "--user", "scripted",
                                     "--out", str(out), "--limit", "4", "-q"])
        assert result.exit_code == 0, result.output
    finally:
        registry._AGENTS.pop("pester", None)
    return out


def export(collection, out, *args):
    result = runner.invoke(app, ["export", "sft", str(collection), "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    return result


def renderer(rows):
    """Render through transformers' apply_chat_template (a tokenizer built offline with temo's
    Qwen3-style template) when transformers is installed, else through plain jinja2."""
    try:
        from temo.training.tiny import build_tokenizer

        tok = build_tokenizer(rows, vocab_size=500)
    except ImportError:
        pytest.importorskip("jinja2")
        return lambda row: render_with_jinja(chat_template(), row["messages"], row_tools(row))
    return lambda row: tok.apply_chat_template(row["messages"], tools=row_tools(row), tokenize=False)


def test_rows_are_trl_conversations_with_tools_and_metadata(collection, tmp_path):
    out = tmp_path / "sft.jsonl"
    export(collection, out)
    rows = read_rows(out)
    records = {r.task_id: r for r in load_collection(collection).records}
    assert len(rows) == sum(1 for t in records if not pesters(t))  # interaction-aware by default
    for row in rows:
        record = records[row["task_id"]]
        assert row["selection_rule"] == "interaction-aware" and row["domain"] == record.domain
        assert row["emotion_condition"] == record.emotion.id and row["reward"] == record.reward.reward
        msgs = row["messages"]
        assert msgs[0]["role"] == "system" and msgs[0]["content"].startswith("#")  # the domain policy
        calls = [tc for m in msgs if m["role"] == "assistant" for tc in m.get("tool_calls", [])]
        assert [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls] == \
            [(c.name, c.arguments) for c in record.tool_calls]
        assert all(c["type"] == "function" and c["id"] for c in calls)
        results = [m for m in msgs if m["role"] == "tool"]
        assert [m["tool_call_id"] for m in results] == [c["id"] for c in calls]
        assert [m["content"] for m in results] == [c.result for c in record.tool_calls]
        assert all(m["reasoning_content"].startswith("Step") for m in msgs[2:] if m["role"] == "assistant")
        tools = json.loads(row["tools"])
        assert {t["function"]["name"] for t in tools} >= {c["function"]["name"] for c in calls}
        assert all(t["type"] == "function" and "parameters" in t["function"] for t in tools)


def test_state_only_keeps_the_quitters_and_inline_reasoning_uses_think_blocks(collection, tmp_path):
    out = tmp_path / "naive.jsonl"
    export(collection, out, "--select", "state-only", "--inline-reasoning")
    rows = read_rows(out)
    assert len(rows) == 8 and {r["selection_rule"] for r in rows} == {"state-only"}
    assert any(r["termination"] == "user_unsatisfied" for r in rows)
    for row in rows:
        for m in row["messages"][2:]:
            if m["role"] == "assistant":
                assert "reasoning_content" not in m and m["content"].startswith("<think>\nStep")


def test_jsonl_and_parquet_load_with_datasets_and_render_every_call_and_result(collection, tmp_path):
    datasets = pytest.importorskip("datasets")
    export(collection, tmp_path / "sft.jsonl")
    export(collection, tmp_path / "sft.parquet")
    js = datasets.load_dataset("json", data_files=str(tmp_path / "sft.jsonl"), split="train")
    pq = datasets.load_dataset("parquet", data_files=str(tmp_path / "sft.parquet"), split="train")
    assert len(js) == len(pq) > 0
    for column in ("messages", "tools", "domain", "task_id", "emotion_condition", "reward", "selection_rule"):
        assert column in js.column_names and column in pq.column_names
    raw = read_rows(tmp_path / "sft.jsonl")
    render = renderer(raw)
    for i, row in enumerate(raw):
        text = render(row)
        # Arrow fills absent keys with None; that must not change what a template renders
        assert render(js[i]) == text == render(pq[i])
        calls = {}
        for m in row["messages"]:
            if m["role"] == "assistant":
                for tc in m.get("tool_calls", []):
                    calls[tc["id"]] = tc
                    assert f'{{"name": "{tc["function"]["name"]}", "arguments": {tc["function"]["arguments"]}}}' in text
                if m.get("reasoning_content"):
                    assert f"<think>\n{m['reasoning_content']}\n</think>" in text
            if m["role"] == "tool":
                assert m["tool_call_id"] in calls
                assert f'<tool_response id="{m["tool_call_id"]}">\n{m["content"]}\n</tool_response>' in text
        assert len(calls) == sum(1 for m in row["messages"] if m["role"] == "tool") > 0
        for tool in json.loads(row["tools"]):
            assert json.dumps(tool, ensure_ascii=False) in text


def test_a_dataset_card_is_written_beside_the_data(collection, tmp_path):
    out = tmp_path / "sft.jsonl"
    data = json.loads(export(collection, out, "--json").stdout)
    card = (tmp_path / "sft.jsonl.card.md").read_text()
    stats = json.loads((tmp_path / "sft.jsonl.card.json").read_text())
    assert stats["rows"] == data["rows"] == len(read_rows(out))
    assert sum(stats["domains"].values()) == stats["rows"]
    assert stats["approx_tokens_per_row"]["min"] > 100 and abs(sum(stats["emotion_family_pct"].values()) - 100) < 0.5
    assert stats["source"]["rule"] == "interaction-aware" and "Rows per domain" in card and "load_dataset" in card


def test_export_errors_exit_2(collection, tmp_path):
    failed = tmp_path / "failed"
    result = runner.invoke(app, ["collect", "--domains", "retail", "--agent", "probe:early-stop", "--out", str(failed),
                                 "--limit", "2", "-q"])
    assert result.exit_code == 0, result.output
    empty = runner.invoke(app, ["export", "sft", str(failed), "--out", str(tmp_path / "x.jsonl")])
    assert empty.exit_code == 2 and "nothing to export" in empty.output
    assert not (tmp_path / "x.jsonl").exists()
    missing = runner.invoke(app, ["export", "sft", str(tmp_path / "nothing"), "--out", str(tmp_path / "x.jsonl")])
    assert missing.exit_code == 2 and "no such collection" in missing.output
    bad = runner.invoke(app, ["export", "sft", str(collection), "--out", str(tmp_path / "x.csv"), "--format", "csv"])
    assert bad.exit_code == 2 and "--format" in bad.output
