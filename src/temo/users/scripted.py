"""The scripted user: a deterministic, offline, emotion-conditioned user simulator.

It reads only the agent's visible words and:
- states its intents one at a time (the next one when the agent says the current one is done);
- reveals a fact it knows only when the agent asks for it (by key or alias), and details of the
  current intent when the agent asks an open question;
- confirms an action that serves its goals and refuses one that does not;
- spends patience on needless questions (facts it never had, facts it already gave, questions
  about nothing it can answer); the budget comes from its emotion condition
  (`phrasing.patience_budget`), so urgent, angry, cold or skeptical users quit sooner with
  ###UNSATISFIED###;
- says ###STOP### once the agent reports its last intent done.
"""
from __future__ import annotations

import re
from typing import Any

from ..core import Fact, RoleConfig, Task, Usage
from ..core.phrases import asks_confirmation
from .base import STOP, UNSATISFIED, UserContext, UserReply
from .phrasing import Voice, patience_budget

_DONE = re.compile(
    r"\b(anything else|something else|help you with (anything|something)|is there more|"
    r"all (set|done)|that's all i can|that is all i can|have a (great|nice|good) day)\b",
    re.I,
)
_ASKING = re.compile(
    r"\?|\b(please (provide|give|share|tell|send)|could you|can you|would you|what is|what's|tell me|"
    r"i need|i'll need|i will need|let me know)\b",
    re.I,
)
_GENERIC_ALIASES = {
    "zip": ["zip code", "postcode", "postal code"],
    "email": ["email address", "e-mail", "mail"],
    "user_id": ["user id", "account id", "username", "user name"],
    "first_name": ["first name", "full name", "your name", "name"],
    "last_name": ["last name", "surname", "full name", "your name", "name"],
    "name": ["full name", "your name", "name"],
    "order_id": ["order id", "order number", "order"],
    "reservation_id": ["reservation id", "reservation number", "booking reference", "confirmation code", "reservation"],
}
_STOPWORDS = {"id", "the", "a", "of", "your", "number"}


def _words(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9#@.\-]+", " ", text.lower()) + " "


def fact_aliases(fact: Fact) -> list[str]:
    """Phrases an agent might use to ask for this fact, most specific first."""
    base = fact.key.replace("_", " ")
    out = [base, *fact.aliases, *_GENERIC_ALIASES.get(fact.key, [])]
    last = fact.key.split("_")[-1]
    if last not in _STOPWORDS and len(last) > 2:
        out.append(last)
    seen: list[str] = []
    for a in out:
        a = a.lower().strip()
        if a and a not in seen:
            seen.append(a)
    return seen


def _value_mentioned(value: Any, text: str) -> bool:
    if isinstance(value, str):
        v = value.strip().lower()
        return len(v) >= 3 and v in text.lower()
    if isinstance(value, (list, tuple)):
        return any(_value_mentioned(v, text) for v in value)
    if isinstance(value, dict):
        return any(_value_mentioned(v, text) for v in value.values())
    return False


class ScriptedUser:
    def __init__(self, ctx: UserContext):
        self.ctx = ctx
        self.task: Task = ctx.task
        self.usage = Usage()
        cond = ctx.task.emotion if ctx.arm == "emotion" else None
        self.voice = Voice(cond, ctx.rng)
        self.patience = patience_budget(cond)
        self.initial_patience = self.patience
        self.revealed: set[str] = set()
        self.details_given: dict[int, int] = {}
        self.pressed: set[int] = set()  # challenge intents the user has pushed back on
        self.intent = 0
        self.turns = 0
        self.log: list[str] = []  # why patience was spent, for debugging and tests

    # -- helpers ---------------------------------------------------------------------------
    @property
    def scenario(self):
        return self.task.scenario

    def _goal_words(self) -> list[Any]:
        """Argument values and tool words of the writes the user still wants."""
        out: list[Any] = []
        for a in self.task.actions:
            if a.intent == self.intent:
                out.extend(a.arguments.values())
                out.append(a.name.replace("_", " "))
        return out

    def _asked_facts(self, text: str) -> list[Fact]:
        words = _words(text)
        found: list[Fact] = []
        for fact in self.scenario.known:
            if fact.intent > self.intent:  # a later request's facts are not on the user's mind yet
                continue
            if any(f" {alias} " in words for alias in fact_aliases(fact)):
                found.append(fact)
        return found

    def _spend(self, why: str, cost: int = 1) -> bool:
        self.patience -= cost
        self.log.append(why)
        return self.patience < 0

    def _quit(self) -> UserReply:
        return UserReply(f"{self.voice.quit()} {UNSATISFIED}")

    # -- the turn --------------------------------------------------------------------------
    async def respond(self, agent_text: str) -> UserReply:
        self.turns += 1
        text = agent_text or ""
        if self.turns == 1:  # answer the greeting with the first request
            return UserReply(self.voice.say(self.scenario.intents[0].request, first=True))

        current = self.scenario.intents[self.intent]
        if current.refusal and self.intent not in self.pressed and "?" not in text.replace("(yes/no)?", ""):
            self.pressed.add(self.intent)  # a policy challenge: push back once when the agent declines
            return UserReply(self.voice.say(current.press or "Are you sure? Can't you make an exception?"))

        if _DONE.search(text):
            if self.intent + 1 < len(self.scenario.intents):
                self.intent += 1
                return UserReply(self.voice.say("Also, one more thing. " + self.scenario.intents[self.intent].request))
            return UserReply(f"{self.voice.thanks()} {STOP}")

        wants_confirmation = asks_confirmation(text)
        if wants_confirmation and any(_value_mentioned(v, text) for v in self._goal_words()):
            return UserReply(self.voice.say("Yes, please go ahead."))

        asked = self._asked_facts(text) if _ASKING.search(text) else []
        if asked:
            repeated = [f for f in asked if f.key in self.revealed]
            fresh = [f for f in asked if f.key not in self.revealed]
            if repeated and not fresh:
                if self._spend(f"asked again for {', '.join(f.key for f in repeated)}"):
                    return self._quit()
                parts = [f"{f.key.replace('_', ' ')}: {f.value}" for f in repeated]
                return UserReply(self.voice.say(self.voice.annoyed("I already told you. " + "; ".join(parts) + ".")))
            for f in fresh:
                self.revealed.add(f.key)
            answer = "; ".join(f"my {f.key.replace('_', ' ')} is {f.value}" for f in fresh)
            return UserReply(self.voice.say(answer[0].upper() + answer[1:] + "."))

        if wants_confirmation:
            if self._spend("confirmation for something I did not ask for"):
                return self._quit()
            return UserReply(self.voice.say(f"No, that's not what I asked for. {self.scenario.intents[self.intent].request}"))

        if "?" in text:
            intent = self.scenario.intents[self.intent]
            given = self.details_given.get(self.intent, 0)
            if given < len(intent.details):
                self.details_given[self.intent] = given + 1
                return UserReply(self.voice.say(intent.details[given]))
            if self._spend("a question I cannot answer"):
                return self._quit()
            return UserReply(self.voice.say(self.voice.annoyed("I don't know that. I've told you what I need.")))

        # A statement with no question: acknowledge and wait.
        return UserReply(self.voice.say("Okay."))


def create(role: RoleConfig, ctx: UserContext) -> ScriptedUser:
    return ScriptedUser(ctx)
