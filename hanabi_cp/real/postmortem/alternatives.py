"""What instead: the legal actions at a position that keep its best score.

``keeps(g, taken, goal)`` tries every legal action at ``g`` but ``taken`` (a play
and a discard of each card in the mover's hand, a deck play where the rules allow
one, and every clue the rules allow: each color and rank to each other player) and
keeps those after which some game still scores ``goal``, the best score of ``g``.
Each is asked the cheapest sound question, "does some game from here reach
``goal``?" (the search's ``game(goal)``, which stops at the first such game), and
each kept action comes with a certificate: the rest of a game from after it that
the referee replays from ``g`` to a score of at least ``goal``.  With open hands
every legal clue leaves the same state (a token spent, the turn passed), so one
question answers every clue (each is still replayed; in Alternating Clues, every
clue of one type), and when ``taken`` is a clue no clue of its group keeps the
score.  An action not decided within the time is left out and
listed as undecided, never guessed.  A question the search does not answer at once
is first put to the deal's own reasons (``deal_bounds``: a lost card's copies, pace,
hand size), which refute some of the hardest "no"s without a search.

Cards are named as hanab.live shows them: slot 1 is the newest card of a hand, on
the left (a referee hand lists deck orders oldest first, the newest last).

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.real.rules import Rules
>>> deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2), (1, 1), (1, 2)])
>>> rules = Rules.for_players(2, hand_size=2, clues=1)
>>> g = Game.after(deck, rules, [Action.rank_clue(1, 1)])     # Bob to move: y1 y2
>>> keep = keeps(g, Action.discard(3), 4)      # Bob discarded y2, the only one
>>> keep.actions, instead_text(g, keep.actions, ["Alice", "Bob"])
((Action(kind=<Kind.PLAY: 0>, target=2, value=None),), 'Bob plays slot 2 (y1)')
>>> [str(a) for a in keeps(g, Action.discard(3), 4, deadline=Deadline.after(0)).undecided]
['play #3', 'play #2', 'discard #2']
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from ...core.errors import SolverBug
from ...core.options import SolveOptions
from ...core.status import Status
from ...runtime.deadline import NEVER, Deadline
from ..actions import Action, Kind
from .deal_bounds import refuted
from .drop_reasons import NO_VARIANT_COLORS, kind_name
from ..methods import search_core
from ..methods.sat import at_least
from ..older_games import under_today
from ..referee import Game, IllegalMove, replay, typed_clues
from ..solve import solve_position


@dataclass(frozen=True)
class Keep:
    """The actions at a position that keep its best score, and those left undecided."""

    actions: tuple[Action, ...]
    undecided: tuple[Action, ...] = ()


def every_legal_action(g: Game) -> list[Action]:
    """Every legal action of the player to move, each clue value to each other player
    (``Game.legal_actions`` lists one clue per player): plays, discards, clues."""
    if g.over:
        return []
    hand = list(reversed(g.hands[g.player]))            # slot 1 first
    out = [Action.play(o) for o in hand]
    top = g.deck_play()
    if top is not None:
        out.append(Action.play(top))
    if g.can_discard():
        out += [Action.discard(o) for o in hand]
    if g.has_token():
        assert g.tables is not None
        v = g.tables.clues
        for p in range(g.rules.players):
            if p == g.player:
                continue
            for is_color in (False, True):
                for value in v.clue_values(is_color):
                    act = Action.color_clue(p, value) if is_color else Action.rank_clue(p, value)
                    if _legal(g, act):
                        out.append(act)
    return out


def _legal(g: Game, act: Action) -> bool:
    try:
        g.copy().apply(act)
    except IllegalMove:
        return False
    return True


UNDECIDED = object()
# The search answers most questions within this many seconds; only one it leaves
# open is worth the deal's reasons (a few milliseconds each: asked anew for every
# set of lost cards, where the search's quick answers cost less).
FIRST_TRY = 0.05
# A patient question with at least this many seconds left goes to CaDiCaL after
# the search has had SEARCH_FIRST of them (half at most), then back to the search
# (``reaches``).
SAT_FROM = 1.0
SEARCH_FIRST = 1.0


def keeps(g: Game, taken: Action, goal: int, known: Sequence[Action] | None = None,
          method: str = "auto", deadline: Deadline = NEVER, fails: bool = False) -> Keep:
    """The legal actions at ``g`` but ``taken`` after which a game reaches ``goal``
    (see the module).  ``known``: a complete game from ``g`` reaching ``goal`` (the
    post-mortem's certificate), whose first action then needs no question;
    ``fails``: no game after ``taken`` reaches ``goal`` (a drop: then nor after the
    same move of another copy of its card in the hand, ``_twin``).  An
    older game's position is asked under today's end rules (``under_today``: the
    same moves and best score; the certificates are complete games under them)."""
    today = under_today(g)
    # (the deal's reasons read a game under the rules it was played by: an older
    # game's position, asked under today's end, is not refuted by them)
    ask = _Questions(today, goal, known, method, deadline, refute=today is g)
    g = today
    if fails and taken.is_move and taken.target in g.hands[g.player]:
        ask.twins[taken.kind, g.deck.cards[taken.target]] = (taken.target, None)
    skip = _clue_group(g, taken)
    acts = [a for a in every_legal_action(g)
            if a != taken and (skip is None or _clue_group(g, a) != skip)]
    # every question the search answers at once first, then the others with the time
    # left: a hard one never leaves the easy ones unasked
    answers: dict[Action, tuple[object, bool]] = {}
    for patient in (False, True):
        for act in acts:
            if act not in answers and (got := ask.answer(act, patient)) is not None:
                answers[act] = got
    kept: list[Action] = []
    undecided: list[Action] = []
    for act in acts:
        rest, replayed = answers[act]       # ``replayed``: already replayed to ``goal``
        if rest is UNDECIDED:
            undecided.append(act)
        elif rest is not None:
            assert isinstance(rest, list)
            if not replayed:
                _certify(g, act, rest, goal)
            kept.append(act)
    return Keep(tuple(kept), tuple(undecided))


class _Questions:
    """``keeps``' questions at one position: each action's answer (the rest of a
    game reaching ``goal``, None, or UNDECIDED) and whether it was replayed, shared
    by the clues of a group and by the twins of a card (``_twin``)."""

    def __init__(self, g: Game, goal: int, known: Sequence[Action] | None, method: str,
                 deadline: Deadline, refute: bool):
        self.g, self.goal, self.known, self.method = g, goal, known, method
        self.deadline, self.refute = deadline, refute
        self.shared: dict[object, object] = {}      # per group of clues, its answer
        self.twins: dict[object, tuple[int, object]] = {}   # per card and move
        self.open: set[object] = set()      # groups and cards left to the patient pass

    def answer(self, act: Action, patient: bool) -> tuple[object, bool] | None:
        """``act``'s answer; None when not ``patient`` and the search has not
        answered within FIRST_TRY seconds nor the deal's reasons refuted it."""
        g, goal, known = self.g, self.goal, self.known
        group = _clue_group(g, act)
        if group in self.shared:
            return self.shared[group], False
        twin = _twin(g, act, self.twins, goal)
        if twin is not None:
            return twin
        card = (act.kind, g.deck.cards[act.target]) \
            if act.is_move and act.target in g.hands[g.player] else None
        if not patient and (group or card) in self.open:
            return None
        replayed = False
        if known and (known[0] == act
                      or (group is not None and group == _clue_group(g, known[0])))\
                and _replays(g, act, list(known[1:]), goal):
            # (a certificate the post-mortem followed past a clue of the other type,
            # in Alternating Clues, may not replay as it stands: then asked anew)
            rest: object = list(known[1:])
            replayed = True
        else:
            after = g.copy()
            after.apply(act)
            if patient:
                rest = reaches(after, goal, self.method, self.deadline)
            else:
                rest = reaches(after, goal, self.method,
                               Deadline.after(self.deadline.share(FIRST_TRY)))
                if rest is UNDECIDED and not self.deadline.expired():
                    if not (self.refute and refuted(after, goal) is not None):
                        self.open.add(group or card)
                        return None
                    rest = None
        if group is not None:
            self.shared[group] = rest
        if card is not None:
            self.twins.setdefault(card, (act.target, rest))
        return rest, replayed


def _twin(g: Game, act: Action, twins: dict[object, tuple[int, object]],
          goal: int) -> tuple[object, bool] | None:
    """The answer of the same move of another copy of the same card in the mover's
    hand, if one was asked: the two positions after are the same game but for which
    deck position holds which copy (the referee reads cards by identity, never by slot),
    so a certificate of one, its two copies swapped, is one of the other (replayed;
    asked anew if it does not replay), and a "no" or an undecided answer holds for
    both.  (the answer, whether replayed) or None."""
    if not act.is_move or act.target not in g.hands[g.player]:
        return None
    seen = twins.get((act.kind, g.deck.cards[act.target]))
    if seen is None:
        return None
    other, rest = seen
    if not isinstance(rest, list):
        return rest, False
    swap = {other: act.target, act.target: other}
    mapped = [Action(a.kind, swap.get(a.target, a.target), a.value) if a.is_move else a
              for a in rest]
    return (mapped, True) if _replays(g, act, mapped, goal) else None


def _clue_group(g: Game, act: Action) -> object:
    """The clues that leave the same state as ``act`` (None for a play or discard):
    every clue, but in Alternating Clues those of its type (which the next clue
    may not have)."""
    if not act.is_clue:
        return None
    return act.kind if g.rules.alternating_clues else "clue"


def reaches(h: Game, goal: int, method: str, deadline: Deadline) -> object:
    """The rest of a game from ``h`` scoring at least ``goal``, None if no game does,
    or UNDECIDED when the time runs out first."""
    if h.over:
        return [] if h.score >= goal else None
    if deadline.expired():
        return UNDECIDED
    if method not in ("auto", "search") or h.chosen is not None:
        # (Up or Down and Sudoku: the search goes plan by plan, encodings/variants.md, 8.5)
        share = deadline.share(None)
        out = solve_position(h, method, SolveOptions(time_limit=share, maximize=True))
        if out.score is not None and out.score >= goal:
            return list(out.actions or [])
        return UNDECIDED if out.status is Status.UNKNOWN else None
    if method == "auto" and deadline.bounded and deadline.remaining() >= SAT_FROM:
        # ``auto`` with time to spare: the search for at most SEARCH_FIRST seconds
        # (half of it at most), then CaDiCaL for half of what is left (on the
        # questions the search leaves, it decides most: docs/benchmarks.md), then
        # the search again with the rest, from the tables it filled (the game's)
        got = _searched(h, goal, Deadline.after(min(deadline.remaining() / 2, SEARCH_FIRST)))
        if got is UNDECIDED:
            got = by_sat(h, goal, Deadline.after(deadline.remaining() / 2))
        if got is UNDECIDED and not deadline.expired():
            got = _searched(h, goal, deadline)
        return got
    return _searched(h, goal, deadline)


def _searched(h: Game, goal: int, deadline: Deadline) -> object:
    """``reaches`` asked of the search alone (with the game's tables where the
    post-mortem lends them: ``search.MEMORY``)."""
    S = search_core()
    s = S.LiveSearch(h, deadline.on_perf_counter(), None, S.MEMORY.get())
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, S.recursion_needed(h)))
    try:
        got = s.game(goal)
    except S.Timeout:
        return UNDECIDED
    finally:
        sys.setrecursionlimit(old)
    if got is None:
        return None
    # the search chooses no clue's content: in Alternating Clues, the types of its
    # clues are set as the referee wants them (``typed_clues``)
    return typed_clues(h, got[0]) if h.rules.alternating_clues else got[0]


