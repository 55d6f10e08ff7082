"""The scripted user's wording: it voices the condition without changing what a message means."""
from __future__ import annotations

import random
import re

from temo.core import EmotionCondition
from temo.core.phrases import is_affirmative
from temo.core.taxonomy import EMOTIONS
from temo.users import phrasing
from temo.users.phrasing import FEELINGS, Voice

ALL_LINES = [line for lines in FEELINGS.values() for line in lines] + [
    line for sets in (phrasing.URGENCY, phrasing.TRUST, phrasing.QUIT_LINES, phrasing.THANKS) for lines in sets.values()
    for line in lines] + phrasing.WARM_OPEN + phrasing.WARM_CLOSE + phrasing.COLD_OPEN + phrasing.COLD_CLOSE


def test_every_fine_emotion_has_its_own_varied_lines():
    assert set(FEELINGS) == set(EMOTIONS)
    for emotion, lines in FEELINGS.items():
        assert len(set(lines)) >= 6, emotion
    every = [line for lines in FEELINGS.values() for line in lines]
    assert len(every) == len(set(every))  # no line shared between emotions


def test_no_line_reads_as_consent_or_starts_with_no_or_states_a_fact():
    for line in ALL_LINES:
        assert not is_affirmative(line), line
        assert not re.match(r"^\W*no\b", line, re.I), line
        assert not re.search(r"\d", line), line  # no invented numbers, dates or amounts


def test_wrapping_keeps_the_core_and_its_meaning():
    rng = random.Random(0)
    refusal = "No, that's not what I asked for. I want to cancel my order."
    for cond in rng.sample(EmotionCondition.all(), 80):
        voice = Voice(cond, random.Random(cond.id))
        for first in (True, False):
            yes = voice.say("Yes, please go ahead.", first=first)
            assert is_affirmative(yes), yes
            no = voice.say(refusal, first=first)
            assert not is_affirmative(no) and refusal in no, no
            facts = voice.say("My order id is #W123; my zip code is 90210.", first=first)
            assert "My order id is #W123; my zip code is 90210." in facts


def test_first_message_carries_every_part_and_the_neutral_arm_none():
    cond = EmotionCondition.parse("dread.cold.high.skeptical")
    first = Voice(cond, random.Random(1)).say("I want to move my flight.", first=True)
    assert any(line in first for line in FEELINGS["dread"])
    assert any(line in first for line in phrasing.URGENCY["high"])
    assert any(line in first for line in phrasing.TRUST["skeptical"])
    assert any(line in first for line in phrasing.COLD_OPEN + phrasing.COLD_CLOSE)
    assert Voice(None, random.Random(1)).say("I want to move my flight.", first=True) == "I want to move my flight."
    assert "Yes, go ahead." in Voice(cond, random.Random(1)).say("Yes, please go ahead.")  # cold: no please


def test_same_seed_same_words_different_conditions_different_words():
    a = EmotionCondition.parse("relief.warm.low.trusting")
    b = EmotionCondition.parse("exasperation.cold.high.skeptical")
    say = lambda c, s: [Voice(c, random.Random(s)).say(x, first=(i == 0)) for i, x in enumerate(["Hi.", "Okay.", "Okay."])]
    assert say(a, 5) == say(a, 5)
    assert say(a, 5) != say(b, 5)
