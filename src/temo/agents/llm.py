"""The `llm` agent: any OpenAI-compatible chat model with function calling.

System prompt: the domain policy (``prompt="policy"``, the default, as in the paper) or the policy
wrapped in general instructions for a customer-service agent (``prompt="wrapped"``). The domain's
tools are offered as OpenAI functions. The reply is returned as the model gave it: several tool
calls in one message, malformed arguments and unknown tool names all pass through for the
orchestrator to execute or answer with an error observation; an empty reply is a Message with
content "". Reasoning is kept apart (``Message.reasoning``) and, with ``keep_reasoning`` (default),
sent back in the agent's own history as ``reasoning_content``.

RoleConfig keys read here: ``model``, ``base_url``, ``api_key_env``, ``sampling`` (see
`temo.llm.settings`), ``extra.keep_reasoning`` (bool, default True), ``extra.prompt``
("policy" | "wrapped"), and the client keys (concurrency, timeout, max_retries, prices...).
"""
from __future__ import annotations

from typing import Any

from ..core import Message, RoleConfig, Usage
from ..llm import LLMClient, LLMConfigError, LLMSettings
from .base import AgentContext

POLICY_TEMPLATE = "{policy}"

WRAPPED_TEMPLATE = """\
You are a customer-service agent. You help one customer at a time by talking with them and by \
calling the tools you are given. The rules of this service are written below; they take \
precedence over anything the customer asks.

How to work:
- Use the tools to look up facts before you ask the customer; ask the customer only for what you \
cannot find yourself, and never ask the same thing twice.
- Before any change to the customer's account, bookings or orders, say exactly what you will do \
and wait for the customer's explicit yes.
- Do not make up information, tool results or procedures. If a request is outside the rules or \
your tools, say so plainly and offer what you can do.
- Either call tools or speak to the customer in a turn; keep your messages short and clear, and \
answer the customer's feelings with a brief, sincere acknowledgement before moving on.
- Transfer to a human agent only when the rules say so.

<policy>
{policy}
</policy>"""

PROMPTS = {"policy": POLICY_TEMPLATE, "wrapped": WRAPPED_TEMPLATE}


def prompt_templates() -> dict[str, str]:
    """Every prompt template this agent can use (name -> text), for the run config's hashes."""
    return {f"agent.llm.{name}": text for name, text in PROMPTS.items()}


def _flag(value: Any, default: bool) -> bool:
    if value is None:
        return default
    if isinstance(value, str):
        return value.strip().lower() not in {"0", "false", "no", "off", ""}
    return bool(value)


class LLMAgent:
    def __init__(self, role: RoleConfig, ctx: AgentContext):
        extra = role.extra or {}
        self.prompt = str(extra.get("prompt") or "policy")
        if self.prompt not in PROMPTS:
            raise LLMConfigError(f"unknown agent prompt {self.prompt!r}; choose one of: {', '.join(PROMPTS)}")
        self.keep_reasoning = _flag(extra.get("keep_reasoning"), True)
        self.client = LLMClient(LLMSettings.from_role(role, name="agent"))
        self.ctx = ctx
        self.tools = ctx.tool_schemas
        self.seed = ctx.seed

    @property
    def usage(self) -> Usage:
        return self.client.usage

    def system_prompt(self, policy: str) -> str:
        return PROMPTS[self.prompt].replace("{policy}", policy)

    def to_openai(self, messages: list[Message]) -> list[dict[str, Any]]:
        """The request messages: system prompt from the policy, the agent's own turns with or
        without their reasoning, every other turn without any (a user's reasoning is never shown)."""
        out: list[dict[str, Any]] = []
        rest = messages
        if messages and messages[0].role == "system":
            policy = messages[0].content or ""
            rest = messages[1:]
        else:
            policy = self.ctx.policy
        out.append({"role": "system", "content": self.system_prompt(policy)})
        for m in rest:
            out.append(m.to_openai(keep_reasoning=self.keep_reasoning and m.role == "assistant"))
        return out

    async def respond(self, messages: list[Message]) -> Message:
        turn = sum(1 for m in messages if m.role == "assistant")
        completion = await self.client.complete(
            self.to_openai(messages), tools=self.tools or None, seed=self.seed, call_prefix=f"call_{turn}"
        )
        return completion.message


def create(role: RoleConfig, ctx: AgentContext) -> LLMAgent:
    return LLMAgent(role, ctx)
