"""Every domain's frozen data is what its generator and Tracer produce, with real emotion instructions."""
from __future__ import annotations

import re

import pytest

from temo.domains import available, databases, get_domain
from temo.emotion import anchors_for

WITH_TASKS = [d for d in available() if get_domain(d).tasks("test")]


@pytest.mark.parametrize("name", available())
def test_databases_are_up_to_date(name):
    assert databases.check(name, databases.build(name)) == []


@pytest.mark.parametrize("name", WITH_TASKS)
def test_tasks_carry_an_anchor_of_their_condition_and_a_neutral_twin(name):
    for split in ("test", "train"):
        for t in get_domain(name).tasks(split):
            assert t.emotion_instruction in anchors_for(t.emotion)
            assert t.emotion_instruction in t.user_instruction("emotion")
            assert t.emotion_instruction not in t.user_instruction("neutral")
            assert t.user_instruction("neutral") == t.instruction


@pytest.mark.parametrize("name", WITH_TASKS)
def test_intent_details_are_in_the_users_own_voice(name):
    """The scripted user says requests and details verbatim, so they must not address the user."""
    for split in ("test", "train"):
        for t in get_domain(name).tasks(split):
            for intent in t.scenario.intents:
                for d in [intent.request, *intent.details]:
                    assert not re.search(r"\b(you|your|yourself)\b", d, re.I), (t.id, d)
