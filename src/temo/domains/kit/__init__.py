"""The small kit every domain shares: id allocation, money, dates, people, identity look-ups, splits.

A domain folder imports what it needs from here instead of writing its own copy:

- ``ids``: ``next_id(store, table, prefix, width)``, ids derived from the state (never random, never
  the clock), so replaying the same calls gives the same hash.
- ``money``: ``money(x)`` rounds to cents; ``usd(x)`` formats ``$1,234.50``.
- ``dates``: ``parse_date`` and ``parse_time`` (a ToolError naming the expected format), ``add_days``, ``days_between``.
- ``people``: seeded names, emails, phone numbers, addresses and personas for generators.
- ``lookup``: ``require(store, table, key, what)`` raises a ``ToolError`` that says what to do;
  ``find_one_by(store, table, **fields)`` for identity look-ups.
- ``split``: ``split_of(key, test_share)``, a fixed hash split of people between test and training tasks.
- ``records``: the pydantic pieces of table models (``Strict``, ``Name``, addresses, contacts, cards,
  constrained strings such as ``IsoDate`` and ``coded("TRV", 5)``).
- ``tooling``: ``record_reader`` / ``record_finder`` make the "get a record by id" and "find an id by
  e-mail" read tools; ``replace_field`` ends a one-field write. ``arguments``: shared argument types.
- ``challenges``: ``challenge_about``, the usual policy challenge; ``internal_ids``: ``internal_ids_of``;
  ``wording``: ``and_join``; ``vocabulary``: ``aliases(__file__)`` reads the domain's ``data/aliases.json``.
"""
