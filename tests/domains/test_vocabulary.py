"""Domain vocabularies are data files: every domain's fact aliases in ``data/aliases.json`` and travel's
generator words in ``data/catalog.json``, read through ``temo.domains.kit.vocabulary``."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from temo.domains.kit import vocabulary as V

DOMAINS = Path(V.__file__).resolve().parents[1]
NAMES = sorted(p.name for p in DOMAINS.iterdir() if (p / "tools.py").exists())


def _alias_lists(table) -> list[list[str]]:
    """The word lists of one table: a list, or an object of lists / single words / [fact key, phrase]."""
    if isinstance(table, list):
        return [table]
    assert isinstance(table, dict) and table, table
    return [v if isinstance(v, list) else [v] for v in table.values()]


def test_all_ten_domains_have_named_alias_tables_that_their_code_reads():
    assert len(NAMES) == 10
    for name in NAMES:
        tables = V.aliases(DOMAINS / name)
        assert tables, f"{name}: no alias tables"
        source = "".join(p.read_text() for p in (DOMAINS / name).glob("*.py"))
        for key, table in tables.items():
            # a table nobody reads is dead vocabulary: each is bound by its name somewhere in the domain
            assert f'["{key}"]' in source, f"{name}/data/aliases.json: table {key!r} is not used"
            for words in _alias_lists(table):
                assert words and all(isinstance(w, str) and w.strip() for w in words), (name, key, words)
                assert len(set(words)) == len(words), f"{name}: {key} repeats a word: {words}"


def test_domain_modules_keep_their_names_and_the_file_order():
    from temo.domains.bank.phrases import ROLES, role_fact  # noqa: F401
    from temo.domains.movie.phrases import ALIASES as MOVIE
    from temo.domains.restaurant.phrases import TICKET_ALIASES

    raw = json.loads((DOMAINS / "movie" / "data" / "aliases.json").read_text())["facts"]
    assert list(MOVIE) == list(raw) and MOVIE["booking_id"][0] == "booking number"
    assert TICKET_ALIASES == V.aliases(DOMAINS / "restaurant")["ticket"]
    assert ROLES["memo"] == ("memo", "note on the transfer")  # (fact key, phrase) stays a tuple


def test_travel_catalog_rows_are_tuples_and_every_category_is_covered():
    from temo.domains.travel import catalog as C

    assert all(isinstance(p, tuple) and len(p) == 2 for rows in C.PLACES.values() for p in rows)
    assert ("Rome", "Italy") in C.PLACES["Europe"]
    assert all(isinstance(a, tuple) and len(a) == 5 for a in C.AGENCIES)
    assert set(C.REGION_WEIGHTS) == set(C.PLACES) == set(C.REGION_CATEGORIES)
    categories = {c for cats in C.REGION_CATEGORIES.values() for c in cats}
    for table in (C.NAME_NOUNS, C.BASE_PRICE, C.ACTIVITIES, C.CATEGORY_ADD_ONS, C.ACCOMMODATION_TYPES):
        assert categories <= set(table), categories - set(table)
    assert all(isinstance(v, tuple) and v[0] < v[1] for v in C.BASE_PRICE.values())
    assert all(len(a) == 4 and a[2] < a[3] for rows in C.CATEGORY_ADD_ONS.values() for a in rows)


def test_loader_names_the_file_when_it_is_missing_or_broken(tmp_path: Path):
    module = tmp_path / "somewhere" / "grounding.py"
    module.parent.mkdir()
    module.write_text("")
    with pytest.raises(FileNotFoundError, match=r"somewhere/data/aliases\.json"):
        V.aliases(module)
    (module.parent / "data").mkdir()
    (module.parent / "data" / "aliases.json").write_text('{"facts": {"email": ["email",]}}')
    with pytest.raises(ValueError, match=r"aliases\.json: not valid JSON .* line 1"):
        V.aliases(module)
    (module.parent / "data" / "words.json").write_text('["a", "b"]')
    assert V.vocabulary(module.parent, "words.json") is V.vocabulary(module, "words.json")  # read once
    assert V.vocabulary(module, "words.json") == ["a", "b"]
