"""Clause-level evidence for politeness, urgency and trust.

A feeling description usually states each behavioural dimension in its own clause ("...; they are
curt, need it today, and doubt the agent"). Averaged over the whole text such cues are diluted by
the emotion and the situation, so a second small model reads clause by clause: each clause gets,
per dimension, a distribution over {none, level1, level2, level3}. The clauses that carry
evidence (low P(none)) are pooled; with no evidence the dimension falls back toward its middle
level (neutral / moderate / cautious), since descriptions that say nothing about, e.g.,
politeness describe a neutral user.
"""
from __future__ import annotations

import random
import re

import numpy as np

from temo.core.taxonomy import DIMENSIONS, EMOTIONS

from . import cues
from . import lexicon_anchor as LA
from . import lexicon_feeling as LF
from .synth import _fragment, plural

DIMS = DIMENSIONS
SEG_HEADS: dict[str, tuple[str, ...]] = {d: ("none",) + levels for d, levels in DIMS.items()}
SEG_HEADS["emotion"] = ("none",) + EMOTIONS
COMPOSED_PER_LEVEL = 150
NEUTRAL_CLAUSES = 400
LONG_CONTEXTS = 3  # emotion phrases placed inside long clauses, per phrase
PRIOR = np.array([0.15, 0.7, 0.15])  # no evidence: lean to the middle level
EVIDENCE_POWER = 2.0
# emotion evidence: a clause can be made to count only by how far its P(not none) exceeds this
# floor. Off: with the clause model trained on dimension-only clauses as emotion `none`, a floor of
# 0.5 lowered held-out synthetic accuracy slightly (0.719 -> 0.714 emotion); see docs/emotion.md.
EMOTION_EVIDENCE_FLOOR = 0.0

_SPLIT = re.compile(r"[.;:!?()\n]|,|\s[-\u2013\u2014]\s|\b(?:and|but|while|though|although|yet|so|because)\b",
                    re.IGNORECASE)


def split(text: str) -> list[str]:
    segs = [s.strip() for s in _SPLIT.split(text) if s and s.strip()]
    segs = [s for s in segs if any(c.isalpha() for c in s)]
    return segs or [text]


_PREFIXES = ("", "they ", "she ", "he ", "and ", "but ", "while they ", "the user ", "the customer ",
             "overall they ", "though they ")


