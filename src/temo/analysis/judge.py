"""The offline judge: a deterministic verdict from the record alone, no model needed.

It diffs the agent's tool calls against the task's reference actions (writes are matched by tool
and arguments, in order) and reads the recorded termination, policy violations and conversation:

- a reference write never made: ``missed_action``; when every missing action comes after the last
  one that was done and the conversation ended on its own: ``early_stop``;
- a write of the right tool with other arguments (or one that failed on them): ``wrong_arguments``;
- an unknown tool, bad JSON or arguments that fail the tool's schema: ``schema_error``;
- a write the reference does not have: ``extra_action``, or ``repeated_action`` if it repeats one;
- the reference writes done in another order: ``wrong_order`` (critical only if the state differs);
- a transfer to a human that the reference does not make: ``wrong_transfer``;
- questions asking again for what the user already said (or cannot know), running out of turns:
  ``friction``; recorded ``confirm_before_write`` / ``auth_before_write`` violations: ``policy_breach``;
- a required output never said although its look-up was made: ``misread_intent``;
- personal data read and repeated to the user before authentication: ``revealed_early`` (minor).

The critical fault is the first, in a fixed order of causes, that explains the failure; when the
user quit (``###UNSATISFIED###``), actions left undone because the user left are not causes, and
the cause is what drove the user away (``friction`` when nothing else is visible). A cell that
passed but broke a policy gets ``policy_breach`` as its critical fault (the paper's "violated an
important policy"); it is counted apart from the failed cells.
"""
from __future__ import annotations

from typing import Any, Optional

from ..core import EpisodeRecord, Task, ToolCallRecord
from ..env.hashing import canonical_json
from ..env.generic import TRANSFER_TOOL
from .cells import Cell, is_failed
from .faults import EmotionalOutcome, Fault, Verdict
from .transcript import dismissive, empathetic, last_turn, redundant_asks, turns

def _code_version() -> str:
    """Changes whenever the judge's code does, so stored verdicts of an older judge are redone."""
    import hashlib
    from pathlib import Path

    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for name in ("judge.py", "transcript.py", "replay_diff.py", "faults.py"):
        h.update((here / name).read_bytes())
    return "offline-" + h.hexdigest()[:12]


JUDGE_VERSION = _code_version()
SCHEMA_ERRORS = frozenset({"unknown_tool", "bad_json", "bad_args"})

# Order of causes for the critical fault of a failed cell.
CAUSE_ORDER = (
    "wrong_transfer", "schema_error", "wrong_arguments", "extra_action", "repeated_action", "wrong_order",
    "missed_action", "early_stop", "friction", "misread_intent", "policy_breach", "revealed_early",
)


def _args_key(arguments: Any) -> str:
    try:
        return canonical_json(arguments if arguments is not None else {})
    except TypeError:
        return repr(arguments)


def _kind_of(domain: Any, name: str, fallback: str = "unknown") -> str:
    tool = domain.tools.get(name) if domain is not None else None
    return tool.kind if tool is not None else fallback


def _arg_diff(agent: Any, gold: dict[str, Any]) -> str:
    agent = agent if isinstance(agent, dict) else {}
    parts = []
    for k in sorted(set(agent) | set(gold)):
        a, g = agent.get(k, "<none>"), gold.get(k, "<none>")
        if _args_key(a) != _args_key(g):
            parts.append(f"{k}={_brief(a)} (reference {_brief(g)})")
    return ", ".join(parts[:3]) or "arguments differ"


def _brief(v: Any) -> str:
    text = v if isinstance(v, str) else _args_key(v)
    return text if len(text) <= 60 else text[:57] + "..."


