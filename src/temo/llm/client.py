"""One async client for every LLM role, on the official `openai` client.

- one `AsyncOpenAI` per (event loop, base URL, key) is shared by all roles and episodes, so
  connections are pooled; its own retries are off (``max_retries=0``): ours are explicit;
- a concurrency limit per endpoint: one semaphore per (event loop, base URL), shared by every
  role pointing there; the first role to reach an endpoint sets the limit;
- retries with exponential backoff and jitter on 408/409/425/429, 5xx, timeouts, connection errors
  and malformed responses; ``Retry-After`` is honoured up to the maximum delay; after the last try
  an `InfrastructureError` (a cell-level infra error, never an agent failure);
- token usage per client (a client belongs to one role in one episode) and cost from the
  user-supplied price table only (unknown cost stays None, never 0).
"""
from __future__ import annotations

import asyncio
import email.utils
import errno
import logging
import os
import random
import re
import time
import weakref
from dataclasses import dataclass
from typing import Any, Optional

import openai

from ..core import Message, Usage
from ..core.errors import InfrastructureError
from .parse import parse_message
from .settings import LLMSettings, public_url

log = logging.getLogger("temo.llm")

RETRY_STATUS = frozenset({408, 409, 425, 429})
SEED_MODULUS = 2**31  # llama.cpp and some servers take 32-bit seeds


class LLMRequestRejected(InfrastructureError):
    """The endpoint refused the request outright (4xx other than 408/409/425/429: bad model name,
    authentication, context too long...). Not retried; still an infrastructure error, so the cell
    is re-run on resume once the configuration is fixed."""

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        self.status = status


@dataclass
class Completion:
    message: Message  # assistant message: visible content, tool calls, reasoning apart
    usage: Usage  # this request only
    finish_reason: Optional[str] = None
    attempts: int = 1


# ------------------------------------------------------------------------------------------------
# Shared per-loop state: clients and endpoint semaphores
# ------------------------------------------------------------------------------------------------


class _LoopState:
    def __init__(self) -> None:
        self.clients: dict[tuple[str, str], openai.AsyncOpenAI] = {}
        self.limits: dict[str, asyncio.Semaphore] = {}
        self.limit_sizes: dict[str, int] = {}
        self.keeper: Optional[asyncio.Task] = None


_STATE: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopState]" = weakref.WeakKeyDictionary()


def _state() -> _LoopState:
    loop = asyncio.get_running_loop()
    st = _STATE.get(loop)
    if st is None:
        st = _STATE[loop] = _LoopState()
        # `asyncio.run` (and pytest-asyncio) cancel every pending task before closing the loop:
        # this one then closes the pooled clients, so no connection is left open at exit even
        # when nobody calls `aclose_clients()`.
        st.keeper = loop.create_task(_close_on_cancel(st), name="temo.llm client keeper")
    return st


async def _close_on_cancel(st: "_LoopState") -> None:
    try:
        await asyncio.Event().wait()
    finally:
        await _close(st)


async def _close(st: "_LoopState") -> None:
    clients, st.clients = list(st.clients.values()), {}
    for client in clients:
        try:
            await client.close()
        except Exception:  # pragma: no cover - best effort at shutdown
            pass


def _openai_client(base_url: str, api_key: str) -> openai.AsyncOpenAI:
    st = _state()
    key = (base_url, api_key)
    client = st.clients.get(key)
    if client is None:
        client = st.clients[key] = openai.AsyncOpenAI(base_url=base_url, api_key=api_key, max_retries=0,
                                                      http_client=_http_client())
    return client


def http_backend() -> str:
    """``aiohttp`` when it is installed (openai's own aiohttp transport, ``openai[aiohttp]``: about
    half the CPU per request of the default), else ``httpx``. ``TEMO_LLM_HTTP=httpx`` forces httpx."""
    if os.environ.get("TEMO_LLM_HTTP", "").lower() == "httpx":
        return "httpx"
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        return "httpx"
    return "aiohttp" if hasattr(openai, "DefaultAioHttpClient") else "httpx"


def _http_client() -> Any:
    if http_backend() == "aiohttp":
        try:
            return openai.DefaultAioHttpClient()
        except RuntimeError:  # openai without its vendored aiohttp transport
            pass
    return None  # the openai client's default httpx transport


def endpoint_semaphore(base_url: str, limit: int) -> asyncio.Semaphore:
    """The semaphore of an endpoint in the running loop (created with ``limit`` on first use)."""
    st = _state()
    sem = st.limits.get(base_url)
    if sem is None:
        sem = st.limits[base_url] = asyncio.Semaphore(limit)
        st.limit_sizes[base_url] = limit
    elif st.limit_sizes[base_url] != limit:
        log.debug("endpoint %s keeps its concurrency limit %d (asked %d)", public_url(base_url),
                  st.limit_sizes[base_url], limit)
    return sem


async def aclose_clients() -> None:
    """Close the pooled clients of the running loop (at the end of a run; `asyncio.run` also
    triggers it by cancelling the keeper task)."""
    loop = asyncio.get_running_loop()
    st = _STATE.pop(loop, None)
    if st is None:
        return
    if st.keeper is not None and not st.keeper.done():
        st.keeper.cancel()
    await _close(st)


