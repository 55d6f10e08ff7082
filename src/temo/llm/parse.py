"""Turn a chat-completion message (any OpenAI-compatible server) into a `temo` `Message`.

Reasoning is read, in this order, from ``reasoning_content`` (DeepSeek, vLLM before 0.10,
SGLang), ``reasoning`` (vLLM/SGLang reasoning parsers, OpenRouter) or inline ``<think>...</think>``
in the content (servers started without a reasoning parser; Qwen3 chat templates that open the
think block in the prompt leave only the closing tag). It is kept in ``Message.reasoning``, apart
from the visible ``content``.

Tool calls are passed through as the model produced them: arguments stay raw JSON text (even when
malformed) and unknown tool names are kept, so that the orchestrator can answer them with an error
observation. Nothing here raises on odd model output; lone UTF-16 surrogates are written as
six-character escapes (backslash, u, four hex digits) so that the message can always be stored and sent again.
"""
from __future__ import annotations

import json
import re
from typing import Any, Optional

from ..core import FunctionCall, Message, ToolCall
from ..env.safety import escape_surrogates

_THINK_OPEN = "<think>"
_THINK_CLOSE = "</think>"
_THINK_BLOCK = re.compile(r"<think>(.*?)</think>", re.DOTALL)


def split_think(text: Optional[str]) -> tuple[str, Optional[str]]:
    """Split inline ``<think>`` blocks out of ``text``: returns (visible text, reasoning or None).

    - every ``<think>...</think>`` block is moved to the reasoning;
    - a ``</think>`` with no opening tag before it: everything before it is reasoning;
    - an unclosed ``<think>`` (output cut by max_tokens): everything after it is reasoning.
    """
    if not text:
        return text or "", None
    parts: list[str] = []
    visible = text
    close = visible.find(_THINK_CLOSE)
    opening = visible.find(_THINK_OPEN)
    if close != -1 and (opening == -1 or opening > close):
        parts.append(visible[:close])
        visible = visible[close + len(_THINK_CLOSE):]
    for m in _THINK_BLOCK.finditer(visible):
        parts.append(m.group(1))
    visible = _THINK_BLOCK.sub("", visible)
    opening = visible.find(_THINK_OPEN)
    if opening != -1:
        parts.append(visible[opening + len(_THINK_OPEN):])
        visible = visible[:opening]
    reasoning = "\n\n".join(p.strip() for p in parts if p.strip())
    if not parts:
        return text, None
    return visible.strip(), reasoning or None


def _get(obj: Any, key: str) -> Any:
    """Field of a pydantic model (declared or extra) or of a dict."""
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(key)
    value = getattr(obj, key, None)
    if value is None:
        extra = getattr(obj, "model_extra", None) or {}
        value = extra.get(key)
    return value


def _as_text(value: Any) -> Optional[str]:
    """Content as text: servers may send a list of parts ({"type": "text", "text": ...})."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(str(_get(p, "text") or "") for p in value)
    return str(value)


def _raw_arguments(value: Any) -> str:
    if value is None:
        return "{}"
    if isinstance(value, str):
        return value  # as produced, malformed or not
    try:
        return json.dumps(value, ensure_ascii=False)  # some servers send an object
    except (TypeError, ValueError):
        return str(value)


def parse_tool_calls(raw: Any, prefix: str = "call") -> Optional[list[ToolCall]]:
    calls: list[ToolCall] = []
    for i, tc in enumerate(raw or []):
        fn = _get(tc, "function")
        name = _get(fn, "name") if fn is not None else _get(tc, "name")
        args = _get(fn, "arguments") if fn is not None else _get(tc, "arguments")
        call_id = _get(tc, "id") or f"{prefix}_{i}"
        calls.append(ToolCall(id=escape_surrogates(str(call_id)), function=FunctionCall(
            name=escape_surrogates(str(name or "")), arguments=escape_surrogates(_raw_arguments(args)))))
    return calls or None


def parse_message(raw: Any, *, call_prefix: str = "call") -> Message:
    """An assistant `Message` from a completion's ``choices[0].message`` (model or dict)."""
    content = _as_text(_get(raw, "content"))
    reasoning_parts: list[str] = []
    for key in ("reasoning_content", "reasoning"):
        value = _as_text(_get(raw, key))
        if value and value.strip() and value.strip() not in reasoning_parts:
            reasoning_parts.append(value.strip())
    visible, inline = split_think(content)
    if inline:
        reasoning_parts.append(inline)
    reasoning = "\n\n".join(reasoning_parts) or None
    return Message(  # lone surrogates (a server may send "\ud83d") are kept as text: always encodable
        role="assistant",
        content=escape_surrogates(visible or ""),
        tool_calls=parse_tool_calls(_get(raw, "tool_calls"), call_prefix),
        reasoning=escape_surrogates(reasoning) if reasoning else None,
    )
