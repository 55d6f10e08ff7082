"""Stage 3: ground traces by code and by execution.

For each trace, candidate users of the split are tried in a seeded order. For one user, a fresh
``Ground`` (its own store) runs the domain's authentication steps, then every tool of the trace in
order: the domain's hook picks entities that satisfy the tool's preconditions *in the state as it is
now*, and the call is executed. The attempt is dropped when a hook finds nothing (``no_entity``),
the call fails (``exec_error``), a write changes nothing (``no_change``), or an intent ends with
neither a write nor an output (``no_effect``). Only traces that execute stay; drop reasons are counted.
"""
from __future__ import annotations

import importlib
import json
import math
import random
from collections import Counter
from typing import Any, Optional

from ..core import Action, Fact
from ..env import Database, Domain
from ..env.grounding import Challenge, Ground, Grounder, GroundingFailed, Step
from ..domains.kit.split import split_of

MAX_USERS = 10  # users tried per trace, least-used first (a trace no one of them fits is dropped)
USER_CAP_FACTOR = 3
USER_CAP_FLOOR = 4


def load_grounder(domain: Domain) -> Grounder:
    try:
        module = importlib.import_module(f"temo.domains.{domain.name}.grounding")
    except ModuleNotFoundError as e:
        raise RuntimeError(f"{domain.name}: no grounding module (domains/{domain.name}/grounding.py)") from e
    grounder: Grounder = module.GROUNDER
    missing = [n for n in domain.graph.nodes if n not in grounder.hooks]
    if missing:
        raise RuntimeError(f"{domain.name}: graph nodes without a grounding hook: {', '.join(missing)}")
    return grounder


def shares_database(domain: Domain) -> bool:
    """True when test and training tasks use one database (then users are split between them)."""
    return domain.database("train") is domain.database("test")


def user_cap(grounder: Grounder, db: Database, split: str, tasks: int, shared_db: bool) -> int:
    """The most tasks one user may appear in: ``USER_CAP_FACTOR`` times the average over the split's
    users, and never below ``USER_CAP_FLOOR``. Without it the few users who fit a demanding trace
    (two pending orders, say) would serve most tasks that need one."""
    users = [u for u in db.tables[grounder.user_table]
             if not shared_db or split_of(u, grounder.test_share) == split]
    return max(USER_CAP_FLOOR, math.ceil(USER_CAP_FACTOR * tasks / max(1, len(users))))


def users_for(grounder: Grounder, db: Database, split: str, trace: list[list[str]], shared_db: bool) -> list[str]:
    if grounder.candidate_users is not None:
        users = list(grounder.candidate_users(db, split, trace))
    else:
        users = sorted(db.tables[grounder.user_table])
    if shared_db:  # test users never serve training tasks when both splits share one database
        users = [u for u in users if split_of(u, grounder.test_share) == split]
    return users


def _base(key: str) -> str:
    head, _, tail = key.rpartition("_")
    return head if head and tail.isdigit() else key


def merge_fact(facts: list[Fact], fact: Fact) -> None:
    """Add ``fact`` unless the user already knows it; a new value of a known key gets ``key_2``, ``key_3``..."""
    for f in facts:
        if _base(f.key) == fact.key and f.value == fact.value:
            return
    key, n = fact.key, 2
    while any(f.key == key for f in facts):
        key = f"{fact.key}_{n}"
        n += 1
    facts.append(fact.model_copy(update={"key": key}))


