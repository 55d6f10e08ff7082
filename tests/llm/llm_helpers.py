"""Helpers of the llm tests: roles and contexts pointing at the loopback fake server."""
from __future__ import annotations

from llm_fake_server import FakeLLMServer

from temo.core import RoleConfig

FAST = {"max_retries": 2, "retry_base_delay": 0.001, "retry_max_delay": 0.01, "timeout": 5.0}


def llm_role(server: FakeLLMServer, **extra) -> RoleConfig:
    sampling = extra.pop("sampling", {})
    key_env = extra.pop("api_key_env", None)
    model = extra.pop("model", "fake-model")
    return RoleConfig(kind="llm", model=model, base_url=server.url, api_key_env=key_env,
                      sampling=sampling, extra={**FAST, **extra})


def retail_task(emotion_instruction: str = "You are anxious and in a hurry; you want this fixed right now."):
    from temo.domains import get_domain

    task = get_domain("retail").tasks("test")[0]
    return task.model_copy(update={"emotion_instruction": emotion_instruction})


def agent_ctx(seed: int = 1234, task=None):
    import random

    from temo.agents.base import AgentContext
    from temo.domains import get_domain

    task = task or retail_task()
    return AgentContext(domain=get_domain("retail"), task=task, split="test", arm="emotion", trial=0, seed=seed,
                        rng=random.Random(seed))


def user_ctx(arm: str = "emotion", seed: int = 1234, task=None):
    import random

    from temo.users.base import UserContext

    return UserContext(task=task or retail_task(), arm=arm, trial=0, seed=seed, rng=random.Random(seed))
