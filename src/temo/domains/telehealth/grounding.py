"""Telehealth grounding for Tracer: one hook per node of the telehealth graph.

The hooks live in ``ground_appointments`` (providers and appointments) and ``ground_care``
(records, suppliers, interactions, regimens, remote monitoring); identity, candidate patients and
the reference check in ``identity``; policy-forbidden requests in ``challenges``.
"""
from __future__ import annotations

from temo.env.grounding import Grounder

from . import ground_appointments, ground_care
from .challenges import CHALLENGES
from .identity import TEST_SHARE, authenticate, candidate_users, check_policy, internal_ids, name_of, persona

HOOKS = {**ground_appointments.HOOKS, **ground_care.HOOKS}

GROUNDER = Grounder(
    user_table="patients",
    hooks=HOOKS,
    authenticate=authenticate,
    candidate_users=candidate_users,
    persona=persona,
    name_of=name_of,
    challenges=list(CHALLENGES),
    internal_ids=internal_ids,
    check_policy=check_policy,
    context="the virtual front desk of CareLine, a telehealth service",
    test_share=TEST_SHARE,
)
