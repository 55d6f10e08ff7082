"""Every domain's frozen data is what the build produces, with real emotion instructions."""
from __future__ import annotations

import pytest

from temo.domains import available, build, get_domain
from temo.emotion import anchors_for


@pytest.mark.parametrize("name", available())
def test_data_files_are_up_to_date(name, capsys):
    assert build.main([name, "--check"]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("name", available())
def test_tasks_carry_an_anchor_of_their_condition_and_a_neutral_twin(name):
    for split in ("test", "train"):
        tasks = get_domain(name).tasks(split)
        assert tasks
        families = {t.emotion.family for t in tasks}
        assert families == {"anger", "fear", "disgust", "sadness", "enjoyment"}
        for t in tasks:
            assert t.emotion_instruction in anchors_for(t.emotion)
            assert t.emotion_instruction in t.user_instruction("emotion")
            assert t.emotion_instruction not in t.user_instruction("neutral")
            assert t.user_instruction("neutral") == t.instruction


@pytest.mark.parametrize("name", available())
def test_intent_details_are_in_the_users_own_voice(name):
    """The scripted user says details verbatim when asked, so they must not address the user."""
    import re

    for split in ("test", "train"):
        for t in get_domain(name).tasks(split):
            for intent in t.scenario.intents:
                for d in [intent.request, *intent.details]:
                    assert not re.search(r"\b(you|your|yourself)\b", d, re.I), (t.id, d)
