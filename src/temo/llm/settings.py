"""Typed settings of one LLM role, read from a `RoleConfig`.

The CLI writes a role as ``RoleConfig(kind="llm", model, base_url, api_key_env, sampling, extra)``:

``sampling``
    ``temperature``, ``top_p``, ``max_tokens`` (absent = server default) and ``extra_body``
    (server-specific: ``top_k``, ``min_p``, ``repetition_penalty``, ``chat_template_kwargs``...).
    Other standard OpenAI keys (``presence_penalty``, ``frequency_penalty``, ``stop``,
    ``reasoning_effort``) are passed as they are; any other key is sent in the body too
    (as ``extra_body``), so a server-specific knob may also be written at the top level.
``extra``
    ``concurrency`` (per-endpoint limit, shared by every role on that base URL), ``timeout``
    (seconds per request), ``max_retries``, ``retry_base_delay`` / ``retry_max_delay``
    (seconds, exponential backoff with jitter), ``prices`` (``{model: {"prompt": $/1M tokens,
    "completion": $/1M tokens}}``); role-specific keys (``keep_reasoning``, ``prompt``) are read by
    the agent and the user themselves.

The API key is read from the environment variable named by ``api_key_env`` when a request is
made; it is never stored in these settings, so nothing that serialises them can leak it.
"""
from __future__ import annotations

import os
import re
from typing import Any, Optional

from pydantic import BaseModel, Field

from ..core.config import RoleConfig

DEFAULT_CONCURRENCY = 64
DEFAULT_TIMEOUT = 600.0  # reasoning models can think for minutes
DEFAULT_MAX_RETRIES = 6
DEFAULT_RETRY_BASE_DELAY = 1.0
DEFAULT_RETRY_MAX_DELAY = 60.0
NO_KEY = "EMPTY"  # what a local server without auth gets as its key

# Keys the openai client accepts as keyword arguments of chat.completions.create.
STANDARD_SAMPLING = ("temperature", "top_p", "max_tokens", "max_completion_tokens", "tool_choice", "presence_penalty",
                     "frequency_penalty", "stop", "reasoning_effort", "logit_bias", "logprobs", "top_logprobs")


class LLMConfigError(ValueError):
    """A role is configured in a way no request could succeed with (stops before any episode)."""


