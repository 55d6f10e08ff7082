"""The LLM judge: a model at any OpenAI-compatible endpoint reads a failed conversation.

It receives what the paper's judge receives (Appendix C.1): the domain policy, the user's
instruction with its emotion instruction, the reference actions, the full conversation with tool
calls and results, and the grading outcome; it answers one JSON object (schema below) naming every
error it finds with its fault tags, the critical fault, and the emotional outcome. This adds the
faults that need reading (misread intent, hallucination, inconsistency, friction, emotional
neglect) to the offline judge's replay facts.

A reply is validated (JSON, known fault names and reasons, turns within the conversation); an
invalid reply is retried with the validation error shown to the model, up to ``max_attempts``
requests; after that the cell's verdict is stored with ``status: invalid``. Transport failures are
retried by the client; when they persist the cell gets no verdict and is judged on the next run.
Every verdict records the model and the prompt's hash.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import re
from typing import Any, Callable, Optional

from pydantic import BaseModel, Field, ValidationError

from ..core import EpisodeRecord, Task
from .cells import Cell, Run
from .faults import CATEGORIES, DESCRIPTIONS, EMOTIONAL_OUTCOME_REASONS, FAULTS, EmotionalOutcome, Fault, Verdict
from .transcript import turns
from .verdicts import VerdictStore

JUDGE_VERSION = "llm-1"
MAX_RESULT_CHARS = 1500
MAX_POLICY_CHARS = 12000

SYSTEM_PROMPT = """You review one failed customer-service conversation between a tool-calling AI agent and a simulated user, and say why it failed.

You get the agent's policy, the user's instruction (with the emotion the user was asked to show), the reference actions that would have completed the task, the grading outcome, and the numbered conversation with every tool call and result.

List every error you find. For each: who made it (source "agent" or "user"), severity ("critical" if it caused the failure or broke an important policy rule, else "minor"), one or more fault tags from the list below, the turn number where it happens, and a one-sentence justification. Then name the single critical fault that best explains the failure and its turn, and give the emotional outcome: did the user abandon the conversation, and if so the dominant reason.

Fault tags, by category:
{taxonomy}

Emotional-outcome reasons: {reasons}.

Answer with one JSON object and nothing else, following this schema:
{schema}"""

USER_TEMPLATE = """## Agent policy
{policy}

## User instruction
{instruction}

## Reference actions
{reference}

## Grading outcome
{outcome}

