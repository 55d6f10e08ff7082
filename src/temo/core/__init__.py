"""The pydantic data model shared by all layers."""
from .models import (
    Action, Arm, EmotionCondition, EpisodeRecord, Fact, FunctionCall, Intent, Message, RewardInfo,
    Split, Task, Termination, ToolCall, ToolCallRecord, Usage, UserScenario, Violation, cell_id,
)
from . import taxonomy
from .errors import InfrastructureError
from .config import RoleConfig

__all__ = [
    "Action", "Arm", "EmotionCondition", "EpisodeRecord", "Fact", "FunctionCall", "Intent", "Message",
    "RewardInfo", "Split", "Task", "Termination", "ToolCall", "ToolCallRecord", "Usage", "UserScenario",
    "Violation", "cell_id", "taxonomy", "InfrastructureError", "RoleConfig",
]
