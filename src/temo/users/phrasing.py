"""How a scripted user sounds: openers, closers and patience, by emotion condition.

Every piece here is written for this project. A message is composed as
``[family opener] [core content] [urgency push] [trust remark]`` with politeness applied to the
core content, each part drawn with the episode's seeded RNG, so the same cell always reads the
same and different conditions read differently.
"""
from __future__ import annotations

import random
from typing import Optional

from ..core import EmotionCondition

OPENERS: dict[str, list[str]] = {
    "anger": ["This has gone on long enough.", "Honestly, I'm fed up.", "I'm really annoyed right now.",
              "I can't believe I have to deal with this."],
    "fear": ["I'm a bit worried about this.", "I'm honestly nervous this will go wrong.",
             "This is stressing me out.", "I'm scared I'll mess this up."],
    "disgust": ["Frankly, this whole thing is distasteful.", "I find this really off-putting.",
                "Ugh, I'd rather not be dealing with this.", "This experience has been unpleasant."],
    "sadness": ["I'm feeling pretty let down.", "It's been a rough week, honestly.",
                "I'm a little discouraged by all this.", "I don't have much hope left for this."],
    "enjoyment": ["Good news on my end today!", "I'm in a great mood, so let's sort this out.",
                  "I'm pretty excited about this.", "Things are going well, just one thing to fix."],
}
URGENT = {
    "high": ["Please be quick, I don't have time.", "I need this done right now.", "Hurry, please."],
    "moderate": ["I'd like to get this done soon.", "Let's keep this moving."],
    "low": ["", "No rush."],
}
SKEPTICAL = {
    "skeptical": ["I doubt this will actually work.", "I'll believe it when I see it."],
    "cautious": ["Please be careful with this.", ""],
    "trusting": ["", "I'm sure you'll get it right."],
}
POLITE_PREFIX = {"warm": ["Thanks so much! ", "Thank you! ", ""], "neutral": ["", ""], "cold": ["", ""]}
POLITE_SUFFIX = {"warm": [" Thank you!", " I appreciate it.", ""], "neutral": ["", ""], "cold": ["", ""]}

QUIT_LINES: dict[str, list[str]] = {
    "anger": ["That's it, I'm done wasting my time here.", "Forget it. This is useless."],
    "fear": ["I can't handle this anymore, I'll try somewhere else.", "This is making me more anxious. I'm leaving."],
    "disgust": ["I've had enough of this. Goodbye.", "This is ridiculous. I'm out."],
    "sadness": ["I give up. This isn't going anywhere.", "Never mind. I'll just deal with it myself."],
    "enjoyment": ["You know what, this is taking too long. I'll pass.", "I was in a good mood, but this is too much. Bye."],
    "neutral": ["This is not working. I'm ending the conversation.", "I've answered enough questions. Goodbye."],
}
THANKS: dict[str, list[str]] = {
    "warm": ["Thank you so much, that's everything!", "Wonderful, thanks a lot for your help!"],
    "neutral": ["Thanks, that's all.", "Okay, that's everything I needed."],
    "cold": ["Fine. That's all.", "Done. Bye."],
}


def patience_budget(condition: Optional[EmotionCondition]) -> int:
    """How many needless or repeated questions the user tolerates before quitting.

    Neutral users (the no-emotion arm) get the base budget of 4. Urgency, anger and disgust, cold
    politeness and skepticism lower it; warmth, trust, enjoyment and low urgency raise it.
    """
    budget = 4
    if condition is None:
        return budget
    budget += {"low": 1, "moderate": 0, "high": -2}[condition.urgency]
    budget += {"anger": -2, "disgust": -1, "fear": 0, "sadness": 1, "enjoyment": 1}[condition.family]
    budget += {"warm": 1, "neutral": 0, "cold": -1}[condition.politeness]
    budget += {"trusting": 1, "cautious": 0, "skeptical": -1}[condition.trust]
    return max(1, budget)


class Voice:
    """Phrases a user's messages by condition (None = neutral arm, plain phrasing)."""

    def __init__(self, condition: Optional[EmotionCondition], rng: random.Random):
        self.c = condition
        self.rng = rng
        self._opened = False

    def _pick(self, options: list[str]) -> str:
        return self.rng.choice(options) if options else ""

    def say(self, core: str, *, first: bool = False) -> str:
        if self.c is None:
            return core
        parts = []
        if first or self.rng.random() < 0.35:
            parts.append(self._pick(OPENERS[self.c.family]))
        parts.append(self._pick(POLITE_PREFIX[self.c.politeness]) + core + self._pick(POLITE_SUFFIX[self.c.politeness]))
        if first or self.rng.random() < 0.5:
            parts.append(self._pick(URGENT[self.c.urgency]))
        if first:
            parts.append(self._pick(SKEPTICAL[self.c.trust]))
        return " ".join(p for p in parts if p).strip()

    def quit(self) -> str:
        key = self.c.family if self.c else "neutral"
        return self._pick(QUIT_LINES[key])

    def thanks(self) -> str:
        key = self.c.politeness if self.c else "neutral"
        return self._pick(THANKS[key])

    def annoyed(self, what: str) -> str:
        """A complaint about a needless or repeated question."""
        if self.c is None:
            return what
        if self.c.politeness == "cold" or self.c.family in ("anger", "disgust"):
            return f"{what} Stop wasting my time."
        if self.c.urgency == "high":
            return f"{what} Please, I'm in a hurry."
        return what
