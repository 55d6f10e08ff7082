"""What a run directory may say about an LLM role: models, endpoints, sampling; never a key."""
from __future__ import annotations

import hashlib
import json
import os
import re
from typing import Any

from ..core.config import RoleConfig
from .settings import LLMSettings, public_url

REFERENCE_USER_MODEL = "Qwen3-235B-A22B-Instruct-2507"
_REFERENCE_RE = re.compile(r"^(?:[\w.\-]+/)*qwen3-235b-a22b-instruct-2507$", re.IGNORECASE)

# Keys of `extra` / `extra_body` that could hold a secret if someone put one there.
_SECRET_WORDS = ("key", "token", "secret", "password", "authorization", "auth")


def _looks_secret(name: str) -> bool:
    low = name.lower()
    return any(w in low for w in _SECRET_WORDS) and low not in {"max_tokens", "max_completion_tokens", "top_k"} \
        and not low.endswith("_tokens") and low != "api_key_env"


def _clean(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: ("***" if _looks_secret(str(k)) else _clean(v)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def describe_role(role: RoleConfig) -> dict[str, Any]:
    """A JSON-safe description of a role for the run config: kind, model, endpoint (without
    credentials), the NAME of the key variable, sampling and extra settings. Never a key value:
    if the key held by ``api_key_env`` appears anywhere, it is masked."""
    out: dict[str, Any] = {"kind": role.kind}
    if role.kind == "llm":
        out.update(
            model=role.model,
            base_url=public_url(role.base_url),
            api_key_env=role.api_key_env,
            sampling=_clean(dict(role.sampling or {})),
            extra=_clean(dict(role.extra or {})),
        )
    else:
        if role.sampling:
            out["sampling"] = _clean(dict(role.sampling))
        if role.extra:
            out["extra"] = _clean(dict(role.extra))
    secret = os.environ.get(role.api_key_env) if role.api_key_env else None
    if secret and len(secret) >= 4:
        text = json.dumps(out, ensure_ascii=False)
        if secret in text:
            out = json.loads(text.replace(json.dumps(secret)[1:-1], "***"))
    return out


def is_reference_user(role: RoleConfig) -> bool:
    """True for the paper's main user simulator: Qwen3-235B-A22B-Instruct-2507 at temperature 0
    (model name matched case-insensitively, with or without an org prefix such as ``Qwen/``).
    A user role with no temperature set counts as 0, the user default."""
    if role.kind != "llm" or not role.model or not _REFERENCE_RE.match(role.model.strip()):
        return False
    temperature = (role.sampling or {}).get("temperature")
    try:
        return temperature is None or float(temperature) == 0.0
    except (TypeError, ValueError):
        return False


def check_role(role: RoleConfig, name: str) -> None:
    """Raise `LLMConfigError` (one line, for exit code 2) when an llm role cannot work at all:
    missing model or base URL, bad numbers, a named key variable that is not set."""
    if role.kind != "llm":
        return
    LLMSettings.from_role(role, name=name).api_key()


def template_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