def examples(seed: int = 0, exclude: frozenset[str] = frozenset()) -> tuple[list[str], dict[str, list[str]]]:
    """(texts, labels per dimension) for the clause model, from both lexicons.

    ``exclude``: second-person pieces (anchor phrasings) to leave out, for held-out evaluation."""
    rng = random.Random(f"segments:{seed}")
    texts: list[str] = []
    labels: dict[str, list[str]] = {d: [] for d in SEG_HEADS}

    def add(t: str, lab: dict[str, str]) -> None:
        texts.append(t)
        for d in SEG_HEADS:
            labels[d].append(lab.get(d, "none"))

    lex = {"politeness": (LF.POL, LA.POLITENESS_HOW), "urgency": (LF.URG, LA.URGENCY_HOW),
           "trust": (LF.TRU, LA.TRUST_HOW)}
    for d, (third, second) in lex.items():
        for level in DIMS[d]:
            for ph in third[level]:
                for p in _PREFIXES:
                    add(p + (plural(ph) if p.strip().endswith("they") else ph), {d: level})
                # the bare plural form, as left after splitting "they are curt and doubt the agent";
                # without it a bare "doubt ..." was only ever seen after "doesn't" (the other pole)
                add(rng.choice(("", "and ", "but ")) + plural(ph), {d: level})
                # the same cue aimed at another addressee ("distrusts the bank"), and as a fragment
                if "the agent" in ph or "the company" in ph:
                    p, v = rng.choice(_PREFIXES), LF.vary_agent(ph, rng, "any", 1.0)
                    add(p + (plural(v) if p.strip().endswith("they") else v), {d: level})
                else:
                    add(_fragment(ph), {d: level})
                add(_fragment(LF.vary_agent(ph, rng, "any", 0.5)), {d: level})
            for ph in second[level]:
                if ph in exclude:
                    continue
                core = ph.rstrip(".")
                add(core, {d: level})
                add(core.lower().removeprefix("and ").removeprefix("since ").removeprefix("because "), {d: level})
                add(rng.choice(("they ", "and they ", "")) + core[0].lower() + core[1:], {d: level})
    for (d, level), target in NEGATED.items():
        third = lex[d][0]
        for ph in third[level]:
            if _ALREADY_NEGATIVE.search(ph):  # "doesn't buy it" / "has no doubts": no double negation
                continue
            for neg in negate(ph):
                add(rng.choice(("", "they ", "she ", "he ")) + neg if not neg.startswith("don't") else "they " + neg,
                    {d: target})
    # dimension cues in other surface forms, all emotion = none: "there's no hurry", "in no rush",
    # "it can wait", "the caller is curt", "still polite". Without them a timing or politeness
    # clause that starts like an emotion phrase ("there's no point") leaked into the emotion.
    for d, (third, _) in lex.items():
        for level in DIMS[d]:
            for ph in third[level]:
                for v in surface_variants(ph, rng):
                    add(v, {d: level})
    for (d, level), target in NEGATED.items():
        for ph in lex[d][0][level]:
            if not _ALREADY_NEGATIVE.search(ph):
                for neg in negate(ph)[:2]:
                    for v in surface_variants(neg, rng)[:2]:
                        add(v, {d: target})
    # composed cues (frame x addressee x task / time) and request clauses without any cue
    for d in ("trust", "urgency"):
        for level in DIMS[d]:
            for _ in range(COMPOSED_PER_LEVEL):
                p, c = rng.choice(_PREFIXES), cues.cue(d, level, rng, rng.choice(LF.DOMAINS))
                add(p + (plural(c) if p.strip().endswith("they") else c), {d: level})
    for _ in range(NEUTRAL_CLAUSES):
        p, c = rng.choice(_PREFIXES), cues.neutral_clause(rng, rng.choice(LF.DOMAINS))
        add(p + (plural(c) if p.strip().endswith("they") else c), {})
        dom = rng.choice(LF.DOMAINS)  # the same after a full subject, as in long descriptions
        add(f"{rng.choice(LF.SUBJECTS[dom] + LF.SUBJECTS['any'])} {cues.neutral_clause(rng, dom)}", {})
    def add_emotion(t: str, e: str) -> None:
        add(t, {"emotion": e})
        parts = split(t)  # at map time "overwhelmed and unable to ..." arrives as two clauses
        if len(parts) > 1:
            for part in parts:
                add(part, {"emotion": e})

    for e in LF.ADJ:
        for a in LF.ADJ[e]:
            for pre in rng.sample(("is ", "feels ", "they are ", "seems ", "is likely ", "probably feels ",
                                   "the user is ", "is feeling very ", "a little ", "", "she is ", "he seems "), 3):
                add_emotion(pre + a, e)
            add_emotion(rng.choice(("is ", "feels ", "")) + rng.choice(LF.INTENSIFIERS) + a, e)
        for ph in LF.PRED[e]:
            for pre in rng.sample(("", "they ", "she ", "he ", "the customer ", "the user ", "the caller "), 2):
                add_emotion(pre + (plural(ph) if pre == "they " else ph), e)
            if ph.split(" ", 1)[0] not in ("is", "has", "can't", "will", "was", "feels", "keeps"):
                add_emotion(rng.choice(LF.ADVERBS) + ph, e)
        # the emotion inside a long clause, after a full subject (and situation) or before a reason:
        # "The account holder opening a savings account is at ease", "is proud of ... after ..."
        # Without these, clauses that start like the `none` situation clauses below read as `none`.
        for ph in [("is " if rng.random() < 0.6 else rng.choice(LF.FEELS) + " ") + a
                   for a in LF.ADJ[e] for _ in range(LONG_CONTEXTS)] + list(LF.PRED[e]) * LONG_CONTEXTS:
            dom = rng.choice(LF.DOMAINS)
            subj = rng.choice(LF.SUBJECTS[dom] + LF.SUBJECTS["any"])
            r = rng.random()
            if r < 0.4:
                t = f"{subj} {rng.choice(LF.SITUATIONS[dom])} {ph}"
            elif r < 0.55:
                t = f"{subj} {ph} {rng.choice(('after', 'over', 'about', 'following', 'because of'))} " \
                    f"{rng.choice(LF.REASONS[e] + LF.REASONS[rng.choice(LF.EMOTIONS_ALL)])}"
            elif r < 0.7:
                # followed by an emotion-free request or situation: "is pleased with themselves for
                # paying off the loan", "is at ease about opening a savings account"
                tail = rng.choice((f"{rng.choice(('for', 'about', 'while', 'when'))} {rng.choice(LF.SITUATIONS[dom])}",
                                   f"{rng.choice(('and', 'as they', 'so they'))} {plural(cues.neutral_clause(rng, dom))}"))
                t = f"{subj} {ph} {tail}"
            else:
                t = f"{subj} {ph}"
            add(t, {"emotion": e})
        for f in LA.FEEL[e]:
            if f in exclude:
                continue
            for seg in split(f):
                add(seg, {"emotion": e})
    for dom, sits in LF.SITUATIONS.items():
        for s in sits:
            add(f"{rng.choice(LF.SUBJECTS[dom])} {s}", {})
            add(s, {})
    return texts, labels


