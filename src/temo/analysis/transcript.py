"""Reading a recorded conversation: turn numbers, questions, redundant asks, empathy.

Turns are numbered as the orchestrator numbers them: the agent's greeting is turn 1 and every
user or assistant message adds one (system and tool messages do not); a tool call's turn is the
turn of the assistant message that made it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from ..core import EpisodeRecord, Message, Task
from ..core.phrases import asks_confirmation


@dataclass
class Turn:
    number: int
    role: str  # "user" or "assistant"
    text: str  # visible words
    message: Message


def turns(messages: list[Message]) -> list[Turn]:
    out: list[Turn] = []
    n = 0
    for m in messages:
        if m.role in ("user", "assistant"):
            n += 1
            out.append(Turn(n, m.role, (m.content or "").strip(), m))
    return out


def last_turn(record: EpisodeRecord) -> int:
    ts = turns(record.messages)
    return ts[-1].number if ts else int(record.counters.get("turns", 0))


_SENTENCES = re.compile(r"(?<=[.!?])\s+")


def questions(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCES.split(text or "") if s.strip().endswith("?")]


def is_follow_up(text: str) -> bool:
    """An agent message that asks the user something (a confirmation request counts: it waits
    on the user)."""
    return bool(questions(text)) or asks_confirmation(text)


_USER_REPEATS = re.compile(r"\b(already (told|gave|said|asked|provided|mentioned)|i just (told|said|gave)|"
                           r"(told|asked) you (that )?(already|before)|as i said|for the (second|third) time)\b", re.I)
_USER_CANNOT = re.compile(r"\b(i (don'?t|do not) know|no idea|i (don'?t|do not) have (that|it|one)|"
                          r"why (do|would) you need|that'?s not something i)\b", re.I)
_EMPATHY = re.compile(r"\b(sorry|apologi[sz]e|understand|i hear you|that sounds|frustrat|stressful|"
                      r"i can imagine|thank you for your patience|appreciate your patience|i know this)\b", re.I)
_DISMISSIVE = re.compile(r"\b(calm down|as i (already )?(said|told you)|not my problem|you need to listen|"
                         r"there is nothing (more )?i can do|deal with it|whatever)\b", re.I)


def user_complains_of_repeat(text: str) -> bool:
    return bool(_USER_REPEATS.search(text or ""))


def user_cannot_answer(text: str) -> bool:
    return bool(_USER_CANNOT.search(text or ""))


def empathetic(text: str) -> bool:
    return bool(_EMPATHY.search(text or ""))


def dismissive(text: str) -> bool:
    return bool(_DISMISSIVE.search(text or ""))


_CLOSING = re.compile(r"\b(anything else|something else|help you with|further assistance)\b")


@lru_cache(maxsize=2048)
def _names_regex(names: tuple[str, ...]) -> "Optional[re.Pattern[str]]":
    """One pattern for all of a task's fact names, longest first (so the longest name wins)."""
    if not names:
        return None
    return re.compile(r"\b(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")\b")


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w@.]+", " ", (text or "").lower()).split())


@dataclass
class RedundantAsk:
    turn: int
    question: str
    why: str


def redundant_asks(record: EpisodeRecord, task: Optional[Task]) -> list[RedundantAsk]:
    """Agent questions that ask again for something the user already said, repeat an earlier
    question word for word, or ask for what the user cannot know (the user's answer says so)."""
    ts = turns(record.messages)
    facts = task.scenario.known if task is not None else []
    values = [_norm(f.value) for f in facts]
    own_name = {f.key: _norm(f.key.replace("_", " ")) for f in facts}
    name_keys: dict[str, set[str]] = {}
    for f in facts:
        for n in {own_name[f.key], *(_norm(x) for x in f.aliases)}:
            if n:
                name_keys.setdefault(n, set()).add(f.key)
    names_rx = _names_regex(tuple(sorted(name_keys)))
    # A fact counts only when its value is distinctive (not "no", not shared with another fact).
    checkable = [(f.key, v) for f, v in zip(facts, values) if len(v) >= 3 and values.count(v) == 1]
    found_cache: dict[str, set[str]] = {}

    def mentions(text: str, key: str) -> bool:
        """The text names this fact unambiguously: by its own name, or by an alias no other fact
        shares. The longest name wins where names overlap ("reservation id 2" is not
        "reservation id")."""
        found = found_cache.get(text)
        if found is None:
            found = found_cache[text] = set(m.group(0) for m in names_rx.finditer(text)) if names_rx else set()
        return any(key in name_keys[n] and (n == own_name[key] or len(name_keys[n]) == 1) for n in found)

    answered: set[str] = set()  # facts the user gave when asked for them
    asked_before: set[str] = set()
    prev_agent, prev_question = "", False
    out: list[RedundantAsk] = []
    for i, t in enumerate(ts):
        if t.role == "user":
            said = _norm(t.text)
            if prev_question:
                for key, value in checkable:
                    if key not in answered and value in said and mentions(prev_agent, key):
                        answered.add(key)
            continue
        prev_agent = _norm(t.text)
        prev_question = bool(questions(t.text)) and not asks_confirmation(t.text)
        qs = questions(t.text)
        if not qs or asks_confirmation(t.text) and not any(not asks_confirmation(q) for q in qs):
            continue
        nxt = ts[i + 1] if i + 1 < len(ts) and ts[i + 1].role == "user" else None
        found: Optional[str] = None
        for q in qs:
            nq = _norm(q)
            if nq in asked_before and len(nq) > 12 and not _CLOSING.search(nq):
                found = "asks the same question again"
            for key in sorted(answered):
                if mentions(nq, key):
                    found = found or f"asks again for the {own_name[key]}, which the user already gave"
            asked_before.add(nq)
        if found is None and nxt is not None and user_complains_of_repeat(nxt.text):
            found = "the user says it was already answered"
        if found is None and nxt is not None and user_cannot_answer(nxt.text) and not asks_confirmation(t.text):
            found = "asks for something the user cannot know"
        if found:
            out.append(RedundantAsk(t.number, qs[0][:200], found))
    return out
