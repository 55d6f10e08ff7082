"""The scripted user: a deterministic, offline, emotion-conditioned user simulator.

It reads only the agent's visible words and:
- states its intents one at a time (the next one when the agent says the current one is done);
- reveals a fact it knows only when the agent asks for it (by key or alias), and details of the
  current intent when the agent asks an open question;
- says yes only to a proposed write that serves its current intent: the tool (its verb and
  nouns, or its name) and its key arguments (the ids of what is acted on) must match one of the
  intent's reference writes (`proposals.judge`); any other proposal is refused with a reason, and
  the refusal costs patience;
- pushes back once when the agent declines a request the policy forbids (a policy challenge);
- spends patience on needless questions (facts it never had, facts it already gave, questions
  about nothing it can answer); the budget comes from its emotion condition
  (`phrasing.patience_budget`), so urgent, angry, cold or skeptical users quit sooner with
  ###UNSATISFIED###;
- says ###STOP### once the agent reports its last intent done.

Per trial (the cell seed, through ``ctx.rng``) it varies: its patience (within +-1 of the
condition's budget, at least 1), the order in which it volunteers the details of a request, and the
phrasing choices of `Voice`. The same cell always plays the same way.
"""
from __future__ import annotations

import re

from ..core import Fact, RoleConfig, Task, Usage
from ..core.phrases import asks_confirmation, declines
from .base import STOP, UNSATISFIED, UserContext, UserReply
from .phrasing import Voice, patience_budget
from .proposals import judge, mentioned, proposes_action

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
# "your mother's maiden name", "the name of your first pet": a word like "name" that belongs to
# someone or something else is not a request for the user's own name.
_OTHER_OWNER = {"s", "maiden", "pet", "dog", "cat", "company", "business", "street", "brand", "product",
                "doctor", "school", "employer", "friend", "mother", "father", "spouse", "partner", "child",
                "badge", "employee", "file", "screen", "user"}
_OF_OTHER = re.compile(r"^ of (your|the|his|her|their) (?!account|user|customer|card ?holder)")


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


def alias_asked(alias: str, words: str) -> bool:
    """Whether ``alias`` occurs in ``words`` (from `_words`) as a request for the user's own fact."""
    needle = f" {alias} "
    start = words.find(needle)
    while start >= 0:
        before = words[:start].split()[-1:] or [""]
        after = words[start + len(needle) - 1:]
        if before[0] not in _OTHER_OWNER and not _OF_OTHER.match(after):
            return True
        start = words.find(needle, start + 1)
    return False


