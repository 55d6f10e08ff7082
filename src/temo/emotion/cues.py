"""Compositional dimension cues: a cue frame (trust verb, need verb, ...) x an addressee x a task,
object or time horizon. Used by the synthetic feelings and the clause model so that the level of
trust or urgency is learned from the frame ("doubts X will Y", "needs it Z"), not from the content
words that happen to fill it ("the seats", "the grade"). Written for this project; deterministic
given the caller's ``random.Random``.
"""
from __future__ import annotations

import random

from .lexicon_feeling import AGENTS

TASKS = ("fix it", "sort it out", "handle the refund", "find a seat", "secure the seats",
         "review the grade fairly", "get the order right", "process the claim", "make it right",
         "find a solution", "rebook the flight", "waive the fee", "refill the prescription",
         "guide them through it", "do the right thing", "get it done", "resolve the issue",
         "reverse the charge", "move the booking", "send the replacement", "restore the service",
         "unblock the card", "update the account", "fix the reservation", "honor the voucher",
         # bare completions: the frame, not the verb, says whether the user trusts ("will manage")
         "manage", "manage it", "pull it off", "come through", "get it right", "succeed", "deliver",
         "be able to help", "follow through", "get anywhere with it")
BAD = ("make excuses", "deny it", "lie about it", "mess it up again", "shortchange them",
       "brush them off", "try to upsell them", "drag it out", "bury the complaint", "ignore the request",
       "hide behind the fine print", "blame them for it", "read from a script", "lose the paperwork again")
OBJECTS = ("the new times", "the booking", "the refund amount", "each step", "the details", "the charges",
           "the address", "the seats", "the new date", "the final balance", "the prescription",
           "the reservation", "the new plan", "the fee waiver", "the order number", "the transfer")
TIMES = {
    "high": ("right now", "immediately", "this minute", "within the hour", "tonight", "today",
             "before tomorrow morning", "in the next hour", "before the flight", "before the deadline tomorrow",
             "as soon as possible", "urgently", "before the game starts", "before the end of the day",
             "this instant", "right away", "before boarding", "before the appointment in an hour"),
    "moderate": ("this week", "by Friday", "in the next few days", "within a day or two", "before the weekend",
                 "soon", "by the end of the week", "before too long", "without long delays",
                 "at a steady pace", "sometime this week", "in the coming days", "before the end of the month",
                 "fairly soon", "within the week"),
    "low": ("whenever convenient", "whenever it suits the agent", "at some point", "eventually",
            "in a few weeks", "whenever someone gets to it", "next month", "later in the season",
            "whenever there is time", "in due course"),
}
from .lexicon_broad import TIMES as _MORE_TIMES  # noqa: E402

TIMES = {k: v + tuple(h for h in _MORE_TIMES[k] if h not in v) for k, v in TIMES.items()}
_FRAMES = {
    "trust": {
        "trusting": ("trusts {a} to {t}", "is confident {a} will {t}", "assumes {a} will {t}",
                     "counts on {a} to {t}", "relies on {a} to {t}", "believes {a} will {t}",
                     "is sure {a} can {t}", "expects {a} to {t}", "leaves it to {a} to {t}",
                     "has faith that {a} will {t}", "takes {a}'s word that they will {t}",
                     "assumes {a} can {t}", "is certain {a} will {t}"),
        "cautious": ("wants {a} to confirm {o}", "wants {o} confirmed", "wants to check {o} first",
                     "asks {a} to double-check {o}", "wants {o} in writing", "will verify {o} themselves",
                     "wants proof that {o} went through", "wants {a} to read back {o}",
                     "wants to see {o} before agreeing", "asks {a} to check {o} properly",
                     "is careful to confirm {o}", "wants {o} confirmed twice", "wants a confirmation of {o}"),
        "skeptical": ("doubts {a} will {t}", "doesn't trust {a} to {t}", "doubts {a} can {t}",
                      "doesn't believe {a} will {t}", "expects {a} to {b}", "is sure {a} will {b}",
                      "suspects {a} will {b}", "assumes {a} will {b}", "thinks {a} will {b}",
                      "distrusts {a}", "doesn't believe {a} cares", "doubts {a} cares",
                      "has no faith that {a} will {t}", "is convinced {a} will {b}", "doubts {a}"),
    },
    "urgency": {
        "high": ("needs it {h}", "needs {a} to {t} {h}", "must have it sorted {h}", "wants it fixed {h}",
                 "needs an answer {h}", "has to get it done {h}", "needs it sorted {h}", "demands it {h}"),
        "moderate": ("would like it {h}", "wants it sorted {h}", "hopes to have it done {h}",
                     "would like {a} to {t} {h}", "wants an answer {h}", "would like it handled {h}",
                     "hopes {a} can {t} {h}", "wants it done {h}"),
        "low": ("would like it {h}", "is happy for {a} to {t} {h}", "is fine with it {h}",
                "wants it done {h}, no rush", "can wait and have it done {h}",
                "doesn't mind if {a} does it {h}", "is okay with an answer {h}"),
    },
}
_UNTIL = {"low": ("next week", "next month", "the spring", "later in the year"),
          "moderate": ("the weekend", "Friday", "later this week")}
NEUTRAL_CLAUSES = ("wants to {t}", "would like to {t}", "asks {a} to {t}", "needs {a} to {t}",
                   "asks about {o}", "wants to change {o}", "is calling about {o}", "mentions {o}",
                   "just wants to {t}", "asks for help with {o}")


def _fill(frame: str, rng: random.Random, domain: str, level: str | None = None) -> str:
    a = rng.choice(AGENTS[domain] + AGENTS["any"]) if domain in AGENTS else rng.choice(AGENTS["any"])
    return frame.format(a=a, t=rng.choice(TASKS), b=rng.choice(BAD), o=rng.choice(OBJECTS),
                        h=rng.choice(TIMES[level]) if level in TIMES else "")


def cue(dim: str, level: str, rng: random.Random, domain: str = "any") -> str | None:
    """A composed third-person (singular) cue for a trust or urgency level; None for other dims."""
    if dim not in _FRAMES:
        return None
    if dim == "urgency" and level in _UNTIL and rng.random() < 0.15:
        return f"doesn't need it until {rng.choice(_UNTIL[level])}"
    return " ".join(_fill(rng.choice(_FRAMES[dim][level]), rng, domain, level).split())


def neutral_clause(rng: random.Random, domain: str = "any") -> str:
    """A request clause that carries no trust / urgency / politeness / emotion evidence."""
    return _fill(rng.choice(NEUTRAL_CLAUSES), rng, domain)
