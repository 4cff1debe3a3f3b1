"""Games of DeepMind's Hanabi Learning Environment (HLE) in hanabi-cp's form.

HLE (PyPI ``hanabi-learning-environment``; install it with ``pip install
'.[hle]'`` from a clone) is where AI agents for Hanabi are trained and scored.
``to_game(state)`` turns one of its games (a ``pyhanabi.HanabiState``, over or not)
into an ``HLEGame``: the whole deck in deal order, the rules (HLE's end rules:
``Rules.early_ends`` off), the actions as hanab.live numbers them and HLE's own
score.  ``from_moves`` does the same from plain data (the cards in deal order and
HLE's move dicts), for forks of HLE whose states this module cannot read (SAD,
OBL: see the README).  ``HLEGame.json()`` is a hanab.live JSON game file marked
with HLE's end rules (``"hanabi_cp": {"end_rules": "hle"}``), which ``verify``,
``analyze`` and ``solve`` then judge under those rules.

How an HLE game maps to ours (checked against HLE 0.0.4's source and by the tests):

- colours: HLE's R Y G W B (``pyhanabi.COLOR_CHAR``); hanab.live's No Variant is
  R Y G B P, so with five colours HLE's W is our Purple (suit index 4) and its B our
  Blue (3); with fewer colours the indices are kept (HLE's first four are R Y G W);
- ranks are 0-based in HLE (a rank clue's value here is HLE's rank + 1);
- a clue names a target offset from the giver (player ``(giver + offset) % P``);
- a hand's index 0 is its oldest card: a played or discarded card is erased from
  the hand and the new card appended, while our actions name deck positions, so the
  converter keeps which deck position sits in each slot;
- HLE has no shuffled deck: each deal draws from the remaining counts with the
  ``HanabiGame``'s generator (seeded once per ``HanabiGame`` and shared by every
  state it starts), so the cards a game never drew come from replaying the seed on
  a fresh ``HanabiGame`` (``deck_from_seed``); that gives the deck of the *first*
  state a ``HanabiGame`` deals, and ``to_game`` refuses, naming the fix, a state
  whose dealt cards are not that deck's first ones.

>>> game = from_moves(["R1", "R2", "R1", "R1"],
...                   [{"action_type": "PLAY", "card_index": 0},
...                    {"action_type": "PLAY", "card_index": 0}],
...                   players=2, colors=1, ranks=2, hand_size=1)
>>> [str(a) for a in game.actions], game.replay().score, game.rules.early_ends
(['play #0', 'play #1'], 2, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..core.errors import InvalidParameter, UsageError
from ..real.actions import Action
from ..real.referee import LiveReplay, replay
from ..real.rules import Rules
from ..core.model import Deck

INSTALL = "from a clone of hanabi-cp, pip install '.[hle]' (make test installs it)"
# Its sdist declares cmake_minimum_required(2.8.11), which CMake 4 refuses.
INSTALL_NOTE = "with CMake 4 set CMAKE_POLICY_VERSION_MINIMUM=3.5 for its build"
COLOR_CHAR = "RYGWB"                       # HLE's colour letters, by index
MAX_COLORS = MAX_RANKS = 5
MOVE_TYPES = ("PLAY", "DISCARD", "REVEAL_COLOR", "REVEAL_RANK")


class HLEMissing(UsageError):
    """HLE is not installed (or its compiled library did not load)."""


class HLEError(InvalidParameter):
    """An HLE game this module cannot convert faithfully (the message says why)."""


def require():
    """HLE's ``pyhanabi`` module, or HLEMissing saying how to install it."""
    try:
        from hanabi_learning_environment import pyhanabi
    except ImportError:
        raise HLEMissing(f"the Hanabi Learning Environment is not installed: {INSTALL} "
                         f"({INSTALL_NOTE})") from None
    if not pyhanabi.lib_loaded():
        raise HLEMissing("the Hanabi Learning Environment's compiled library did not load: "
                         f"reinstall it ({INSTALL})")
    return pyhanabi


def suit_of(color: int, colors: int = MAX_COLORS) -> int:
    """Our suit index (hanab.live's suitIndex) of HLE colour index ``color``.

    >>> [suit_of(c) for c in range(5)], [suit_of(c, 4) for c in range(4)]
    ([0, 1, 2, 4, 3], [0, 1, 2, 3])
    """
    if colors == MAX_COLORS and color >= 3:
        return 7 - color                   # W (3) -> Purple (4), B (4) -> Blue (3)
    return color


