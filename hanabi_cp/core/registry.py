"""One registry pattern for everything looked up by name: the decision methods
(``solitaire.methods.METHODS``), the real-rules methods (``real.methods.METHODS``),
the players' strategies (``players.strategy.STRATEGIES``), HLE's agents
(``interop.hle_agents.AGENTS``), the commands (``cli.main.COMMANDS``) and the
names of the facade ``hanabi_cp`` itself.

Each is an explicit, ordered table of ``name -> "module:attribute"``: nothing
registers itself when imported, no package is scanned, and a module is imported
only when one of its names is first used (so listing the names imports nothing).
An address reads as ``from module import attribute``: the attribute may be a
submodule.

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
>>> table.lookup("nope")
Traceback (most recent call last):
...
hanabi_cp.core.errors.InvalidParameter: unknown thing 'nope'; choose from join, path
"""

from __future__ import annotations

import importlib

from .errors import InvalidParameter

# Not ``typing``: the facade's own table is a Registry, and ``import hanabi_cp``
# imports no typing (hanabi_cp/__init__.py).  mypy reads the generic class.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any, Generic, TypeVar

    T = TypeVar("T")

    class _Generic(Generic[T]):
        pass
else:
    T = object

    class _Generic:
        def __class_getitem__(cls, item):
            return cls


class Registry(_Generic[T]):
    """An ordered table of ``name -> "module:attribute"``, each imported on first use.

    With ``named``, each object carries its own ``name`` (a method, a strategy), which
    must be the one it is listed under.  ``entries`` and ``loaded`` are plain dicts:
    a test may add a name to both (``monkeypatch.setitem``) to try an object that has
    no module of its own.
    """

    def __init__(self, kind: str, entries: Iterable[tuple[str, str]], named: bool = False):
        self.kind = kind
        self.named = named
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

    def __iter__(self) -> Iterator[str]:
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
            obj = imported(self.entries[name])
            if self.named and getattr(obj, "name", None) != name:
                raise ValueError(f"{self.entries[name]} is {self.kind} "
                                 f"{getattr(obj, 'name', None)!r}, not {name!r}")
            self.loaded[name] = obj
        return self.loaded[name]

    def load_all(self) -> dict[str, T]:
        """Every object, by name, in the table's order."""
        return {name: self.load(name) for name in self.entries}

    def lookup(self, name: str, also: tuple[str, ...] = ()) -> T:
        """``load(name)`` for a name the caller gave: an unknown one is an
        InvalidParameter naming the choices (``also``, the caller's own words such
        as ``auto``, then the names sorted)."""
        if name not in self.entries:
            raise InvalidParameter(f"unknown {self.kind} {name!r}; choose from "
                                   + ", ".join((*also, *sorted(self.entries))))
        return self.load(name)


def imported(address: str) -> Any:
    """``from module import attribute``: an attribute of the module, else its submodule."""
    module, _, attr = address.partition(":")
    loaded = importlib.import_module(module)
    if hasattr(loaded, attr):
        return getattr(loaded, attr)
    try:
        return importlib.import_module(f"{module}.{attr}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{module}.{attr}":
            raise
    raise AttributeError(f"module {module!r} has no attribute {attr!r}") from None
