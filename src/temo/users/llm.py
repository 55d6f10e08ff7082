"""The `llm` user simulator: an emotion-conditioned customer played by a chat model.

Its system prompt holds the simulation guidelines, the task instruction and, in the emotion arm
only, the emotion instruction (both come from ``ctx.instruction``). Roles are flipped for the
simulator model: the agent's words are ``user`` messages, the simulator's own past replies are
``assistant`` messages. The conversation opens with the agent's greeting. The simulator only ever
receives the agent's visible text (the orchestrator passes nothing else), never its reasoning or
tool calls. Its reply is returned raw (termination tokens included; the orchestrator reads them
with `read_termination`); inline ``<think>`` blocks are moved to `UserReply.reasoning` and kept out
of its own history.

RoleConfig keys: ``model``, ``base_url``, ``api_key_env``, ``sampling`` (temperature defaults to
0.0 here), and the client keys of ``extra`` (concurrency, timeout, max_retries, prices...).
"""
from __future__ import annotations

from typing import Any

from ..core import RoleConfig, Usage
from ..llm import LLMClient, LLMSettings
from .base import STOP, UNSATISFIED, UserContext, UserReply

DEFAULT_TEMPERATURE = 0.0

SYSTEM_TEMPLATE = """\
You are playing a customer who is contacting a company's support agent. Stay in character for the \
whole conversation: you are the customer, never the agent, and you never mention that you are an \
AI or that this is a simulation.

Guidelines:
- Write one message at a time, as the customer would type it: short and natural, in the first \
person. Write only your own words (no narration, no labels such as "Customer:").
- Give information only when it is needed: start with your request, and share details such as \
your name, email, order or booking numbers when the agent asks for them or when they are \
clearly needed to move on. Do not recite everything in your first message.
- Stay within your task. Ask only for what your instructions say you want; do not add new \
requests, and follow the preferences and constraints given to you.
- Never invent facts. If the agent asks for something your instructions do not give you, say you \
do not know or do not have it. Do not guess identifiers, dates or amounts.
- Let the agent do its job: you cannot see its systems or tools, so you do not know what it looks \
up. Judge it only by what it says to you.
- If your instructions describe how you feel, let that feeling shape your tone, patience and \
wording throughout, and let it evolve with how the conversation goes, without changing what you \
want.

Ending the conversation (write the marker alone at the end of your final message):
- {stop}: when everything you wanted has been taken care of (or you have been clearly told what \
cannot be done and have nothing left to ask), and you are leaving on reasonable terms.
- {unsatisfied}: when the interaction has become unacceptable to you, for example needless or \
repeated questions, going in circles, friction or delays with no progress, your feelings being \
ignored or dismissed, or you no longer trust the agent to help. Never use {unsatisfied} once \
everything you wanted is done: then end with {stop}.
Use at most one of the two markers, only when you are really ending the conversation.

Your instructions:
{instruction}"""


def prompt_templates() -> dict[str, str]:
    """Every prompt template of this simulator (name -> text), for the run config's hashes."""
    return {"user.llm.system": SYSTEM_TEMPLATE}


def system_prompt(instruction: str) -> str:
    return SYSTEM_TEMPLATE.format(stop=STOP, unsatisfied=UNSATISFIED, instruction=instruction.strip())


class LLMUser:
    def __init__(self, role: RoleConfig, ctx: UserContext):
        self.client = LLMClient(LLMSettings.from_role(role, name="user", default_temperature=DEFAULT_TEMPERATURE))
        self.ctx = ctx
        self.seed = ctx.seed
        self.history: list[dict[str, Any]] = [{"role": "system", "content": system_prompt(ctx.instruction)}]

    @property
    def usage(self) -> Usage:
        return self.client.usage

    async def respond(self, agent_text: str) -> UserReply:
        # The agent's visible words are the simulator's "user" turn; its own replies are "assistant".
        self.history.append({"role": "user", "content": agent_text or ""})
        try:
            completion = await self.client.complete(list(self.history), seed=self.seed)
        except BaseException:
            self.history.pop()  # keep the history consistent if the caller retries
            raise
        text = completion.message.content or ""
        self.history.append({"role": "assistant", "content": text})
        return UserReply(text=text, reasoning=completion.message.reasoning)


def create(role: RoleConfig, ctx: UserContext) -> LLMUser:
    return LLMUser(role, ctx)
