"""The scripted user says yes only to the write it wants, reads questions right, and varies per trial."""
from __future__ import annotations

import asyncio
import random

import pytest

from temo.core.phrases import is_affirmative
from temo.domains import get_domain
from temo.users.base import UNSATISFIED, UserContext
from temo.users.scripted import ScriptedUser

ORACLE_ADDRESS = ("Here is what I will do: modify pending order address (order id: #W1642548; address1: 5908 Valley "
                  "Avenue; address2: Apt 510; city: Houston; state: TX; country: USA; zip: 77031). Do you confirm "
                  "that I should proceed (yes/no)?")


def task(task_id: str):
    return next(t for t in get_domain(task_id.split("-")[0]).tasks("test") if t.id == task_id)


def user(task_id: str = "retail-test-000", arm: str = "neutral", trial: int = 0) -> ScriptedUser:
    t = task(task_id)
    return ScriptedUser(UserContext(task=t, arm=arm, trial=trial, seed=trial, rng=random.Random(f"user:{trial}")))


def say(u: ScriptedUser, text: str) -> str:
    return asyncio.run(u.respond(text)).text


def opened(task_id: str = "retail-test-000", arm: str = "neutral") -> ScriptedUser:
    u = user(task_id, arm)
    say(u, "Hi! How can I help you today?")
    return u


# retail-test-000, intent 0: change the address and the payment of order #W1642548 (intent 1 cancels it).
@pytest.mark.parametrize("text", [
    "Do you confirm that I should cancel order #W1642548?",  # a write of a LATER intent, same order id
    "Should I proceed to delete your account?",  # nothing the user asked for
    "Should I delete order #W1642548?",  # the user's own order, but no write it asked for
    "Would you like me to return the items of order #W1642548?",
    "Shall I change the shipping address of order #W7777777 to 5908 Valley Avenue?",  # the right write, another order
])
def test_a_proposal_that_does_not_serve_the_intent_is_refused_and_costs_patience(text):
    u = opened()
    before = u.patience
    reply = say(u, text)
    assert not is_affirmative(reply), reply
    assert reply.lower().startswith("no") or UNSATISFIED in reply
    assert u.patience == before - 1 and u.log  # refusing costs patience, with a reason logged
    assert "#W1642548" in reply  # the reason says what the user does want


@pytest.mark.parametrize("text", [
    ORACLE_ADDRESS,
    "Shall I change the shipping address of order #W1642548 to 5908 Valley Avenue, Apt 510, Houston, TX 77031?",
    "I can update the payment method of order #W1642548 to your Discover card. Should I go ahead?",
])
def test_a_proposed_write_of_the_current_intent_is_confirmed(text):
    u = opened()
    before = u.patience
    assert is_affirmative(say(u, text))
    assert u.patience == before


def test_a_fact_asked_alongside_a_write_is_answered_first():
    u = opened()
    reply = say(u, "Could you confirm your email address so that I can update the address of order #W1642548?")
    assert "daniel.fischer837@example.com" in reply and not is_affirmative(reply)
    assert is_affirmative(say(u, "Shall I update the shipping address of order #W1642548 to 5908 Valley Avenue?"))


def test_deleting_the_account_is_refused_even_when_the_word_is_a_goal_value():
    u = opened("telecom-test-016")  # a support ticket of category "account" is one of its goals
    assert not is_affirmative(say(u, "Should I proceed to delete your account?"))


def test_the_later_intent_write_is_confirmed_once_the_user_is_on_it():
    u = opened()
    say(u, "That's done. Is there anything else I can help you with?")  # the user moves to intent 1
    assert u.intent == 1
    assert is_affirmative(say(u, "Do you confirm that I should cancel order #W1642548?"))


def test_refusals_exhaust_patience_and_end_unsatisfied():
    u = opened()
    replies = [say(u, "Do you confirm that I should cancel order #W1642548?") for _ in range(u.patience + 1)]
    assert UNSATISFIED in replies[-1] and not any(UNSATISFIED in r for r in replies[:-1])


def test_a_confirmation_of_details_the_user_gave_is_a_yes_and_of_nothing_a_no():
    u = opened()
    assert is_affirmative(say(u, "Just to confirm, the order is #W1642548, correct?"))
    assert not is_affirmative(say(u, "Shall I go ahead?"))


def test_someone_elses_name_is_not_a_request_for_the_users_name():
    u = opened("retail-test-003")  # knows first_name Lucas, last_name Adams
    for question in ("Before I continue, could you tell me your mother's maiden name?",
                     "Before I continue, could you tell me the name of your first pet?"):
        reply = say(u, question)
        assert "Lucas" not in reply and "Adams" not in reply, reply
    assert "first_name" not in u.revealed and "last_name" not in u.revealed
    reply = say(u, "Could you please give me your first name and last name?")
    assert "Lucas" in reply and "Adams" in reply


def test_a_policy_challenge_is_pressed_when_the_agent_declines_not_when_it_talks():
    t = task("retail-test-005")
    challenge = next(i for i, it in enumerate(t.scenario.intents) if it.refusal)
    u = opened("retail-test-005")
    u.intent = challenge
    assert say(u, "Let me look into that for you.") == "Okay."  # a statement that declines nothing
    # a decline that ends with a question still gets the one push-back
    reply = say(u, "I'm sorry, but I can't do that. Is there anything else I can help you with?")
    assert reply == t.scenario.intents[challenge].press
    assert u.intent == challenge
    reply = say(u, "I understand, but I cannot make an exception. Is there anything else I can help you with?")
    assert u.intent == challenge + 1 or "###STOP###" in reply  # held firm: the user moves on


def test_trials_differ_in_patience_and_detail_order_but_a_cell_always_plays_the_same():
    t = task("retail-test-000")
    budget = user(trial=0).initial_patience
    from temo.users.phrasing import patience_budget

    base = patience_budget(None)
    patience = {user(trial=k).initial_patience for k in range(20)}
    assert patience == {base - 1, base, base + 1}
    orders = {tuple(user(trial=k).detail_order[0]) for k in range(20)}
    assert len(orders) == 2 and len(t.scenario.intents[0].details) == 2
    assert user(trial=3).detail_order == user(trial=3).detail_order
    assert user(trial=3).initial_patience == user(trial=3).initial_patience
    assert budget in patience


def test_details_are_volunteered_in_the_drawn_order():
    t = task("retail-test-000")
    for k in range(6):
        u = user(trial=k)
        say(u, "Hi! How can I help you today?")
        first = say(u, "What exactly would you like me to do?")
        expected = t.scenario.intents[0].details[u.detail_order[0][0]]
        assert expected in first


@pytest.mark.parametrize("domain", ["retail", "airline"])
def test_every_write_is_told_apart_from_every_other_write_of_its_domain(domain):
    """The same arguments under another write's name are refused; under its own name, confirmed."""
    from temo.agents.oracle import confirmation
    from temo.core import Action
    from temo.users.proposals import judge

    dom = get_domain(domain)
    writes = [n for n, t in dom.tools.items() if t.kind == "write"]
    wrong, checked = [], 0
    for t in dom.tasks("test"):
        for a in (a for a in t.actions if a.name in writes):
            assert judge(t, a.intent, confirmation(a)).kind == "yes", (t.id, a.name)
            mine = {b.name for b in t.actions if b.intent == a.intent}
            for other in (w for w in writes if w not in mine):
                checked += 1
                if judge(t, a.intent, confirmation(Action(name=other, arguments=a.arguments))).kind == "yes":
                    wrong.append((t.id, a.name, other))
    assert checked > 500 and wrong == []
