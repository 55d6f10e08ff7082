"""`temo train sft`: Table 8 defaults, and a tiny Qwen3-shaped model built offline whose loss falls."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from temo.cli.app import app
from temo.training.export import read_rows, write_rows
from temo.training.sft import SFTSettings

runner = CliRunner()


def shorten(row: dict, keep: int = 10) -> dict:
    """A CPU-sized view of an exported row: the first messages (ending on an assistant turn), a short
    system prompt, and the schemas of the tools it calls. Real rows are ~7k tokens; the training
    machinery under test is the same."""
    msgs = row["messages"][:keep]
    while msgs[-1]["role"] != "assistant":
        msgs.pop()
    msgs[0] = {**msgs[0], "content": msgs[0]["content"][:200]}
    called = {tc["function"]["name"] for m in msgs for tc in m.get("tool_calls") or []}
    tools = [t for t in json.loads(row["tools"]) if t["function"]["name"] in called]
    return {**row, "messages": msgs, "tools": json.dumps(tools)}


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    root = tmp_path_factory.mktemp("train")
    result = runner.invoke(app, ["collect", "--domains", "retail", "--agent", "oracle", "--out", str(root / "col"),
                                 "--limit", "3", "-q"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["export", "sft", str(root / "col"), "--out", str(root / "sft.jsonl")])
    assert result.exit_code == 0, result.output
    small = root / "small.jsonl"
    write_rows([shorten(r) for r in read_rows(root / "sft.jsonl")], small)
    return root, small


def test_table8_is_the_default_sft_config():
    pytest.importorskip("trl")
    from trl import SFTConfig

    from temo.training.sft import resolve, sft_config_kwargs

    settings, notes = resolve(SFTSettings())
    config = SFTConfig(**sft_config_kwargs(settings, "/tmp/unused", notes["gradient_accumulation_steps"]))
    assert config.learning_rate == 5e-5 and getattr(config.lr_scheduler_type, "value", config.lr_scheduler_type) == "cosine"
    warmup = getattr(config, "warmup_ratio", None) or config.warmup_steps
    assert warmup == pytest.approx(0.03)
    assert config.num_train_epochs == 3 and config.weight_decay == 0.0 and config.max_grad_norm == 1.0
    assert config.per_device_train_batch_size * config.gradient_accumulation_steps == 32
    assert config.packing is False and config.assistant_only_loss is True and config.gradient_checkpointing is True
    assert config.max_length == 32768


def test_tiny_model_trains_and_its_loss_falls(exported):
    pytest.importorskip("trl")
    root, small = exported
    tiny, out = root / "tiny", root / "ckpt"
    result = runner.invoke(app, ["train", "tiny-model", str(tiny), "--data", str(small), "--hidden", "32"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["train", "sft", str(small), "--model", str(tiny), "--out", str(out), "--max-steps", "6",
                                 "--effective-batch-size", "1", "--learning-rate", "5e-3", "--save-strategy", "no", "-q"])
    assert result.exit_code == 0, result.output
    record = json.loads((out / "temo_sft_config.json").read_text())
    losses = [e["loss"] for e in record["losses"]]
    assert len(losses) == 6 and losses[-1] < losses[0] - 0.3, losses
    settings = record["settings"]
    assert settings["learning_rate"] == 5e-3 and settings["lr_scheduler_type"] == "cosine"
    assert settings["assistant_only_loss"] is True and settings["packing"] is False
    assert record["data"]["rows"] == 3 and len(record["data"]["sha256"]) == 64
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(out)
    assert model.config.model_type == "qwen3"
    assert "<tool_call>" in AutoTokenizer.from_pretrained(out).chat_template


def test_missing_extra_names_the_install_command(exported, monkeypatch):
    import temo.training.sft as sft

    monkeypatch.setattr(sft, "TRAIN_MODULES", ("temo_no_such_module",))
    _, small = exported
    result = runner.invoke(app, ["train", "sft", str(small), "--model", "x", "--out", "y"])
    assert result.exit_code == 2 and "pip install 'temo[train]'" in result.output and "Traceback" not in result.output


def test_bad_training_input_exits_2(exported, tmp_path):
    pytest.importorskip("trl")
    root, small = exported
    unknown = runner.invoke(app, ["train", "sft", str(small), "--model", str(root), "--out", str(tmp_path / "o"),
                                  "--set", "not_a_field=1"])
    assert unknown.exit_code == 2 and "not_a_field" in unknown.output
    missing = runner.invoke(app, ["train", "sft", str(tmp_path / "none.jsonl"), "--model", "x", "--out", str(tmp_path / "o")])
    assert missing.exit_code == 2 and "no such file" in missing.output
