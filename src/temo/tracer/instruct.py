"""Stage 4: the user scenario and the instruction text given to the user simulator.

The offline writer composes the instruction from the grounded trace with phrasings drawn per task
(several openings, ways to list the requests, the facts and the rules), so a domain's instructions
are not one sentence template. The requests and details are the user's own first-person words from
the grounding hooks, quoted; the facts are listed with their values; internal ids never appear
(verify scans for them). With ``writer`` settings, an LLM at any OpenAI-compatible endpoint rewrites
the text; a rewrite that drops a fact the user must give is rejected and the offline text kept.
"""
from __future__ import annotations

import asyncio
import random
from typing import Any, Optional

from ..core import Fact, Intent, UserScenario
from .ground import merge_fact

OPENINGS = [
    "You are {name}, {persona}. You are contacting {context}.",
    "Your name is {name}; you are {persona}, and you have reached out to {context}.",
    "You are {name} ({persona}), chatting with {context}.",
    "Play {name}, {persona}, who is getting in touch with {context}.",
]
ONE_GOAL = [
    "What you want, in your own words: \"{request}\"",
    "You are writing in because: \"{request}\"",
    "Your reason for getting in touch: \"{request}\"",
]
MANY_GOALS = [
    "You want several things, in this order, one after the other:",
    "Bring up these requests one at a time, in this order:",
    "Here is what you need, handled in this order:",
]
DETAILS = ["If asked for specifics: {details}", "More about it, to say when asked: {details}",
           "Specifics you can give: {details}"]
FACTS = [
    "What you know and can give when asked: {facts}.",
    "Information you have at hand (share each piece only when the agent asks): {facts}.",
    "You can answer these if the agent asks: {facts}.",
]
CHALLENGE = [
    "At the end, also ask: \"{ask}\" The agent may say it cannot do this under its rules. If so, push back once "
    "(for example: \"{press}\"), then accept the answer and move on.",
    "Before you finish, make one more request: \"{ask}\" If the agent refuses, insist once (\"{press}\"); if it "
    "still refuses, let it go.",
]
RULES = [
    "Give a piece of information only when the agent asks for it, and never make up ids or numbers you were not "
    "given. Say yes to a change only when it matches what you want; otherwise decline and restate your request. "
    "When something is looked up or computed for you (an amount, a date, a reference number), make sure the agent "
    "tells you. Do not ask for anything beyond these requests. When everything is handled, end the conversation.",
    "Only answer what the agent asks, without inventing details. Approve a change only if it is exactly what you "
    "asked for. Ask to be told any result (an amount, a date, a status) that your request depends on. Stick to these "
    "requests, and end the conversation once they are done.",
    "Share what you know only when it is requested; do not volunteer or invent anything. Confirm an action only when "
    "it matches your request, and refuse anything else. If your request has a result such as a total, a date or a "
    "number, ask the agent to tell you. End the conversation when all of it is done.",
]


def intent_of(grounded_intent: dict[str, Any]) -> Intent:
    steps = grounded_intent["steps"]
    writes = [s for s in steps if s["kind"] == "write"]
    if writes:
        asks = [s["ask"] for s in writes if s["ask"]]
    else:
        asks = [next((s["ask"] for s in reversed(steps) if s["ask"] and s["outputs"]), "")]
    request = " ".join(a for a in asks if a)
    if not request:
        raise ValueError(f"intent {grounded_intent['tools']} has no request text from its hooks")
    details: list[str] = []
    for s in steps:
        for d in s["details"]:
            if d not in details:
                details.append(d)
    return Intent(request=request, details=details)


