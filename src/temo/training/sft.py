"""Supervised fine-tuning on exported trajectories with TRL's SFTTrainer.

The defaults are the paper's Table 8: learning rate 5e-5, cosine schedule, warmup ratio 0.03,
3 epochs, effective batch 32, weight decay 0, max gradient norm 1.0, no packing, loss on assistant
turns only, gradient checkpointing, bf16 (+ tf32) where the hardware has it, paged AdamW 8-bit
where bitsandbytes and a GPU are present. Every value can be overridden; anything else SFTConfig
accepts goes through ``extra``. torch, transformers, trl and datasets are imported only here and
only when training starts (the optional extra ``temo[train]``).
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

CONFIG_FILE = "temo_sft_config.json"
TRAIN_MODULES = ("torch", "transformers", "trl", "datasets")


class MissingExtra(RuntimeError):
    """The optional training dependencies are not installed."""


class TrainError(ValueError):
    """Bad training input (file, model, settings): one line for the user."""


def check_extra() -> None:
    import importlib.util

    missing = [m for m in TRAIN_MODULES if importlib.util.find_spec(m) is None]
    if missing:
        raise MissingExtra(f"training needs {', '.join(missing)}: pip install 'temo[train]' "
                           "(install the CPU build of torch first on a machine without a GPU: pip install torch==2.13.0)")


@dataclass
class SFTSettings:
    """Table 8 as defaults; ``None`` means "decide from the hardware" (recorded once decided)."""

    learning_rate: float = 5e-5
    lr_scheduler_type: str = "cosine"
    warmup_ratio: float = 0.03
    num_train_epochs: float = 3.0
    effective_batch_size: int = 32
    per_device_train_batch_size: int = 1
    weight_decay: float = 0.0
    max_grad_norm: float = 1.0
    packing: bool = False
    assistant_only_loss: bool = True
    gradient_checkpointing: bool = True
    bf16: Optional[bool] = None  # where the GPU supports it
    tf32: Optional[bool] = None  # on GPUs that have it
    optim: Optional[str] = None  # paged_adamw_8bit with bitsandbytes + GPU, else adamw_torch
    max_length: Optional[int] = 32768  # the paper's Qwen3 setting
    max_steps: int = -1
    seed: int = 0
    logging_steps: int = 1
    save_strategy: str = "epoch"
    chat_template_path: Optional[str] = None
    extra: dict[str, Any] = field(default_factory=dict)  # any other SFTConfig field


def world_size() -> int:
    try:
        return max(1, int(os.environ.get("WORLD_SIZE", "1")))
    except ValueError:
        return 1


def resolve(settings: SFTSettings) -> tuple[SFTSettings, dict[str, Any]]:
    """Fill the hardware-dependent choices; returns (settings, notes on what was decided and why)."""
    import importlib.util

    import torch

    notes: dict[str, Any] = {}
    cuda = torch.cuda.is_available()
    notes["device"] = torch.cuda.get_device_name(0) if cuda else "cpu"
    s = dataclasses.replace(settings, extra=dict(settings.extra))
    if s.bf16 is None:
        s.bf16 = bool(cuda and torch.cuda.is_bf16_supported())
    if s.tf32 is None:
        s.tf32 = bool(cuda and torch.cuda.get_device_capability(0)[0] >= 8)
    if s.optim is None:
        if cuda and importlib.util.find_spec("bitsandbytes") is not None:
            s.optim = "paged_adamw_8bit"
        else:
            s.optim = "adamw_torch"
            notes["optim"] = "paged_adamw_8bit (Table 8) needs bitsandbytes and a GPU; using adamw_torch"
    per_step = s.per_device_train_batch_size * world_size()
    accumulation = max(1, math.ceil(s.effective_batch_size / per_step))
    if accumulation * per_step != s.effective_batch_size:
        notes["effective_batch_size"] = (f"{s.effective_batch_size} is not a multiple of {per_step} "
                                         f"(per device x devices); using {accumulation * per_step}")
    notes["gradient_accumulation_steps"] = accumulation
    return s, notes


def sft_config_kwargs(s: SFTSettings, out: Path, accumulation: int) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "output_dir": str(out),
        "learning_rate": s.learning_rate,
        "lr_scheduler_type": s.lr_scheduler_type,
        "num_train_epochs": s.num_train_epochs,
        "per_device_train_batch_size": s.per_device_train_batch_size,
        "gradient_accumulation_steps": accumulation,
        "weight_decay": s.weight_decay,
        "max_grad_norm": s.max_grad_norm,
        "packing": s.packing,
        "assistant_only_loss": s.assistant_only_loss,
        "bf16": bool(s.bf16),
        "tf32": bool(s.tf32) if s.tf32 else None,
        "optim": s.optim,
        "max_length": s.max_length,
        "max_steps": s.max_steps,
        "seed": s.seed,
        "logging_steps": s.logging_steps,
        "save_strategy": s.save_strategy,
        "report_to": "none",
        "chat_template_path": s.chat_template_path,
    }
    names = sft_config_fields()
    # transformers 5 folded warmup_ratio into warmup_steps (a float below 1 is a ratio)
    kwargs["warmup_ratio" if "warmup_ratio" in names else "warmup_steps"] = s.warmup_ratio
    # newer transformers renamed gradient_checkpointing (the old name warns that it will go)
    kwargs["activation_checkpointing" if "activation_checkpointing" in names else "gradient_checkpointing"] = \
        s.gradient_checkpointing
    if "include_num_input_tokens_seen" in names:
        kwargs["include_num_input_tokens_seen"] = True
    kwargs.update(s.extra)
    # max_length None means "no limit" (TRL's own default would be 1024); other Nones: library default
    return {k: v for k, v in kwargs.items() if v is not None or k == "max_length"}


def sft_config_fields() -> set[str]:
    from trl import SFTConfig

    return {f.name for f in dataclasses.fields(SFTConfig)}


def check_extra_fields(extra: dict[str, Any]) -> None:
    names = sft_config_fields()
    unknown = [k for k in extra if k not in names]
    if unknown:
        raise TrainError(f"--set: SFTConfig has no field {', '.join(unknown)}")


def load_rows(path: Path):
    """The exported file as a datasets.Dataset with the two columns TRL trains on."""
    from datasets import load_dataset

    path = Path(path)
    if not path.is_file():
        raise TrainError(f"{path}: no such file (export one with `temo export sft DIR --out FILE`)")
    kind = "parquet" if path.suffix == ".parquet" else "json"
    try:
        ds = load_dataset(kind, data_files=str(path), split="train")
    except Exception as e:
        raise TrainError(f"{path}: cannot be read as {kind} ({' '.join(str(e).split())[:300]})") from e
    if "messages" not in ds.column_names:
        raise TrainError(f"{path}: has no `messages` column; is it from `temo export sft`?")
    if len(ds) == 0:
        raise TrainError(f"{path}: holds no rows")
    return ds.select_columns([c for c in ("messages", "tools") if c in ds.column_names])


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def load_model(model: str, dtype, gguf_file: Optional[str] = None):
    """(tokenizer, model) from a directory or hub name; with ``gguf_file``, from a GGUF file in it
    (transformers de-quantises the weights to plain floats, so the result trains and saves like any
    checkpoint)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    extra = {"gguf_file": gguf_file} if gguf_file else {}
    tokenizer = AutoTokenizer.from_pretrained(model, **extra)
    lm = AutoModelForCausalLM.from_pretrained(model, dtype=dtype, **extra)
    if gguf_file:  # the weights are de-quantised floats now; nothing about them is GGUF any more
        lm.hf_quantizer = None
        if hasattr(lm.config, "quantization_config"):
            del lm.config.quantization_config
        if hasattr(lm, "is_quantized"):
            lm.is_quantized = False
    return tokenizer, lm


