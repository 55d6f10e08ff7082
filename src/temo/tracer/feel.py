"""Stage 5: a feeling description for each task, from the user's scenario and requests only.

``feel`` receives the scenario (persona, requests, whether a request will be refused) and never a
store, so it cannot look at the database (the paper's rule: the feeling comes from the user context
and the requested actions). The offline writer is seeded and steers the mix: the written-for families
go round-robin over the five (so each gets about 20% of a split), the fine emotions cycle within each
family (so all 22 appear once a split has 22 tasks), and politeness, urgency and trust are drawn. Each
description is 2–3 third-person sentences in one of three styles. An LLM writer is optional.
"""
from __future__ import annotations

import asyncio
import random
from typing import Any, Optional

from ..core.taxonomy import FAMILIES, POLITENESS, TRUST, URGENCY

EMOTION_CUES: dict[str, list[str]] = {
    "annoyance": ["mildly irritated", "a little annoyed that this needs a conversation at all", "put out by the hassle"],
    "frustration": ["frustrated after running into one obstacle after another", "fed up that it has not just worked",
                    "increasingly frustrated by the runaround"],
    "argumentativeness": ["combative and ready to dispute every point", "spoiling for an argument about how this was handled",
                          "inclined to challenge whatever the agent says"],
    "bitterness": ["bitter about how similar requests were handled before", "carrying old resentment about past service",
                   "resentful, feeling let down one time too many"],
    "exasperation": ["exasperated, at the end of their rope", "worn thin and exasperated that it has come to this",
                     "throwing up their hands in exasperation"],
    "anxiety": ["anxious about what happens if this goes wrong", "worried and on edge about the outcome",
                "uneasy, turning over everything that could go wrong"],
    "nervousness": ["nervous and a bit jittery about making the change", "hesitant and nervous, unsure they are doing it right",
                    "fidgety with nerves about the request"],
    "dread": ["dreading the consequences if this cannot be fixed", "filled with dread about bad news",
              "expecting the worst and dreading it"],
    "desperation": ["desperate for this to be sorted, with no other option left", "close to desperate, pleading for a solution",
                    "feeling cornered and desperate"],
    "dislike": ["quietly displeased with how things were set up", "not fond of the current arrangement and wanting it gone",
                "mildly put off by what they got"],
    "aversion": ["averse to dealing with this any longer", "wanting to keep as far away from the problem as possible",
                 "recoiling from the idea of keeping things as they are"],
    "distaste": ["finding the whole situation distasteful", "turned off by how sloppy it looks", "faintly disgusted by it"],
    "repugnance": ["revolted by what happened", "sickened and repelled by the situation", "utterly disgusted by it"],
    "disappointment": ["disappointed that things did not turn out as hoped", "let down by how this went",
                       "deflated and disappointed"],
    "discouragement": ["discouraged after earlier attempts went nowhere", "losing heart that it will ever work out",
                       "worn down and discouraged"],
    "helplessness": ["feeling helpless, unable to fix it on their own", "at a loss and powerless to sort it out alone",
                     "helpless and depending on someone else to step in"],
    "hopelessness": ["close to giving up hope that it can be fixed", "feeling it is hopeless", "resigned, with little hope left"],
    "sorrow": ["weighed down by sadness over a personal loss behind the request", "grieving and heavy-hearted",
               "sorrowful, with a heavy heart about why this is needed"],
    "relief": ["relieved that the problem can finally be handled", "breathing easier now that help is at hand",
               "glad and relieved to be sorting it out"],
    "pride": ["proud of having planned everything carefully", "pleased with themselves for staying on top of it",
              "quietly proud of how organised they have been"],
    "peace": ["calm and at peace, in no state of stress", "serene and content about the whole thing", "relaxed and unbothered"],
    "excitement": ["excited and eager about what comes next", "thrilled and buzzing with anticipation", "bubbling with excitement"],
}
POLITENESS_CUES = {
    "warm": ["friendly and courteous, thanking the agent often", "warm and polite throughout", "kind and appreciative in tone"],
    "neutral": ["matter-of-fact, neither warm nor rude", "plain and businesslike in tone", "even-toned and to the point"],
    "cold": ["curt and clipped, with no pleasantries", "cold and brusque", "terse to the point of rudeness"],
}
URGENCY_CUES = {
    "low": ["in no hurry at all", "happy for it to take as long as it needs", "with plenty of time to spare"],
    "moderate": ["hoping to have it done within the next day or so", "wanting it handled soon but not this minute",
                 "keen to have it settled this week"],
    "high": ["needing it done right now", "with no time to lose, it has to be fixed immediately", "pressed for time and wanting it today"],
}
TRUST_CUES = {
    "trusting": ["confident the agent will take care of it", "trusting the agent to get it right", "assuming the agent knows best"],
    "cautious": ["wanting each step confirmed before agreeing", "careful, double-checking what the agent says",
                 "guarded until the details are spelled out"],
    "skeptical": ["doubting the agent will actually get it right", "skeptical of any promise and expecting mistakes",
                  "suspicious that the company will mess it up again"],
}
STYLES = ["paper", "clinical", "narrative"]


