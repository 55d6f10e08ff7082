"""Stage 7: verify a task before it is kept, and say why when it is not.

Checks: the reference replays from a fresh store to the grounded final state; authentication comes
first; every intent that is not a policy challenge changes state or has an output; the domain's policy
checker passes; the instruction gives every fact the user must supply; no internal id appears in
anything the user simulator reads; no duplicate reference within or across splits.
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from ..core import Task
from ..env import Domain, Environment, Store
from ..env.grounding import Ground, Grounder

_TOKEN = re.compile(r"[A-Za-z0-9_#@.\-]+")


def replay_hash(domain: Domain, split: str, actions: Iterable[Any]) -> tuple[str, int]:
    store = Store(domain.database(split))
    env = Environment(domain.tools, store)
    errors = 0
    for a in actions:
        if not env.execute(a.name, a.arguments).ok:
            errors += 1
    return store.hash(), errors


def ids_in(text: str, internal: set[str]) -> list[str]:
    found = []
    for tok in _TOKEN.findall(text):
        for t in {tok, tok.strip(".-"), tok.rstrip(".")}:
            if t in internal and t not in found:
                found.append(t)
    return found


def user_texts(task: Task) -> list[str]:
    sc = task.scenario
    return [task.instruction, sc.persona, *[x for i in sc.intents for x in (i.request, *i.details, i.press)],
            *sc.preferences]


def problems(task: Task, record: dict[str, Any], domain: Domain, grounder: Grounder, internal: set[str]) -> list[str]:
    out: list[str] = []
    h, errors = replay_hash(domain, task.split, task.actions)
    if errors:
        out.append("replay_error")
    elif h != record["grounded"]["final_hash"]:
        out.append("replay_mismatch")
    if domain.auth_tools and task.actions[0].name not in domain.auth_tools:
        out.append("auth_not_first")
    writes = {n for n, t in domain.tools.items() if t.kind == "write"}
    for k, intent in enumerate(task.scenario.intents):
        if intent.refusal:
            if any(a.intent == k for a in task.actions):
                out.append("challenge_has_action")
            continue
        g_int = record["grounded"]["intents"][k]
        if not any(a.intent == k and a.name in writes for a in task.actions) and not any(s["outputs"] for s in g_int["steps"]):
            out.append("intent_without_effect")
    if grounder.check_policy is not None:
        g = Ground(domain.database(task.split), domain.tools, record["grounded"]["user_id"], None, task.split,
                   user_table=grounder.user_table)
        out += [f"policy:{p}" for p in grounder.check_policy(task.actions, g)]
    for f in task.scenario.known:
        if f.value not in task.instruction:
            out.append("fact_not_in_instruction")
            break
    for text in user_texts(task):
        if ids_in(text, internal):
            out.append("internal_id")
            break
    for text in [x for i in task.scenario.intents for x in (i.request, *i.details)]:
        if re.search(r"\b(you|your|yourself)\b", text, re.I):
            out.append("second_person_detail")
            break
    return out
