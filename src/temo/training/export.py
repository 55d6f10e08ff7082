"""Selected trajectories as rows of TRL's conversational format, written as JSONL or Parquet.

One row per trajectory:

- ``messages``: the conversation in OpenAI chat shape. The system message is the domain policy (the
  prompt the agent saw); assistant turns carry ``tool_calls`` (OpenAI function format, ``arguments``
  as the JSON text the agent produced) and the agent's reasoning as ``reasoning_content``; tool
  results are ``role: tool`` messages with the ``tool_call_id`` they answer. With
  ``inline_reasoning`` the reasoning is written into the content as ``<think>...</think>`` instead,
  the form Qwen3-style chat templates parse.
- ``tools``: the domain's tool schemas (``{"type": "function", "function": {...}}``) as one JSON
  string. TRL's SFTTrainer decodes a string ``tools`` column itself; a JSON string keeps each
  domain's schemas exact, where a column of nested structs would be widened by Arrow to the union of
  every tool's parameters (nulls included) across domains.
- metadata: domain, task_id, arm, emotion condition, fine emotion and family, reward, termination,
  the selection rule that kept the row, and the run directory it came from.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Optional

from ..core import EpisodeRecord, Message
from ..core.taxonomy import FAMILY_OF

FORMATS = ("jsonl", "parquet")


def think_block(reasoning: str) -> str:
    return f"<think>\n{reasoning.strip()}\n</think>\n\n"


def message_row(message: Message, inline_reasoning: bool = False) -> dict[str, Any]:
    """One chat message in the shape chat templates and TRL read."""
    row: dict[str, Any] = {"role": message.role, "content": message.content or ""}
    if message.role == "assistant":
        if message.reasoning:
            if inline_reasoning:
                row["content"] = think_block(message.reasoning) + row["content"]
            else:
                row["reasoning_content"] = message.reasoning
        if message.tool_calls:
            row["tool_calls"] = [
                {"id": tc.id, "type": "function", "function": {"name": tc.function.name, "arguments": tc.function.arguments}}
                for tc in message.tool_calls
            ]
    elif message.role == "tool":
        row["tool_call_id"] = message.tool_call_id or ""
        if message.name:
            row["name"] = message.name
    return row


def trajectory_row(
    record: EpisodeRecord, tools_json: str, rule: str, run: str = "", inline_reasoning: bool = False,
) -> dict[str, Any]:
    reward = record.reward
    return {
        "messages": [message_row(m, inline_reasoning) for m in record.messages],
        "tools": tools_json,
        "domain": record.domain,
        "task_id": record.task_id,
        "arm": record.arm,
        "emotion_condition": record.emotion.id,
        "emotion": record.emotion.emotion,
        "emotion_family": FAMILY_OF[record.emotion.emotion],
        "reward": reward.reward if reward else None,
        "state_match": bool(reward and reward.state_match),
        "termination": record.termination,
        "selection_rule": rule,
        "run": run,
    }


def domain_tools_json(domain: str) -> str:
    from ..domains import get_domain

    return json.dumps(get_domain(domain).tool_schemas(), ensure_ascii=False, sort_keys=True)


def build_rows(records: Iterable[EpisodeRecord], rule: str, run: str = "", inline_reasoning: bool = False) -> list[dict[str, Any]]:
    tools: dict[str, str] = {}
    rows = []
    for record in records:
        if record.domain not in tools:
            tools[record.domain] = domain_tools_json(record.domain)
        rows.append(trajectory_row(record, tools[record.domain], rule, run, inline_reasoning))
    return rows


def _arrow_schema():
    import pyarrow as pa

    call = pa.struct([("id", pa.string()), ("type", pa.string()),
                      ("function", pa.struct([("name", pa.string()), ("arguments", pa.string())]))])
    message = pa.struct([("role", pa.string()), ("content", pa.string()), ("reasoning_content", pa.string()),
                         ("tool_calls", pa.list_(call)), ("tool_call_id", pa.string()), ("name", pa.string())])
    return pa.schema([
        ("messages", pa.list_(message)), ("tools", pa.string()), ("domain", pa.string()), ("task_id", pa.string()),
        ("arm", pa.string()), ("emotion_condition", pa.string()), ("emotion", pa.string()),
        ("emotion_family", pa.string()), ("reward", pa.int64()), ("state_match", pa.bool_()),
        ("termination", pa.string()), ("selection_rule", pa.string()), ("run", pa.string()),
    ])


class ExportError(RuntimeError):
    pass


def write_rows(rows: list[dict[str, Any]], path: Path, fmt: Optional[str] = None) -> str:
    """Write rows as JSONL or Parquet (by ``fmt`` or the file suffix); returns the format used."""
    path = Path(path)
    fmt = fmt or ("parquet" if path.suffix == ".parquet" else "jsonl")
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        if fmt == "jsonl":
            with tmp.open("w", encoding="utf-8") as fh:
                for row in rows:
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        else:
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError as e:
                raise ExportError("Parquet needs pyarrow: pip install 'temo[train]' (or pip install pyarrow)") from e
            pq.write_table(pa.Table.from_pylist(rows, schema=_arrow_schema()), tmp)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return fmt


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of an exported file (JSONL or Parquet), for the card and for checks."""
    path = Path(path)
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
