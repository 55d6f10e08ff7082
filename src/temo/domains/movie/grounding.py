"""Movie grounding hooks for Tracer: one per node of the movie tool graph.

Each hook looks at the state as it is now and picks what the tool accepts: an upcoming scheduled
show with free seats (never wheelchair spaces) for previews and bookings, a confirmed booking whose
show is still open (or was canceled by the theater) for cancelling, an open one for re-seating, and a
payment method on file that the agent can see in a booking it has looked up. Customers know their
booking numbers, email, phone, movie titles, theater names, dates, times and seat numbers; never
movie, theater, show, customer or payment-method ids.
"""
from __future__ import annotations

from temo.env.grounding import Grounder

from . import ground_reads, ground_writes  # noqa: F401  (they register the hooks)
from . import rules as R
from .challenges import CHALLENGES, check_policy
from .hooking import HOOKS
from .identity import authenticate, candidate_users, internal_ids, name_of, persona


GROUNDER = Grounder(
    user_table="customers", hooks=HOOKS, authenticate=authenticate, candidate_users=candidate_users,
    persona=persona, name_of=name_of, challenges=CHALLENGES, internal_ids=internal_ids, check_policy=check_policy,
    context=f"the booking help desk of {R.CHAIN}", test_share=1.0,
)
