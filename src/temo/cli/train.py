"""`temo train sft` (TRL SFTTrainer with the paper's Table 8 defaults) and `temo train tiny-model`."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from .common import fail, print_json

app = typer.Typer(no_args_is_help=True, add_completion=False)


def _parse_set(values: list[str]) -> dict:
    extra = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            fail(f"--set: expected KEY=VALUE (an SFTConfig field), got {item!r}")
        try:
            extra[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            extra[key.strip()] = raw  # a plain string
    return extra


def _missing_extra() -> None:
    from ..training.sft import MissingExtra, check_extra

    try:
        check_extra()
    except MissingExtra as e:
        fail(str(e))


@app.command("sft")
def train_sft(
    data: Path = typer.Argument(..., help="Exported trajectories (.jsonl or .parquet from `temo export sft`)."),
    model: str = typer.Option(..., "--model", help="Model to fine-tune: a local directory or a hub name (e.g. Qwen/Qwen3-8B)."),
    out: Path = typer.Option(..., "--out", help="Directory for the checkpoint and temo_sft_config.json."),
    learning_rate: float = typer.Option(5e-5, "--learning-rate", help="Table 8: 5e-5."),
    scheduler: str = typer.Option("cosine", "--scheduler", help="Learning-rate schedule (Table 8: cosine)."),
    warmup_ratio: float = typer.Option(0.03, "--warmup-ratio", help="Table 8: 0.03."),
    epochs: float = typer.Option(3.0, "--epochs", help="Table 8: 3."),
    effective_batch_size: int = typer.Option(32, "--effective-batch-size", min=1, help="Per-device batch x devices x accumulation (Table 8: 32)."),
    per_device_batch_size: int = typer.Option(1, "--per-device-batch-size", min=1, help="Sequences per device per step; accumulation makes up the rest."),
    weight_decay: float = typer.Option(0.0, "--weight-decay", help="Table 8: 0."),
    max_grad_norm: float = typer.Option(1.0, "--max-grad-norm", help="Table 8: 1.0."),
    max_length: int = typer.Option(32768, "--max-length", min=0, help="Longest sequence in tokens (paper: 32,768; 0 = no limit)."),
    max_steps: int = typer.Option(-1, "--max-steps", help="Stop after N optimizer steps (-1: train the full epochs)."),
    packing: bool = typer.Option(False, "--packing/--no-packing", help="Table 8: no packing."),
    assistant_only: bool = typer.Option(True, "--assistant-only-loss/--full-loss", help="Loss on assistant turns only (Table 8 setting of the paper's TRL run)."),
    gradient_checkpointing: bool = typer.Option(True, "--gradient-checkpointing/--no-gradient-checkpointing"),
    bf16: Optional[bool] = typer.Option(None, "--bf16/--no-bf16", help="Default: on where the GPU supports bf16."),
    optim: Optional[str] = typer.Option(None, "--optim", help="Default: paged_adamw_8bit with bitsandbytes on a GPU (Table 8), else adamw_torch."),
    gguf_file: Optional[str] = typer.Option(None, "--gguf-file", help="Load the weights from this GGUF file inside --model (de-quantised; needs `pip install gguf`)."),
    chat_template: Optional[Path] = typer.Option(None, "--chat-template", help="A Jinja chat template file to use instead of the tokenizer's (needed for assistant-only loss when TRL has no training variant of the model's)."),
    seed: int = typer.Option(0, "--seed"),
    logging_steps: int = typer.Option(1, "--logging-steps", min=1),
    save_strategy: str = typer.Option("epoch", "--save-strategy", help="no | steps | epoch (the final model is always saved)."),
    set_: list[str] = typer.Option([], "--set", help="Any other SFTConfig field as KEY=VALUE (JSON value), repeatable, e.g. --set dataloader_num_workers=2."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Fine-tune a model on exported trajectories with TRL's SFTTrainer, Table 8 as the defaults.

    The checkpoint, its tokenizer and temo_sft_config.json (every setting, what was decided from the
    hardware, library versions, the data file's hash, the loss curve) are written to --out.

    Examples:

      temo train sft data/tracer.jsonl --model Qwen/Qwen3-8B --out ckpt/tracer-8b

      temo train sft data/tracer.jsonl --model runs/tiny --out runs/tiny-sft --max-steps 5 --effective-batch-size 2
    """
    _missing_extra()
    from ..training.sft import SFTSettings, TrainError, train

    if chat_template is not None and not chat_template.is_file():
        fail(f"--chat-template: {chat_template} does not exist")
    if out.exists() and not out.is_dir():
        fail(f"--out: {out} is a file; give a directory")
    settings = SFTSettings(
        learning_rate=learning_rate, lr_scheduler_type=scheduler, warmup_ratio=warmup_ratio, num_train_epochs=epochs,
        effective_batch_size=effective_batch_size, per_device_train_batch_size=per_device_batch_size,
        weight_decay=weight_decay, max_grad_norm=max_grad_norm, packing=packing, assistant_only_loss=assistant_only,
        gradient_checkpointing=gradient_checkpointing, bf16=bf16, optim=optim, max_length=max_length or None,
        max_steps=max_steps, seed=seed, logging_steps=logging_steps, save_strategy=save_strategy,
        chat_template_path=str(chat_template) if chat_template else None, extra=_parse_set(set_),
    )
    try:
        record = train(data, model, out, settings, progress=not quiet, gguf_file=gguf_file)
    except TrainError as e:
        fail(str(e))
    losses = record["losses"]
    curve = f"loss {losses[0]['loss']:.4f} -> {losses[-1]['loss']:.4f}" if losses else "no loss logged"
    typer.echo(f"\ntrained {record['global_steps']} steps on {record['data']['rows_trained']} trajectories in "
               f"{record['train_seconds']} s ({curve}); checkpoint and temo_sft_config.json in {out}")