class _Diff:
    """Reference writes vs the agent's writes, matched by tool and arguments in order."""

    def __init__(self, task: Task, calls: list[ToolCallRecord], domain: Any):
        self.gold = [(i, a) for i, a in enumerate(task.actions) if _kind_of(domain, a.name, "write") == "write"]
        self.gold_reads = [(i, a) for i, a in enumerate(task.actions) if _kind_of(domain, a.name, "write") == "read"]
        writes = [c for c in calls if c.kind == "write" or _kind_of(domain, c.name) == "write"]
        ok = [c for c in writes if c.ok]
        self.failed_writes = [c for c in writes if not c.ok]
        used: set[int] = set()
        self.exact: dict[int, ToolCallRecord] = {}
        for gi, a in self.gold:
            key = _args_key(a.arguments)
            for j, c in enumerate(ok):
                if j not in used and c.name == a.name and _args_key(c.arguments) == key:
                    used.add(j)
                    self.exact[gi] = c
                    break
        self.wrong: dict[int, ToolCallRecord] = {}
        for gi, a in self.gold:
            if gi in self.exact:
                continue
            for j, c in enumerate(ok):
                if j not in used and c.name == a.name:
                    used.add(j)
                    self.wrong[gi] = c
                    break
            else:
                failed = next((c for c in self.failed_writes if c.name == a.name), None)
                if failed is not None:
                    self.wrong[gi] = failed
        self.missing = [gi for gi, _ in self.gold if gi not in self.exact and gi not in self.wrong]
        self.extra: list[ToolCallRecord] = []
        self.repeated: list[ToolCallRecord] = []
        seen: set[tuple[str, str]] = set()
        for j, c in enumerate(ok):
            sig = (c.name, _args_key(c.arguments))
            if j not in used and c.name != TRANSFER_TOOL:
                (self.repeated if sig in seen else self.extra).append(c)
            seen.add(sig)
        done = sorted(self.exact.items())
        order = [c.turn for _, c in done]
        self.out_of_order = [gi for (gi, c), prev in zip(done[1:], order) if c.turn < prev]
        done_idx = [gi for gi in list(self.exact) + list(self.wrong)]
        self.last_done = max(done_idx, default=-1)
        self.read_names = {c.name for c in calls if c.ok}


