"""Every reward case, and the termination-token rules."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from temo.core import Message, ToolCallRecord
from temo.harness.grader import DEFAULT_REWARD_RULE, apply_rule, grade
from temo.users.base import read_termination

from toydomain import toy_task


def call(name, **args):
    return ToolCallRecord(turn=1, name=name, arguments=args, raw_arguments=json.dumps(args), kind="write")


GOAL = [call("find_account", email="ana@example.com"), call("deposit", account_id="acc_1", amount=5.0)]
WRONG = [call("deposit", account_id="acc_1", amount=6.0)]
SAID = [Message(role="assistant", content="Deposited. Your new balance is $1,015.00.")]


@pytest.mark.parametrize(
    "calls,termination,reward,quit_after_goal",
    [
        (GOAL, "user_stop", 1, False),  # goal reached, user satisfied
        (WRONG, "user_stop", 0, False),  # wrong state
        ([], "user_stop", 0, False),  # nothing done
        (WRONG, "user_unsatisfied", -1, False),  # quit before the goal
        ([], "user_unsatisfied", -1, False),
        (GOAL, "user_unsatisfied", -1, True),  # the paper's rule: any ###UNSATISFIED### ending is -1
        (GOAL, "max_turns", 1, False),  # the state is what counts
        (WRONG, "transfer", 0, False),
        (WRONG, "too_many_errors", 0, False),
    ],
)
def test_reward_cases(toy_domain, calls, termination, reward, quit_after_goal):
    info = grade(toy_domain, toy_task(), calls, [], termination)  # default rule: the paper's
    assert info.reward == reward and info.rule == "paper"
    assert info.quit_after_goal is quit_after_goal
    assert info.user_quit is (termination == "user_unsatisfied")
    assert info.state_match is (calls is GOAL)


def test_paper_rule_is_the_default_and_matches_the_paper_facts(toy_domain):
    path = Path(__file__).resolve().parents[3] / "shared" / "paper_facts.json"
    if not path.exists():
        pytest.skip("the paper's facts (../shared/paper_facts.json) are not next to this checkout")
    facts = json.loads(path.read_text())["reward"]
    assert "did not end with ###UNSATISFIED###" in facts["success_rule"]
    assert DEFAULT_REWARD_RULE == "paper"
    quit_after_goal = grade(toy_domain, toy_task(), GOAL, [], "user_unsatisfied")
    assert quit_after_goal.reward == facts["unsatisfied_before_success"] == -1
    assert grade(toy_domain, toy_task(), GOAL, [], "user_stop").reward == facts["success"]


@pytest.mark.parametrize("calls,termination,paper,goal_first", [
    (GOAL, "user_unsatisfied", -1, 1),  # the only case where the rules differ
    (WRONG, "user_unsatisfied", -1, -1),
    (GOAL, "user_stop", 1, 1),
    (WRONG, "user_stop", 0, 0),
])
def test_goal_first_rule_keeps_a_quit_after_the_goal(toy_domain, calls, termination, paper, goal_first):
    a = grade(toy_domain, toy_task(), calls, [], termination, rule="paper")
    b = grade(toy_domain, toy_task(), calls, [], termination, rule="goal-first")
    assert (a.reward, b.reward) == (paper, goal_first)
    assert b.rule == "goal-first"
    # one rule becomes the other without a replay
    assert apply_rule(a, "goal-first") == b and apply_rule(b, "paper") == a


def test_unknown_rule_is_refused(toy_domain):
    with pytest.raises(ValueError, match="paper, goal-first"):
        grade(toy_domain, toy_task(), GOAL, [], "user_stop", rule="lenient")


def test_infrastructure_errors_are_not_graded(toy_domain):
    assert grade(toy_domain, toy_task(), GOAL, [], "infra_error") is None


def test_required_outputs(toy_domain):
    task = toy_task(outputs=["1015.00"])
    ok = grade(toy_domain, task, GOAL, SAID, "user_stop")
    assert ok.reward == 1 and ok.outputs_ok  # "1,015.00" matches "1015.00"
    missing = grade(toy_domain, task, GOAL, [Message(role="assistant", content="done")], "user_stop")
    assert missing.reward == 0 and missing.missing_outputs == ["1015.00"]
    quit_missing = grade(toy_domain, task, GOAL, [], "user_unsatisfied")
    assert quit_missing.reward == -1


def test_grading_ignores_failed_and_read_calls(toy_domain):
    noisy = [call("get_account", account_id="acc_1"), call("close_account", account_id="acc_1"), *GOAL,
             ToolCallRecord(turn=2, name="deposit", arguments=None, raw_arguments="{bad", kind="write", ok=False)]
    info = grade(toy_domain, toy_task(), noisy, [], "user_stop")
    assert info.reward == 1 and info.replay_errors == 2


@pytest.mark.parametrize(
    "text,token,visible",
    [
        ("Thanks! ###STOP###", "stop", "Thanks!"),
        ("I'm done. ###UNSATISFIED###", "unsatisfied", "I'm done."),
        ("###STOP### actually ###UNSATISFIED###", "unsatisfied", "actually"),  # unsatisfied wins
        ("ok ## stop ##", "stop", "ok"),
        ("no tokens here", None, "no tokens here"),
        ("", None, ""),
    ],
)
def test_termination_tokens(text, token, visible):
    assert read_termination(text) == (token, visible)


@pytest.mark.parametrize(
    "text,yes",
    [
        ("Yes, please go ahead.", True),
        ("This has gone on long enough. Yes, please go ahead. Hurry.", True),
        ("Sure, do it", True),
        ("ok", True),
        ("Please proceed with the change.", True),
        ("No, don't do that.", False),
        ("My insurance is yes; my bags is 0.", False),
        ("My email is ana@example.com.", False),
        ("I guess? What are my options?", False),
    ],
)
def test_explicit_confirmation(text, yes):
    from temo.core.phrases import is_affirmative

    assert is_affirmative(text) is yes


def test_usage_cost_is_unknown_unless_every_part_is_priced():
    from temo.core import Usage

    priced = Usage(prompt_tokens=10, completion_tokens=2, requests=1, cost=0.5)
    unpriced = Usage(prompt_tokens=10, completion_tokens=2, requests=1, cost=None)
    assert priced.add(priced).cost == 1.0
    assert priced.add(unpriced).cost is None
    assert Usage().add(priced).cost == 0.5 and Usage().add(unpriced).cost is None
    assert priced.add(unpriced).prompt_tokens == 20
