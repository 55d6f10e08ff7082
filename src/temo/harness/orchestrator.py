"""One episode: agent <-> user <-> environment, until a termination reason.

The conversation opens with the agent's fixed greeting. The agent may call several tools (in one
or several messages) before it speaks; the user sees only its visible words. Termination reasons
are explicit: user_stop, user_unsatisfied, transfer, max_turns, too_many_errors, infra_error,
agent_error (the agent's endpoint rejected its request), user_error (the user model's endpoint
rejected its request: not graded, not the agent's fault) and harness_error (an unexpected
exception inside temo: the episode so far is kept with the traceback in `error`, not graded).
A turn is one agent message or one user message.

Everything the agent or the user sends is stored with lone surrogates escaped (see
`temo.env.safety`), so a record can always be written and a replay sees what the episode saw.
"""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass

from ..agents.base import GREETING, Agent
from ..core import EpisodeRecord, InfrastructureError, Message, Task, Termination, ToolCallRecord
from ..core.models import UNGRADED
from ..env.domain import Domain
from ..env.environment import Environment
from ..env.generic import TRANSFER_TOOL
from ..env.safety import cap_arguments, escape_strings, escape_surrogates
from ..users.base import User, read_termination
from .grader import DEFAULT_REWARD_RULE, grade
from .policy import PolicyMonitor


# HTTP statuses that reject the agent's own request (e.g. context too long, malformed history):
# re-running will not help, so the episode ends and is graded like any other agent failure.
# Connection faults, 429, 5xx, and 401/403/404 (configuration) remain infrastructure errors.
AGENT_FAULT_STATUS = {400, 413, 422}


@dataclass
class Limits:
    max_turns: int = 200
    max_errors: int = 10  # tool errors and empty agent replies, together


async def run_episode(
    domain: Domain,
    task: Task,
    arm: str,
    trial: int,
    seed: int,
    agent: Agent,
    user: User,
    limits: Limits = Limits(),
    reward_rule: str = DEFAULT_REWARD_RULE,
) -> EpisodeRecord:
    started = time.time()
    t0 = time.perf_counter()
    env = Environment(domain.tools, domain.store(task.split))
    monitor = PolicyMonitor(domain.auth_tools)
    messages: list[Message] = [
        Message(role="system", content=domain.policy),
        Message(role="assistant", content=GREETING),
    ]
    calls: list[ToolCallRecord] = []
    counters = {"agent_turns": 1, "user_turns": 0, "tool_calls": 0, "tool_errors": 0, "empty_replies": 0}
    termination: Termination = "max_turns"
    error: str | None = None
    turn = 1
    agent_text = GREETING
    speaking = "user"  # whose model call is in flight: names the fault when its endpoint rejects a request

    try:
        while True:
            # -- the user answers the agent's visible words ----------------------------------
            if turn >= limits.max_turns:
                termination = "max_turns"
                break
            speaking = "user"
            reply = await user.respond(agent_text)
            token, visible = read_termination(escape_surrogates(reply.text or ""))
            messages.append(Message(role="user", content=visible))
            counters["user_turns"] += 1
            turn += 1
            if token == "stop":
                termination = "user_stop"
                break
            if token == "unsatisfied":
                termination = "user_unsatisfied"
                break

            # -- the agent acts until it speaks ----------------------------------------------
            spoke = False
            said: list[str] = []  # visible text sent alongside tool calls, shown when the agent yields
            while not spoke:
                if turn >= limits.max_turns:
                    break
                speaking = "agent"
                msg = await agent.respond(messages)
                msg = _safe_message(msg)
                messages.append(msg)
                counters["agent_turns"] += 1
                turn += 1
                if msg.tool_calls:
                    transferred = False
                    for tc in msg.tool_calls:
                        outcome = env.execute(tc.function.name, tc.function.arguments)
                        counters["tool_calls"] += 1
                        if not outcome.ok:
                            counters["tool_errors"] += 1
                        calls.append(ToolCallRecord(
                            turn=turn, name=tc.function.name, arguments=outcome.arguments,
                            raw_arguments=tc.function.arguments, kind=outcome.kind, ok=outcome.ok,
                            error=outcome.error, result=outcome.observation,
                        ))
                        messages.append(Message(role="tool", content=outcome.observation, tool_call_id=tc.id, name=tc.function.name))
                        monitor.after_call(tc.function.name, outcome.kind, outcome.ok, turn, messages)
                        if outcome.ok and tc.function.name == TRANSFER_TOOL:
                            transferred = True
                    if transferred:
                        termination = "transfer"
                        raise _Done
                    if counters["tool_errors"] + counters["empty_replies"] >= limits.max_errors:
                        termination = "too_many_errors"
                        raise _Done
                    if (msg.content or "").strip():
                        said.append(msg.content or "")
                    continue
                if not (msg.content or "").strip():
                    counters["empty_replies"] += 1
                    if counters["tool_errors"] + counters["empty_replies"] >= limits.max_errors:
                        termination = "too_many_errors"
                        raise _Done
                    continue
                agent_text, spoke = "\n\n".join([*said, msg.content or ""]), True
            if not spoke:
                termination = "max_turns"
                break
    except _Done:
        pass
    except InfrastructureError as e:  # only the two roles' model calls raise it
        # an endpoint that rejects a role's request (a 4xx) is that role's fault; anything else is infrastructure
        rejected = getattr(e, "status", None) in AGENT_FAULT_STATUS
        termination, error = (f"{speaking}_error" if rejected else "infra_error"), str(e)[:2000]
    except Exception:  # a bug (or an input nobody foresaw) ends this cell only, never the run
        termination, error = "harness_error", _traceback_text()

    reward = None
    if termination not in UNGRADED:
        try:
            reward = grade(domain, task, calls, messages, termination, rule=reward_rule)
        except Exception:
            termination, error = "harness_error", "while grading:\n" + _traceback_text()
    return EpisodeRecord(
        task_id=task.id,
        domain=domain.name,
        arm=arm,  # type: ignore[arg-type]
        trial=trial,
        seed=seed,
        emotion=task.emotion,
        messages=messages,
        tool_calls=calls,
        termination=termination,
        error=escape_surrogates(error) if error else error,
        reward=reward,
        violations=monitor.violations,
        counters={**counters, "turns": turn},
        usage={"agent": agent.usage, "user": user.usage},
        started_at=started,
        duration_s=round(time.perf_counter() - t0, 4),
    )


class _Done(Exception):
    """Internal: leave both loops."""


def _safe_message(msg: Message) -> Message:
    """The agent's message as an assistant message whose every string is encodable."""
    data = escape_strings(msg.model_dump())
    data["role"] = "assistant"
    for tc in data.get("tool_calls") or []:
        tc["function"]["arguments"] = cap_arguments(tc["function"]["arguments"])
    return Message.model_validate(data)


def _traceback_text(limit: int = 8000) -> str:
    text = escape_surrogates(traceback.format_exc())
    return text if len(text) <= limit else "..." + text[-limit:]