def offline_verdict(cell: Cell, task: Optional[Task], domain: Any = None, with_diff: bool = True) -> Verdict:
    """The deterministic verdict on one judgeable cell (complete, not an infrastructure error)."""
    rec = cell.record
    failed = is_failed(rec)
    faults: list[Fault] = []
    consequences: list[Fault] = []  # faults that follow from the user leaving, not causes
    end = last_turn(rec)
    quit_ = rec.termination == "user_unsatisfied" or bool(rec.reward and rec.reward.user_quit)
    reward = rec.reward

    # -- schema errors -------------------------------------------------------------------------
    schema = [c for c in rec.tool_calls if c.error in SCHEMA_ERRORS]
    if schema:
        c = schema[0]
        faults.append(Fault(fault="schema_error", turn=c.turn,
                            reason=f"{len(schema)} tool call(s) rejected ({c.error}: {c.name})"))

    # -- transfer ------------------------------------------------------------------------------
    gold_transfer = task is not None and any(a.name == TRANSFER_TOOL for a in task.actions)
    transfer = next((c for c in rec.tool_calls if c.name == TRANSFER_TOOL and c.ok), None)
    if transfer is not None and not gold_transfer:
        faults.append(Fault(fault="wrong_transfer", turn=transfer.turn,
                            reason="transferred to a human agent although the task needs no transfer"))

    # -- the action diff -----------------------------------------------------------------------
    diff = _Diff(task, rec.tool_calls, domain) if task is not None else None
    state_ok = bool(reward and reward.state_match)
    if diff is not None:
        for gi, c in sorted(diff.wrong.items()):
            a = task.actions[gi]
            how = "failed" if not c.ok else "ran"
            faults.append(Fault(fault="wrong_arguments", turn=c.turn,
                                reason=f"{a.name} {how} with {_arg_diff(c.arguments, a.arguments)}"))
        for c in diff.extra:
            faults.append(Fault(fault="extra_action", turn=c.turn, reason=f"{c.name} is not among the reference actions"))
        for c in diff.repeated:
            faults.append(Fault(fault="repeated_action", turn=c.turn, reason=f"{c.name} repeated with the same arguments"))
        if diff.out_of_order:
            gi = diff.out_of_order[0]
            faults.append(Fault(fault="wrong_order", turn=diff.exact[gi].turn,
                                reason=f"{task.actions[gi].name} done before an action that should precede it"))
        refused = _refused_proposals(rec, {task.actions[gi].name.replace("_", " ") for gi in diff.missing})
        for gi in list(diff.missing):
            a = task.actions[gi]
            turn = refused.get(a.name.replace("_", " "))
            if turn is not None:  # proposed with other values, the user said no, never done
                diff.missing.remove(gi)
                faults.append(Fault(fault="wrong_arguments", turn=turn,
                                    reason=f"{a.name} was proposed with values the user refused, and never done"))
        tail = [gi for gi in diff.missing if gi > diff.last_done]
        middle = [gi for gi in diff.missing if gi <= diff.last_done]
        for gi in middle:
            after = min((c.turn for g, c in {**diff.exact, **diff.wrong}.items() if g > gi), default=end)
            faults.append(Fault(fault="missed_action", turn=after,
                                reason=f"{task.actions[gi].name} was never done"))
        if tail:
            names = ", ".join(task.actions[gi].name for gi in tail[:3])
            if quit_:
                left = Fault(fault="missed_action", turn=end, reason=f"not done because the user left: {names}")
                faults.append(left)
                consequences.append(left)
            else:
                faults.append(Fault(fault="early_stop", turn=_stop_turn(rec, end),
                                    reason=f"the conversation ended ({rec.termination}) before {names}"))
        missing_outputs = list(reward.missing_outputs) if reward else []
        if missing_outputs and not tail:
            reads = [a for _, a in diff.gold_reads]
            undone = [a for a in reads if a.name not in diff.read_names]
            if undone and not quit_:
                faults.append(Fault(fault="early_stop", turn=_stop_turn(rec, end),
                                    reason=f"stopped before {undone[-1].name}, so {missing_outputs[0]!r} was never said"))
            elif not quit_:
                faults.append(Fault(fault="misread_intent", turn=end,
                                    reason=f"the look-up was made but {missing_outputs[0]!r} was never told to the user"))

    # -- friction and running out of turns ------------------------------------------------------
    asks = redundant_asks(rec, task)
    if asks:
        faults.append(Fault(fault="friction", turn=asks[0].turn,
                            reason=f"{len(asks)} needless question(s): {asks[0].why}"))
    elif rec.termination == "max_turns":
        faults.append(Fault(fault="friction", turn=end, reason="the conversation ran out of turns (circular flow)"))
    elif rec.termination == "too_many_errors" and not schema:
        c = next((c for c in rec.tool_calls if not c.ok), None)
        faults.append(Fault(fault="wrong_arguments", turn=c.turn if c else end,
                            reason="too many failed tool calls ended the episode"))

    # -- policy --------------------------------------------------------------------------------
    for rule in dict.fromkeys(v.rule for v in rec.violations):
        vs = [v for v in rec.violations if v.rule == rule]
        what = {"confirm_before_write": "without the user's explicit yes",
                "auth_before_write": "before the user was authenticated"}.get(rule, f"against rule {rule}")
        faults.append(Fault(fault="policy_breach", turn=vs[0].turn,
                            reason=f"{len(vs)} write(s) {what} ({vs[0].detail or rule})"))
    early = _revealed_early(rec, domain)
    if early is not None:
        faults.append(early)

    critical = _pick_critical([f for f in faults if not any(f is c for c in consequences)], failed, quit_, state_ok)
    if critical is not None:
        critical.severity = "critical"
    if failed and critical is None:
        # Nothing in the record explains it: say so rather than guess a cause.
        why = "the final state differs from the reference" if reward and not reward.state_match else "the goal was not reached"
        critical = Fault(fault="friction" if quit_ else "misread_intent", turn=end, severity="critical",
                         reason=f"{why}; no specific action fault is visible in the record")
        faults.append(critical)
    replay = []
    if with_diff and failed and task is not None and domain is not None and reward is not None and not reward.state_match:
        from .replay_diff import state_diff

        try:
            replay = state_diff(domain, task, rec)
        except Exception as e:  # a replay that cannot run must not hide the verdict
            replay = [{"table": "", "key": "", "field": "", "agent": "", "reference": "", "change": f"replay failed: {e}"}]
    return Verdict(
        judge="offline", cell=cell.id, task_id=rec.task_id, domain=rec.domain, arm=rec.arm, trial=rec.trial,
        family=rec.emotion.family if rec.emotion else None, emotion=rec.emotion.id if rec.emotion else None,
        reward=reward.reward if reward else None, termination=str(rec.termination), failed=failed,
        critical=critical, faults=faults, emotional_outcome=_emotional_outcome(rec, asks, quit_),
        replay_diff=replay, record_sha=cell.sha, judge_version=JUDGE_VERSION, with_reference=task is not None,
    )


