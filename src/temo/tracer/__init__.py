"""Tracer: the one pipeline that builds every domain's benchmark and training tasks (paper §3.2–3.4).

One module per stage, each a function from records to records (plain dicts, one JSON line each), so
every stage can be inspected and re-run alone (``temo tracer STAGE``):

1. ``graph``     the domain's tool graph: validation against the paper's rules, drawing.
2. ``sample``    seeded random walks on the graph -> traces (1–3 intents of 2–6 tools), deduplicated,
                 test and training traces disjoint by tool sequence.
3. ``ground``    the domain's grounding hooks pick entities and every step is executed on a store.
4. ``instruct``  the user scenario and instruction text (offline writer; LLM rewrite optional).
5. ``feel``      a feeling description from the scenario only (no database access).
6. ``condition`` the emotion model maps the feeling to one of 594 conditions and draws an anchor.
7. ``verify``    replay, policy, id and split checks; what is dropped, and why.
``build`` composes them and freezes the task files in each domain's ``data/``.
"""
BENCHMARK_VERSION = "1.0"
