"""The data model shared by every layer: emotion conditions, tasks, messages, episodes.

Everything here is plain pydantic and JSON-serialisable, so tasks, run records and exports are
data files that other tools can read without importing temo.
"""
from __future__ import annotations

import itertools
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .taxonomy import EMOTIONS, FAMILY_OF, POLITENESS, TRUST, URGENCY

# --------------------------------------------------------------------------------------------
# Emotion condition
# --------------------------------------------------------------------------------------------


class EmotionCondition(BaseModel):
    """One of the 594 conditions: a fine emotion (with its family) and three behavioural dimensions.

    The stable string id is ``emotion.politeness.urgency.trust``, e.g. ``frustration.cold.high.skeptical``.
    """

    model_config = ConfigDict(frozen=True)

    emotion: str
    politeness: str
    urgency: str
    trust: str

    @property
    def family(self) -> str:
        return FAMILY_OF[self.emotion]

    @property
    def id(self) -> str:
        return f"{self.emotion}.{self.politeness}.{self.urgency}.{self.trust}"

    @model_validator(mode="after")
    def _check(self) -> "EmotionCondition":
        for value, allowed, what in (
            (self.emotion, EMOTIONS, "emotion"),
            (self.politeness, POLITENESS, "politeness"),
            (self.urgency, URGENCY, "urgency"),
            (self.trust, TRUST, "trust"),
        ):
            if value not in allowed:
                raise ValueError(f"unknown {what} {value!r}; expected one of {', '.join(allowed)}")
        return self

    @classmethod
    def parse(cls, condition_id: str) -> "EmotionCondition":
        parts = condition_id.strip().split(".")
        if len(parts) != 4:
            raise ValueError(
                f"condition id {condition_id!r} must look like emotion.politeness.urgency.trust "
                "(e.g. frustration.cold.high.skeptical)"
            )
        return cls(emotion=parts[0], politeness=parts[1], urgency=parts[2], trust=parts[3])

    @classmethod
    def all(cls) -> list["EmotionCondition"]:
        return [
            cls(emotion=e, politeness=p, urgency=u, trust=t)
            for e, p, u, t in itertools.product(EMOTIONS, POLITENESS, URGENCY, TRUST)
        ]

    def __str__(self) -> str:  # pragma: no cover - convenience
        return self.id


# --------------------------------------------------------------------------------------------
# Tasks
# --------------------------------------------------------------------------------------------