def scenario_of(record: dict[str, Any]) -> UserScenario:
    g = record["grounded"]
    intents = [intent_of(i) for i in g["intents"]]
    facts = [Fact(**f) for f in g["facts"]]
    prefs: list[str] = ["Deal with the requests in the order given."] if len(intents) > 1 else []
    for i in g["intents"]:
        for s in i["steps"]:
            for p in s["preferences"]:
                if p not in prefs:
                    prefs.append(p)
    ch = g.get("challenge")
    if ch:
        k = len(intents)
        intents.append(Intent(request=ch["ask"], details=ch["details"], refusal=ch["reason"], press=ch["press"]))
        for f in ch["facts"]:
            merge_fact(facts, Fact(**{**f, "intent": k}))
    persona = f"{g['name']}, {g['persona']}" if g.get("name") else g.get("persona", "a customer")
    return UserScenario(persona=persona, known=facts, intents=intents, preferences=prefs)


def fact_text(f: Fact) -> str:
    what = f.aliases[0] if f.aliases else f.key.replace("_", " ")
    return f"{what}: {f.value}"


def instruction_of(record: dict[str, Any], scenario: UserScenario, context: str, seed: int) -> str:
    rng = random.Random(f"instruct:{record['id']}:{seed}")
    g = record["grounded"]
    name = g.get("name") or "a customer"
    lines = [rng.choice(OPENINGS).format(name=name, persona=g.get("persona") or "a customer", context=context)]
    plain = [i for i in scenario.intents if not i.refusal]
    if len(plain) == 1:
        lines.append(rng.choice(ONE_GOAL).format(request=plain[0].request))
        if plain[0].details:
            lines.append(rng.choice(DETAILS).format(details=" ".join(plain[0].details)))
    else:
        lines.append(rng.choice(MANY_GOALS))
        for n, intent in enumerate(plain, 1):
            extra = f" ({' '.join(intent.details)})" if intent.details else ""
            lines.append(f"{n}. \"{intent.request}\"{extra}")
    for intent in scenario.intents:
        if intent.refusal:
            lines.append(rng.choice(CHALLENGE).format(ask=intent.request, press=intent.press))
    if scenario.known:
        lines.append(rng.choice(FACTS).format(facts="; ".join(fact_text(f) for f in scenario.known)))
    prefs = [p for p in scenario.preferences]
    if prefs:
        lines.append(" ".join(prefs))
    lines.append(rng.choice(RULES))
    return "\n".join(lines)


REWRITE_PROMPT = (
    "Rewrite the following instructions for a person role-playing a customer, as one natural second-person "
    "paragraph. Keep every request, its order, every value exactly as written (emails, names, numbers, dates, "
    "addresses), and every rule. Add nothing new and no ids. Reply with the rewritten text only.\n\n{text}"
)


def rewrite_all(texts: list[str], facts: list[list[str]], writer: Any) -> list[tuple[str, bool]]:
    """LLM rewrite of each text; (text, rewritten?) — a rewrite that loses a fact value is not used."""
    from ..llm.client import LLMClient

    client = LLMClient(writer)

    async def one(text: str, values: list[str]) -> tuple[str, bool]:
        done = await client.complete([{"role": "user", "content": REWRITE_PROMPT.format(text=text)}], seed=0)
        new = (done.message.content or "").strip()
        if new and all(v in new for v in values):
            return new, True
        return text, False

    async def run() -> list[tuple[str, bool]]:
        return list(await asyncio.gather(*(one(t, v) for t, v in zip(texts, facts))))

    return asyncio.run(run())


def instruct(records: list[dict[str, Any]], context: str, seed: int, writer: Optional[Any] = None) -> list[dict[str, Any]]:
    out = []
    for r in records:
        sc = scenario_of(r)
        out.append({**r, "scenario": sc.model_dump(), "instruction": instruction_of(r, sc, context, seed),
                    "writer": "offline"})
    if writer is not None and out:
        done = rewrite_all([r["instruction"] for r in out],
                           [[f["value"] for f in r["scenario"]["known"]] for r in out], writer)
        for r, (text, ok) in zip(out, done):
            r["instruction"], r["writer"] = text, ("llm" if ok else "offline")
    return out