def by_sat(h: Game, goal: int, deadline: Deadline) -> object:
    """``reaches`` asked of CaDiCaL alone (one climb stopped at ``goal``: a drop's
    alternative scores at most the best before it)."""
    out = at_least(h, goal, deadline)
    if out.score is not None and out.score >= goal:
        return list(out.actions or [])
    return None if out.status is Status.UNWINNABLE else UNDECIDED


def _replays(g: Game, act: Action, rest: list[Action], goal: int) -> bool:
    rep = replay(g.deck, g.rules, [act, *rest], g)
    return rep.legal and rep.complete and rep.score >= goal


def _certify(g: Game, act: Action, rest: list[Action], goal: int) -> None:
    """``_replays``, or a SolverBug naming where the certificate fails."""
    rep = replay(g.deck, g.rules, [act, *rest], g)
    if not (rep.legal and rep.complete and rep.score >= goal):
        raise SolverBug(f"the certificate of {g.describe(act)} does not reach {goal}: "
                        f"{rep.error or f'score {rep.score}, complete {rep.complete}'}")


def slot_of(g: Game, order: int) -> int | None:
    """hanab.live's slot of the card ``order`` in its holder's hand (1 = the newest
    card, on the left); None if no hand holds it (a deck play)."""
    for hand in g.hands:
        if order in hand:
            return len(hand) - hand.index(order)
    return None


