"""Tools every domain offers: `calculate`, `think` and `transfer_to_human_agents` (all read)."""
from __future__ import annotations

import ast
import math
import operator
from typing import Any

from .tool import ToolError, tool

_BINOPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}
MAX_EXPRESSION = 200
MAX_MAGNITUDE = 1e15  # beyond any amount in a customer-service task; also keeps floats exact enough


def safe_arithmetic(expression: str) -> float:
    """Evaluate + - * / // % ** and parentheses over numbers, by walking the AST (never `eval`)."""
    if len(expression) > MAX_EXPRESSION:
        raise ToolError(f"expression is longer than {MAX_EXPRESSION} characters")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError:
        raise ToolError(f"cannot parse expression {expression!r}; use numbers, + - * / ( ) only") from None

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Pow) and (abs(right) > 64 or abs(left) > 1e6):
                raise ToolError("exponent too large")
            value = _BINOPS[type(node.op)](left, right)
            if isinstance(value, complex):
                raise ToolError("the result is not a real number (e.g. the root of a negative number)")
            if isinstance(value, int) and abs(value) > 10**30:
                raise ToolError("the result is too large to compute")
            return value
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](ev(node.operand))
        raise ToolError(f"unsupported element in expression: {type(node).__name__}")

    try:
        value = ev(tree)
    except ZeroDivisionError:
        raise ToolError("division by zero") from None
    except OverflowError:
        raise ToolError("the result is too large to compute") from None
    except (RecursionError, MemoryError):
        raise ToolError("the expression is nested too deeply") from None
    if isinstance(value, complex):
        raise ToolError("the result is not a real number (e.g. the root of a negative number)")
    if isinstance(value, float) and not math.isfinite(value):
        raise ToolError("the result is too large to compute")
    if abs(value) > MAX_MAGNITUDE:
        raise ToolError(f"the result is too large (more than {MAX_MAGNITUDE:.0e})")
    return value


@tool(kind="read")
def calculate(db: Any, expression: str) -> str:
    """Calculate the result of an arithmetic expression.

    Args:
        expression: An arithmetic expression with numbers, + - * / and parentheses, such as '(120 + 35.5) * 0.9'.
    """
    value = safe_arithmetic(expression)
    return str(round(value, 2)) if isinstance(value, float) else str(value)


@tool(kind="read")
def think(db: Any, thought: str) -> str:
    """Write down a thought to reason about the task. It changes nothing and fetches nothing.

    Args:
        thought: The thought to note.
    """
    return ""


@tool(kind="read")
def transfer_to_human_agents(db: Any, summary: str) -> str:
    """Transfer the user to a human agent, with a summary of the issue. Use it only when the policy says so.

    Args:
        summary: A short summary of the user's issue for the human agent.
    """
    return "Transfer successful"


TRANSFER_TOOL = "transfer_to_human_agents"
GENERIC_TOOLS = [calculate, think, transfer_to_human_agents]
