"""A tiny in-memory domain for kernel and harness tests."""
from __future__ import annotations

from pathlib import Path

from temo.core import Action, EmotionCondition, Fact, Intent, Task, UserScenario
from temo.env import GENERIC_TOOLS, Database, Domain, Store, ToolError, tool


@tool(kind="read")
def find_account(db: Store, email: str) -> str:
    """Find the account id for an email address.

    Args:
        email: The owner's email address.
    """
    for key, acc in db.items("accounts"):
        if acc["email"] == email:
            return key
    raise ToolError(f"no account for {email}")


@tool(kind="read")
def get_account(db: Store, account_id: str) -> dict:
    """Get an account's details.

    Args:
        account_id: The account id, such as 'acc_1'.
    """
    acc = db.get("accounts", account_id)
    if acc is None:
        raise ToolError(f"account {account_id} not found")
    return acc


@tool(kind="write")
def deposit(db: Store, account_id: str, amount: float) -> dict:
    """Deposit money into an open account.

    Args:
        account_id: The account id.
        amount: A positive amount in dollars.
    """
    if amount <= 0:
        raise ToolError("amount must be positive")
    acc = db.edit("accounts", account_id)
    if acc["status"] != "open":
        raise ToolError("account is closed")
    acc["balance"] = round(acc["balance"] + amount, 2)
    acc["history"].append(amount)
    return acc


@tool(kind="write")
def close_account(db: Store, account_id: str) -> str:
    """Close an account; its balance must be zero.

    Args:
        account_id: The account id.
    """
    acc = db.edit("accounts", account_id)
    acc["status"] = "closed"  # edited first, checked after: the kernel must roll this back
    if acc["balance"] != 0:
        raise ToolError("balance must be zero before closing")
    return "closed"


TOY_TABLES = {
    "accounts": {
        "acc_1": {"email": "ana@example.com", "balance": 10.0, "status": "open", "history": []},
        "acc_2": {"email": "bo@example.com", "balance": 0.0, "status": "open", "history": []},
    }
}


class ToyDomain(Domain):
    def __init__(self, tmp: Path):
        super().__init__("toy", tmp, [find_account, get_account, deposit, close_account, *GENERIC_TOOLS], ("find_account",))
        (tmp / "policy.md").write_text("Toy bank policy: authenticate by email, confirm every write.")
        self._db = Database(TOY_TABLES, name="toy")
        self._task_list: list[Task] = []

    def database(self, split: str = "test") -> Database:
        return self._db

    def tasks(self, split: str = "test") -> list[Task]:
        return [t for t in self._task_list if t.split == split]


def toy_task(task_id: str = "toy-test-000", emotion: str = "frustration.cold.high.skeptical", outputs=None) -> Task:
    return Task(
        id=task_id,
        domain="toy",
        split="test",
        scenario=UserScenario(
            persona="Ana, a customer of the toy bank.",
            known=[Fact(key="email", value="ana@example.com", aliases=["email address"])],
            intents=[Intent(request="I want to deposit 5 dollars into my account.")],
        ),
        actions=[
            Action(name="find_account", arguments={"email": "ana@example.com"}),
            Action(name="deposit", arguments={"account_id": "acc_1", "amount": 5.0}),
        ],
        outputs=outputs or [],
        emotion=EmotionCondition.parse(emotion),
        instruction="You are Ana. Deposit 5 dollars into your account. Your email is ana@example.com.",
        emotion_instruction="You are short-tempered and in a hurry.",
    )