def targets(n: int, seed: int, key: str) -> list[dict[str, str]]:
    """The written-for labels of ``n`` tasks: families balanced, fine emotions cycled, dimensions drawn."""
    rng = random.Random(f"feel-targets:{key}:{seed}")
    fams = list(FAMILIES)
    cycles = {f: rng.sample(FAMILIES[f], len(FAMILIES[f])) for f in fams}
    used = {f: 0 for f in fams}
    order = [fams[i % len(fams)] for i in range(n)]
    rng.shuffle(order)
    out = []
    for fam in order:
        emo = cycles[fam][used[fam] % len(cycles[fam])]
        used[fam] += 1
        out.append({"family": fam, "emotion": emo, "politeness": rng.choice(POLITENESS),
                    "urgency": rng.choice(URGENCY), "trust": rng.choice(TRUST)})
    return out


def write_feeling(scenario: dict[str, Any], target: dict[str, str], rng: random.Random) -> str:
    """2–3 third-person sentences; uses only the scenario and the target labels."""
    emo = rng.choice(EMOTION_CUES[target["emotion"]])
    pol = rng.choice(POLITENESS_CUES[target["politeness"]])
    urg = rng.choice(URGENCY_CUES[target["urgency"]])
    tru = rng.choice(TRUST_CUES[target["trust"]])
    many = len(scenario["intents"]) > 1
    style = rng.choice(STYLES)
    if style == "paper":
        more = " and a few other things" if many else ""
        return (f"The user is likely {emo} as they get in touch about their request{more}. "
                f"They will probably come across as {pol}, {urg}, and {tru}.")
    if style == "clinical":
        return f"Emotional state: {emo}. Tone: {pol}. Timing: {urg}. Trust: {tru}."
    who = scenario.get("persona", "The customer").split(",")[0]
    return (f"{who} is {emo} about {'these requests' if many else 'this request'}. In the conversation they are {pol}, {urg}. "
            f"They are {tru}.")


def feel(records: list[dict[str, Any]], seed: int, key: str, writer: Optional[Any] = None) -> list[dict[str, Any]]:
    """Add ``feeling`` and ``feeling_target`` to each record (it reads only ``record['scenario']``)."""
    tgs = targets(len(records), seed, key)
    out = []
    for r, t in zip(records, tgs):
        rng = random.Random(f"feel:{r['id']}:{seed}")
        out.append({**r, "feeling": write_feeling(r["scenario"], t, rng), "feeling_target": t, "feeling_writer": "offline"})
    if writer is not None and out:
        _llm_feelings(out, writer)
    return out


FEEL_PROMPT = (
    "A customer is about to contact support. From what they want (below), describe in 2-3 third-person sentences "
    "how they are likely to feel and come across: their emotion ({emotion}), how polite they are ({politeness}), "
    "how urgent it is for them ({urgency}) and how much they trust the agent ({trust}). Describe, do not label. "
    "Reply with the description only.\n\nWho: {persona}\nWhat they want: {requests}"
)


def _llm_feelings(records: list[dict[str, Any]], writer: Any) -> None:
    from ..llm.client import LLMClient

    client = LLMClient(writer)

    async def one(r: dict[str, Any]) -> str:
        sc, t = r["scenario"], r["feeling_target"]
        prompt = FEEL_PROMPT.format(persona=sc["persona"], requests=" / ".join(i["request"] for i in sc["intents"]), **t)
        done = await client.complete([{"role": "user", "content": prompt}], seed=0)
        return (done.message.content or "").strip()

    async def run() -> list[str]:
        return list(await asyncio.gather(*(one(r) for r in records)))

    for r, text in zip(records, asyncio.run(run())):
        if text:
            r["feeling"], r["feeling_writer"] = text, "llm"