## Conversation (turn numbers in brackets)
{conversation}"""


class JudgeError(BaseModel):
    source: str = Field(pattern="^(agent|user)$")
    severity: str = Field(pattern="^(critical|minor)$")
    faults: list[str] = Field(min_length=1)
    turn: int
    justification: str


class JudgeOutcome(BaseModel):
    abandoned: bool
    reason: Optional[str] = None
    explanation: str = ""


class JudgeReply(BaseModel):
    errors: list[JudgeError]
    critical_fault: Optional[str]
    critical_turn: Optional[int] = None
    reason: str
    emotional_outcome: JudgeOutcome


def reply_schema() -> dict[str, Any]:
    """The JSON schema sent with each request (``response_format``) and shown in the prompt."""
    fault = {"type": "string", "enum": list(FAULTS)}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["errors", "critical_fault", "critical_turn", "reason", "emotional_outcome"],
        "properties": {
            "errors": {"type": "array", "items": {
                "type": "object", "additionalProperties": False,
                "required": ["source", "severity", "faults", "turn", "justification"],
                "properties": {
                    "source": {"type": "string", "enum": ["agent", "user"]},
                    "severity": {"type": "string", "enum": ["critical", "minor"]},
                    "faults": {"type": "array", "items": fault, "minItems": 1},
                    "turn": {"type": "integer"},
                    "justification": {"type": "string"},
                }}},
            "critical_fault": {"anyOf": [fault, {"type": "null"}]},
            "critical_turn": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "reason": {"type": "string"},
            "emotional_outcome": {
                "type": "object", "additionalProperties": False,
                "required": ["abandoned", "reason", "explanation"],
                "properties": {
                    "abandoned": {"type": "boolean"},
                    "reason": {"anyOf": [{"type": "string", "enum": list(EMOTIONAL_OUTCOME_REASONS)}, {"type": "null"}]},
                    "explanation": {"type": "string"},
                }},
        },
    }


def system_prompt() -> str:
    taxonomy = "\n".join(
        f"- {cat}: " + "; ".join(f"{f} ({DESCRIPTIONS[f]})" for f in faults) for cat, faults in CATEGORIES.items()
    )
    return SYSTEM_PROMPT.format(taxonomy=taxonomy, reasons=", ".join(EMOTIONAL_OUTCOME_REASONS),
                                schema=json.dumps(reply_schema(), separators=(",", ":")))


def prompt_hash() -> str:
    return hashlib.sha256((system_prompt() + "\n" + USER_TEMPLATE).encode()).hexdigest()


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more characters]"


def conversation_text(record: EpisodeRecord) -> str:
    lines: list[str] = []
    n = 0
    for m in record.messages:
        if m.role == "system":
            continue
        if m.role == "tool":
            lines.append(f"    result of {m.name}: {_clip(m.content or '', MAX_RESULT_CHARS)}")
            continue
        n += 1
        if m.role == "user":
            lines.append(f"[{n}] USER: {m.content or ''}")
        else:
            if (m.content or "").strip():
                lines.append(f"[{n}] AGENT: {m.content}")
            for tc in m.tool_calls or []:
                lines.append(f"[{n}] AGENT calls {tc.function.name}({tc.function.arguments})")
    return "\n".join(lines)


def user_message(record: EpisodeRecord, task: Optional[Task], policy: str) -> str:
    r = record.reward
    outcome = {
        "reward": r.reward if r else None, "final_state_matches_reference": r.state_match if r else None,
        "missing_outputs": r.missing_outputs if r else [], "termination": str(record.termination),
        "policy_violations_recorded": [v.model_dump() for v in record.violations],
    }
    if task is not None:
        instruction = task.user_instruction(record.arm)
        reference = "\n".join(f"{i + 1}. {a.name}({json.dumps(a.arguments, ensure_ascii=False)})" for i, a in enumerate(task.actions))
        if task.outputs:
            reference += "\nRequired outputs (the agent must say them): " + "; ".join(task.outputs)
    else:
        instruction, reference = "(the task is no longer installed)", "(unknown)"
    return USER_TEMPLATE.format(policy=_clip(policy, MAX_POLICY_CHARS), instruction=instruction, reference=reference,
                                outcome=json.dumps(outcome, ensure_ascii=False), conversation=conversation_text(record))


_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.I)


def parse_reply(text: str, max_turn: int) -> JudgeReply:
    """Validate a judge reply; raises ValueError with a message meant for the model."""
    body = _FENCE.sub("", (text or "").strip())
    start, end = body.find("{"), body.rfind("}")
    if start == -1 or end < start:
        raise ValueError("the reply contains no JSON object")
    try:
        data = json.loads(body[start:end + 1])
    except json.JSONDecodeError as e:
        raise ValueError(f"the reply is not valid JSON ({e.msg} at position {e.pos})") from None
    try:
        reply = JudgeReply.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "reply"
        raise ValueError(f"field {where}: {first.get('msg')}") from None
    unknown = sorted({f for err in reply.errors for f in err.faults if f not in FAULTS}
                     | ({reply.critical_fault} - set(FAULTS) - {None}))
    if unknown:
        raise ValueError(f"unknown fault tag(s) {', '.join(unknown)}; use only: {', '.join(FAULTS)}")
    eo = reply.emotional_outcome
    if eo.reason is not None and eo.reason not in EMOTIONAL_OUTCOME_REASONS:
        raise ValueError(f"emotional_outcome.reason must be one of {', '.join(EMOTIONAL_OUTCOME_REASONS)} or null")
    if eo.abandoned and eo.reason is None:
        raise ValueError("emotional_outcome.reason is required when abandoned is true")
    turns_out = [t for t in [*(err.turn for err in reply.errors), reply.critical_turn] if t is not None]
    bad = [t for t in turns_out if t < 1 or t > max_turn]
    if bad:
        raise ValueError(f"turn {bad[0]} is outside the conversation (turns 1..{max_turn})")
    return reply


def verdict_from_reply(cell: Cell, reply: JudgeReply, model: str, attempts: int) -> Verdict:
    rec = cell.record
    faults = [Fault(fault=f, turn=e.turn, source=e.source, severity=e.severity, reason=e.justification[:300])  # type: ignore[arg-type]
              for e in reply.errors for f in e.faults]
    critical = None
    if reply.critical_fault:
        critical = Fault(fault=reply.critical_fault, turn=reply.critical_turn, severity="critical", reason=reply.reason[:300])
    eo = reply.emotional_outcome
    return Verdict(
        judge="llm", cell=cell.id, task_id=rec.task_id, domain=rec.domain, arm=rec.arm, trial=rec.trial,
        family=rec.emotion.family, emotion=rec.emotion.id, reward=rec.reward.reward if rec.reward else None,
        termination=str(rec.termination), failed=bool(rec.reward and rec.reward.reward != 1), critical=critical,
        faults=faults, emotional_outcome=EmotionalOutcome(abandoned=eo.abandoned, reason=eo.reason if eo.abandoned else None,
                                                          explanation=eo.explanation[:300]),
        record_sha=cell.sha, judge_version=JUDGE_VERSION, model=model, prompt_hash=prompt_hash(), attempts=attempts,
    )


async def judge_cell(client: Any, cell: Cell, task: Optional[Task], policy: str, max_attempts: int = 3) -> Verdict:
    """Ask the model, validate, retry with the error shown; raises InfrastructureError on transport failure."""
    rec = cell.record
    max_turn = max((t.number for t in turns(rec.messages)), default=1)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": system_prompt()},
        {"role": "user", "content": user_message(rec, task, policy)},
    ]
    error = ""
    for attempt in range(1, max_attempts + 1):
        done = await client.complete(messages, seed=rec.seed + attempt - 1)
        text = done.message.content or ""
        try:
            reply = parse_reply(text, max_turn)
        except ValueError as e:
            error = str(e)
            messages += [{"role": "assistant", "content": text},
                         {"role": "user", "content": f"That reply is invalid: {error}. Answer again with one JSON object that follows the schema."}]
            continue
        return verdict_from_reply(cell, reply, client.settings.model, attempt)
    return Verdict(judge="llm", cell=cell.id, task_id=rec.task_id, domain=rec.domain, arm=rec.arm, trial=rec.trial,
                   family=rec.emotion.family, emotion=rec.emotion.id, reward=rec.reward.reward if rec.reward else None,
                   termination=str(rec.termination), failed=True, status="invalid", error=error[:500],
                   record_sha=cell.sha, judge_version=JUDGE_VERSION, model=client.settings.model,
                   prompt_hash=prompt_hash(), attempts=max_attempts)


def llm_settings(model: str, base_url: str, api_key_env: Optional[str], temperature: float = 0.0,
                 concurrency: int = 8, max_retries: int = 6, timeout: float = 600.0, response_format: bool = True) -> Any:
    from ..llm import LLMSettings

    extra_body: dict[str, Any] = {}
    if response_format:
        extra_body["response_format"] = {"type": "json_schema",
                                         "json_schema": {"name": "judge_verdict", "strict": True, "schema": reply_schema()}}
    return LLMSettings(role="judge", model=model, base_url=base_url.rstrip("/"), api_key_env=api_key_env,
                       sampling={"temperature": temperature}, extra_body=extra_body, concurrency=concurrency,
                       max_retries=max_retries, timeout=timeout)


def judge_llm(run: Run, cells: list[Cell], settings: Any, redo: bool = False, max_attempts: int = 3,
              progress: Optional[Callable[[int], None]] = None) -> tuple[dict[str, Verdict], list[str]]:
    """Judge the failed cells with the model; returns (verdicts, infrastructure errors)."""
    from ..core.errors import InfrastructureError
    from ..domains import available, get_domain
    from ..llm import LLMClient

    store = VerdictStore(run.root, "llm")
    ph = prompt_hash()
    out: dict[str, Verdict] = {}
    todo: list[Cell] = []
    for cell in cells:
        v = None if redo else store.fresh(cell.id, cell.sha, JUDGE_VERSION, ph, settings.model)
        if v is not None:
            out[cell.id] = v
            if progress:
                progress(1)
        else:
            todo.append(cell)
    installed = set(available())
    errors: list[str] = []

    async def main() -> None:
        client = LLMClient(settings)
        sem = asyncio.Semaphore(settings.concurrency)

        async def one(cell: Cell) -> None:
            rec = cell.record
            policy = get_domain(rec.domain).policy if rec.domain in installed else ""
            async with sem:
                try:
                    v = await judge_cell(client, cell, run.task(rec.task_id), policy, max_attempts)
                except InfrastructureError as e:
                    errors.append(f"{cell.id}: {' '.join(str(e).split())[:300]}")
                    return
                finally:
                    if progress:
                        progress(1)
            store.write(v, durable=True)
            out[cell.id] = v

        from ..llm import aclose_clients

        try:
            await asyncio.gather(*(one(c) for c in todo))
        finally:
            await aclose_clients()

    if todo:
        asyncio.run(main())
    return out, errors
