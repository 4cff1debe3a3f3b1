"""The skeleton both real-rules encodings share (encodings/live-cpsat.md §1).

A game is read as a sequence of *slots*: slot k is the k-th play or discard of the
game, and it draws deck card D + k (D = cards dealt) while the deck lasts.  Between
slot k-1 and slot k lie ``runs[k]`` clue turns; ``runs[K]`` counts the clues after
the last slot.  Slot k is played on turn k + runs[0] + ... + runs[k], so the runs
fix who moves, and the mover of the slot that drew a card owns it.  ``Layout``
holds what the deal fixes; ``to_actions`` turns (cards by slot, their fates, runs)
into hanab.live actions, choosing each clue's target from the state.

>>> from hanabi_cp.model import Deck
>>> from hanabi_cp.live.rules import Rules
>>> lay = Layout.of(Deck.of([(1, 1), (2, 1), (3, 1), (1, 2), (2, 2)]), Rules.for_players(2, hand_size=2))
>>> lay.dealt, lay.last_draw, lay.draw_slot, lay.owner
(4, 0, [-1, -1, -1, -1, 0], [0, 0, 1, 1, None])
>>> acts = to_actions(Deck.of([(1, 1), (2, 1), (3, 1), (1, 2), (2, 2)]), Rules.for_players(2, hand_size=2),
...                   [3, 0], "PP", [1, 0, 0])
>>> [str(a) for a in acts]
['clue player 1 rank 3', 'play #3', 'play #0']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import SolverBug
from ..model import Deck
from .actions import Action, Kind
from .referee import Game, IllegalMove
from .rules import Rules

PLAY, DISCARD, STRIKE = "P", "D", "S"   # fates of a card that leaves a hand


# A run of clues and the token count are one-hot per slot in both encodings, so
# their size grows with the budget; hanab.live's is 8 (None, unlimited, is cheap).
MAX_TOKENS = 32
# Card-slot literals ("card i leaves at slot k"), the bulk of both encodings: a
# shuffled standard deck has about 1,300; a million is a model of a few GB.
MAX_CARD_SLOTS = 1_000_000


def refuses(start: Game) -> str | None:
    """Why the encodings refuse the position, or None (a LiveMethod's ``refuses``)."""
    deck, rules = start.deck, start.rules
    if start.turn:
        return "the encodings start from the deal, not from a later position"
    if rules.clues is not None and rules.clues > MAX_TOKENS:
        return (f"at most {MAX_TOKENS} clue tokens (found {rules.clues}): the encodings "
                f"count tokens one-hot per slot; use unlimited clues or another method")
    size = card_slots(deck.N, rules)
    if size > MAX_CARD_SLOTS:
        return (f"{size:,} card-slot literals (limit {MAX_CARD_SLOTS:,}): the encodings "
                f"grow with cards x slots; use search")
    return None


def card_slots(N: int, rules: Rules) -> int:
    """The number of (card, slot) pairs the encodings give a literal, in O(1): the
    dealt cards may leave at any of the S slots, the card drawn at slot d at S-1-d.

    >>> card_slots(50, Rules.for_players(3)), card_slots(10**7, Rules.for_players(2))
    (1270, 50000014999955)
    """
    H, p = rules.hand_size, rules.players
    D = min(p * H, N)
    last = N - D - 1
    S = min(N, max(last, 0) + 1 + p) if rules.final_round else N
    m = min(N - D, S)
    return D * S + m * (S - 1) - m * (m - 1) // 2


@dataclass(frozen=True)
class Layout:
    """What the deal fixes.  Cards are deck positions 0..N-1.

    ``slots`` bounds the slots a game can use: with the final round, p after the
    last draw (p + 1 when the deal empties the deck).  ``draw_slot[i]`` is the
    slot that draws card i (-1: dealt); ``owner[i]`` is the player holding a dealt
    card (None: decided by who draws it).  ``last_draw`` is
    the slot that draws the last card (-1 when the deal empties the deck: the
    referee then anchors the final round at turn 0).  ``hands`` counts each
    player's cards once the deck is empty and before the tail's first slot: H each,
    or the deal's counts when the deal empties the deck.  ``run_cap`` bounds a run
    of clues (§2 of the note: the tokens, or p + 1 with unlimited tokens).
    """

    N: int
    slots: int
    players: int
    hand_size: int
    dealt: int
    last_draw: int
    draw_slot: list[int]
    owner: list[int | None]
    hands: list[int]
    run_cap: int
    tokens: int | None
    strikes: int
    final_round: bool

    @classmethod
    def of(cls, deck: Deck, rules: Rules) -> Layout:
        N, p, H = deck.N, rules.players, rules.hand_size
        D = min(p * H, N)
        draw_slot = [-1 if i < D else i - D for i in range(N)]
        owner: list[int | None] = [i // H if i < D else None for i in range(N)]
        hands = [H] * p if N > D else [max(0, min(H, N - q * H)) for q in range(p)]
        cap = p + 1 if rules.clues is None else rules.clues
        last = N - D - 1
        slots = min(N, max(last, 0) + 1 + p) if rules.final_round else N
        return cls(N, slots, p, H, D, last, draw_slot, owner, hands, cap, rules.clues,
                   rules.strikes, rules.final_round)

    @property
    def tail(self) -> range:
        """Slots (and run indices, up to ``slots``) after the last draw."""
        return range(self.last_draw + 1, self.slots + 1)

    @property
    def tail_matters(self) -> bool:
        """Whether a hand can run dry where it counts: a clue without a target or a
        player stuck without a move.  Never with the final round on, a deck that
        outlasts the deal and H >= 2 (every player keeps H-1 cards or more)."""
        return not (self.final_round and self.last_draw >= 0 and self.hand_size >= 2)


def to_actions(deck: Deck, rules: Rules, order: Sequence[int], fates: Sequence[str],
               runs: Sequence[int]) -> list[Action]:
    """The game that moves card ``order[k]`` at slot k (played for fates P and S,
    discarded for D) after ``runs[k]`` clues, then ``runs[len(order)]`` clues, up to
    where the referee ends it.  Each clue goes to the next player after the mover who
    can be clued.  An encoding whose solution breaks the rules is a bug: raise
    SolverBug naming the step.

    The encodings let a game go on after hanab.live's early ends (the score equals
    the best score still reachable, or nothing still needed can be played): nothing
    after such an end can add to the score, so the game cut there scores as much."""
    g = Game.start(deck, rules)
    out: list[Action] = []

    def move(act: Action) -> None:
        try:
            g.apply(act)
        except IllegalMove as exc:
            raise SolverBug(f"decoded game: action #{len(out)}: {act}: {exc}") from exc
        out.append(act)

    def clues(count: int) -> None:
        for _ in range(count):
            if g.over:
                return
            p = rules.players
            targets = [(g.player + j) % p for j in range(1, p) if g.cluable((g.player + j) % p)]
            if not targets:
                raise SolverBug(f"decoded game: action #{len(out)}: player {g.player} "
                                f"has nobody to clue")
            move(g.some_clue(targets[0]))

    for k, card in enumerate(order):
        clues(runs[k])
        if g.over:
            return out
        move(Action.discard(card) if fates[k] == DISCARD else Action.play(card))
    clues(runs[len(order)] if len(runs) > len(order) else 0)
    return out


def from_actions(deck: Deck, rules: Rules, actions: Sequence[Action]
                 ) -> tuple[list[int], list[str], list[int]]:
    """The inverse of ``to_actions`` for a legal game: (cards by slot, fates, runs)."""
    g = Game.start(deck, rules)
    order: list[int] = []
    fates: list[str] = []
    runs = [0]
    for act in actions:
        if act.is_clue:
            runs[-1] += 1
        else:
            a, c = g.card(act.target)
            order.append(act.target)
            if act.kind is Kind.DISCARD:
                fates.append(DISCARD)
            else:
                fates.append(PLAY if g.piles[c - 1] + 1 == a else STRIKE)
            runs.append(0)
        g.apply(act)
    return order, fates, runs


def first_legal_game(deck: Deck, rules: Rules) -> list[Action]:
    """A complete game: always the first legal move (plays first).  It ends, since
    every play uses up a card and a clue is only taken with an empty hand."""
    g = Game.start(deck, rules)
    out: list[Action] = []
    while not g.over:
        act = next(g.legal_actions())
        g.apply(act)
        out.append(act)
    return out