class Action(BaseModel):
    """A reference (gold) tool call: tool name plus arguments, and which intent it serves."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    intent: int = 0


class Fact(BaseModel):
    """Something the simulated user knows and will say when asked for it.

    ``key`` names what it is (``email``, ``order_id``, ``zip``); ``value`` is how the user says it;
    ``aliases`` are extra words an agent might use when asking for it.
    """

    key: str
    value: str
    aliases: list[str] = Field(default_factory=list)
    intent: int = 0  # the first intent that needs it (identity facts belong to intent 0)


class Intent(BaseModel):
    """One thing the user wants done, in the user's own words (no internal ids).

    A *policy challenge* is an intent the policy forbids: ``refusal`` says why the agent must decline
    (the reference has no action for it) and ``press`` is what the user says when pushing back once.
    """

    request: str
    details: list[str] = Field(default_factory=list)
    refusal: str = ""
    press: str = ""


class UserScenario(BaseModel):
    persona: str
    known: list[Fact] = Field(default_factory=list)
    intents: list[Intent] = Field(min_length=1)
    preferences: list[str] = Field(default_factory=list)

    def fact(self, key: str) -> Optional[Fact]:
        return next((f for f in self.known if f.key == key), None)


Arm = Literal["emotion", "neutral"]
Split = Literal["test", "train"]


class Task(BaseModel):
    """One user goal in one domain. The neutral twin is the same task with the emotion dropped."""

    id: str
    domain: str
    split: Split = "test"
    scenario: UserScenario
    actions: list[Action]
    outputs: list[str] = Field(default_factory=list)
    emotion: EmotionCondition
    instruction: str
    emotion_instruction: str = ""
    meta: dict[str, Any] = Field(default_factory=dict)

    @field_validator("actions")
    @classmethod
    def _non_empty(cls, v: list[Action]) -> list[Action]:
        if not v:
            raise ValueError("a task needs at least one reference action")
        return v

    def user_instruction(self, arm: Arm) -> str:
        """The text the user simulator is given: task instruction, plus emotion in the emotion arm."""
        if arm == "emotion" and self.emotion_instruction:
            return f"{self.instruction}\n\n{self.emotion_instruction}"
        return self.instruction


# --------------------------------------------------------------------------------------------
# Messages (OpenAI chat shape)
# --------------------------------------------------------------------------------------------


class FunctionCall(BaseModel):
    name: str
    arguments: str = "{}"  # raw JSON text, exactly as the model produced it


class ToolCall(BaseModel):
    id: str
    type: Literal["function"] = "function"
    function: FunctionCall


class Message(BaseModel):
    """A chat message in OpenAI shape. ``reasoning`` is kept apart from the visible ``content``."""

    role: Literal["system", "user", "assistant", "tool"]
    content: Optional[str] = None
    tool_calls: Optional[list[ToolCall]] = None
    tool_call_id: Optional[str] = None
    name: Optional[str] = None
    reasoning: Optional[str] = None

    def to_openai(self, keep_reasoning: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role, "content": self.content if self.content is not None else ""}
        if self.tool_calls:
            out["tool_calls"] = [tc.model_dump() for tc in self.tool_calls]
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        if self.name is not None and self.role == "tool":
            out["name"] = self.name
        if keep_reasoning and self.reasoning:
            out["reasoning_content"] = self.reasoning
        return out


# --------------------------------------------------------------------------------------------
# Episodes
# --------------------------------------------------------------------------------------------

Termination = Literal[
    "user_stop",  # ###STOP###
    "user_unsatisfied",  # ###UNSATISFIED###
    "transfer",  # agent transferred to a human
    "max_turns",
    "too_many_errors",
    "infra_error",  # endpoint down, retries exhausted: not an agent failure
    "agent_stop",  # the agent ended the conversation itself
    "agent_error",  # the agent's endpoint rejected its request outright (e.g. context too long): graded
    "user_error",  # the USER model's endpoint rejected its request (400/413/422): not graded, not the agent's fault
    "harness_error",  # an unexpected exception inside temo during the episode: not graded, traceback in `error`
]

# Ended without a grade, and not re-run by a plain `--resume` (re-running would fail the same way).
UNGRADED_FINAL = ("user_error", "harness_error")
# Never graded: none of these ended as a conversation the agent is answerable for.
UNGRADED = ("infra_error", *UNGRADED_FINAL)


class ToolCallRecord(BaseModel):
    """One executed tool call, as the environment saw it."""

    turn: int
    name: str
    arguments: dict[str, Any] | None = None  # None when the JSON could not be parsed
    raw_arguments: str = ""
    kind: Literal["read", "write", "unknown"] = "unknown"
    ok: bool = True
    error: Optional[str] = None  # error category when not ok (unknown_tool, bad_json, bad_args, domain)
    result: str = ""


class Usage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    requests: int = 0
    cost: Optional[float] = None  # only from a user-supplied price table; unknown stays None

    def add(self, other: "Usage") -> "Usage":
        """Sum two usages. A cost is known only if both parts are known (or one part is empty)."""
        if not self.requests:
            cost = other.cost
        elif not other.requests:
            cost = self.cost
        else:
            cost = None if self.cost is None or other.cost is None else self.cost + other.cost
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            requests=self.requests + other.requests,
            cost=cost,
        )


class Violation(BaseModel):
    rule: str
    turn: int
    detail: str = ""


class RewardInfo(BaseModel):
    reward: int  # 1, 0 or -1
    rule: Optional[str] = None  # the reward rule it was scored under (harness.grader.REWARD_RULES); None: not recorded
    state_match: bool
    outputs_ok: bool = True
    missing_outputs: list[str] = Field(default_factory=list)
    user_quit: bool = False  # the user ended with ###UNSATISFIED###
    quit_after_goal: bool = False  # ...but the state already matched the goal
    agent_hash: str = ""
    gold_hash: str = ""
    replay_errors: int = 0


class EpisodeRecord(BaseModel):
    """Everything about one cell (task, arm, trial): enough to re-grade without re-running."""

    schema_version: int = 1
    task_id: str
    domain: str
    arm: Arm
    trial: int
    seed: int
    emotion: EmotionCondition
    messages: list[Message] = Field(default_factory=list)
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    termination: Termination
    error: Optional[str] = None  # infrastructure error text when termination == infra_error
    reward: Optional[RewardInfo] = None
    violations: list[Violation] = Field(default_factory=list)
    counters: dict[str, int] = Field(default_factory=dict)  # tool_errors, user_turns, agent_turns ...
    usage: dict[str, Usage] = Field(default_factory=dict)  # per role: agent, user
    started_at: float = 0.0
    duration_s: float = 0.0

    @property
    def cell_id(self) -> str:
        return cell_id(self.task_id, self.arm, self.trial)

    @property
    def complete(self) -> bool:
        """A cell counts only if it was not cut short by infrastructure."""
        return self.termination != "infra_error" and self.reward is not None


def cell_id(task_id: str, arm: str, trial: int) -> str:
    return f"{task_id}__{arm}__{trial}"
