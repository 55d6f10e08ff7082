"""Write a fine-tuned llama-architecture checkpoint back into GGUF, so llama.cpp can serve it.

transformers loads GGUF weights (de-quantised) for training; this goes the other way for the
architecture SmolLM2 uses: the source GGUF's metadata (hyper-parameters, tokenizer, chat template)
is copied as is, and every tensor is replaced by the fine-tuned one in F32 (F16 with ``half``).
The query/key projections are re-interleaved the way llama.cpp stores rotary dimensions (the
inverse of what the loader did). Needs the `gguf` package (pip install gguf).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

_PER_LAYER = {
    "attn_norm": "input_layernorm", "attn_q": "self_attn.q_proj", "attn_k": "self_attn.k_proj",
    "attn_v": "self_attn.v_proj", "attn_output": "self_attn.o_proj", "ffn_norm": "post_attention_layernorm",
    "ffn_gate": "mlp.gate_proj", "ffn_up": "mlp.up_proj", "ffn_down": "mlp.down_proj",
}
_SKIP_KEYS = {"general.architecture", "general.file_type", "general.quantization_version"}


def hf_name(gguf_name: str) -> str:
    """The transformers parameter name of a llama GGUF tensor name."""
    if gguf_name == "token_embd.weight":
        return "model.embed_tokens.weight"
    if gguf_name == "output_norm.weight":
        return "model.norm.weight"
    if gguf_name == "output.weight":
        return "lm_head.weight"
    parts = gguf_name.split(".")
    if len(parts) == 4 and parts[0] == "blk" and parts[2] in _PER_LAYER:
        return f"model.layers.{parts[1]}.{_PER_LAYER[parts[2]]}.{parts[3]}"
    raise ValueError(f"no transformers name for GGUF tensor {gguf_name!r} (only llama checkpoints are supported)")


def interleave_rotary(weight, heads: int):
    """transformers keeps each head's rotary halves apart ([x0..x31, y0..y31]); llama.cpp wants
    the pairs side by side ([x0, y0, x1, y1, ...]). Rows are output features."""
    rows, cols = weight.shape
    half = rows // heads // 2
    return weight.reshape(heads, 2, half, cols).swapaxes(1, 2).reshape(rows, cols)


def _field_value(field) -> Any:
    return field.contents()


def write_gguf(checkpoint: Path | str, source_gguf: Path | str, out: Path | str, half: bool = False) -> Path:
    import gguf
    import numpy as np
    from transformers import AutoModelForCausalLM

    reader = gguf.GGUFReader(str(source_gguf))
    arch = _field_value(reader.fields["general.architecture"])
    if arch != "llama":
        raise ValueError(f"{source_gguf}: architecture {arch!r}; only llama is supported")
    heads = int(_field_value(reader.fields["llama.attention.head_count"]))
    kv_heads = int(_field_value(reader.fields["llama.attention.head_count_kv"]))
    model = AutoModelForCausalLM.from_pretrained(str(checkpoint))
    state = {k: v.detach().float().cpu().numpy() for k, v in model.state_dict().items()}
    writer = gguf.GGUFWriter(str(out), arch="llama")
    for name, field in reader.fields.items():
        if name.startswith("GGUF.") or name in _SKIP_KEYS:
            continue
        vtype = field.types[0]
        sub = field.types[-1] if vtype == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(name, _field_value(field), vtype, sub_type=sub)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16 if half else gguf.LlamaFileType.ALL_F32)
    for tensor in reader.tensors:
        key = hf_name(tensor.name)
        if key not in state and key == "lm_head.weight":
            key = "model.embed_tokens.weight"  # tied embeddings
        weight = state[key]
        if tensor.name.endswith("attn_q.weight"):
            weight = interleave_rotary(weight, heads)
        elif tensor.name.endswith("attn_k.weight"):
            weight = interleave_rotary(weight, kv_heads)
        dtype = np.float16 if half and weight.ndim == 2 else np.float32
        writer.add_tensor(tensor.name, np.ascontiguousarray(weight.astype(dtype)))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return Path(out)