# ------------------------------------------------------------------------------------------------
# The client
# ------------------------------------------------------------------------------------------------


class LLMClient:
    """Chat completions for one role. Cheap to create (one per role per episode): the HTTP
    client and the endpoint semaphore are shared."""

    def __init__(self, settings: LLMSettings):
        self.settings = settings
        settings.api_key()  # a named key variable that is unset fails here, before any request
        self.usage = Usage()
        self._price = settings.price()
        self._rng = random.Random()  # jitter only: never affects results

    # ---------------------------------------------------------------------------------------
    def request_body(self, messages: list[dict[str, Any]], tools: Optional[list[dict[str, Any]]] = None,
                     seed: Optional[int] = None) -> dict[str, Any]:
        """The JSON body of a chat-completions request: model, messages, tools, standard
        sampling, seed, then the server-specific ``extra_body`` keys merged at the top level."""
        s = self.settings
        body: dict[str, Any] = {"model": s.model, "messages": messages,
                                **{k: v for k, v in s.sampling.items() if k != "tool_choice"}}
        if tools:
            body["tools"] = tools
            # The OpenAI default, said explicitly: some servers (llama-cpp-python) treat a missing
            # tool_choice as "none" and leave the tools out of the prompt. Override it with
            # extra_body {"tool_choice": "required"} (or "none").
            body["tool_choice"] = s.sampling.get("tool_choice", "auto")
        if seed is not None:
            body["seed"] = int(seed) % SEED_MODULUS
        body.update(s.extra_body)
        return body

    async def complete(self, messages: list[dict[str, Any]], *, tools: Optional[list[dict[str, Any]]] = None,
                       seed: Optional[int] = None, call_prefix: str = "call") -> Completion:
        """One chat completion, retried on transient faults; raises `InfrastructureError` when
        the endpoint keeps failing."""
        s = self.settings
        body = self.request_body(messages, tools, seed)
        key = s.api_key()
        client = _openai_client(s.base_url, key)
        # The request goes through the official client (transport, auth, error types) as a plain
        # JSON body: `chat.completions.create` would first walk every message and tool schema
        # through its typed transform, ~10 ms of CPU per agent request, which caps a run's
        # throughput far below what a fast local server delivers. The reply is read as JSON too.
        options = {"timeout": s.timeout, "headers": {"Authorization": f"Bearer {key}"}}
        sem = endpoint_semaphore(s.base_url, s.concurrency)
        attempt = 0
        while True:
            attempt += 1
            retry_after: Optional[float] = None
            try:
                async with sem:
                    response = await client.post("/chat/completions", body=body, cast_to=object, options=options)
                choices = response.get("choices") if isinstance(response, dict) else None
                if not choices or not isinstance(choices[0], dict):
                    raise _Malformed("the response has no choices")
                choice = choices[0]
                message = parse_message(choice.get("message") or {}, call_prefix=call_prefix)
                usage = self._usage_of(response.get("usage"))
                self.usage = self.usage.add(usage)
                return Completion(message=message, usage=usage, finish_reason=choice.get("finish_reason"), attempts=attempt)
            except openai.APIStatusError as e:
                status = e.status_code
                detail = _status_detail(e)
                what = f"HTTP {status}: {detail}"
                if context_overflow(detail):
                    what = f"context overflow: the conversation no longer fits the model's context window ({what})"
                if status not in RETRY_STATUS and status < 500:
                    raise LLMRequestRejected(self._fail_text(what, attempt), status) from None
                retry_after = _retry_after(e.response)
            except openai.APITimeoutError as e:
                # (the aiohttp transport reports a refused connection as a connect timeout)
                if connection_refused(e):
                    what = f"connection refused by {public_url(s.base_url)} (is the server running?)"
                else:
                    detail = _short(e.__cause__) if e.__cause__ is not None and str(e.__cause__).strip() else ""
                    what = f"timed out after {s.timeout:g}s" + (f" ({detail})" if detail else "")
            except openai.APIConnectionError as e:
                if connection_refused(e):
                    what = f"connection refused by {public_url(s.base_url)} (is the server running?)"
                else:
                    what = f"connection error: {_short(_root_cause(e))}"
            except (_Malformed, openai.APIResponseValidationError, ValueError, TypeError, AttributeError) as e:
                what = f"malformed response: {_short(e)}"
            if attempt > s.max_retries:
                raise InfrastructureError(self._fail_text(what, attempt)) from None
            delay = self._backoff(attempt, retry_after)
            log.warning("%s request to %s failed (%s); retry %d/%d in %.2fs", s.role, public_url(s.base_url),
                        _scrub(what, s), attempt, s.max_retries, delay)
            await asyncio.sleep(delay)

    # ---------------------------------------------------------------------------------------
    def _backoff(self, attempt: int, retry_after: Optional[float]) -> float:
        s = self.settings
        ceiling = min(s.retry_max_delay, s.retry_base_delay * (2 ** (attempt - 1)))
        delay = self._rng.uniform(ceiling / 2, ceiling) if ceiling > 0 else 0.0
        if retry_after is not None:
            delay = max(delay, min(retry_after, s.retry_max_delay))
        return delay

    def _usage_of(self, u: Any) -> Usage:
        if not isinstance(u, dict):
            u = None
        prompt = int(u.get("prompt_tokens") or 0) if u else 0
        completion = int(u.get("completion_tokens") or 0) if u else 0
        cost = None
        if self._price is not None and u:
            cost = (prompt * self._price["prompt"] + completion * self._price["completion"]) / 1_000_000
        return Usage(prompt_tokens=prompt, completion_tokens=completion, requests=1, cost=cost)

    def _fail_text(self, what: str, attempts: int) -> str:
        s = self.settings
        text = f"{s.role} model {s.model!r} at {public_url(s.base_url)} failed after {attempts} attempt(s): {what}"
        return _scrub(text, s)