class LLMSettings(BaseModel):
    """Everything needed to call one endpoint for one role. Holds no secret."""

    role: str = "llm"  # agent | user | judge | writer: used in messages only
    model: str
    base_url: str
    api_key_env: Optional[str] = None
    sampling: dict[str, Any] = Field(default_factory=dict)  # standard OpenAI parameters
    extra_body: dict[str, Any] = Field(default_factory=dict)  # server-specific parameters
    concurrency: int = DEFAULT_CONCURRENCY
    timeout: float = DEFAULT_TIMEOUT
    max_retries: int = DEFAULT_MAX_RETRIES
    retry_base_delay: float = DEFAULT_RETRY_BASE_DELAY
    retry_max_delay: float = DEFAULT_RETRY_MAX_DELAY
    prices: Optional[dict[str, dict[str, float]]] = None

    @classmethod
    def from_role(cls, role: RoleConfig, *, name: str = "llm", default_temperature: Optional[float] = None) -> "LLMSettings":
        if not role.model:
            raise LLMConfigError(f"the {name} role needs a model name (--{name}-model)")
        if not role.base_url:
            raise LLMConfigError(f"the {name} role needs a base URL (--{name}-base-url, e.g. http://localhost:8000/v1)")
        problem = base_url_problem(role.base_url)
        if problem:
            raise LLMConfigError(f"the {name} role's base URL {problem}")
        sampling: dict[str, Any] = {}
        extra_body: dict[str, Any] = {}
        for key, value in (role.sampling or {}).items():
            if value is None:
                continue
            if key == "extra_body":
                if not isinstance(value, dict):
                    raise LLMConfigError(f"sampling.extra_body of the {name} role must be a mapping, got {value!r}")
                extra_body.update(value)
            elif key in STANDARD_SAMPLING:
                sampling[key] = value
            else:
                extra_body[key] = value
        if "temperature" not in sampling and default_temperature is not None:
            sampling["temperature"] = default_temperature
        extra = role.extra or {}

        def number(key: str, default: float, kind: type, minimum: float) -> Any:
            value = extra.get(key)
            if value is None:
                return default
            try:
                value = kind(value)
            except (TypeError, ValueError):
                raise LLMConfigError(f"extra.{key} of the {name} role must be a number, got {value!r}") from None
            if value < minimum:
                raise LLMConfigError(f"extra.{key} of the {name} role must be >= {minimum}, got {value!r}")
            return value

        prices = extra.get("prices")
        if prices is not None and not isinstance(prices, dict):
            raise LLMConfigError(f"extra.prices of the {name} role must map model -> {{prompt, completion}}")
        return cls(
            role=name,
            model=role.model,
            base_url=role.base_url.rstrip("/"),
            api_key_env=role.api_key_env,
            sampling=sampling,
            extra_body=extra_body,
            concurrency=number("concurrency", DEFAULT_CONCURRENCY, int, 1),
            timeout=number("timeout", DEFAULT_TIMEOUT, float, 0.001),
            max_retries=number("max_retries", DEFAULT_MAX_RETRIES, int, 0),
            retry_base_delay=number("retry_base_delay", DEFAULT_RETRY_BASE_DELAY, float, 0.0),
            retry_max_delay=number("retry_max_delay", DEFAULT_RETRY_MAX_DELAY, float, 0.0),
            prices=prices,
        )

    def api_key(self) -> str:
        """The key from the named environment variable; "EMPTY" when none is configured.

        A named variable that is unset is a configuration error (said once, before any episode),
        rather than a silent unauthenticated request."""
        if not self.api_key_env:
            return NO_KEY
        value = os.environ.get(self.api_key_env)
        if value is None:
            raise LLMConfigError(f"environment variable {self.api_key_env} (API key of the {self.role} role) is not set")
        return value or NO_KEY

    def price(self) -> Optional[dict[str, float]]:
        """This model's prices from the user-supplied table, or None (then cost stays unknown)."""
        if not self.prices:
            return None
        wanted = [self.model, self.model.lower(), _bare(self.model), _bare(self.model).lower()]
        table = {str(k): v for k, v in self.prices.items()}
        lowered = {k.lower(): v for k, v in table.items()}
        bare = {_bare(k).lower(): v for k, v in table.items()}
        for name in wanted:
            for lookup in (table, lowered, bare):
                entry = lookup.get(name)
                if isinstance(entry, dict) and "prompt" in entry and "completion" in entry:
                    return {"prompt": float(entry["prompt"]), "completion": float(entry["completion"])}
        return None


def _bare(model: str) -> str:
    """Model name without an org prefix: ``Qwen/Qwen3-8B`` -> ``Qwen3-8B``."""
    return model.rsplit("/", 1)[-1]


_USERINFO = re.compile(r"^(\w+://)[^/@]*@")
_SECRET_PARAM = re.compile(r"(^|[-_.])(key|apikey|api-key|token|secret|password|passwd|pwd|auth|authorization|sig|signature|credential|credentials)($|[-_.])",
                           re.IGNORECASE)


def base_url_problem(url: str) -> Optional[str]:
    """What is wrong with a base URL before any request is made, or None: it must be http(s)
    with a host, and hold no credentials (``user:pw@`` or a key in its query string), since the
    URL is written to the run's config.json."""
    from urllib.parse import parse_qsl, urlsplit

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError as e:
        return f"not a valid URL ({e})"
    if parts.scheme.lower() not in ("http", "https"):
        return f"must start with http:// or https:// (got {url.split(':', 1)[0]!r}), e.g. http://localhost:8000/v1"
    if not parts.hostname:
        return "has no host, e.g. http://localhost:8000/v1"
    if "@" in parts.netloc:
        return "do not put credentials in the URL (they would be stored)"
    for name, _ in parse_qsl(parts.query, keep_blank_values=True):
        if _SECRET_PARAM.search(name):
            return f"do not put a key in the URL's query string ({name}=...; it would be stored)"
    return None


def public_url(url: Optional[str]) -> Optional[str]:
    """A base URL with any ``user:password@`` and query string removed (safe to write down)."""
    if not url:
        return url
    return _USERINFO.sub(r"\1", url).split("?", 1)[0].split("#", 1)[0]
