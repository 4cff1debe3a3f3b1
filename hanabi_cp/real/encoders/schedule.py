"""The skeleton both real-rules encodings share (encodings/live-cpsat.md §1).

A game is read as a sequence of *slots*: slot k is the k-th play or discard of the
game, and it draws deck card D + k (D = cards dealt) while the deck lasts.  Between
slot k-1 and slot k lie ``runs[k]`` clue turns; ``runs[K]`` counts the clues after
the last slot.  Slot k is played on turn k + runs[0] + ... + runs[k], so the runs
fix who moves, and the mover of the slot that drew a card owns it.  ``Layout``
holds what the position fixes; ``to_actions`` turns (cards by slot, their fates,
runs) into hanab.live actions, choosing each clue's target from the state.

The game need not start at the deal: from a position (a referee ``Game``), slot 0
is the next play or discard, it draws the next deck card, and the cards already
played or lost are gone.

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.real.rules import Rules
>>> deal = Game.start(Deck.of([(1, 1), (2, 1), (3, 1), (1, 2), (2, 2)]), Rules.for_players(2, hand_size=2))
>>> lay = Layout.of(deal)
>>> lay.last_draw, lay.draw_slot, lay.owner, lay.slots
(0, [-1, -1, -1, -1, 0], [0, 0, 1, 1, None], 3)
>>> acts = to_actions(deal, [3, 0], "PP", [1, 0, 0])
>>> [str(a) for a in acts]
['clue player 1 rank 3', 'play #3', 'play #0']
>>> later = deal.copy(); later.apply(acts[0]); later.apply(acts[1])
>>> lay = Layout.of(later)
>>> lay.first, lay.live, lay.draw_slot, lay.last_draw, lay.turns_left, lay.piles
(0, [0, 1, 2, 4], [-1, -1, -1, -2, -1], -1, 2, [0, 1])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...core.errors import SolverBug
from ..actions import Action, Kind
from ..referee import Game, IllegalMove

PLAY, DISCARD, STRIKE = "P", "D", "S"   # fates of a card that leaves a hand
# The ends that score 0, which the maximize models leave out (keyed by the speedrun
# option): when a model has no solution, every complete game ends one of these ways.
ZERO_ENDS = {False: "strikes out", True: "strikes out or fails the speedrun"}


# A run of clues and the token count are one-hot per slot in both encodings, so
# their size grows with the budget; hanab.live's is 8 (None, unlimited, is cheap).
MAX_TOKENS = 32
# Card-slot literals ("card i leaves at slot k"), the bulk of both encodings: a
# shuffled standard deck has about 1,300; a million is a model of a few GB.
MAX_CARD_SLOTS = 1_000_000


def refuses(start: Game) -> str | None:
    """Why the encodings refuse the position, or None (a LiveMethod's ``refuses``)."""
    rules = start.rules
    if start.over:
        return None                    # nothing to encode: the method answers at once
    if rules.all_or_nothing:
        return ("all or nothing: its zero scores (a player without card or token) are not "
                "in the encodings; use search")
    if rules.max_tokens is not None and rules.max_tokens > MAX_TOKENS:
        found = rules.clues if rules.clue_cost == 1 else f"{rules.max_tokens} half"
        return (f"at most {MAX_TOKENS} clue tokens (found {found}): the encodings "
                f"count tokens one-hot per slot; use unlimited clues or another method")
    left, H = start.deck.N - start.drawn, rules.hand_size
    if left and any(len(hand) != H for hand in start.hands):
        return (f"a hand of fewer than {H} cards while the deck lasts: not a position a "
                f"legal game reaches")
    size = card_slots(sum(map(len, start.hands)), left, slot_count(start))
    if size > MAX_CARD_SLOTS:
        return (f"{size:,} card-slot literals (limit {MAX_CARD_SLOTS:,}): the encodings "
                f"grow with cards x slots; use search")
    return None


def slot_count(start: Game) -> int:
    """The slots (plays and discards) the rest of the game can use: one per card
    still held or in the deck, and with the final round at most p after the slot
    that draws the last card, or the turns left when the deck is already empty."""
    rules = start.rules
    left = start.deck.N - start.drawn
    cards = sum(map(len, start.hands)) + left
    if not rules.final_round:
        return cards
    if left:
        return min(cards, left + rules.players)
    assert start.end_turn is not None      # the deck is empty: the final round runs
    return min(cards, start.end_turn - start.turn)


def card_slots(held: int, left: int, slots: int) -> int:
    """The number of (card, slot) pairs the encodings give a literal, in O(1): a
    held card may leave at any of the ``slots``, the card drawn at slot d at the
    S-1-d slots after it (a deck play adds one pair, not counted).

    >>> card_slots(15, 35, 38), card_slots(10, 10**7 - 10, 10**7 - 8)
    (1270, 50000014999955)
    """
    S = slots
    m = min(left, S)
    return held * S + m * (S - 1) - m * (m - 1) // 2


@dataclass(frozen=True)
class Layout:
    """What the position fixes.  Cards are deck positions 0..N-1; slots and turns
    count from the position (slot 0 is the rest of the game's first play or
    discard, turn 0 its first turn, played by ``first``).

    ``live`` lists the cards still held or in the deck (the others are gone:
    played or lost).  ``draw_slot[i]`` is the slot that draws card i (-1: held at
    the position, -2: gone); ``owner[i]`` the player holding a held card (None:
    decided by who draws it).  ``last_draw`` is the slot that draws the last card
    (-1 when the deck is already empty: the final round then has ``turns_left``
    turns).  ``slots`` bounds the slots a game can use (``slot_count``).
    ``hands`` counts each player's cards before the tail's first slot: H each
    while the deck lasts (a legal game's hands are full until the last draw), else
    the position's counts.  ``run_cap`` bounds a run of clues (the clues the token maximum pays for,
    or p + 1 with unlimited tokens: note §2).  ``strikes_left``: the strikes the
    rest of the game may add without striking out.  ``touchable[i]``: some legal
    clue touches card i; ``free_clue``: a clue is legal without touching.
    ``deck_play``: the last card may be played from the deck (at its own slot).
    The token rules a variant may change (encodings/variants.md, 7): ``tokens``
    and ``tokens_now`` count units of which a clue spends ``clue_cost``;
    ``top_token``: a completed pile gives one back; ``discard_at_max``: a discard
    is legal at the maximum (it then gives none).  ``by_type``: in Alternating
    Clues where a card is touched by one clue type only, per type (1: colour, 0:
    rank) the cards it touches (else None); ``free_type``: per type, a clue of it
    is legal touching nothing; ``last_clue``: the position's last clue's type.
    """

    N: int
    slots: int
    players: int
    hand_size: int
    first: int
    last_draw: int
    draw_slot: list[int]
    owner: list[int | None]
    live: list[int]
    hands: list[int]
    run_cap: int
    tokens: int | None
    tokens_now: int | None
    strikes_left: int
    final_round: bool
    turns_left: int | None
    piles: list[int]
    touchable: list[bool]
    all_touchable: bool
    free_clue: bool
    deck_play: bool
    speedrun: bool
    early_ends: bool         # hanab.live's ends once nothing more can score
    clue_cost: int = 1
    top_token: bool = True
    discard_at_max: bool = False
    by_type: tuple[list[bool], list[bool]] | None = None
    free_type: tuple[bool, bool] = (False, False)
    last_clue: bool | None = None

    @classmethod
    def of(cls, start: Game) -> Layout:
        deck, rules, tables = start.deck, start.rules, start.tables
        assert tables is not None
        N, p, H = deck.N, rules.players, rules.hand_size
        left = N - start.drawn
        draw_slot = [-2] * N
        owner: list[int | None] = [None] * N
        for q, hand in enumerate(start.hands):
            for o in hand:
                draw_slot[o], owner[o] = -1, q
        for i in range(start.drawn, N):
            draw_slot[i] = i - start.drawn
        live = [i for i in range(N) if draw_slot[i] != -2]
        hands = [H] * p if left else [len(hand) for hand in start.hands]
        cap = p + 1 if rules.clues is None else rules.clues
        turns_left = None if left or not rules.final_round or start.end_turn is None \
            else start.end_turn - start.turn
        return cls(N, slot_count(start), p, H, start.player, left - 1, draw_slot, owner,
                   live, hands, cap, rules.max_tokens, start.clues,
                   rules.strikes - 1 - start.strikes, rules.final_round, turns_left,
                   list(start.piles), list(tables.touchable), tables.all_touchable,
                   tables.free_clue, rules.deck_plays and left > 0, rules.speedrun,
                   rules.early_ends, rules.clue_cost, rules.top_gives_token,
                   rules.discard_at_max, tables.by_type, tables.free_type,
                   start.last_clue if tables.by_type is not None else None)

    @property
    def tail(self) -> range:
        """Slots (and run indices, up to ``slots``) after the last draw."""
        return range(self.last_draw + 1, self.slots + 1)

    @property
    def anchor(self) -> int:
        """With the deck already empty: the turn, counted from the position, that
        drew the last card (the final round is its p next turns: the game ends
        before turn anchor + p + 1).  0 at a deal that empties the deck: the
        referee anchors it at the deal's turn 0, so the deal has p + 1 turns."""
        assert self.turns_left is not None
        return self.turns_left - self.players - 1

    @property
    def clue_targets_checked(self) -> str | None:
        """Which hand counts the clue-target constraints read: None when a clue is
        always legal (``free_clue``); "hands" when every card is touchable (then a
        player holding a card can be clued, and only in the tail can a hand be
        empty, Lemma 1); "touch" otherwise (touchable cards, from slot 0)."""
        if self.by_type is not None:
            return "typed"
        if self.free_clue:
            return None
        return "hands" if self.all_touchable else "touch"

    @property
    def tail_matters(self) -> bool:
        """Whether a hand can run dry where it counts: a clue without a target or a
        player stuck without a move.  Never with the final round on when every
        player holds more cards after the last draw than turns left to lose them
        (H >= 2 when the deck outlasts the position: one turn each)."""
        if not self.final_round:
            return True
        p = self.players
        if self.last_draw >= 0:
            return self.hand_size < 2
        assert self.turns_left is not None
        moves = [len(range(q, self.turns_left, p)) for q in range(p)]
        return any(self.hands[(self.first + d) % p] <= moves[d] for d in range(p))


def to_actions(start: Game, order: Sequence[int], fates: Sequence[str],
               runs: Sequence[int], first_clue: bool | None = None) -> list[Action]:
    """The rest of the game from the position ``start`` that moves card ``order[k]``
    at slot k (played for fates P and S, discarded for D) after ``runs[k]`` clues,
    then ``runs[len(order)]`` clues, up to where the referee ends it.  Each clue
    goes to the next player after the mover who can be clued.  An encoding whose
    solution breaks the rules is a bug: raise SolverBug naming the step.

    The referee may end the game before the encoding's end, at one of hanab.live's
    early ends (the score equals the best score still reachable; in the final
    round, nothing still needed can be played): no pile grows after either, so the
    game cut there scores as much (encodings/live-cpsat.md §4).  ``first_clue``: in
    Alternating Clues with ``Layout.by_type``, the type of the game's first clue
    (True: colour) when the position has had none: it decides every later one's."""
    g = start.copy()
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
            p = g.rules.players
            typed = first_clue is not None and g.last_clue is None \
                and g.tables is not None and g.tables.by_type is not None
            targets = [(g.player + j) % p for j in range(1, p)
                       if (g.cluable_by((g.player + j) % p, bool(first_clue)) if typed
                           else g.cluable((g.player + j) % p))]
            if not targets:
                raise SolverBug(f"decoded game: action #{len(out)}: player {g.player} "
                                f"has nobody to clue")
            move(g.some_clue(targets[0], first_clue if typed else None))

    for k, card in enumerate(order):
        clues(runs[k])
        if g.over:
            return out
        move(Action.discard(card) if fates[k] == DISCARD else Action.play(card))
    clues(runs[len(order)] if len(runs) > len(order) else 0)
    return out


def from_actions(start: Game, actions: Sequence[Action]
                 ) -> tuple[list[int], list[str], list[int]]:
    """The inverse of ``to_actions`` for a legal game from ``start``: (cards by
    slot, fates, runs).  A deck play is the slot that draws the last card moving
    that card itself."""
    g = start.copy()
    order: list[int] = []
    fates: list[str] = []
    runs = [0]
    for act in actions:
        if act.is_clue:
            runs[-1] += 1
        elif act.is_move:
            order.append(act.target)
            fates.append(DISCARD if act.kind is Kind.DISCARD else "")
            runs.append(0)
        score = sum(g.piles)
        g.apply(act)
        if fates and not fates[-1]:
            # a success is a play the pile takes, in every variant's order
            fates[-1] = PLAY if sum(g.piles) > score else STRIKE
    return order, fates, runs


def first_legal_game(start: Game) -> list[Action]:
    """The rest of a game from ``start``: always the first legal move (plays first).
    It ends, since every play uses up a card and a clue is only taken with an empty
    hand."""
    g = start.copy()
    out: list[Action] = []
    while not g.over:
        act = next(g.legal_actions())
        g.apply(act)
        out.append(act)
    return out