class _Malformed(Exception):
    pass


# ------------------------------------------------------------------------------------------------
# One check of an endpoint before a run
# ------------------------------------------------------------------------------------------------


@dataclass
class EndpointProblem:
    message: str
    exit_code: int  # 2: the configuration is wrong; 1: the endpoint cannot be reached


def check_endpoint(settings: LLMSettings, timeout: float = 10.0) -> Optional[EndpointProblem]:
    """Ask the endpoint once (GET /models; on 404 a 1-token chat request) before any episode, so
    a wrong base URL or key stops the run with a hint instead of turning every cell into an
    infrastructure error. Anything else (a server without /models, a slow one) is left to the run."""
    import json
    import urllib.error
    import urllib.request

    s = settings
    public = public_url(s.base_url)
    key = s.api_key()
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}

    def ask(path: str, body: Optional[dict[str, Any]] = None) -> Optional[int]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(s.base_url + path, data=data, headers=headers, method="POST" if data else "GET")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - http(s) checked
                return resp.status
        except urllib.error.HTTPError as e:
            return e.code

    try:
        status = ask("/models")
        if status == 404:
            status = ask("/chat/completions", {"model": s.model, "max_tokens": 1,
                                               "messages": [{"role": "user", "content": "ping"}]})
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", None)
        if connection_refused(e) or (isinstance(reason, BaseException) and connection_refused(reason)):
            return EndpointProblem(f"{s.role} endpoint {public}: connection refused (is the server running, on this host and port?)", 1)
        reason = getattr(e, "reason", e)
        if isinstance(reason, TimeoutError) or "timed out" in str(reason):
            return None  # slow to answer: the run's own timeouts and retries deal with it
        return EndpointProblem(_scrub(f"{s.role} endpoint {public}: cannot connect ({reason})", s), 1)
    if status == 404:
        hint = "" if s.base_url.rstrip("/").endswith("/v1") else " (most OpenAI-compatible servers serve it under /v1, e.g. http://host:8000/v1)"
        return EndpointProblem(f"{s.role} endpoint {public} answered HTTP 404: no chat API at this base URL{hint}", 2)
    if status in (401, 403):
        why = (f"it refuses the key in ${s.api_key_env}" if s.api_key_env
               else f"it wants a key (put it in an environment variable and pass --{s.role}-api-key-env NAME)")
        return EndpointProblem(f"{s.role} endpoint {public} answered HTTP {status}: {why}", 2)
    return None


def _chain(e: BaseException):
    seen: set[int] = set()
    node: Optional[BaseException] = e
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        yield node
        node = node.__cause__ or node.__context__


def _root_cause(e: BaseException) -> BaseException:
    return list(_chain(e))[-1]


def connection_refused(e: BaseException) -> bool:
    """True when the cause of a failed request is a refused TCP connection (nothing listens)."""
    for node in _chain(e):
        if isinstance(node, ConnectionRefusedError) or getattr(node, "errno", None) == errno.ECONNREFUSED:
            return True
    return False


_ERROR_CODE = re.compile(r"^Error code: \d+\s*-\s*")
_CONTEXT = re.compile(r"context (length|window|size)|maximum context|n_ctx|too many tokens|prompt is too long|"
                      r"exceeds? the (available )?context|context_length_exceeded", re.IGNORECASE)


def _status_detail(e: "openai.APIStatusError") -> str:
    """The server's own message, without openai's ``Error code: 400 -`` prefix."""
    text = _ERROR_CODE.sub("", str(e).strip())
    return _short(Exception(text)) if text else f"{type(e).__name__}"


def context_overflow(text: str) -> bool:
    return bool(_CONTEXT.search(text or ""))


def _short(e: BaseException, limit: int = 300) -> str:
    text = str(e).strip() or type(e).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _scrub(text: str, settings: LLMSettings) -> str:
    """Never let a key value reach an error message (some servers echo request headers)."""
    try:
        key = settings.api_key()
    except Exception:
        return text
    if key and key != "EMPTY" and len(key) >= 4:
        text = text.replace(key, "***")
    return text


def _retry_after(response: Any) -> Optional[float]:
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms:
            return max(0.0, float(ms) / 1000)
        value = headers.get("retry-after")
        if not value:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, when.timestamp() - time.time())
    except Exception:
        return None
