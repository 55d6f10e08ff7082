"""One OpenAI-compatible async client layer for every LLM role (agent, user, Tracer writers, judge).

    settings = LLMSettings.from_role(role, name="agent")
    client = LLMClient(settings)
    completion = await client.complete(messages, tools=schemas, seed=ctx.seed)
    completion.message   # Message: content (visible), tool_calls (raw), reasoning (apart)
    client.usage         # Usage of this role so far (tokens, requests, cost or None)

See docs/llm.md.
"""
from .client import (Completion, EndpointProblem, LLMClient, LLMRequestRejected, aclose_clients, check_endpoint,
                     context_overflow, endpoint_semaphore, http_backend)
from .describe import REFERENCE_USER_MODEL, check_role, describe_role, is_reference_user, template_hash
from .parse import parse_message, split_think
from .settings import LLMConfigError, LLMSettings, base_url_problem, public_url

__all__ = [
    "Completion",
    "EndpointProblem",
    "base_url_problem",
    "check_endpoint",
    "context_overflow",
    "LLMClient",
    "LLMConfigError",
    "LLMRequestRejected",
    "LLMSettings",
    "REFERENCE_USER_MODEL",
    "aclose_clients",
    "check_role",
    "describe_role",
    "endpoint_semaphore",
    "http_backend",
    "is_reference_user",
    "parse_message",
    "public_url",
    "split_think",
    "template_hash",
]
