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

from .lexicon_feeling import (ADJ, ADVERBS, DOMAINS, FEELS, HEDGES, INTENSIFIERS, POL, PRED, REASONS,
                              SITUATIONS, SUBJECTS, TRU, URG, vary_agent)

MIDDLE = {"politeness": "neutral", "urgency": "moderate", "trust": "cautious"}
DROP_MIDDLE = 0.4
COMPOSED = 0.35  # share of trust / urgency cues composed by ``cues`` rather than drawn from the lexicon
# extra feelings per condition for cold politeness with a non-anger emotion ("terse but disheartened"),
# so that curt / snappy wording is learned as politeness, not as an anger cue
COLD_NON_ANGER_EXTRA = 0.3
_NO_ADVERB = ("is", "has", "can't", "cannot", "will", "would", "was", "isn't", "doesn't", "had", "keeps",
              "says", "sees", "feels", "needs", "wants")


@dataclass(frozen=True)
class Feeling:
    text: str
    condition: EmotionCondition
    domain: str


def _pred(rng: random.Random, emotion: str) -> str:
    p = rng.choice(PRED[emotion])
    if rng.random() < 0.2 and p.split(" ", 1)[0] not in _NO_ADVERB:
        p = rng.choice(ADVERBS) + p  # "quietly boasts ...", "still resents ..."
    return p


def _emo_phrase(rng: random.Random, emotion: str) -> str:
    r = rng.random()
    if r < 0.38:
        return f"{rng.choice(FEELS)} {rng.choice(INTENSIFIERS)}{rng.choice(ADJ[emotion])}"
    if r < 0.66:
        return _pred(rng, emotion)
    if r < 0.84:
        a, b = rng.sample(ADJ[emotion], 2)
        return f"{rng.choice(HEDGES)} {a} and {b}"
    # an adjective and a behaviour: "is disheartened and is close to throwing in the towel"
    return f"is {rng.choice(INTENSIFIERS)}{rng.choice(ADJ[emotion])} and {_pred(rng, emotion)}"


_IRREGULAR = {"is": "are", "isn't": "aren't", "has": "have", "doesn't": "don't", "does": "do", "was": "were",
              "seems": "seem", "appears": "appear"}


def plural(pred: str) -> str:
    """Turn a singular third-person predicate into its 'they' form (first word only)."""
    first, _, rest = pred.partition(" ")
    if first in ("probably", "likely", "still", "also", "really", "quietly", "clearly", "openly", "visibly",
                 "plainly", "obviously") and rest:
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


def _lower_subject(subj: str) -> str:
    """'The user' -> 'the user' after a lead-in; names ('Maria', 'Mr. Okafor') keep their capital."""
    first = subj.split(" ", 1)[0]
    return subj[0].lower() + subj[1:] if first in ("The", "This", "A", "An") else subj


def _pronoun(rng: random.Random) -> tuple[str, bool]:
    return rng.choice((("They", True), ("They", True), ("She", False), ("He", False)))


def compose(cond: EmotionCondition, domain: str, rng: random.Random, shape: int | None = None) -> str:
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
    shape = rng.randrange(8) if shape is None else shape
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
        s = f"{lead}, {_lower_subject(subj)} {sit} {emo}."
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
    elif shape == 6:
        # fronted emotion adjective: "Disheartened, the student ... . She ..."
        adj = rng.choice(ADJ[cond.emotion])
        s = f"{rng.choice(INTENSIFIERS).strip().capitalize() + ' ' if rng.random() < 0.3 else ''}{adj}"
        s = f"{s[0].upper()}{s[1:]}, {_lower_subject(subj)} {sit} {_pred(rng, cond.emotion)}."
        if dims:
            s += f" {pron} {_join(dims, rng, they)}."
    elif shape == 7:
        # politeness next to the emotion, in contrast: "The caller is terse but clearly disheartened; ..."
        pol = [d for d in dims if d in POL[cond.politeness]] or [vary_agent(rng.choice(POL[cond.politeness]), rng, domain, 0.4)]
        rest = [d for d in dims if d not in pol]
        conj = rng.choice((" but ", ", though ", " and ", " yet ", "; underneath, they "))
        emo2 = plural(emo) if conj.endswith("they ") else emo
        s = f"{subj} {sit} {pol[0]}{conj}{emo2}."
        if rest:
            s += f" {pron} {_join(rest, rng, they)}."
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
        if cond.politeness == "cold" and cond.family != "anger":
            for _ in range(round(COLD_NON_ANGER_EXTRA * n_per_condition)):
                domain = rng.choice(DOMAINS)
                out.append(Feeling(compose(cond, domain, rng, shape=rng.choice((7, 7, 5, 0))), cond, domain))
    return out


if __name__ == "__main__":  # pragma: no cover - preview
    for f in generate(1)[::37]:
        print(f.condition.id, "|", f.text)