def _stop_turn(rec: EpisodeRecord, end: int) -> int:
    agent = [t.number for t in turns(rec.messages) if t.role == "assistant" and t.text]
    return agent[-1] if agent else end


def _pick_critical(faults: list[Fault], failed: bool, quit_: bool, state_ok: bool) -> Optional[Fault]:
    if not failed:
        return next((f for f in faults if f.fault == "policy_breach"), None)
    candidates = list(faults)
    if state_ok:  # the state is right: an action fault did not cause the failure
        candidates = [f for f in candidates if f.fault not in ("wrong_order", "extra_action", "repeated_action")]
    for name in CAUSE_ORDER:
        if quit_ and name in ("missed_action", "early_stop") and any(f.fault == "friction" for f in candidates):
            continue
        found = next((f for f in candidates if f.fault == name), None)
        if found is not None:
            return found
    return None


def _refused_proposals(rec: EpisodeRecord, names: set[str]) -> dict[str, int]:
    """Humanized tool name -> turn, for write proposals ("Here is what I will do: cancel
    reservation (...). Do you confirm...?") that the user's next message did not accept."""
    from ..core.phrases import asks_confirmation, is_affirmative

    ts = turns(rec.messages)
    out: dict[str, int] = {}
    for i, t in enumerate(ts[:-1]):
        if t.role != "assistant" or not t.text or not asks_confirmation(t.text):
            continue
        nxt = ts[i + 1]
        if nxt.role == "user" and not is_affirmative(nxt.text):
            low = t.text.lower()
            for c in names:
                if c in low:
                    out.setdefault(c, t.number)
    return out


def _revealed_early(rec: EpisodeRecord, domain: Any) -> Optional[Fault]:
    auth = getattr(domain, "auth_tools", frozenset()) if domain is not None else frozenset()
    if not auth:
        return None
    authed_turn = next((c.turn for c in rec.tool_calls if c.ok and c.name in auth), None)
    ts = turns(rec.messages)
    for c in rec.tool_calls:
        if authed_turn is not None and c.turn >= authed_turn:
            break
        if not c.ok or c.kind != "read" or c.name in auth or c.name in ("think", "calculate"):
            continue
        values = _string_values(c.result)
        nxt = next((t for t in ts if t.number > c.turn and t.role == "assistant" and t.text), None)
        if nxt is not None and any(v in nxt.text for v in values):
            return Fault(fault="revealed_early", turn=nxt.number,
                         reason=f"repeated data from {c.name} before the user was authenticated")
    return None


def _string_values(result: str) -> list[str]:
    import json

    try:
        data = json.loads(result)
    except (json.JSONDecodeError, TypeError):
        return []
    out: list[str] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str) and len(v) >= 6 and any(ch.isdigit() for ch in v) or isinstance(v, str) and "@" in v:
            out.append(v)

    walk(data)
    return out[:50]


def _emotional_outcome(rec: EpisodeRecord, asks: list, quit_: bool) -> EmotionalOutcome:
    if not quit_:
        return EmotionalOutcome(abandoned=False, explanation=f"the user did not abandon the conversation ({rec.termination})")
    agent_text = [t.text for t in turns(rec.messages) if t.role == "assistant" and t.text]
    if any(dismissive(t) for t in agent_text):
        return EmotionalOutcome(abandoned=True, reason="dismissive_tone", explanation="the agent's wording brushed the user off")
    if asks or rec.termination == "max_turns" or rec.counters.get("tool_errors", 0) >= 3:
        why = f"{len(asks)} needless question(s)" if asks else "errors and delays"
        return EmotionalOutcome(abandoned=True, reason="procedural_friction", explanation=f"the user left after {why}")
    if rec.arm == "emotion" and not any(empathetic(t) for t in agent_text[1:]):
        return EmotionalOutcome(abandoned=True, reason="ignored_emotional_cues",
                                explanation="the agent never acknowledged the user's feelings")
    return EmotionalOutcome(abandoned=True, reason="procedural_friction",
                            explanation="the user left before the goal; no emotional cause is visible in the words")
