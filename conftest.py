"""Shared by the doctests of hanabi_cp/ and the tests in tests/ (see tests/conftest.py)."""

import pathlib

import pytest
from _pytest.doctest import DoctestItem

ROOT = pathlib.Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _doctests_run_from_the_clone_root(request, monkeypatch):
    # Docstring examples read bundled files as a user would from a clone's root
    # (hc.read_deck("instances/...")), whichever directory an earlier test left.
    if isinstance(request.node, DoctestItem):
        monkeypatch.chdir(ROOT)
