"""A dataset card written beside every export: where the rows came from, how they were selected,
counts per domain, conversation lengths, and the emotion mix. Markdown for people, JSON for tools."""
from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path
from typing import Any, Optional

from .tables import approx_tokens


def row_tokens(row: dict[str, Any]) -> int:
    """Approximate tokens of one row's conversation (content, reasoning, tool calls; tools excluded)."""
    n = 0
    for m in row["messages"]:
        n += approx_tokens(m.get("content")) + approx_tokens(m.get("reasoning_content"))
        for tc in m.get("tool_calls") or []:
            n += approx_tokens(tc["function"]["name"]) + approx_tokens(tc["function"]["arguments"])
    return n


def _spread(values: list[int]) -> dict[str, Any]:
    if not values:
        return {"min": None, "mean": None, "median": None, "p95": None, "max": None}
    ordered = sorted(values)
    return {"min": ordered[0], "mean": round(statistics.fmean(ordered), 1), "median": statistics.median(ordered),
            "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], "max": ordered[-1]}


def card_data(rows: list[dict[str, Any]], source: dict[str, Any]) -> dict[str, Any]:
    per_domain = Counter(r["domain"] for r in rows)
    tokens = [row_tokens(r) for r in rows]
    tools_tokens = {r["domain"]: approx_tokens(r["tools"]) for r in rows}
    n = len(rows)

    def share(key: str) -> dict[str, float]:
        return {k: round(100 * c / n, 1) for k, c in Counter(r[key] for r in rows).most_common()} if n else {}

    return {
        "rows": n,
        "source": source,
        "domains": dict(sorted(per_domain.items())),
        "messages_per_row": _spread([len(r["messages"]) for r in rows]),
        "assistant_tool_calls_per_row": _spread([sum(len(m.get("tool_calls") or []) for m in r["messages"]) for r in rows]),
        "approx_tokens_per_row": _spread(tokens),
        "approx_tokens_of_tools_schema": dict(sorted(tools_tokens.items())),
        "emotion_family_pct": share("emotion_family"),
        "emotion_pct": share("emotion"),
        "termination": dict(Counter(r["termination"] for r in rows)),
        "reward": {str(k): v for k, v in Counter(r["reward"] for r in rows).items()},
    }


def _table(head: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join("–" if v is None else str(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def card_markdown(data: dict[str, Any], data_file: str) -> str:
    src = data["source"]
    spread_rows = [[name, *(data[key][k] for k in ("min", "mean", "median", "p95", "max"))]
                   for name, key in (("messages", "messages_per_row"), ("tool calls", "assistant_tool_calls_per_row"),
                                     ("tokens (approx.)", "approx_tokens_per_row"))]
    parts = [
        f"# Dataset card: {data_file}",
        "",
        f"{data['rows']} trajectories in TRL's conversational format (`messages` + `tools`), one per row, "
        f"selected from the collection `{src.get('collection', '?')}` with the rule **{src.get('rule')}** "
        f"(preset: {src.get('preset') or 'none'}; per-domain cap: {src.get('cap') or 'none'}; sample seed {src.get('seed')}).",
        "",
        f"- agent: `{src.get('agent')}`; user: `{src.get('user')}`; split: {src.get('split')}; "
        f"interaction-step limit: {src.get('max_turns')}",
        f"- reasoning: {'inlined as <think>...</think> in the content' if src.get('inline_reasoning') else 'kept as `reasoning_content` on assistant turns'}",
        "- tool-call arguments are the JSON text the agent produced; `tools` is a JSON string (TRL decodes it)",
        "- token counts are approximate (words and punctuation marks), not a model's tokenizer",
        "",
        "## Rows per domain",
        "",
        _table(["domain", "rows"], [[d, c] for d, c in data["domains"].items()]),
        "",
        "## Lengths per row",
        "",
        _table(["", "min", "mean", "median", "p95", "max"], spread_rows),
        "",
        "## Emotion mix (% of rows)",
        "",
        _table(["family", "%"], [[k, v] for k, v in data["emotion_family_pct"].items()]),
        "",
        _table(["fine emotion", "%"], [[k, v] for k, v in data["emotion_pct"].items()]),
        "",
        "## Load it",
        "",
        "```python",
        "from datasets import load_dataset",
        f"ds = load_dataset(\"{'parquet' if data_file.endswith('.parquet') else 'json'}\", data_files=\"{data_file}\", split=\"train\")",
        "```",
        "",
    ]
    return "\n".join(parts)


def card_paths(data_path: Path) -> tuple[Path, Path]:
    data_path = Path(data_path)  # data.jsonl -> data.jsonl.card.md, so a .parquet beside it keeps its own card
    return data_path.with_name(f"{data_path.name}.card.md"), data_path.with_name(f"{data_path.name}.card.json")


def write_card(rows: list[dict[str, Any]], data_path: Path, source: dict[str, Any]) -> tuple[Path, Optional[Path]]:
    data = card_data(rows, source)
    md, js = card_paths(data_path)
    md.write_text(card_markdown(data, Path(data_path).name), encoding="utf-8")
    js.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return md, js
