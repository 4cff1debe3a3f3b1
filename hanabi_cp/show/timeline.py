"""What a play sequence does to a deck, card by card: the data every picture draws.

``build`` re-simulates the game exactly as the referee (``referee.replay``) does — a
stored card that is playable is played at once, stored cards leave the hand by
cascade — and records, besides the verdict, what the referee does not keep: when
each stored card entered and left the hand, how many cards were held after each
step, and when each pile rose.  Steps are 0-based deck positions; "after step t"
is the state once card t has been scanned.  An illegal sequence is recorded up to
(not including) its first illegal step, which ``stop`` names.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import CertificateError
from ..core.model import Deck, check_hand
from ..solitaire.play_sequence import DISCARD, PLAY, STORE, PlaySequence
from ..solitaire.referee import replay


@dataclass(frozen=True)
class Hold:
    """A stored card: card ``index`` sat in the hand after steps start .. end-1.

    ``end`` is the step whose play released it by cascade (end > start), or None if
    it was still held after the last replayed step.
    """

    index: int
    start: int
    end: int | None


@dataclass(frozen=True)
class Timeline:
    deck: Deck
    h: int
    actions: str                     # the replayed actions (``steps`` of them)
    hand: tuple[int, ...]            # cards held after each replayed step
    holds: tuple[Hold, ...]          # in the order the cards were stored
    rises: tuple[tuple[int, int, int], ...]   # (step, color, new level), in order
    won: bool
    score: int                       # cards played, from the deck and the hand
    error: str | None                # the referee's message when not won
    stop: int | None                 # 0-based step of the first illegal action

    @property
    def steps(self) -> int:
        return len(self.actions)

    def piles_after(self, step: int) -> list[int]:
        """Pile level of colors 1..c after ``step`` (-1: before the first card).

        >>> from hanabi_cp.core.model import Deck
        >>> t = build(Deck.of([(2, 1), (1, 1)]), 1, PlaySequence("SP"))
        >>> t.piles_after(-1), t.piles_after(0), t.piles_after(1)
        ([0], [0], [2])
        """
        levels = [0] * (self.deck.c + 1)
        for t, k, level in self.rises:
            if t > step:
                break
            levels[k] = level
        return levels[1:]

    def levels_by_color(self) -> list[list[tuple[int, int]]]:
        """Per color 1..c, the (step, level) points where its pile rose."""
        out: list[list[tuple[int, int]]] = [[] for _ in range(self.deck.c)]
        for t, k, level in self.rises:
            out[k - 1].append((t, level))
        return out


def build(deck: Deck, h: int, plays: PlaySequence) -> Timeline:
    """The timeline of ``plays`` on ``deck`` with hand size ``h``.

    Raises CertificateError if the sequence and the deck differ in length (there is
    then no step-by-step story to tell).

    >>> from hanabi_cp.core.model import Deck
    >>> t = build(Deck.of([(2, 1), (1, 1), (3, 1)]), 1, PlaySequence("SPP"))
    >>> t.won, t.hand, t.holds
    (True, (1, 0, 0), (Hold(index=0, start=0, end=1),))
    """
    check_hand(h)
    if len(plays) != deck.N:
        raise CertificateError(f"play sequence has {len(plays)} actions, deck has {deck.N} cards")
    verdict = replay(deck, h, plays)
    stop = None if verdict.step is None else verdict.step - 1
    actions = plays.actions if stop is None else plays.actions[:stop]
    top = [0] * (deck.c + 1)
    waiting: dict[tuple[int, int], list[int]] = {}   # card -> indices of its held holds
    holds: list[Hold] = []
    open_at: dict[int, int] = {}                     # hold number -> its start step
    hand: list[int] = []
    rises: list[tuple[int, int, int]] = []
    held = 0
    for t, act in enumerate(actions):
        a, k = deck.cards[t]
        if act == DISCARD or (act == STORE and top[k] + 1 != a):
            if act == STORE:
                waiting.setdefault((a, k), []).append(len(holds))
                open_at[len(holds)] = t
                holds.append(Hold(t, t, None))
                held += 1
            hand.append(held)
            continue
        assert act in (PLAY, STORE)
        top[k] = a
        rises.append((t, k, a))
        while waiting.get((top[k] + 1, k)):
            j = waiting[(top[k] + 1, k)].pop()
            holds[j] = Hold(holds[j].index, open_at.pop(j), t)
            held -= 1
            top[k] += 1
            rises.append((t, k, top[k]))
        hand.append(held)
    return Timeline(deck, h, actions, tuple(hand), tuple(holds), tuple(rises), verdict.won,
                    verdict.score, verdict.error, stop)
