"""Errors for user mistakes.  The CLI turns each into one line on stderr and exit
code 2; anything that is not a HanabiError is a bug in hanabi-cp (or, for
``deadline.TimeUp``, the time limit running out).

The hierarchy, for ``except`` clauses in scripts::

    HanabiError                 any mistake in what the caller gave
    ├── InputError              a file (or string) that is not the format it claims: path:line
    ├── FileError               a file that cannot be read or written, or would be overwritten
    ├── InvalidParameter        an argument's value is out of range or unknown
    │   └── UsageError          arguments that do not go together
    ├── DeckError               an instance outside the model (a value above n, h < 0...)
    ├── FormulaError            a CNF formula outside its own declaration (a literal above num_vars)
    ├── CertificateError        a play sequence or assignment that does not prove its claim
    ├── LimitError              a size above a resource guard of hanabi_cp.runtime.limits
    └── MethodRefused           a method (or SAT solver) that cannot do what was asked

    SolverBug                   not a HanabiError: a certificate of ours the referee rejects

>>> try:
...     raise InvalidParameter("{copies} 1: the reduction needs r >= 2", "copies")
... except HanabiError as exc:
...     print(exc)
...     print(exc.rename({"copies": "--copies"}))
copies 1: the reduction needs r >= 2
--copies 1: the reduction needs r >= 2
"""

from __future__ import annotations

TYPE_CHECKING = False             # (typing is not imported for it: see hanabi_cp/__init__.py)
if TYPE_CHECKING:
    from collections.abc import Mapping


class HanabiError(Exception):
    """Base class of every error caused by the caller's input.

    A message may name parameters of the function that raised it: ``{name}`` in
    ``template`` marks each, and ``str(error)`` spells it as the library does (the
    name itself, or the spelling given as a keyword).  A front end calls
    :meth:`rename` to name them its own way: the CLI puts its flags there.

    >>> e = HanabiError("out.txt: refusing to overwrite an existing file; use {force}",
    ...                 force="force=True")
    >>> str(e)
    'out.txt: refusing to overwrite an existing file; use force=True'
    >>> str(e.rename({"force": "--force"}))
    'out.txt: refusing to overwrite an existing file; use --force'
    >>> issubclass(InputError, HanabiError), issubclass(SolverBug, HanabiError)
    (True, False)
    """

    def __init__(self, template: object = "", *params: str, **spelled: str):
        self.template = str(template)
        self.spelling = {**{p: p for p in params}, **spelled}
        super().__init__(self.text())

    @property
    def params(self) -> tuple[str, ...]:
        """The parameters the message names, in the order they were given."""
        return tuple(self.spelling)

    def text(self, names: Mapping[str, str] | None = None) -> str:
        """The message, each parameter spelled ``names[param]`` if given."""
        if not self.spelling:
            return self.template
        text = self.template
        for param, spelling in self.spelling.items():
            text = text.replace("{" + param + "}", (names or {}).get(param, spelling))
        return text

    def rename(self, names: Mapping[str, str]) -> HanabiError:
        """This error, its message naming each parameter ``names[param]`` (others as
        before); returns the error itself, to be raised again."""
        self.args = (self.text(names),)
        return self

    def __reduce__(self):
        # Pickled whole (message, template, attributes): errors cross process pools,
        # and subclasses' __init__ (InputError's four parts) cannot take ``args`` back.
        return _rebuilt, (type(self), self.args, self.__dict__)


def _rebuilt(cls: type[HanabiError], args: tuple, state: dict) -> HanabiError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error



class InputError(HanabiError):
    """A file that cannot be read as the format it claims to be.

    The message reads ``path:line: expected ..., found ...``; the parts are kept as
    attributes.  Keywords spell parameters marked in ``found`` (see HanabiError).

    >>> e = InputError("deck.txt", 3, "a card like 3r", "'x'")
    >>> str(e), e.line
    ("deck.txt:3: expected a card like 3r, found 'x'", 3)
    """

    def __init__(self, path: str, line: int | None, expected: str, found: str, **spelled: str):
        self.path, self.line, self.expected, self.found = path, line, expected, found
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: expected {expected}, found {found}", **spelled)


class FileError(HanabiError):
    """A file that cannot be read or written (permissions, a directory in the way),
    or an existing file that would be overwritten without ``force``.

    >>> str(FileError("out.txt: refusing to overwrite an existing file"))
    'out.txt: refusing to overwrite an existing file'
    """


class InvalidParameter(HanabiError):
    """An argument whose value is out of range, unknown or of the wrong type.

    The message names the library's parameter (``copies``).  It is written as a
    template: ``{name}`` marks where a parameter in ``params`` is named, so a
    front end can name it its own way: the CLI calls :meth:`rename` with its flags.

    >>> e = InvalidParameter("{first} 30 is after {last} 20", "first", "last")
    >>> str(e), e.params
    ('first 30 is after last 20', ('first', 'last'))
    >>> str(e.rename({"first": "--from", "last": "--to"}))
    '--from 30 is after --to 20'
    """


class UsageError(InvalidParameter):
    """Arguments that do not go together: two exclusive ones, or one without the
    one it needs.

    >>> str(UsageError("{as_written} reproduces the base construction only, not {kappa}",
    ...                "as_written", "kappa"))
    'as_written reproduces the base construction only, not kappa'
    """


class DeckError(HanabiError):
    """An instance that violates the model (a value above n, a negative h...).

    >>> from hanabi_cp.core.model import Deck
    >>> Deck.of([(3, 1)], n=2)
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.DeckError: card #1 (3:1): value must be in 1..2
    """


class FormulaError(HanabiError):
    """A CNF formula that contradicts its own declaration, or a clause a
    construction cannot take.

    >>> from hanabi_cp.solvers.formula import CNF
    >>> CNF(2, ((1, 3),))
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.FormulaError: clause 1: literal 3 outside 1..2
    """


class CertificateError(HanabiError):
    """A play sequence that does not win, or an assignment that does not satisfy;
    the message names the first bad step or clause.

    >>> from hanabi_cp.core.model import Deck
    >>> from hanabi_cp.solitaire.play_sequence import PlaySequence
    >>> from hanabi_cp.solitaire.referee import check_win
    >>> check_win(Deck.of([(2, 1), (1, 1)]), 0, PlaySequence("PP"))
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.CertificateError: card #1 (2:1): not playable, color 1 stands at 0
    """


class LimitError(HanabiError):
    """A size above one of the resource guards of :mod:`hanabi_cp.runtime.limits`, refused
    before anything is allocated.

    >>> from hanabi_cp.runtime.limits import check_kinds
    >>> check_kinds(10**9, 1)
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.LimitError: n = 1,000,000,000 values: above the limit of 10,000,000 kinds of card (n x c)
    """


class MethodRefused(HanabiError):
    """A method (or SAT solver) asked for what it cannot do: an instance outside
    its scope, maximizing, writing a proof, keeping a time limit.

    >>> from hanabi_cp.core.model import Deck
    >>> from hanabi_cp.solitaire.solve import solve
    >>> solve(Deck.of([(1, 1), (1, 1)]), 1, "greedy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.MethodRefused: method 'greedy' does not apply: greedy needs every card at most once ...
    """


class SolverBug(Exception):
    """A solver reported a certificate the independent verifier rejects.

    Deliberately not a HanabiError: it is our fault, never the user's.

    >>> issubclass(SolverBug, HanabiError)
    False
    """
