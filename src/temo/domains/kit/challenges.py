"""What the domains' challenges share: a forbidden request about one entity drawn from those it fits.

Most challenges (``(g) -> Challenge | None``, see ``temo.env.grounding``) have the same outline: list the
user's entities the request would break a rule for (a delivered order to cancel, a frozen account to
unfreeze), give no challenge when there is none, else draw one with ``g.rng`` and word the request
about it. :func:`challenge_about` is that outline; the domain supplies the list and the wording.
"""
from __future__ import annotations

from typing import Callable, Iterable, Optional, TypeVar

from temo.env.grounding import Challenge, Ground

T = TypeVar("T")


def challenge_about(g: Ground, candidates: Iterable[T],
                    make: Callable[[T], Optional[Challenge]]) -> Optional[Challenge]:
    """``make(x)`` for one ``x`` of ``candidates`` drawn with ``g.rng.choice`` (in the order given), or
    ``None`` when there is no candidate (the challenge does not fit this user now). ``make`` may itself
    return ``None`` when the drawn entity turns out not to fit."""
    items = list(candidates)
    if not items:
        return None
    return make(g.rng.choice(items))
