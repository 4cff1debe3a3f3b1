"""Everything a picture shows, gathered once for the figure and the HTML replay:
the deck and its roles, the window, the play sequence's timeline (checked by the
referee first) and the verdict with its evidence."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import CertificateError, DeckError, InvalidParameter, UsageError
from ..core.model import Deck
from ..solitaire.play_sequence import PlaySequence
from .timeline import Timeline, build
from .witness import Witness, parse


@dataclass(frozen=True)
class Scene:
    deck: Deck
    h: int | None                    # None: a deck drawn without a hand size
    name: str                        # what the title calls the deck (its file name)
    roles: tuple[str, ...] | None
    timeline: Timeline | None        # None when there is no play sequence to draw
    verdict: str                     # one line: who said what about the deck
    reason: str | None               # why it is not won (solver's or referee's words)
    witness: Witness
    lo: int = 0                      # the drawn window: positions [lo, hi)
    hi: int = 0

    @property
    def width(self) -> int:
        return self.hi - self.lo


def window(deck: Deck, first: int | None, last: int | None) -> tuple[int, int]:
    """1-based inclusive card numbers (``--from/--to``) -> positions [lo, hi).

    >>> from hanabi_cp.core.model import Deck
    >>> window(Deck.of([(1, 1)] * 9), 3, None), window(Deck.of([(1, 1)] * 9), None, None)
    ((2, 9), (0, 9))
    """
    n = deck.N
    lo = 1 if first is None else first
    hi = n if last is None else last
    if n == 0:
        raise DeckError("the deck is empty: nothing to draw")
    for name, value in (("first", lo), ("last", hi)):
        if not 1 <= value <= n:
            raise InvalidParameter(f"{{{name}}} {value}: card numbers run from 1 to {n}", name)
    if lo > hi:
        raise UsageError(f"{{first}} {lo} is after {{last}} {hi}", "first", "last")
    return lo - 1, hi


def from_plays(deck: Deck, h: int, plays: PlaySequence, source: str,
               path: str | None = None) -> tuple[Timeline, str, str | None]:
    """Timeline, verdict and reason of a play sequence as the referee judges it;
    ``source`` names it in the verdict, ``path`` (else ``source``) in errors."""
    try:
        tl = build(deck, h, plays)
    except CertificateError as exc:
        raise CertificateError(f"{path or source}: {exc}") from None
    if tl.won:
        return tl, f"{source} wins with h = {h} (checked by the referee)", None
    if tl.stop is not None:
        return tl, f"{source} is illegal at card #{tl.stop + 1} (the referee's verdict)", tl.error
    return tl, f"{source} is legal but does not win with h = {h} (the referee's verdict)", tl.error


def make(deck: Deck, h: int | None, name: str, roles, lo: int, hi: int, plays: PlaySequence | None = None,
         source: str = "", status: str | None = None, reason: str | None = None,
         path: str | None = None) -> Scene:
    """A scene: with ``plays`` (judged by the referee) or with a solver's verdict only."""
    if plays is not None:
        if h is None:
            raise UsageError("a play sequence needs a hand size: pass {h}", "h")
        tl, verdict, why = from_plays(deck, h, plays, source, path)
        if status is not None:
            verdict = f"{status}; {verdict}"
        return Scene(deck, h, name, roles, tl, verdict, why or reason, parse(reason), lo, hi)
    verdict = f"{status} with h = {h}" if status else "the deck alone (no play sequence)"
    return Scene(deck, h, name, roles, None, verdict, reason, parse(reason), lo, hi)
