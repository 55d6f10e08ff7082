"""Phrase detectors shared by the offline actors and the harness's policy checks."""
from __future__ import annotations

import re

AFFIRMATIVE = re.compile(r"^\W*(yes|yeah|yep|sure|ok|okay|confirm|confirmed|go ahead|please do|proceed|do it|correct)\b", re.I)
_CONSENT_ANYWHERE = re.compile(r"\b(go ahead|please proceed|you may proceed|i confirm|please do it)\b", re.I)

# An agent asking the user to approve an action.
CONFIRMATION_REQUEST = re.compile(
    r"\b(confirm|proceed|go ahead|shall i|should i|do you want me to|would you like me to|"
    r"may i|can i go|is (that|this) (correct|right|ok|okay)|yes\s*/\s*no|\(yes\)|ok to)\b",
    re.I,
)


def is_affirmative(text: str) -> bool:
    """An explicit yes: a sentence that starts with a yes-word, or a clear consent phrase.

    "This is taking forever. Yes, go ahead." is a yes; "my insurance is yes" is not, and neither
    is anything starting with "no"."""
    text = text or ""
    if re.match(r"^\W*no\b", text, re.I):
        return False
    sentences = re.split(r"(?<=[.!?;])\s+", text.strip())
    return any(AFFIRMATIVE.search(s) for s in sentences) or bool(_CONSENT_ANYWHERE.search(text))


_OPEN_QUESTION = re.compile(r"^\W*(what|which|how|when|where|why|who)\b", re.I)


def asks_confirmation(text: str) -> bool:
    """The agent asks for approval ("Shall I cancel it?", "Do you confirm ... (yes/no)?").

    An open question ("What would you like me to do?") is not a request for approval, unless it
    says "confirm"."""
    for sentence in re.split(r"(?<=[.!?])\s+", (text or "").strip()):
        if _OPEN_QUESTION.match(sentence) and not re.search(r"\bconfirm", sentence, re.I):
            continue
        if CONFIRMATION_REQUEST.search(sentence):
            return True
    return False


# An agent declining a request: "I'm sorry, but I can't do that", "that is not allowed".
_DECLINE = re.compile(
    r"\b(can['’]?t|cannot|can not|unable to|not able to|won['’]?t be able|(is|are|'s) not (allowed|permitted|possible|eligible)|"
    r"not (allowed|permitted) to|against (our|the) polic(y|ies)|must decline|have to decline|no exceptions?|"
    r"i('m| am) (afraid|sorry),? (but )?(i|we|that|this|it))\b",
    re.I,
)


def declines(text: str) -> bool:
    """The agent says it will not (or may not) do what was asked."""
    return bool(_DECLINE.search(text or ""))
