"""Checks several domain test modules share (a module sets ``DOMAIN`` for the fixtures of conftest.py
and imports what it needs from here): tool calls that must succeed or be refused, the paper's rules for
a tool graph, records that validate, grounded walks that replay and speak in the user's own words, and
fact aliases that give nothing away."""
from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any, Iterable

from temo.core import Task
from temo.env import Database, Domain, Environment, Store, ToolGraph
from temo.tracer.graph import validate
from temo.tracer.ground import ground_trace, load_grounder

# what a simulated user must never say: the agent's second person, or a token that is an internal id
SECOND_PERSON = re.compile(r"\b(you|your|yourself)\b", re.I)
TOKEN = re.compile(r"[A-Za-z0-9_#@.\-]+")


def assert_atomic(domain: Domain, db: Database, tool: str, args: dict) -> None:
    """A call either changes the state or, when refused, leaves no trace at all."""
    store = Store(db)
    before = store.hash()
    out = Environment(domain.tools, store).execute(tool, args)
    if out.ok:
        assert store.hash() != before
    else:
        assert store.hash() == before and store.changed() == {}, out.observation


def assert_records_validate(db: Database, models: dict[str, type], key_fields: dict[str, str]) -> None:
    """Every record of each modelled table validates against its pydantic model and is stored under
    its own id (the model's ``key_fields[table]`` field)."""
    for table, model in models.items():
        for key, rec in db.tables[table].items():
            assert getattr(model.model_validate(rec), key_fields[table]) == key, (table, key)


def fresh_env(domain: Domain, db: Database) -> Environment:
    """An environment over a new copy-on-write store of ``db`` (the ``env`` fixture, for any database)."""
    return Environment(domain.tools, Store(db))


def expect_ok(env: Environment, name: str, args: dict) -> Any:
    """Call a tool that must succeed; its reply parsed as JSON, or the plain text when it is not JSON."""
    out = env.execute(name, args)
    assert out.ok, (name, args, out.observation)
    try:
        return json.loads(out.observation)
    except ValueError:
        return out.observation


def expect_refused(env: Environment, name: str, args: dict, needle: str = "",
                   kind: str | tuple[str, ...] | None = "domain", pattern: str | None = None) -> str:
    """Call a tool that must refuse, leaving the state as it was; the refusal's text. The error is of
    ``kind`` (one of several when a tuple, any when None); its text holds ``needle`` and, when given,
    matches the regular expression ``pattern`` (both in any case)."""
    before = env.store.hash()
    out = env.execute(name, args)
    kinds = (kind,) if isinstance(kind, str) else kind
    assert not out.ok and (kinds is None or out.error in kinds), (name, args, out.observation)
    assert needle.lower() in out.observation.lower(), out.observation
    if pattern is not None:
        assert re.search(pattern, out.observation, re.I), out.observation
    assert env.store.hash() == before
    return out.observation


def assert_paper_graph_shape(graph: ToolGraph) -> None:
    """The paper's rules for a tool graph: no self-loops, density and the share of connected pairs
    linked both ways within its ranges (counted here, not with the Tracer's own function)."""
    edges = set(map(tuple, graph.edges))
    assert all(a != b for a, b in edges)
    assert 0.25 <= graph.density <= 0.43, graph.density
    pairs = {frozenset(e) for e in edges}
    both = sum(1 for p in pairs if all((a, b) in edges for a in p for b in p if a != b))
    assert 0.34 <= both / len(pairs) <= 0.57, both / len(pairs)


def assert_graph_follows_the_paper(domain: Domain, tools: int, edges: int) -> None:
    """A graph built for this project: the paper's size for the domain, its shape rules, more than half
    of the roots write tools (a user may open with a request to act) though not all, and a grounding
    hook for every node."""
    g = domain.graph
    assert len(g.nodes) == tools and len(g.edges) == edges
    assert validate(domain, {"tools": tools, "edges": edges}) == []
    assert_paper_graph_shape(g)
    writes = [r for r in g.roots if domain.tools[r].kind == "write"]
    assert len(g.roots) / 2 < len(writes) < len(g.roots), (writes, g.roots)
    assert set(g.nodes) == set(load_grounder(domain).hooks)


def assert_walks_ground_and_replay(domain: Domain, walks: list[dict], seed: int, share: float, internal: set[str],
                                   **options: Any) -> list[dict]:
    """Ground sampled walks with the domain's own grounder, as the Tracer does (``options`` go to
    ``ground_trace``): at least ``share`` of them ground, every grounded record replays on a fresh copy
    of its split's database to the state the grounder recorded, and all the user is given to say
    (asks, details, challenge, fact values) is in the user's own words. The grounded records."""
    grounder = load_grounder(domain)
    usage, drops = Counter(), Counter()
    grounded = [r for r in (ground_trace(domain, grounder, w, usage, drops, seed, **options) for w in walks) if r]
    assert len(grounded) >= share * len(walks), drops
    for rec in grounded:
        g = rec["grounded"]
        assert_grounded_replays(domain, domain.database(rec["split"]), g)
        assert_in_users_words(user_texts(g) + [f["value"] for f in g["facts"]], internal)
    return grounded


def assert_grounded_replays(domain: Domain, db: Database, grounded: dict) -> None:
    """A grounded trace's actions, replayed on a fresh copy of ``db``, all succeed and end in the
    state the grounder recorded."""
    env = fresh_env(domain, db)
    for a in grounded["actions"]:
        assert env.execute(a["name"], a["arguments"]).ok, a
    assert env.store.hash() == grounded["final_hash"]


def user_texts(grounded: dict) -> list[str]:
    """What the simulated user of a grounded trace is given to say: every step's ask and details,
    then the challenge's ask and details when there is one."""
    texts = [x for i in grounded["intents"] for s in i["steps"] for x in (s["ask"], *s["details"])]
    if grounded["challenge"]:
        texts += [grounded["challenge"]["ask"], *grounded["challenge"]["details"]]
    return texts


def assert_in_users_words(texts: Iterable[str], internal: set[str]) -> None:
    """No text is in the second person (the user speaks for themselves) or holds an internal id as a token."""
    for text in texts:
        assert not SECOND_PERSON.search(text), text
        assert not set(TOKEN.findall(text)) & internal, text


def assert_aliases_do_not_reveal_later_facts(tasks: Iterable[Task]) -> None:
    """Asking for one known fact by its key must not reveal a fact of another key that the user
    only learns in a later intent (the scripted user answers by alias)."""
    from temo.users.scripted import fact_aliases

    for task in tasks:
        for e in task.scenario.known:
            words = " " + e.key.replace("_", " ") + " "
            for f in task.scenario.known:
                if f.key != e.key and f.intent > e.intent:
                    assert not any(f" {a} " in words for a in fact_aliases(f)), (task.id, e.key, f.key)
