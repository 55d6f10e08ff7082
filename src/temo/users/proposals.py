"""Which write an agent is asking the user to approve, and whether it is the one the user wants.

The scripted user reads only the agent's words. When those words ask for approval, this module
finds the write tool of the domain they describe (the tool's verb and nouns, or its name said
outright) and checks it against the reference writes of the user's current intent:

- the tool must be one of those writes (cancelling an order is not changing its address);
- its key arguments (the ids of the thing acted on: an order, a reservation, a card) must not point
  elsewhere: when the agent names an id of the same shape that is not the user's, it is the wrong one.

`judge` returns a `Verdict`: ``yes`` (a write the user wants), ``wrong_action`` (a write the user
did not ask for), ``wrong_target`` (the right kind of write on something else) or ``unknown`` (no
write recognised: a confirmation of details, or of nothing the user can tell).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Optional

from ..core import Action, Task

# A tool name's leading verb -> the words an agent may use for it. None: a generic verb ("manage"),
# matched by its nouns alone.
_CHANGE = ("modify", "change", "update", "edit", "amend", "alter", "switch", "adjust")
VERBS: dict[str, Optional[tuple[str, ...]]] = {
    "modify": _CHANGE, "update": _CHANGE, "change": _CHANGE,
    "cancel": ("cancel", "void", "call off", "withdraw", "revoke", "terminate"),
    "return": ("return", "send back", "refund"),
    "exchange": ("exchange", "swap", "replace", "switch"),
    "book": ("book", "reserve", "purchase", "buy"),
    "create": ("create", "open", "make", "book", "file", "submit", "raise", "log", "place", "start"),
    "add": ("add", "include", "attach", "register", "set up", "link", "put"),
    "send": ("send", "issue", "give", "grant", "credit"),
    "record": ("record", "log", "enter", "register", "add", "post"),
    "pay": ("pay", "charge", "settle"),
    "make": ("make", "pay", "submit"),
    "register": ("register", "enroll", "enrol", "sign up", "add"),
    "schedule": ("schedule", "book", "set up", "arrange", "make"),
    "reschedule": ("reschedule", "move", "change", "shift", "postpone"),
    "freeze": ("freeze", "lock", "block", "suspend"),
    "unfreeze": ("unfreeze", "unlock", "unblock", "reactivate", "restore"),
    "initiate": ("initiate", "make", "send", "transfer", "move", "start"),
    "verify": ("verify", "validate", "approve"),
    "delete": ("delete", "remove", "erase"),
    "close": ("close", "shut", "delete", "terminate"),
    "deposit": ("deposit", "add", "put", "credit"),
    "transfer": ("transfer", "move", "send"),
    "manage": None,
}
# A tool name's nouns -> other words for them.
NOUNS: dict[str, tuple[str, ...]] = {
    "item": ("product", "size", "color", "colour", "variant"),
    "payment": ("pay", "card", "paypal", "gift card", "billing"),
    "reservation": ("booking", "flight", "trip"),
    "flight": ("itinerary", "cabin", "date"),
    "baggage": ("bag", "luggage", "suitcase"),
    "passenger": ("traveler", "traveller"),
    "certificate": ("voucher", "compensation"),
    "appointment": ("visit", "consultation"),
    "note": ("chart",),
    "supplier": ("pharmacy", "brand"),
    "prescription": ("medication", "refill"),
    "course": ("class",),
    "registration": ("enrollment", "enrolment"),
    "tip": ("gratuity",),
    "dropoff": ("drop-off", "delivery address", "address"),
    "instrument": ("payment", "card"),
    "table": ("seating", "seat"),
    "beneficiary": ("payee", "recipient"),
    "transfer": ("money", "funds"),
    "billing": ("bill", "autopay", "auto-pay", "paperless", "billing cycle"),
    "service": ("plan", "roaming", "line", "feature", "add-on"),
    "device": ("phone", "sim"),
    "scoring": ("score", "points", "basket"),
    "package": ("trip", "tour", "holiday", "vacation"),
    "rooming": ("room",),
    "traveler": ("passenger", "guest", "traveller"),
    "meeting": ("call",),
    "departure": ("date",),
    "booking": ("reservation",),
}
_FILLER = {"pending", "delivered", "placed", "to", "of", "the", "for", "and", "by", "a", "on", "ons", "new"}
READ_PREFIXES = ("get_", "list_", "search_", "check_", "find_", "calculate", "think", "transfer_to_human")
# Ids that name the user rather than the thing acted on; key only when a write has no other id.
_IDENTITY_ARGS = {"user_id", "customer_id", "client_id", "patient_id", "student_id", "traveler_id"}


def _stem(word: str) -> str:
    w = word.lower()
    if len(w) > 3 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def _text_words(text: str) -> tuple[set[str], str]:
    """(stemmed words, the text as ' word word ' for phrase search)."""
    words = re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", text.lower().replace("_", " "))
    return {_stem(w) for w in words}, " " + " ".join(_stem(w) for w in words) + " "


def _said(phrase: str, words: set[str], flat: str) -> bool:
    parts = [_stem(p) for p in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", phrase.lower())]
    if len(parts) == 1:
        return parts[0] in words
    return f" {' '.join(parts)} " in flat


def tool_score(tool: str, text: str) -> int:
    """How plainly ``text`` describes a call of ``tool``: 0 = not at all."""
    words, flat = _text_words(text)
    if _said(tool.replace("_", " "), words, flat):
        return 100  # the tool's own name, as the oracle says it
    verb, *rest = tool.split("_")
    synonyms = VERBS.get(verb, (verb,))
    verb_hit = synonyms is None or any(_said(v, words, flat) for v in (verb, *synonyms))
    if not verb_hit:
        return 0
    nouns = [_stem(n) for n in rest if n not in _FILLER]
    hits = sum(1 for n in nouns if _said(n, words, flat) or any(_said(s, words, flat) for s in NOUNS.get(n, ())))
    if not hits:
        return 0
    return (2 if synonyms is not None else 0) + hits


_OTHER_ACTIONS = ("delete", "remove", "close", "erase", "deactivate", "terminate", "refund", "charge", "wipe", "reset")


def proposes_action(text: str) -> bool:
    """Whether ``text`` names some action to take (a verb of any write, or a destructive one)."""
    words, flat = _text_words(text)
    verbs = {v for group in VERBS.values() if group for v in group} | set(VERBS) | set(_OTHER_ACTIONS)
    return any(_said(v, words, flat) for v in verbs)


def leaves(value: Any) -> Iterable[Any]:
    if isinstance(value, dict):
        for v in value.values():
            yield from leaves(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from leaves(v)
    else:
        yield value


def _norm_value(value: Any) -> Optional[str]:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        text = str(value)
        return text if len(text) >= 3 else None
    if isinstance(value, str):
        text = value.strip().lower().lstrip("#")
        return text if len(text) >= 2 else None  # matched as a whole word: "TX", not the "tx" of "context"
    return None


def mentioned(value: Any, text: str) -> bool:
    """Whether any leaf of ``value`` (a string of 2+ characters, or a number of 3+ digits) is in ``text``,
    as a whole word or phrase."""
    low = text.lower()
    for v in (_norm_value(x) for x in leaves(value)):
        if v is not None and re.search(r"(?<![a-z0-9])" + re.escape(v) + r"(?![a-z0-9])", low):
            return True
    return False


def _is_id_arg(name: str) -> bool:
    return bool(re.search(r"(^|_)(id|ids|ref|refs)$", name))


def key_arguments(action: Action) -> dict[str, Any]:
    """The arguments that say WHAT is acted on: its ids (the user's own id only if there is no other)."""
    ids = {k: v for k, v in action.arguments.items() if _is_id_arg(k)}
    entity = {k: v for k, v in ids.items() if k not in _IDENTITY_ARGS}
    return entity or ids


def _shape(value: str) -> Optional[re.Pattern]:
    """A pattern for ids that look like ``value`` (same letters, any digits): '#W1642548' -> '#?w\\d+'."""
    v = value.strip().lower()
    if not re.search(r"\d", v) or len(v) < 4:
        return None
    body = re.sub(r"\d+", lambda _: "\x00", v.lstrip("#"))
    pattern = "".join(r"\d+" if ch == "\x00" else re.escape(ch) for ch in body)
    return re.compile(r"(?<![a-z0-9])#?" + pattern + r"(?![a-z0-9])")


def points_elsewhere(action: Action, text: str) -> Optional[str]:
    """The value of a key argument when ``text`` names another id of the same shape and not this one."""
    low = text.lower()
    for value in leaves(key_arguments(action)):
        if not isinstance(value, str) or mentioned(value, text):
            continue
        shape = _shape(value)
        if shape and any(m.group(0).lstrip("#") != value.lower().lstrip("#") for m in shape.finditer(low)):
            return value
    return None


@dataclass
class Verdict:
    kind: str  # "yes" | "wrong_action" | "wrong_target" | "unknown"
    tool: Optional[str] = None  # the write the agent seems to propose
    expected: Optional[str] = None  # wrong_target: the user's own value for the key argument


@lru_cache(maxsize=None)
def _domain_writes(domain: str) -> Optional[frozenset[str]]:
    try:
        from ..domains import get_domain

        dom = get_domain(domain)
    except Exception:  # a domain not installed (e.g. a test's toy domain): fall back on the task
        return None
    return frozenset(name for name, tool in dom.tools.items() if tool.kind == "write")


def write_tools(task: Task) -> frozenset[str]:
    """The domain's write tools; for a domain that is not installed, the task's actions that are
    not reads by name."""
    found = _domain_writes(task.domain)
    if found is not None:
        return found
    return frozenset(a.name for a in task.actions if not a.name.startswith(READ_PREFIXES))


def judge(task: Task, intent: int, text: str) -> Verdict:
    """Decide on a confirmation request ``text`` while the user is on intent ``intent``."""
    writes = write_tools(task)
    scores = {tool: tool_score(tool, text) for tool in writes}
    best = max(scores.values(), default=0)
    if best == 0:
        return Verdict("unknown")
    top = sorted(t for t, s in scores.items() if s == best)
    wanted = [a for a in task.actions if a.intent == intent and a.name in writes and a.name in top]
    if not wanted:
        return Verdict("wrong_action", tool=top[0])
    for action in wanted:
        if points_elsewhere(action, text) is None:
            return Verdict("yes", tool=action.name)
    action = wanted[0]
    return Verdict("wrong_target", tool=action.name, expected=points_elsewhere(action, text))