def train(data: Path, model: str, out: Path, settings: SFTSettings, progress: bool = True,
          gguf_file: Optional[str] = None) -> dict[str, Any]:
    """Fine-tune ``model`` (a local path or hub name) on ``data``; saves the model and
    ``temo_sft_config.json`` (settings, decisions, versions, data hash, loss curve) under ``out``."""
    check_extra()
    import torch
    import transformers
    import trl
    from trl import SFTConfig, SFTTrainer

    check_extra_fields(settings.extra)
    dataset = load_rows(data)
    resolved, notes = resolve(settings)
    try:
        dtype = torch.bfloat16 if resolved.bf16 else torch.float32
        tokenizer, lm = load_model(model, dtype, gguf_file)
        if resolved.chat_template_path is None and not getattr(tokenizer, "chat_template", None):
            raise TrainError(f"--model {model}: its tokenizer has no chat template; pass --chat-template FILE")
    except TrainError:
        raise
    except (OSError, ValueError) as e:
        raise TrainError(f"--model {model}: cannot load ({' '.join(str(e).split())[:300]})") from e
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    kwargs = sft_config_kwargs(resolved, out, notes["gradient_accumulation_steps"])
    if not progress:
        kwargs.setdefault("disable_tqdm", True)
    record: dict[str, Any] = {
        "schema_version": 1,
        "data": {"file": str(data), "sha256": _sha256(Path(data)), "rows": len(dataset)},
        "model": model,
        "gguf_file": gguf_file,
        "settings": dataclasses.asdict(resolved),
        "decisions": notes,
        "sft_config": kwargs,
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__, "trl": trl.__version__},
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    (out / CONFIG_FILE).write_text(json.dumps(record, indent=2, default=str) + "\n", encoding="utf-8")
    t0 = time.perf_counter()
    if not progress:
        import datasets
        from transformers.trainer_callback import PrinterCallback

        datasets.disable_progress_bars()
    trainer = SFTTrainer(model=lm, args=SFTConfig(**kwargs), train_dataset=dataset, processing_class=tokenizer)
    if not progress:
        trainer.remove_callback(PrinterCallback)  # the loss curve is in temo_sft_config.json
    kept = len(trainer.train_dataset)
    record["data"]["rows_trained"] = kept
    if kept == 0:
        raise TrainError(f"{data}: no row has assistant tokens within --max-length {resolved.max_length} "
                         "(TRL drops fully masked rows); raise --max-length")
    if kept < len(dataset):
        notes["dropped_rows"] = f"{len(dataset) - kept} rows had no assistant token within max_length and were dropped"
    result = trainer.train()
    trainer.save_model(str(out))
    tokenizer.save_pretrained(str(out))
    losses = [{"step": e["step"], "loss": e["loss"]} for e in trainer.state.log_history if "loss" in e]
    record.update({
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "train_seconds": round(time.perf_counter() - t0, 2),
        "global_steps": trainer.state.global_step,
        "train_loss": result.training_loss,
        "losses": losses,
        "train_tokens": int(getattr(trainer.state, "num_input_tokens_seen", 0) or 0),
    })
    (out / CONFIG_FILE).write_text(json.dumps(record, indent=2, default=str) + "\n", encoding="utf-8")
    return record