def color_of(suit: int, colors: int = MAX_COLORS) -> int:
    """HLE's colour index of our suit index ``suit`` (the inverse of ``suit_of``)."""
    return suit_of(suit, colors)           # the swap is its own inverse


@dataclass(frozen=True)
class Params:
    """An HLE game's parameters (``HanabiGame.parameter_string()``'s, as numbers)."""

    players: int
    colors: int = MAX_COLORS
    ranks: int = MAX_RANKS
    hand_size: int | None = None           # None: HLE's, 5 for 2-3 players, 4 for 4-5
    clues: int = 8                         # max_information_tokens
    lives: int = 3                         # max_life_tokens
    seed: int | None = None
    random_start_player: bool = False

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 5:
            raise HLEError(f"HLE has 2 to 5 players, found {self.players}")
        if not (1 <= self.colors <= MAX_COLORS and 1 <= self.ranks <= MAX_RANKS):
            raise HLEError(f"HLE has 1 to 5 colours and ranks, found {self.colors} and "
                           f"{self.ranks}")

    @property
    def hand(self) -> int:
        return self.hand_size or (5 if self.players < 4 else 4)

    @classmethod
    def parse(cls, text: str) -> Params:
        """From ``parameter_string()``: ``key=value`` lines."""
        kv = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
        return cls(int(kv["players"]), int(kv.get("colors", 5)), int(kv.get("ranks", 5)),
                   int(kv["hand_size"]) if "hand_size" in kv else None,
                   int(kv.get("max_information_tokens", 8)), int(kv.get("max_life_tokens", 3)),
                   int(kv["seed"]) if "seed" in kv else None,
                   kv.get("random_start_player", "false") == "true")

    def config(self) -> dict:
        """HLE's ``HanabiGame`` parameters for these (the seed included, if known)."""
        out = {"players": self.players, "colors": self.colors, "ranks": self.ranks,
               "hand_size": self.hand, "max_information_tokens": self.clues,
               "max_life_tokens": self.lives,
               "random_start_player": str(self.random_start_player).lower()}
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    def copies(self, rank: int) -> int:
        """HLE's ``NumberCardInstances``: 3 of the lowest rank, 1 of the highest, 2 else."""
        return 3 if rank == 0 else 1 if rank == self.ranks - 1 else 2

    @property
    def deck_size(self) -> int:
        return self.colors * sum(self.copies(r) for r in range(self.ranks))

    def rules(self, first_player: int = 0) -> Rules:
        """Our rules for HLE's game: its hand size, tokens and lives, and its end rules
        (only at the last life, the maximum score or after the final round)."""
        return Rules.for_players(self.players, self.hand, self.clues, self.lives,
                                 first_player=first_player, early_ends=False)


@dataclass(frozen=True)
class HLEGame:
    """An HLE game in our form; ``dealt`` cards of ``deck`` were dealt in the game
    (the rest come from the seed), ``score`` is HLE's own (None if not given)."""

    deck: Deck
    rules: Rules
    actions: list[Action]
    params: Params
    score: int | None = None
    dealt: int = 0
    names: tuple[str, ...] = field(default=())

    def replay(self) -> LiveReplay:
        """The game replayed by our referee under HLE's rules."""
        return replay(self.deck, self.rules, self.actions)

    def json(self) -> str:
        """The game as a hanab.live JSON game file marked with HLE's end rules."""
        from ..real.replay_io import replay_json
        return replay_json(self.deck, self.rules, self.actions, self.names or None)


def card_of(card, params: Params) -> tuple[int, int]:
    """HLE's (colour, rank), 0-based, of ``card``: a pair, or HLE's text (``"W3"``)."""
    if isinstance(card, str):
        text = card.strip().upper()
        if len(text) != 2 or text[0] not in COLOR_CHAR or not text[1].isdigit():
            raise HLEError(f"a card is HLE's colour letter and rank, e.g. W3; found {card!r}")
        color, rank = COLOR_CHAR.index(text[0]), int(text[1]) - 1
    else:
        color, rank = (int(x) for x in card)
    if not (0 <= color < params.colors and 0 <= rank < params.ranks):
        raise HLEError(f"card {card!r} is not in a deck of {params.colors} colours and "
                       f"{params.ranks} ranks")
    return color, rank


