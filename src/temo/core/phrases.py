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


def asks_confirmation(text: str) -> bool:
    return bool(CONFIRMATION_REQUEST.search(text or ""))