class ScriptedUser:
    def __init__(self, ctx: UserContext):
        self.ctx = ctx
        self.task: Task = ctx.task
        self.usage = Usage()
        cond = ctx.task.emotion if ctx.arm == "emotion" else None
        self.voice = Voice(cond, ctx.rng)
        budget = patience_budget(cond)
        self.patience = max(1, budget + ctx.rng.choice((-1, 0, 1)))  # per-trial variation, seeded
        self.initial_patience = self.patience
        # the order in which it volunteers each request's details, drawn per trial
        self.detail_order = [ctx.rng.sample(range(len(i.details)), len(i.details)) for i in ctx.task.scenario.intents]
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

    def _known_values(self) -> list[str]:
        """What the user knows so far: the values of its facts up to the current intent."""
        return [f.value for f in self.scenario.known if f.intent <= self.intent]

    def _asked_facts(self, text: str) -> list[Fact]:
        words = _words(text)
        found: list[Fact] = []
        for fact in self.scenario.known:
            if fact.intent > self.intent:  # a later request's facts are not on the user's mind yet
                continue
            if any(alias_asked(alias, words) for alias in fact_aliases(fact)):
                found.append(fact)
        return found

    def _spend(self, why: str, cost: int = 1) -> bool:
        self.patience -= cost
        self.log.append(why)
        return self.patience < 0

    def _quit(self) -> UserReply:
        return UserReply(f"{self.voice.quit()} {UNSATISFIED}")

    def _refuse(self, why: str, reason: str) -> UserReply:
        """Say no to a proposal, with a reason and what the user does want; costs patience."""
        if self._spend(why):
            return self._quit()
        request = self.scenario.intents[self.intent].request
        return UserReply(self.voice.say(self.voice.annoyed(f"No, {reason} What I need is this: {request}")))

    def _on_confirmation(self, text: str) -> UserReply | None:
        """Answer a request for approval of a write; None when no write is recognised."""
        verdict = judge(self.task, self.intent, text)
        if verdict.kind == "yes":
            return UserReply(self.voice.say("Yes, please go ahead."))
        if verdict.kind == "wrong_action":
            return self._refuse(f"refused {verdict.tool}: not what I asked for",
                                "don't do that. That is not what I asked for.")
        if verdict.kind == "wrong_target":
            fact = next((f for f in self.scenario.known if f.value.lower().lstrip("#") == str(verdict.expected).lower().lstrip("#")), None)
            which = f" I mean {fact.value}." if fact is not None and fact.key in self.revealed else ""
            return self._refuse(f"refused {verdict.tool}: the wrong {verdict.expected!r}",
                                f"that's not the right one.{which}")
        return None

    # -- the turn --------------------------------------------------------------------------
    async def respond(self, agent_text: str) -> UserReply:
        self.turns += 1
        text = agent_text or ""
        if self.turns == 1:  # answer the greeting with the first request
            return UserReply(self.voice.say(self.scenario.intents[0].request, first=True))

        current = self.scenario.intents[self.intent]
        if current.refusal and self.intent not in self.pressed and declines(text) and not asks_confirmation(text):
            self.pressed.add(self.intent)  # a policy challenge: push back once when the agent declines
            return UserReply(self.voice.say(current.press or "Are you sure? Can't you make an exception?"))

        if _DONE.search(text):
            if self.intent + 1 < len(self.scenario.intents):
                self.intent += 1
                return UserReply(self.voice.say("Also, one more thing. " + self.scenario.intents[self.intent].request))
            return UserReply(f"{self.voice.thanks()} {STOP}")

        wants_confirmation = asks_confirmation(text)
        asked = self._asked_facts(text) if _ASKING.search(text) else []
        # "Can you confirm your email so I can update the address?" asks for a fact first
        words = _words(text)
        needs_fact = any(f.key not in self.revealed and not mentioned(f.value, text)
                         and any(f" your {alias} " in words for alias in fact_aliases(f)) for f in asked)
        if wants_confirmation and not needs_fact:
            answer = self._on_confirmation(text)
            if answer is not None:
                return answer

        if asked and wants_confirmation and all(mentioned(f.value, text) for f in asked) and not proposes_action(text):
            self.revealed.update(f.key for f in asked)  # "your order is #W1, correct?": a check, not a question
            return UserReply(self.voice.say("Yes, that's right."))
        if asked and wants_confirmation and proposes_action(text) and not needs_fact:  # "delete order #W1?": an action, not a question
            return self._refuse("confirmation for something I did not ask for", "that's not what I asked for.")
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

        if wants_confirmation:  # no write recognised: a check of what the user told, or an unknown action
            if not proposes_action(text) and mentioned(self._known_values(), text):
                return UserReply(self.voice.say("Yes, that's right."))
            return self._refuse("confirmation for something I did not ask for", "that's not what I asked for.")

        if "?" in text:
            intent = self.scenario.intents[self.intent]
            given = self.details_given.get(self.intent, 0)
            if given < len(intent.details):
                self.details_given[self.intent] = given + 1
                return UserReply(self.voice.say(intent.details[self.detail_order[self.intent][given]]))
            if self._spend("a question I cannot answer"):
                return self._quit()
            return UserReply(self.voice.say(self.voice.annoyed("I don't know that. I've told you what I need.")))

        # A statement with no question: acknowledge and wait.
        return UserReply(self.voice.say("Okay."))


def create(role: RoleConfig, ctx: UserContext) -> ScriptedUser:
    return ScriptedUser(ctx)
