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


def pytest_terminal_summary(terminalreporter):
    """One line per skip reason with its count (pytest's -rs lists one per location)."""
    import collections

    reasons: collections.Counter = collections.Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    if reasons:
        terminalreporter.section(f"{sum(reasons.values())} skipped, by reason", sep="-")
        for reason, count in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])):
            terminalreporter.line(f"{count:5d}  {reason}")
