"""Fixtures every domain test module shares: the module names its domain in ``DOMAIN``."""
from __future__ import annotations

import pytest

from temo.env import Database, Domain, Environment, Store


@pytest.fixture(scope="module")
def domain(request) -> Domain:
    name = getattr(request.module, "DOMAIN", None)
    if name is None:
        pytest.fail(f"{request.module.__name__} uses the domain fixtures but sets no DOMAIN")
    return Domain.load(name)


@pytest.fixture(scope="module")
def db(domain: Domain) -> Database:
    """The evaluation database, loaded once per module (tests must not change it: use ``env``)."""
    return domain.database("test")


@pytest.fixture()
def env(domain: Domain, db: Database) -> Environment:
    """A fresh environment over a copy-on-write store of the evaluation database."""
    return Environment(domain.tools, Store(db))

