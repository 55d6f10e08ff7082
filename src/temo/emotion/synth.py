"""Synthetic third-person feeling descriptions (training data for the mapper's heads).

A small template grammar over ``lexicon_feeling``: subject (per domain), situation clause (per
domain), an emotion cue (adjective or predicate), and cues for politeness, urgency and trust in
varied order and sentence shapes. Middle levels (neutral / moderate / cautious) are sometimes
left implicit, because real feeling descriptions often say nothing about a dimension.
Deterministic from a seed.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from temo.core import EmotionCondition

from . import cues

from .lexicon_feeling import (ADJ, DOMAINS, FEELS, HEDGES, INTENSIFIERS, POL, PRED, REASONS, SITUATIONS,
                              SUBJECTS, TRU, URG, vary_agent)

MIDDLE = {"politeness": "neutral", "urgency": "moderate", "trust": "cautious"}
DROP_MIDDLE = 0.4
COMPOSED = 0.35  # share of trust / urgency cues composed by ``cues`` rather than drawn from the lexicon


@dataclass(frozen=True)
class Feeling:
    text: str
    condition: EmotionCondition
    domain: str


def _emo_phrase(rng: random.Random, emotion: str) -> str:
    r = rng.random()
    if r < 0.45:
        return f"{rng.choice(FEELS)} {rng.choice(INTENSIFIERS)}{rng.choice(ADJ[emotion])}"
    if r < 0.75:
        return rng.choice(PRED[emotion])
    a, b = rng.sample(ADJ[emotion], 2)
    return f"{rng.choice(HEDGES)} {a} and {b}"


_IRREGULAR = {"is": "are", "isn't": "aren't", "has": "have", "doesn't": "don't", "does": "do", "was": "were",
              "seems": "seem", "appears": "appear"}


def plural(pred: str) -> str:
    """Turn a singular third-person predicate into its 'they' form (first word only)."""
    first, _, rest = pred.partition(" ")
    if first in ("probably", "likely", "still", "also", "really") and rest:
        return f"{first} {plural(rest)}"
    if first in _IRREGULAR:
        first = _IRREGULAR[first]
    elif first.endswith("ies"):
        first = first[:-3] + "y"
    elif first.endswith("s") and not first.endswith("ss"):
        first = first[:-1]
    return f"{first} {rest}".strip()


def _join(clauses: list[str], rng: random.Random, they: bool = False) -> str:
    if they:
        clauses = [plural(c) for c in clauses]
    if not clauses:
        return ""
    if len(clauses) == 1:
        return clauses[0]
    sep = rng.choice([", ", "; "]) if len(clauses) > 2 else ""
    last = rng.choice([" and ", ", and ", ", while they " if they else ", while also "])
    head = sep.join(clauses[:-1]) if sep else clauses[0]
    return head + last + clauses[-1]


def _fragment(pred: str) -> str:
    """'is curt' -> 'curt'; other predicates stay as they are ('doubts the agent')."""
    return pred[3:] if pred.startswith("is ") else pred


def _pronoun(rng: random.Random) -> tuple[str, bool]:
    return rng.choice((("They", True), ("They", True), ("She", False), ("He", False)))


def compose(cond: EmotionCondition, domain: str, rng: random.Random) -> str:
    subj = rng.choice(SUBJECTS[domain] + SUBJECTS["any"])
    sit = rng.choice(SITUATIONS[domain])
    if rng.random() < 0.4:
        sit += rng.choice((" after ", " because of ", " following ", ", dealing with ")) + rng.choice(REASONS[cond.emotion])
    emo = _emo_phrase(rng, cond.emotion)
    dims = []
    for name, lex, level in (("politeness", POL, cond.politeness), ("urgency", URG, cond.urgency),
                             ("trust", TRU, cond.trust)):
        if level == MIDDLE[name] and rng.random() < DROP_MIDDLE:
            continue
        composed = cues.cue(name, level, rng, domain) if rng.random() < COMPOSED else None
        dims.append(composed or vary_agent(rng.choice(lex[level]), rng, domain, 0.4))
    rng.shuffle(dims)
    shape = rng.randrange(6)
    pron, they = _pronoun(rng)
    if shape == 0:
        s = f"{subj} {sit} {emo}."
        if dims:
            s += f" {pron} {_join(dims, rng, they)}."
    elif shape == 1:
        s = f"{subj}, {sit}, {emo}"
        s += f"; {pron.lower()} {_join(dims, rng, they)}." if dims else "."
    elif shape == 2:
        lead = rng.choice(("Right now", "Given the situation", "At this point", "Understandably",
                           "After all this", "Overall"))
        s = f"{lead}, {subj[0].lower() + subj[1:]} {sit} {emo}."
        for d in dims:
            s += f" {pron} {plural(d) if they else d}."
    elif shape == 3:
        s = f"{subj} {sit}"
        if dims:
            s += f" {dims[0]} and {emo}."
            if dims[1:]:
                s += f" {pron} {_join(dims[1:], rng, they)}."
        else:
            s += f" {emo}."
    elif shape == 5:
        # terse fragments without a subject: "... is disheartened. Curt, in no hurry, and doubts the bank."
        s = f"{subj} {sit} {emo}."
        if dims:
            frags = [_fragment(d) for d in dims]
            body = _join(frags, rng)
            s += f" {body[0].upper()}{body[1:]}."
    else:
        s = f"{subj} {sit} reaches out."
        s += f" {pron} {plural(emo) if they else emo}."
        if dims:
            lead = rng.choice(("", "In the conversation ", "With the agent ", "When talking to support "))
            s += f" {lead}{pron.lower() if lead else pron} {_join(dims, rng, they)}."
    return " ".join(s.split())


def generate(n_per_condition: int = 30, seed: int = 7) -> list[Feeling]:
    out: list[Feeling] = []
    for cond in EmotionCondition.all():
        rng = random.Random(f"synth:{cond.id}:{seed}")
        for _ in range(n_per_condition):
            domain = rng.choice(DOMAINS)
            out.append(Feeling(compose(cond, domain, rng), cond, domain))
    return out


if __name__ == "__main__":  # pragma: no cover - preview
    for f in generate(1)[::37]:
        print(f.condition.id, "|", f.text)
