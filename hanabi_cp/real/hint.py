"""A quick greedy game, as a solution hint for the CP-SAT model (it wins most
shuffled standard decks with open hands, and a hint the solver can complete
saves it the search; the answer still comes from the model and the referee).

Each turn: play a playable card (the lowest); else discard a card that is
already on the piles or has another copy in some hand, if a token is missing;
else clue (unless the last p turns were all clues: with unlimited tokens clues
could cycle forever); else discard the least useful card (not the last copy,
highest value); else the first legal move (plays first).  So every p + 1 turns a
card leaves a hand, or the game ends: the game is finite.

The game starts from a position (a referee ``Game``: the deal or any later state).

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.real.rules import Rules
>>> deal = Game.start(Deck.of([(2, 1), (1, 1), (1, 1)]), Rules.for_players(2, hand_size=1))
>>> [str(a) for a in greedy_game(deal)]
['clue player 1 rank 1', 'play #1', 'play #0']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .actions import Action
from .referee import Game
from .encoders.schedule import from_actions


def greedy_game(start: Game) -> list[Action]:
    """The rest of the greedy game from the position ``start`` (left unchanged)."""
    g = start.copy()
    out: list[Action] = []
    in_row = 0              # clues since the last play or discard
    while not g.over:
        act = _choose(g, in_row >= g.rules.players)
        g.apply(act)
        out.append(act)
        in_row = in_row + 1 if act.is_clue else 0
    return out


def _choose(g: Game, no_clue: bool) -> Action:
    """``no_clue``: a whole round has clued already; with unlimited tokens another
    clue could go on forever, so a player holding a card moves one."""
    hand = g.hands[g.player]
    playable = [o for o in hand if g.takes(g.card(o)[1] - 1, g.card(o)[0])]
    if playable:
        return Action.play(min(playable, key=lambda o: g.card(o)[0]))
    held = Counter(g.card(o) for h in g.hands for o in h)
    lost = Counter(g.card(o) for o in g.lost_cards)
    copies = Counter((c.value, c.color) for c in g.deck.cards)

    def useless(o: int) -> bool:
        a, k = g.card(o)
        return not g.needed(k - 1, a) or held[(a, k)] > 1

    if g.can_discard():
        spare = [o for o in hand if useless(o)]
        if spare:
            return Action.discard(spare[0])
    if g.can_clue() and not no_clue:
        return next(a for a in g.legal_actions() if a.is_clue)
    if g.can_discard() and hand:
        def keep(o: int) -> tuple[bool, int]:
            card = g.card(o)
            return copies[card] - lost[card] == 1, -card[0]
        return Action.discard(min(hand, key=keep))
    return next(g.legal_actions())


def hint_choices(start: Game, incumbent: Sequence[Action] | None = None
                 ) -> tuple[list[int], list[str], list[int]]:
    """The choices (``schedule.from_actions``) of the game an encoding starts from:
    ``incumbent`` (``SolveOptions.incumbent``, a complete game from ``start`` that
    ``solve_position`` has replayed) if given, else the greedy game."""
    return from_actions(start, greedy_game(start) if incumbent is None else incumbent)