@app.command("tiny-model")
def tiny_model(
    out: Path = typer.Argument(..., help="Directory to write the model and tokenizer to."),
    data: Path = typer.Option(..., "--data", help="Exported trajectories whose text the tokenizer's vocabulary should cover."),
    hidden: int = typer.Option(64, "--hidden", min=8, help="Hidden size (multiple of 4)."),
    layers: int = typer.Option(2, "--layers", min=1),
    seed: int = typer.Option(0, "--seed"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Build a tiny randomly initialised Qwen3-shaped model and a word-level tokenizer offline (no
    hub access), with temo's Qwen3-style tool-calling chat template: for smoke tests of
    `temo train sft` and the pipeline, not for real use."""
    _missing_extra()
    from ..training.export import read_rows
    from ..training.tiny import build_tiny

    if hidden % 4:
        fail("--hidden: must be a multiple of 4 (4 attention heads)")
    try:
        rows = read_rows(data)
    except (OSError, ValueError) as e:
        fail(f"--data: cannot read {data} ({e})")
    if not rows:
        fail(f"--data: {data} holds no rows")
    build_tiny(out, rows, seed=seed, hidden=hidden, layers=layers)
    if as_json:
        print_json({"model": str(out), "rows": len(rows)})
    else:
        typer.echo(f"tiny model and tokenizer in {out}")


@app.command("to-gguf")
def to_gguf(
    checkpoint: Path = typer.Argument(..., help="A fine-tuned checkpoint directory (from `temo train sft`)."),
    source: Path = typer.Option(..., "--source", help="The GGUF file the model came from: its metadata and tokenizer are copied."),
    out: Path = typer.Option(..., "--out", help="The GGUF file to write."),
    half: bool = typer.Option(False, "--f16/--f32", help="Store matrices as F16 (default F32)."),
) -> None:
    """Write a fine-tuned llama-architecture checkpoint (e.g. SmolLM2) back into GGUF, so llama.cpp
    (llama-server, llama-cpp-python) can serve it to `temo run --agent llm`. Needs `pip install gguf`."""
    _missing_extra()
    import importlib.util

    if importlib.util.find_spec("gguf") is None:
        fail("to-gguf needs the gguf package: pip install gguf")
    if not source.is_file():
        fail(f"--source: {source} does not exist")
    if not (checkpoint / "config.json").is_file():
        fail(f"{checkpoint}: not a checkpoint directory (no config.json)")
    from ..training.gguf_export import write_gguf

    try:
        write_gguf(checkpoint, source, out, half=half)
    except (ValueError, KeyError) as e:
        fail(f"{checkpoint}: {e}")
    typer.echo(f"wrote {out} ({out.stat().st_size / 1e6:.0f} MB)")