def deck_of(cards: Iterable, params: Params) -> Deck:
    """Our deck (cards ``(value, color)``, 1-based) of HLE's cards in deal order."""
    out = []
    for card in cards:
        color, rank = card_of(card, params)
        out.append((rank + 1, suit_of(color, params.colors) + 1))
    deck = Deck.of(out, params.ranks, params.colors)
    want = sorted((r + 1, suit_of(c, params.colors) + 1) for c in range(params.colors)
                  for r in range(params.ranks) for _ in range(params.copies(r)))
    if sorted(deck.cards) != want:
        raise HLEError(f"the deck is not HLE's deck of {params.colors} colours and "
                       f"{params.ranks} ranks ({deck.N} cards against {len(want)})")
    return deck


@dataclass(frozen=True)
class Move:
    """One move of an HLE game, as its history or an agent's dict gives it."""

    kind: str                    # one of MOVE_TYPES
    card_index: int = -1
    target_offset: int = -1
    color: int = -1              # HLE's colour index
    rank: int = -1               # HLE's rank, 0-based

    @classmethod
    def from_dict(cls, move: Mapping) -> Move:
        """From HLE's dict form (``HanabiMove.to_dict()``, an rl_env action)."""
        kind = move.get("action_type")
        if kind not in MOVE_TYPES:
            raise HLEError(f"an HLE move's action_type is one of {', '.join(MOVE_TYPES)}; "
                           f"found {move!r}")
        color = move.get("color", -1)
        if isinstance(color, str):
            if color not in COLOR_CHAR:
                raise HLEError(f"an HLE colour is one of {', '.join(COLOR_CHAR)}; found {move!r}")
            color = COLOR_CHAR.index(color)
        rank = move.get("rank", -1)
        return cls(kind, int(move.get("card_index", -1)), int(move.get("target_offset", -1)),
                   int(color if color is not None else -1), int(rank if rank is not None else -1))


def actions_of(moves: Sequence[tuple[int, Move]], params: Params, deck: Deck,
               start: int = 0) -> list[Action]:
    """Our actions for HLE's ``(player, move)`` list.  HLE deals player 0's hand
    first, then player 1's, ... (``PlayerToDeal``: the first short hand), as the
    referee does, and gives the mover the next card after a play or a discard,
    appended to its hand: the slots are kept that way here."""
    P, H = params.players, params.hand
    hands = [list(range(i * H, min((i + 1) * H, deck.N))) for i in range(P)]
    drawn = min(P * H, deck.N)
    out = []
    for turn, (player, move) in enumerate(moves):
        if player != (start + turn) % P:
            raise HLEError(f"move {turn}: HLE's player {player} moved where player "
                           f"{(start + turn) % P} was to move")
        hand = hands[player]
        if move.kind in ("PLAY", "DISCARD"):
            if not 0 <= move.card_index < len(hand):
                raise HLEError(f"move {turn}: player {player} has no card {move.card_index}")
            order = hand.pop(move.card_index)
            out.append(Action.play(order) if move.kind == "PLAY" else Action.discard(order))
            if drawn < deck.N:
                hand.append(drawn)
                drawn += 1
            continue
        if not 1 <= move.target_offset < P:
            raise HLEError(f"move {turn}: a clue's target offset is 1 to {P - 1}, found "
                           f"{move.target_offset}")
        target = (player + move.target_offset) % P
        if move.kind == "REVEAL_COLOR":
            out.append(Action.color_clue(target, suit_of(move.color, params.colors)))
        else:
            out.append(Action.rank_clue(target, move.rank + 1))
    return out


def from_moves(cards: Iterable, moves: Iterable[Mapping], players: int, *,
               colors: int = MAX_COLORS, ranks: int = MAX_RANKS, hand_size: int | None = None,
               clues: int = 8, lives: int = 3, first_player: int = 0,
               score: int | None = None) -> HLEGame:
    """An HLE game from plain data: ``cards``, the whole deck in deal order (HLE's
    text such as ``"W3"``, or 0-based ``(colour, rank)`` pairs), and ``moves`` in
    HLE's dict form (``{"action_type": "PLAY", "card_index": 0}``, ``{"action_type":
    "REVEAL_COLOR", "target_offset": 1, "color": "W"}``, ...), the players moving in
    turn from ``first_player``."""
    params = Params(players, colors, ranks, hand_size, clues, lives)
    deck = deck_of(cards, params)
    listed = [Move.from_dict(m) for m in moves]
    turns = [((first_player + i) % players, m) for i, m in enumerate(listed)]
    actions = actions_of(turns, params, deck, first_player)
    return HLEGame(deck, params.rules(first_player), actions, params, score, deck.N)


# ---- HLE's own objects (need HLE installed) -------------------------------------