def clue_word(g: Game, act: Action) -> str:
    """A clue's value as players say it: ``1s``, ``red``."""
    if act.kind is Kind.RANK_CLUE:
        return f"{act.value}s"
    colors = NO_VARIANT_COLORS if g.rules.variant is None else g.rules.variant.clue_colors
    value = act.value or 0
    return str(colors[value]).lower() if 0 <= value < len(colors) else f"color {value + 1}"


def instead_text(g: Game, actions: Sequence[Action], names: Sequence[str]) -> str:
    """The actions as a player would say them: ``Bob plays slot 2 (y1), or clues
    Alice 1s`` (the clues to one player grouped: ``clues Alice (1s, 2s or red)``)."""
    parts: list[str] = []
    clues: dict[int, list[str]] = {}
    for act in actions:
        if act.is_clue:
            clues.setdefault(act.target, []).append(clue_word(g, act))
            continue
        a, k = g.card(act.target)
        card = kind_name(g.rules, a, k)
        verb = "discards" if act.kind is Kind.DISCARD else \
            "plays" if g.takes(k - 1, a) else "misplays"
        if act.target == g.deck_play():
            parts.append(f"{verb} the deck's last card ({card})")
        else:
            parts.append(f"{verb} slot {slot_of(g, act.target)} ({card})")
    for p, words in clues.items():
        shown = words[0] if len(words) == 1 else \
            f"({', '.join(words[:-1])} or {words[-1]})"
        parts.append(f"clues {names[p]} {shown}")
    return f"{names[g.player]} " + ", or ".join(parts) if parts else ""
