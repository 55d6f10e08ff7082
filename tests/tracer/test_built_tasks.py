"""The frozen tasks of every domain built by Tracer: what the issue asks of them, checked on the files."""
from __future__ import annotations

import inspect
import json
import random
from collections import Counter

import pytest

from temo.core import EmotionCondition
from temo.domains import available, get_domain
from temo.domains.kit.split import split_of
from temo.tracer import feel as feel_stage
from temo.tracer.build import build, counts_for, task_bytes
from temo.tracer.ground import USER_CAP_FLOOR, load_grounder, user_cap
from temo.tracer.verify import ids_in, replay_hash

BUILT = [d for d in available() if (get_domain(d).folder / "grounding.py").exists() and get_domain(d).tasks("test")]


@pytest.mark.parametrize("name", BUILT)
def test_counts_are_the_papers(name):
    dom = get_domain(name)
    want = counts_for(name)
    assert len(dom.tasks("test")) == want["test"] and len(dom.tasks("train")) == want["train"]


@pytest.mark.parametrize("name", BUILT)
def test_references_follow_their_walks(name):
    dom = get_domain(name)
    edges = set(map(tuple, dom.graph.edges))
    for split in ("test", "train"):
        for t in dom.tasks(split):
            assert t.actions[0].name in dom.auth_tools or not dom.auth_tools
            for k, walk in enumerate(t.meta["trace"]):
                names = [a.name for a in t.actions if a.intent == k and a.name in dom.graph.nodes]
                if k == 0:  # an identity look-up that is also a graph node (movie) comes first
                    while names and names[0] in dom.auth_tools and names[:len(walk)] != walk:
                        names = names[1:]
                assert names == walk, t.id
                assert walk[0] in dom.graph.roots and all((a, b) in edges for a, b in zip(walk, walk[1:]))


@pytest.mark.parametrize("name", BUILT)
def test_sampled_references_replay_and_change_state_or_answer(name):
    dom = get_domain(name)
    rng = random.Random(0)
    writes = {n for n, t in dom.tools.items() if t.kind == "write"}
    for split in ("test", "train"):
        tasks = dom.tasks(split)
        for t in rng.sample(tasks, min(40, len(tasks))):
            h, errors = replay_hash(dom, split, t.actions)
            assert errors == 0, t.id
            assert h != dom.database(split).base_hash or t.outputs, t.id
            for k, intent in enumerate(t.scenario.intents):
                if not intent.refusal:
                    assert any(a.intent == k and a.name in writes for a in t.actions) or t.outputs, (t.id, k)


@pytest.mark.parametrize("name", BUILT)
def test_no_internal_id_reaches_the_user_and_facts_are_in_the_instruction(name):
    dom = get_domain(name)
    grounder = load_grounder(dom)
    for split in ("test", "train"):
        internal = grounder.internal_ids(dom.database(split))
        assert internal
        for t in dom.tasks(split):
            texts = [t.instruction, *[x for i in t.scenario.intents for x in (i.request, *i.details)]]
            assert not [x for x in texts if ids_in(x, internal)], t.id
            for f in t.scenario.known:
                assert f.value in t.instruction, (t.id, f.key)


@pytest.mark.parametrize("name", BUILT)
def test_splits_are_disjoint(name):
    dom = get_domain(name)
    seq = {s: {json.dumps(t.meta["trace"]) for t in dom.tasks(s)} for s in ("test", "train")}
    flat = {s: {json.dumps([x for i in t.meta["trace"] for x in i]) for t in dom.tasks(s)} for s in ("test", "train")}
    assert not flat["test"] & flat["train"] and not seq["test"] & seq["train"]
    refs = {s: {json.dumps([a.model_dump() for a in t.actions], sort_keys=True) for t in dom.tasks(s)} for s in ("test", "train")}
    assert not refs["test"] & refs["train"]
    if dom.database("train") is dom.database("test"):  # one shared database: no user serves both splits
        grounder = load_grounder(dom)
        for s in ("test", "train"):
            assert all(split_of(t.meta["user_id"], grounder.test_share) == s for t in dom.tasks(s))


@pytest.mark.parametrize("name", BUILT)
def test_no_user_serves_more_tasks_than_the_cap(name):
    """Entities are spread: no user is in more tasks of a split than the build's cap (3 times the
    split's average, at least 4), counted on the frozen files themselves."""
    dom = get_domain(name)
    grounder = load_grounder(dom)
    shared = dom.database("train") is dom.database("test")
    for split in ("test", "train"):
        tasks = dom.tasks(split)
        cap = user_cap(grounder, dom.database(split), split, len(tasks), shared)
        assert max(Counter(t.meta["user_id"] for t in tasks).values()) <= cap, (split, cap)
        assert cap <= max(USER_CAP_FLOOR, 30)  # the cap itself stays small


@pytest.mark.parametrize("name", BUILT)
def test_emotion_mix_outputs_and_challenges(name):
    dom = get_domain(name)
    test = dom.tasks("test")
    fams = Counter(t.emotion.family for t in test)
    assert set(fams) == {"anger", "fear", "disgust", "sadness", "enjoyment"}
    assert min(fams.values()) >= 0.1 * len(test), fams
    assert len({t.emotion.emotion for t in test}) >= 15
    assert sum(1 for t in test if t.outputs) >= 0.2 * len(test)
    assert sum(1 for t in test if any(i.refusal for i in t.scenario.intents)) >= 0.1 * len(test)
    for t in test:
        assert t.meta["feeling"] and t.meta["feeling_target"]["family"] in fams
        assert EmotionCondition.parse(t.emotion.id) == t.emotion


def test_feeling_writer_cannot_see_the_database():
    params = inspect.signature(feel_stage.feel).parameters
    assert list(params) == ["records", "seed", "key", "writer"]
    scenario = {"persona": "Ana Lee, a nurse", "intents": [{"request": "I'd like to cancel an order."}]}
    text = feel_stage.write_feeling(scenario, {"family": "fear", "emotion": "dread", "politeness": "cold",
                                               "urgency": "high", "trust": "skeptical"}, random.Random(1))
    assert text.count(".") >= 2


def test_test_split_rebuilds_byte_for_byte():
    dom = get_domain("retail")
    fresh = build(dom, seed=0, counts={"test": counts_for("retail")["test"]})
    name, data = task_bytes(fresh["tasks"]["test"], "test")
    assert (dom.folder / "data" / name).read_bytes() == data


def test_airline_can_serve_only_skips_attempts_that_would_fail():
    """`can_serve` must change how long a build takes, never what it makes: the airline's skip of
    users with nothing to change is checked against real attempts, user by user, on sampled traces."""
    from temo.tracer.build import sampled
    from temo.tracer.ground import Attempt, GroundingFailed

    dom = get_domain("airline")
    grounder = load_grounder(dom)
    assert grounder.can_serve is not None
    db = dom.database("train")
    traces = [t for t in sampled(dom, 0) if t["split"] == "train"]
    random.Random(5).shuffle(traces)
    users = sorted(db.tables["users"])
    refused = 0
    for rec in traces[:40]:
        for uid in random.Random(rec["id"]).sample(users, 12):
            if grounder.can_serve(db, uid, rec["trace"]) is None:
                continue
            refused += 1
            att = Attempt(dom, grounder, db, uid, random.Random(f"{rec['id']}:{uid}:0"), "train", Counter())
            with pytest.raises(GroundingFailed):
                att.run(rec["trace"])
    assert refused > 50  # the check is not vacuous: most users cannot serve most writes