def params_of(state) -> Params:
    """The parameters of the ``HanabiGame`` that started ``state``."""
    ph = require()
    # HanabiState keeps its parent game as a C pointer only (no Python HanabiGame to
    # ask), so its parameter string is read through the same C call HanabiGame uses.
    text = ph.lib.GameParamString(state._game)
    try:
        return Params.parse(ph.encode_ffi_string(text))
    finally:
        ph.lib.DeleteString(text)


def history_of(state) -> tuple[list[tuple[int, int]], list[tuple[int, Move]], list[int]]:
    """(dealt cards, (player, move) list, the player each card was dealt to) of
    ``state.move_history()``."""
    ph = require()
    dealt, moves, to = [], [], []
    for item in state.move_history():
        m = item.move()
        kind = ph.HanabiMoveType(m.type()).name
        if kind == "DEAL":
            dealt.append((m.color(), m.rank()))
            to.append(item.deal_to_player())
        else:
            moves.append((item.player(), Move(kind, m.card_index(), m.target_offset(),
                                              m.color(), m.rank())))
    return dealt, moves, to


def deck_from_seed(params: Params) -> list[tuple[int, int]]:
    """The whole deck, in deal order, of the first game a fresh ``HanabiGame`` with
    ``params`` deals: its deals are replayed (a deal's draw depends only on the
    generator and the counts left, not on the moves between deals) while card 0 is
    played between them, with a life per card so that no misplay ends the game."""
    ph = require()
    if params.seed is None or params.seed == -1:
        raise HLEError("the game's seed is unknown: the cards it never drew cannot be "
                       "recovered")
    config = {**params.config(), "max_life_tokens": params.deck_size + 1}
    # kept in a name: a state holds only a C pointer to its game, which HanabiGame's
    # __del__ frees (a temporary game would leave the state dangling)
    game = ph.HanabiGame(config)
    state = game.new_initial_state()
    cards: list[tuple[int, int]] = []
    while len(cards) < params.deck_size:
        if state.cur_player() == ph.CHANCE_PLAYER_ID:
            state.deal_random_card()
            m = state.move_history()[-1].move()
            cards.append((m.color(), m.rank()))
        else:
            state.apply_move(ph.HanabiMove.get_play_move(0))
    del state, game                        # the state first (see above)
    return cards


def to_game(state, deck: Iterable | None = None) -> HLEGame:
    """The game ``state`` (a ``pyhanabi.HanabiState``) in our form.  The cards it
    never drew come from ``deck`` (the whole deck in deal order, as ``from_moves``
    takes it) if given, else from replaying its seed (``deck_from_seed``)."""
    params = params_of(state)
    dealt, moves, to = history_of(state)
    if deck is not None:
        full = [card_of(c, params) for c in deck]
        source = "the deck given"
    elif len(dealt) < params.deck_size:
        full = deck_from_seed(params)
        source = f"seed {params.seed}'s first deal"
    else:
        full, source = dealt, "the game"
    if full[:len(dealt)] != dealt:
        i = next(i for i, (a, b) in enumerate(zip(full, dealt)) if a != b)
        raise HLEError(
            f"card #{i} HLE dealt ({_text(dealt[i])}) is not {source}'s ({_text(full[i])}): "
            "a HanabiGame's generator runs on across the games it starts, so only its "
            "first game's undrawn cards follow from the seed; use a fresh HanabiGame (or "
            "rl_env.HanabiEnv) per game, or give the deck")
    _check_deals(to, moves, params)
    start = moves[0][0] if moves else state.cur_player()
    ours = deck_of(full, params)
    actions = actions_of(moves, params, ours, start if start >= 0 else 0)
    return HLEGame(ours, params.rules(max(start, 0)), actions, params, state.score(),
                   len(dealt))


def _check_deals(to: list[int], moves: list[tuple[int, Move]], params: Params) -> None:
    """HLE deals the opening hands player by player and then the mover's next card:
    the order the referee assumes (checked, not taken on trust)."""
    H = params.hand
    opening = min(params.players * H, params.deck_size)
    want = [i // H for i in range(opening)] + [p for p, m in moves
                                               if m.kind in ("PLAY", "DISCARD")]
    if to != want[:len(to)]:
        i = next(i for i, (a, b) in enumerate(zip(to, want)) if a != b)
        raise HLEError(f"HLE dealt card #{i} to player {to[i]}, where the referee deals it "
                       f"to player {want[i]}")


def _text(card: tuple[int, int]) -> str:
    return f"{COLOR_CHAR[card[0]]}{card[1] + 1}"
