"""The grounding interface: how a domain tells Tracer to turn a walk on its tool graph into real calls.

Tracer (``temo.tracer``) samples walks on a domain's tool graph, e.g.
``[[get_order_details, cancel_pending_order], [get_user_details, modify_user_address]]`` (a trace of
two intents). To ground it, Tracer picks a user, runs the domain's authentication steps and then,
for every tool of the trace in order, calls the domain's **hook** for that tool. A hook looks at the
state *as it is now* (earlier steps of the same trace have already run on ``g.store``), picks
entities that satisfy the tool's preconditions, and returns a :class:`Step`: the arguments, what the
user would ask for in their own words, the facts the user must know to ask for it, and any value the
agent must tell the user. Tracer executes the call on the store; if the hook returns ``None`` (nothing
fits) or the call fails, the whole attempt is dropped with a counted reason, and Tracer tries the next
user.

A domain provides one module ``domains/<name>/grounding.py`` with a module-level ``GROUNDER``, an
instance of :class:`Grounder` (subclass it, or fill the fields). Everything in it is deterministic:
draw only from ``g.rng``; never read the clock.

This module sits in ``env`` (below ``domains``), so domain folders can import it; Tracer imports it
from above.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional, Sequence

from ..core import Action, Fact
from .environment import Environment, Outcome
from .store import Database, Store


@dataclass
class Step:
    """What a hook returns for one tool of the trace.

    - ``args``: the tool's arguments, exactly as the reference call makes them.
    - ``ask``: what the user wants from this step, in the user's own words and first person
      ("I'd like to cancel the order with the blue kettle in it."). Used as the intent's request when
      the step is the intent's write (or, for a read-only intent, its last read). Never an internal id
      the user could not know. May be empty for a supporting read.
    - ``details``: what the user tells when the agent asks open questions ("It's the order I placed
      for my sister's birthday."). First person, no internal ids.
    - ``facts``: values the user must be able to give for this call (order number, new address,
      which card). Tracer records them against the current intent; identical key+value are merged.
    - ``outputs``: values the agent must say to the user for this step (a refund total, a balance, a
      new appointment time), as plain strings ("$54.20", "2024-05-21"). Required outputs are graded
      with number and date normalisation.
    - ``output_from``: like ``outputs`` but computed from the tool's parsed result after execution
      (return a list of strings).
    - ``preferences``: outcome-neutral preferences that do not change the reference ("If there is a
      choice of seat, you don't mind.").
    - ``focus``: entities this step is about, ``{kind: id}`` (e.g. ``{"order": "#W123"}``); later hooks
      see them in ``g.focus`` and should prefer them, so a read and the write after it concern the same
      thing. ``uses`` names entities for the even-spread report (``{"order": "#W123"}``), default: focus.
    """

    args: dict[str, Any]
    ask: str = ""
    details: list[str] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    output_from: Optional[Callable[[Any], list[str]]] = None
    preferences: list[str] = field(default_factory=list)
    focus: dict[str, str] = field(default_factory=dict)
    uses: dict[str, str] | None = None


@dataclass
class Challenge:
    """A request the policy forbids, added to a task as one extra intent with no reference action.

    ``ask`` is the user's request (first person); ``reason`` is why the policy refuses it, in words an
    agent would say ("the order has already been delivered, so it can no longer be cancelled");
    ``press`` is what the user says when pushing back once ("Can't you make an exception just this
    once?"); ``facts`` are what the user gives if asked (e.g. which order).
    """

    ask: str
    reason: str
    press: str = "Are you sure? Can't you make an exception this once?"
    details: list[str] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    rule: str = ""  # short name of the policy rule, e.g. "cancel_only_pending"


class GroundingFailed(Exception):
    """Raised by a hook (or ``g.pick``) to drop the attempt with a named reason."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Ground:
    """The context every hook receives: the evolving store of one grounding attempt and its helpers."""

    def __init__(self, db: Database, tools: dict, user_id: str, rng: random.Random, split: str,
                 usage: Counter | None = None, user_table: str = "users"):
        self.user_table = user_table
        self.store = Store(db)
        self.env = Environment(tools, self.store)
        self.user_id = user_id
        self.rng = rng
        self.split = split
        self.intent = 0
        self.focus: dict[str, str] = {}
        self.used: dict[str, set[str]] = {}   # kind -> ids touched by a write in this attempt
        self.read: set[tuple[str, str]] = set()  # (tool, canonical args) already run in this attempt
        self.facts: list[Fact] = []
        self.actions: list[Action] = []
        self.usage = usage if usage is not None else Counter()  # (kind, id) -> tasks so far in this build
        self.notes: dict[str, Any] = {}        # free scratch space for a domain's hooks

    # -- choosing entities ---------------------------------------------------------------------
    def pick(self, kind: str, candidates: Iterable[Any], key: Callable[[Any], str] | None = None,
             reason: str = "") -> Any:
        """Choose one candidate: the focused entity of ``kind`` if it is among them, else one of the
        least-used candidates so far in this build (even spread), ties broken by ``g.rng``.

        Raises :class:`GroundingFailed` (``reason`` or ``no_<kind>``) when there is no candidate.
        """
        items = list(candidates)
        if not items:
            raise GroundingFailed(reason or f"no_{kind}")
        key = key or (lambda x: x if isinstance(x, str) else json.dumps(x, sort_keys=True))
        focused = self.focus.get(kind)
        if focused is not None:
            for it in items:
                if key(it) == focused:
                    return it
        least = min(self.usage[(kind, key(it))] for it in items)
        pool = [it for it in items if self.usage[(kind, key(it))] == least]
        return self.rng.choice(pool)

    def fact(self, key: str, value: Any, aliases: Sequence[str] = ()) -> Fact:
        """A fact the user knows, needed from the current intent on (use in ``Step.facts``)."""
        return Fact(key=key, value=str(value), aliases=list(aliases), intent=self.intent)

    def run(self, name: str, args: dict[str, Any]) -> Any:
        """Run a *read* tool on the current state without recording it (to look something up).

        Returns the parsed result; raises :class:`GroundingFailed` on an error.
        """
        out: Outcome = self.env.execute(name, args)
        if not out.ok:
            raise GroundingFailed(f"lookup_failed:{name}")
        try:
            return json.loads(out.observation)
        except ValueError:
            return out.observation

    @property
    def user(self) -> Any:
        """The user's record as it is now (read-only)."""
        return self.store.get(self.user_table, self.user_id)


Hook = Callable[[Ground], Optional[Step]]


@dataclass
class Grounder:
    """A domain's grounding hooks. Subclass or instantiate with fields.

    - ``user_table``: the table of people who talk to the agent (``users``, ``customers``, ``patients``).
    - ``hooks``: tool name -> hook, one per graph node (Tracer refuses a graph node without a hook).
    - ``authenticate(g)``: the identity steps: a list of ``(tool, args, facts)``; run first, recorded as
      the task's first reference actions (intent 0). Vary the method where the domain has several
      (email, or name + zip) with ``g.rng``.
    - ``candidate_users(db, split, trace)``: ids of users that may serve this split (for domains whose
      test and training tasks share a database, test users must never appear in training tasks:
      default is a fixed hash split, 40% test). May narrow by the trace's tools (a user with a pending
      order for a trace that cancels one) to save attempts.
    - ``can_serve(db, user_id, trace)``: a quick check, made after the users to try are chosen, that
      skips an attempt certain to fail (no reservation to cancel, say): None to go ahead, or the drop
      reason the attempt would end with. It must only refuse where the hooks would fail for this
      user; then it changes nothing but the time a build takes (the frozen files prove it). Unlike
      ``candidate_users``, it does not change who is tried first.
    - ``persona(g)``: a short phrase about the user ("a nurse who works night shifts"), seeded.
    - ``name_of(g)``: the user's name as they would say it.
    - ``challenges``: functions ``(g) -> Challenge | None`` that propose one request the policy forbids
      for this user in the current state.
    - ``internal_ids(db)``: every id string the user could not know (user ids, item ids, payment
      method ids...). Instructions are scanned for them. Ids the user does know (order or reservation
      numbers) are not internal.
    - ``check_policy(task_actions, g)``: extra domain policy checks over the grounded reference
      (list of problems, empty when fine). Default: none.
    - ``context``: one sentence on who the agent is ("the customer-service agent of an online store").
    """

    user_table: str = "users"
    hooks: dict[str, Hook] = field(default_factory=dict)
    authenticate: Callable[[Ground], list[tuple[str, dict[str, Any], list[Fact]]]] | None = None
    candidate_users: Callable[[Database, str, list[list[str]]], list[str]] | None = None
    can_serve: Callable[[Database, str, list[list[str]]], Optional[str]] | None = None
    persona: Callable[[Ground], str] | None = None
    name_of: Callable[[Ground], str] | None = None
    challenges: list[Callable[[Ground], Optional[Challenge]]] = field(default_factory=list)
    internal_ids: Callable[[Database], set[str]] | None = None
    check_policy: Callable[[list[Action], Ground], list[str]] | None = None
    context: str = "a customer-service agent"
    test_share: float = 0.4  # share of users reserved for test tasks when the splits share a database


def hook(hooks: dict[str, Hook], name: str | None = None) -> Callable[[Hook], Hook]:
    """Decorator: register a function as the hook for tool ``name`` (default: the function's name)."""

    def wrap(func: Hook) -> Hook:
        hooks[name or func.__name__] = func
        return func

    return wrap
