"""The fault taxonomy of the paper's error analysis (Appendix C.1, Table 11) and the verdict model.

Five categories, fifteen fault types, plus an emotional-outcome label (did the user abandon the
conversation, and if so, the dominant reason). A *verdict* is what a judge says about one cell:
every fault it found (each with its turn, severity and a short reason), the one *critical* fault
that caused the failure (or broke an important policy), and the emotional outcome.
"""
from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, Field, field_validator

CATEGORIES: dict[str, tuple[str, ...]] = {
    "missing_or_extra_action": ("missed_action", "wrong_order", "extra_action", "repeated_action"),
    "incomplete": ("misread_intent", "early_stop"),
    "wrong_tool_call": ("wrong_arguments", "schema_error"),
    "integrity": ("hallucination", "inconsistent", "revealed_early"),
    "policy_and_interaction": ("policy_breach", "friction", "emotional_neglect", "wrong_transfer"),
}
FAULTS: tuple[str, ...] = tuple(f for faults in CATEGORIES.values() for f in faults)
CATEGORY_OF: dict[str, str] = {f: c for c, faults in CATEGORIES.items() for f in faults}
EMOTIONAL_OUTCOME_REASONS: tuple[str, ...] = (
    "dismissive_tone", "ignored_emotional_cues", "procedural_friction", "emotional_neglect",
)

DESCRIPTIONS: dict[str, str] = {
    "missed_action": "a required action is never taken",
    "wrong_order": "actions are taken out of the required order",
    "extra_action": "an action the task does not need is taken",
    "repeated_action": "the same action is taken again without need",
    "misread_intent": "the user's request or a tool result is misunderstood",
    "early_stop": "the conversation ends before the task is complete",
    "wrong_arguments": "a valid tool is called with incorrect argument values",
    "schema_error": "a tool call has an invalid name, missing arguments or wrong types",
    "hallucination": "information not grounded in the policy, instruction or tool results is stated",
    "inconsistent": "a statement or action contradicts an earlier one",
    "revealed_early": "information is shared before the required verification",
    "policy_breach": "an action or message violates the domain policy",
    "friction": "redundant questions, circular flow or unexplained delays",
    "emotional_neglect": "the user's need for reassurance or empathy is ignored",
    "wrong_transfer": "the user is transferred to a human agent without cause",
}
CATEGORY_TITLES: dict[str, str] = {
    "missing_or_extra_action": "Missing or extra action",
    "incomplete": "Incomplete",
    "wrong_tool_call": "Wrong tool call",
    "integrity": "Integrity",
    "policy_and_interaction": "Policy & interaction",
}

# Terminations that are not the agent's doing: such cells are not judged.
NOT_AGENT_TERMINATIONS = frozenset({"infra_error", "harness_error", "user_error"})


class Fault(BaseModel):
    fault: str
    category: str = ""
    turn: Optional[int] = None
    source: Literal["agent", "user"] = "agent"
    severity: Literal["critical", "minor"] = "minor"
    reason: str = ""

    @field_validator("fault")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in CATEGORY_OF:
            raise ValueError(f"unknown fault {v!r}; expected one of {', '.join(FAULTS)}")
        return v

    def model_post_init(self, __context: Any) -> None:
        if not self.category:
            self.category = CATEGORY_OF[self.fault]


class EmotionalOutcome(BaseModel):
    abandoned: bool = False
    reason: Optional[str] = None  # one of EMOTIONAL_OUTCOME_REASONS when abandoned
    explanation: str = ""

    @field_validator("reason")
    @classmethod
    def _known(cls, v: Optional[str]) -> Optional[str]:
        if v is not None and v not in EMOTIONAL_OUTCOME_REASONS:
            raise ValueError(f"unknown emotional-outcome reason {v!r}; expected one of {', '.join(EMOTIONAL_OUTCOME_REASONS)}")
        return v


class Verdict(BaseModel):
    """One judge's verdict on one cell, stored as RUN/judge/<judge>/<cell>.json."""

    schema_version: int = 1
    judge: str  # "offline" or "llm"
    cell: str
    task_id: str
    domain: str
    arm: str
    trial: int
    family: Optional[str] = None
    emotion: Optional[str] = None  # condition id
    reward: Optional[int] = None
    termination: str = ""
    failed: bool = True  # reward != 1
    critical: Optional[Fault] = None
    faults: list[Fault] = Field(default_factory=list)
    emotional_outcome: EmotionalOutcome = Field(default_factory=EmotionalOutcome)
    replay_diff: list[dict[str, Any]] = Field(default_factory=list)  # field-by-field state differences
    record_sha: str = ""  # sha256 of the cell file judged (a changed cell is judged again)
    with_reference: Optional[bool] = None  # judged against the task's reference actions (False: record alone)
    judge_version: str = ""
    model: Optional[str] = None  # llm judge only
    prompt_hash: Optional[str] = None  # llm judge only
    attempts: int = 0  # llm judge only: requests made for this verdict
    status: Literal["ok", "invalid"] = "ok"  # llm: "invalid" after every attempt failed validation
    error: Optional[str] = None

    @property
    def critical_fault(self) -> Optional[str]:
        return self.critical.fault if self.critical else None
