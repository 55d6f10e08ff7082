"""A tiny, randomly initialised Qwen3-shaped model and a word-level tokenizer, built offline.

For smoke tests, benchmarks and the README's end-to-end example: no hub access, a few MB, trains a
few steps on CPU in seconds. The tokenizer's vocabulary is learned from the exported rows rendered
through temo's own Qwen3-style chat template (`data/tiny_chat_template.jinja`), which has
`{% generation %}` markers so SFT can train on assistant tokens only.

    temo train tiny-model runs/tiny --data data/tracer.jsonl
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable, Optional

TEMPLATE_PATH = Path(__file__).with_name("data") / "tiny_chat_template.jinja"
SPECIAL_TOKENS = ["<|endoftext|>", "<unk>", "<|im_start|>", "<|im_end|>", "<think>", "</think>",
                  "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]
_GENERATION_TAGS = re.compile(r"\{%-?\s*(end)?generation\s*-?%\}")


def chat_template() -> str:
    return TEMPLATE_PATH.read_text(encoding="utf-8")


def render_with_jinja(template: str, messages: list[dict[str, Any]], tools: Optional[list[dict[str, Any]]] = None,
                      add_generation_prompt: bool = False) -> str:
    """Render a chat template with plain jinja2 (no transformers): the generation markers are dropped."""
    import jinja2

    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"])
    env.filters["tojson"] = lambda value, indent=None: json.dumps(value, ensure_ascii=False, indent=indent)
    return env.from_string(_GENERATION_TAGS.sub("", template)).render(
        messages=messages, tools=tools, add_generation_prompt=add_generation_prompt)


def row_tools(row: dict[str, Any]) -> list[dict[str, Any]]:
    tools = row.get("tools")
    return json.loads(tools) if isinstance(tools, str) else list(tools or [])


def build_tokenizer(rows: Iterable[dict[str, Any]], vocab_size: int = 8000):
    """A word-level fast tokenizer whose vocabulary covers the rows as the template renders them."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    template = chat_template()
    texts = [render_with_jinja(template, r["messages"], row_tools(r)) for r in rows]
    core = Tokenizer(models.WordLevel(unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    core.decoder = decoders.WordPiece(prefix="##")  # joins words with spaces
    trainer = trainers.WordLevelTrainer(vocab_size=vocab_size, min_frequency=1, special_tokens=SPECIAL_TOKENS)
    core.train_from_iterator(texts + [template], trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=core, eos_token="<|im_end|>", pad_token="<|endoftext|>", unk_token="<unk>",
        additional_special_tokens=SPECIAL_TOKENS[2:],
    )
    tokenizer.chat_template = template
    return tokenizer


def build_model(vocab_size: int, pad_id: int, eos_id: int, seed: int = 0, hidden: int = 64, layers: int = 2):
    """A randomly initialised Qwen3ForCausalLM with tiny sizes."""
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    config = Qwen3Config(
        vocab_size=vocab_size, hidden_size=hidden, intermediate_size=2 * hidden, num_hidden_layers=layers,
        num_attention_heads=4, num_key_value_heads=2, head_dim=hidden // 4, max_position_embeddings=32768,
        tie_word_embeddings=True, pad_token_id=pad_id, eos_token_id=eos_id, bos_token_id=None,
    )
    torch.manual_seed(seed)
    model = Qwen3ForCausalLM(config)
    model.generation_config.eos_token_id = eos_id
    model.generation_config.pad_token_id = pad_id
    return model


def build_tiny(out: Path, rows: list[dict[str, Any]], seed: int = 0, hidden: int = 64, layers: int = 2) -> Path:
    """Build and save (model + tokenizer) a tiny model under ``out``; returns ``out``."""
    tokenizer = build_tokenizer(rows)
    model = build_model(len(tokenizer), tokenizer.pad_token_id, tokenizer.eos_token_id, seed, hidden, layers)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out
