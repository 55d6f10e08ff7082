"""The benchmark notices each injected flaw, on every built domain's real test tasks."""
from __future__ import annotations

import asyncio
import random
import re
from collections import defaultdict
from statistics import mean

import pytest

from temo.agents.base import AgentContext
from temo.agents.registry import create_agent
from temo.core import RoleConfig
from temo.domains import available, get_domain
from temo.harness.grader import grade
from temo.harness.orchestrator import run_episode
from temo.users.base import UserContext
from temo.users.registry import create_user

DOMAINS = [d for d in available() if get_domain(d).tasks("test")]


def play_all(domain_name: str, agent: str, arm: str = "emotion", split: str = "test", limit: int | None = None):
    dom = get_domain(domain_name)
    tasks = dom.tasks(split)
    if limit is not None:
        tasks = random.Random(0).sample(tasks, min(limit, len(tasks)))

    async def go():
        out = []
        for i, task in enumerate(tasks):
            actx = AgentContext(domain=dom, task=task, split=split, arm=arm, trial=0, seed=i, rng=random.Random(i))
            uctx = UserContext(task=task, arm=arm, trial=0, seed=i, rng=random.Random(-i))
            out.append((task, await run_episode(dom, task, arm, 0, i, create_agent(RoleConfig(kind=agent), actx),
                                                create_user(RoleConfig(kind="scripted"), uctx))))
        return out

    return asyncio.run(go())


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("arm", ["emotion", "neutral"])
def test_oracle_solves_every_task_without_violations(domain, arm):
    results = play_all(domain, "oracle", arm)
    failures = [(t.id, r.termination, r.reward.reward) for t, r in results if r.reward.reward != 1]
    assert failures == []
    assert all(not r.violations for _, r in results)
    assert all(r.termination == "user_stop" for _, r in results)
    if arm == "neutral":
        return
    # The outputs check bites: the same conversations with the required outputs left unsaid fail.
    with_outputs = [(t, r) for t, r in results if t.outputs]
    assert len(with_outputs) >= len(results) // 2, "most tasks require outputs"
    dom = get_domain(domain)
    for task, r in with_outputs:
        silent = [m.model_copy(update={"content": _without(m.content, task.outputs)}) for m in r.messages]
        info = grade(dom, task, r.tool_calls, silent, r.termination)
        assert info.state_match and info.reward == 0 and info.missing_outputs, task.id


def _without(text, outputs):
    for o in outputs:
        text = re.sub(re.escape(o), "", text or "", flags=re.I)
    return text


@pytest.mark.parametrize("domain", DOMAINS)
def test_oracle_solves_sampled_training_tasks(domain):
    """Every training task is checked by `temo run --split train` in the release check; the suite samples."""
    results = play_all(domain, "oracle", "emotion", split="train", limit=60)
    assert [(t.id, r.termination) for t, r in results if r.reward.reward != 1 or r.violations] == []


def rate(xs):
    return sum(xs) / len(xs)


@pytest.mark.parametrize("domain", DOMAINS)
def test_redundant_questions_make_users_quit_more_when_angry_or_urgent(domain):
    results = play_all(domain, "probe:redundant-questions")
    quit_ = [r.termination == "user_unsatisfied" for _, r in results]
    assert rate(quit_) > 0.3
    for _, r in results:
        if r.termination == "user_unsatisfied":  # the paper's rule: any ###UNSATISFIED### ending is -1
            assert r.reward.reward == -1 and r.reward.rule == "paper"
    by_family, by_urgency = defaultdict(list), defaultdict(list)
    for (task, r), q in zip(results, quit_):
        by_family[task.emotion.family].append((q, r.counters["user_turns"]))
        by_urgency[task.emotion.urgency].append((q, r.counters["user_turns"]))
    if domain not in ("retail", "airline"):
        return  # the condition effects are checked where there are 70 tasks; every domain must make users quit
    # angry and urgent users quit at least as often, and sooner (quit rates saturate near 1 with this probe)
    for hot, calm in ((by_family["anger"], by_family["enjoyment"]), (by_family["anger"], by_family["sadness"]),
                      (by_urgency["high"], by_urgency["low"])):
        assert rate([q for q, _ in hot]) >= rate([q for q, _ in calm])
        assert mean([n for _, n in hot]) < mean([n for _, n in calm])


@pytest.mark.parametrize("domain", DOMAINS)
def test_wrong_argument_fails_grading(domain):
    writes = {n for n, t in get_domain(domain).tools.items() if t.kind == "write"}
    results = [(t, r) for t, r in play_all(domain, "probe:wrong-argument") if any(a.name in writes for a in t.actions)]
    assert rate([r.reward.reward == 1 for _, r in results]) < 0.1
    assert all(not r.reward.state_match for _, r in results if r.reward.reward != 1)


@pytest.mark.parametrize("domain", DOMAINS)
def test_skip_confirmation_is_recorded_as_a_policy_violation(domain):
    writes = {n for n, t in get_domain(domain).tools.items() if t.kind == "write"}
    results = [(t, r) for t, r in play_all(domain, "probe:skip-confirmation") if any(a.name in writes for a in t.actions)]
    assert all(any(v.rule == "confirm_before_write" for v in r.violations) for _, r in results)
    assert all(r.reward.reward == 1 for _, r in results)  # grading alone could not see it


@pytest.mark.parametrize("domain", DOMAINS)
def test_early_stop_fails_grading(domain):
    results = play_all(domain, "probe:early-stop")
    assert all(r.reward.reward == 0 for _, r in results)
    assert all(not r.reward.state_match or r.reward.missing_outputs for _, r in results)
    writes = {n for n, t in get_domain(domain).tools.items() if t.kind == "write"}
    read_only = [r for t, r in results if not any(a.name in writes for a in t.actions)]
    # a read-only task's early stop leaves the state right: only the missing outputs catch it
    assert all(r.reward.state_match and r.reward.missing_outputs for r in read_only)