class Attempt:
    """One user's try at grounding one trace."""

    def __init__(self, domain: Domain, grounder: Grounder, db: Database, user_id: str, rng: random.Random,
                 split: str, usage: Counter):
        self.domain = domain
        self.grounder = grounder
        self.g = Ground(db, domain.tools, user_id, rng, split, usage, grounder.user_table)
        self.intents: list[dict[str, Any]] = []
        self.uses: set[tuple[str, str]] = {("user", user_id)}
        self.last_hash = self.g.store.hash()

    def _execute(self, tool: str, step: Step) -> list[str]:
        g = self.g
        write = self.domain.tools[tool].kind == "write"
        out = g.env.execute(tool, step.args)
        if not out.ok:
            raise GroundingFailed(f"exec_error:{tool}")
        if write:  # reads never change the state, so one hash per write tells a no-op write
            after = g.store.hash()
            if after == self.last_hash:
                raise GroundingFailed(f"no_change:{tool}")
            self.last_hash = after
        g.actions.append(Action(name=tool, arguments=dict(step.args), intent=g.intent))
        for f in step.facts:
            merge_fact(g.facts, f.model_copy(update={"intent": min(f.intent, g.intent)}))
        outputs = list(step.outputs)
        if step.output_from is not None:
            try:
                parsed = json.loads(out.observation)
            except ValueError:
                parsed = out.observation
            outputs += list(step.output_from(parsed))
        g.focus.update(step.focus)
        for kind, ident in (step.uses if step.uses is not None else step.focus).items():
            self.uses.add((kind, ident))
        return outputs

    def run(self, trace: list[list[str]]) -> dict[str, Any]:
        g, grounder = self.g, self.grounder
        if grounder.authenticate is not None:
            for tool, args, facts in grounder.authenticate(g):
                self._execute(tool, Step(args=args, facts=facts))
        for i, tools in enumerate(trace):
            g.intent = i
            steps = []
            for tool in tools:
                step = grounder.hooks[tool](g)
                if step is None:
                    raise GroundingFailed(f"no_entity:{tool}")
                outputs = self._execute(tool, step)
                steps.append({"tool": tool, "kind": self.domain.tools[tool].kind, "args": step.args,
                              "ask": step.ask, "details": list(step.details), "outputs": outputs,
                              "preferences": list(step.preferences)})
            if any(s["kind"] == "write" for s in steps):
                for s in steps:  # what a supporting read found is not a result the user asked for
                    if s["kind"] == "read":
                        s["outputs"] = []
            else:  # a read-only intent asks one question: the last read that answers something
                answering = [s for s in steps if s["outputs"] and s["ask"]]
                if not answering:
                    raise GroundingFailed(f"no_effect:{tools[-1]}")
                for s in steps:
                    if s is not answering[-1]:
                        s["outputs"] = []
            self.intents.append({"tools": tools, "steps": steps})
        return {
            "user_id": g.user_id,
            "persona": grounder.persona(g) if grounder.persona else "",
            "name": grounder.name_of(g) if grounder.name_of else "",
            "actions": [a.model_dump() for a in g.actions],
            "facts": [f.model_dump() for f in g.facts],
            "intents": self.intents,
            "final_hash": self.last_hash,
            "uses": sorted([list(u) for u in self.uses]),
        }

    def challenge(self) -> Optional[dict[str, Any]]:
        """One policy-forbidden request for this user in the final state, or None."""
        g = self.g
        g.intent = len(self.intents)
        funcs = list(self.grounder.challenges)
        g.rng.shuffle(funcs)
        for func in funcs:
            try:
                ch: Optional[Challenge] = func(g)
            except GroundingFailed:
                ch = None
            if ch is not None:
                return {"ask": ch.ask, "reason": ch.reason, "press": ch.press, "details": list(ch.details),
                        "facts": [f.model_dump() for f in ch.facts], "rule": ch.rule}
        return None


def ground_trace(domain: Domain, grounder: Grounder, record: dict[str, Any], usage: Counter, drops: Counter,
                 seed: int, want_challenge: bool = False, max_users: int = MAX_USERS,
                 user_cap: Optional[int] = None) -> Optional[dict[str, Any]]:
    """Ground one sampled trace record on its split's database; the grounded record, or None (reasons
    counted in ``drops``). Users already in ``user_cap`` tasks are not picked again (even spread)."""
    split, trace = record["split"], record["trace"]
    db = domain.database(split)
    rng = random.Random(f"ground:{record['id']}:{seed}")
    users = users_for(grounder, db, split, trace, shares_database(domain))
    if not users:
        drops["no_user"] += 1
        return None
    if user_cap is not None:
        users = [u for u in users if usage[("user", u)] < user_cap]
        if not users:
            drops["user_cap"] += 1
            return None
    least = sorted(users, key=lambda u: (usage[("user", u)], rng.random()))[:max_users]
    last = "no_user"
    for user_id in least:
        refused = grounder.can_serve(db, user_id, trace) if grounder.can_serve is not None else None
        if refused is not None:  # an attempt certain to fail, skipped
            last = refused
            continue
        att = Attempt(domain, grounder, db, user_id, random.Random(f"{record['id']}:{user_id}:{seed}"), split, usage)
        try:
            out = att.run(trace)
        except GroundingFailed as e:
            last = e.reason
            continue
        out["challenge"] = att.challenge() if want_challenge else None
        for u in out["uses"]:
            usage[tuple(u)] += 1
        return {**record, "grounded": out}
    drops[last] += 1
    return None
