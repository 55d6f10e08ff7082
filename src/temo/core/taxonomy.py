"""The emotion taxonomy of the paper (Atlas of Emotions): 5 families, 22 fine emotions, and
three behavioural dimensions. 22 x 3 x 3 x 3 = 594 conditions.

This lives in `core` because every layer needs the vocabulary; the anchors, the encoder and the
mapper live in `temo.emotion`.
"""
from __future__ import annotations

FAMILIES: dict[str, tuple[str, ...]] = {
    "anger": ("annoyance", "frustration", "argumentativeness", "bitterness", "exasperation"),
    "fear": ("anxiety", "nervousness", "dread", "desperation"),
    "disgust": ("dislike", "aversion", "distaste", "repugnance"),
    "sadness": ("disappointment", "discouragement", "helplessness", "hopelessness", "sorrow"),
    "enjoyment": ("relief", "pride", "peace", "excitement"),
}
POLITENESS: tuple[str, ...] = ("warm", "neutral", "cold")
URGENCY: tuple[str, ...] = ("low", "moderate", "high")
TRUST: tuple[str, ...] = ("trusting", "cautious", "skeptical")

EMOTIONS: tuple[str, ...] = tuple(e for fam in FAMILIES.values() for e in fam)
FAMILY_OF: dict[str, str] = {e: fam for fam, leaves in FAMILIES.items() for e in leaves}
DIMENSIONS: dict[str, tuple[str, ...]] = {"politeness": POLITENESS, "urgency": URGENCY, "trust": TRUST}

N_CONDITIONS = len(EMOTIONS) * len(POLITENESS) * len(URGENCY) * len(TRUST)
ANCHORS_PER_CONDITION = 10
