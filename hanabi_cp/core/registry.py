"""One registry pattern for every kind of plug-in: the decision methods
(``method_registry.METHODS``), the real-rules methods (``live.solve.LIVE_METHODS``), the
players' strategies (``players.strategy.STRATEGIES``) and the commands
(``cli.main.COMMANDS``).

Each is an explicit, ordered table of ``name -> "module:attribute"``: nothing
registers itself when imported, no package is scanned, and a module is imported
only when one of its names is first used (so listing the names imports nothing).

>>> table = Registry("thing", [("path", "os:path"), ("join", "os.path:join")])
>>> table.names(), "join" in table, table.address("path")
(('path', 'join'), True, 'os:path')
>>> import os
>>> table.load("join") is os.path.join, list(table.load_all()) == ["path", "join"]
(True, True)
>>> table.load("nope")
Traceback (most recent call last):
...
KeyError: "no thing 'nope'"
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    """An ordered table of ``name -> "module:attribute"``, each imported on first use.

    ``entries`` and ``loaded`` are plain dicts: a test may add a name to both
    (``monkeypatch.setitem``) to try an object that has no module of its own.
    """

    def __init__(self, kind: str, entries: Iterable[tuple[str, str]]):
        self.kind = kind
        self.entries: dict[str, str] = {}
        for name, address in entries:
            if name in self.entries:
                raise ValueError(f"{kind} {name!r} listed twice")
            if ":" not in address:
                raise ValueError(f"{kind} {name!r}: expected 'module:attribute', found {address!r}")
            self.entries[name] = address
        self.loaded: dict[str, T] = {}

    def names(self) -> tuple[str, ...]:
        """The names, in the table's order; imports nothing."""
        return tuple(self.entries)

    def __contains__(self, name: object) -> bool:
        return name in self.entries

    def __iter__(self):
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def address(self, name: str) -> str:
        return self.entries[name]

    def load(self, name: str) -> T:
        """The object of ``name``, its module imported now if it was not before."""
        if name not in self.loaded:
            if name not in self.entries:
                raise KeyError(f"no {self.kind} {name!r}")
            module, _, attr = self.entries[name].partition(":")
            self.loaded[name] = getattr(importlib.import_module(module), attr)
        return self.loaded[name]

    def load_all(self) -> dict[str, T]:
        """Every object, by name, in the table's order."""
        return {name: self.load(name) for name in self.entries}