_SAYS = re.compile(r"^(?:says|adds|notes|mentions|makes clear)(?: that)? ")
_VAR_LEADS = ("", "", "still ", "as ", "since ", "otherwise ", "also ", "clearly ", "for now ")


def surface_variants(ph: str, rng: random.Random) -> list[str]:
    """Other surface forms of a third-person dimension cue, as they appear in free text."""
    out = []
    core = _SAYS.sub("", ph)
    if core != ph:  # "says there's no rush" -> "there's no rush", "it can wait"
        out.append(core)
    if ph.startswith("is "):  # "is in no hurry" -> "in no hurry", "still in no hurry"
        out.append(rng.choice(_VAR_LEADS) + ph[3:])
    m = re.search(r"\b(no (?:particular |real |immediate )?(?:rush|hurry|deadline|urgency|time pressure)\b.*)$", ph)
    if m:  # "has no deadline", "is in no hurry" -> "there's no deadline", "no hurry", "with no rush"
        out.extend(lead + m.group(1) for lead in ("there is ", "there's ", "", "with "))
    dom = rng.choice(LF.DOMAINS)
    v = LF.vary_agent(ph, rng, dom, 0.5)
    out.append(f"{rng.choice(LF.SUBJECTS[dom] + LF.SUBJECTS['any'])} {v}")  # "Maria is curt"
    out.append(rng.choice(_VAR_LEADS) + (plural(v) if rng.random() < 0.3 else v))
    return out


# negating a cue of one pole gives a cue of the other: "doesn't trust the agent" is skeptical,
# "doesn't need it immediately" is low urgency. Applied to the third-person lexicon.
NEGATED = {("trust", "trusting"): "skeptical", ("urgency", "high"): "low",
           ("trust", "skeptical"): "trusting", ("politeness", "warm"): "cold", ("politeness", "cold"): "neutral"}
_ALREADY_NEGATIVE = re.compile(r"n't\b|\bnot\b|\bno\b|\bnever\b|\bnothing\b|\bwithout\b|\bnone\b|\banyone\b",
                               re.IGNORECASE)


def negate(pred: str) -> list[str]:
    first, _, rest = pred.partition(" ")
    if first == "is":
        return [f"is not {rest}", f"isn't {rest}"]
    if first in ("has", "can't", "cannot", "would", "wants", "needs", "insists"):
        if first in ("can't", "cannot", "would"):
            return []
    base = plural(pred)
    return [f"doesn't {base}", f"does not {base}", f"no longer {pred}", f"don't {base}"]


def pool(seg_probs: dict[str, np.ndarray], owner: np.ndarray, n: int) -> dict[str, np.ndarray]:
    """Pool clause distributions (rows) into one distribution over levels per text.

    Dimensions fall back to PRIOR without evidence; the emotion to a uniform distribution."""
    out: dict[str, np.ndarray] = {}
    order = np.argsort(owner, kind="stable")  # each text's rows, in their original order
    bounds = np.searchsorted(owner[order], np.arange(n + 1))
    groups = [order[bounds[i]:bounds[i + 1]] for i in range(n)]
    for d, P in seg_probs.items():
        k = P.shape[1] - 1
        prior = PRIOR if k == 3 else np.full(k, 1.0 / k)
        res = np.empty((n, k))
        ev = 1.0 - P[:, 0]
        if d == "emotion" and EMOTION_EVIDENCE_FLOOR:
            ev = np.clip((ev - EMOTION_EVIDENCE_FLOOR) / (1.0 - EMOTION_EVIDENCE_FLOOR), 0.0, 1.0)
        w = ev ** EVIDENCE_POWER
        for i, rows in enumerate(groups):
            wi = w[rows]
            L = (wi[:, None] * P[rows, 1:]).sum(0)
            L = L / L.sum() if L.sum() > 1e-12 else prior
            E = float(ev[rows].max()) if len(rows) else 0.0
            res[i] = E * L + (1 - E) * prior
        out[d] = res
    return out
