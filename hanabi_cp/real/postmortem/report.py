"""The post-mortem of a game: the best score still reachable after every action.

``analyze(deck, rules, actions)`` replays the game and, at each position (the deal,
then after each action), asks the real-rules methods for the best final score any
continuation reaches with open hands (``solve.solve_position`` with ``maximize``:
its certificate, the rest of a game scoring that, is replayed by the referee).  The
actions after which that best score drops are the ones that lost points; beside it
stands hanab.live's own "max score" indicator (per color, the values up to the
first one whose copies are all lost), which looks only at the discards and so can
stay hopeful long after a point is out of reach.

A position needs no new solve when the game's action is the one the last
certificate took (or, both being clues, any clue: with open hands every legal clue
leaves the same state): the rest of that certificate is then a continuation from
the new position that scores the same best score, which cannot rise along a game.
Else the previous position's best bounds this one's, and a game reaching it, or a
level below, often decides it at once (``known_best``).
A position left undecided within the time limit is marked so (its best game found
is a lower bound, the previous best an upper bound), never guessed.

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.real.rules import Rules
>>> from hanabi_cp.real.actions import Action
>>> deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2), (1, 1), (1, 2)])
>>> rules = Rules.for_players(2, hand_size=2, clues=1)
>>> pm = analyze(deck, rules, [Action.discard(0)])
Traceback (most recent call last):
...
hanabi_cp.core.errors.InvalidParameter: the game's action #0: discard #0 (1:1): cannot discard with 1 of 1 clue tokens
>>> pm = analyze(deck, rules, [Action.rank_clue(1, 1), Action.discard(3)])
>>> [(r.position, r.best, r.hanablive_max) for r in pm.rows]
[(0, 4, 4), (1, 4, 4), (2, 3, 3)]
>>> print(pm.drops[0].text)
turn 2, Bob discards slot 1 (y2), the last copy: best 4 -> 3
>>> row = pm.rows[2]
>>> row.slot, row.card, row.knew, row.seen, row.pace
(1, 'y2', ('y2',), 'visible', 0)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ...runtime.deadline import NEVER, Deadline, TimeUp
from ...core.errors import InvalidParameter
from ...core.model import Deck
from ...core.options import SolveOptions
from ...core.status import PositionStatus, Status
from ..actions import Action, Kind
from .alternatives import Keep, instead_text, keeps, slot_of
from .drop_reasons import NO_VARIANT_COLORS, Reason, explain, kind_name
from .known_best import BELOW_SHARE, SAT_SHARE, best_below
from .hidden_knowledge import ClueBook, seen as seen_class, seen_words
from ..game_setup import deck_misfit
from ..methods import search_core
from ..older_games import as_recorded
from ..referee import Game, IllegalMove
from ..rules import Rules
from ..solve import LiveOutcome, solve_position

PLAYER_NAMES = ("Alice", "Bob", "Cathy", "Donald", "Emily", "Frank")
# A position's share of the time: this many seconds unless the command's own
# deadline leaves less.
POSITION_LIMIT = 10.0


@dataclass(frozen=True)
class Row:
    """One position: the deal (``position`` 0, no action) or the state after the
    ``position``-th action."""

    position: int
    turn: int | None             # hanab.live's turn number of the action (1-based)
    player: int | None           # who acted
    action: Action | None
    text: str                    # the action in words
    score: int                   # the piles now
    best: int | None             # the best final score still reachable (None: unknown)
    lower: int | None            # a refereed game's score from here (== best if decided)
    upper: int | None            # an upper bound (== best if decided)
    hanablive_max: int           # hanab.live's indicator: the discards' maximum
    status: PositionStatus       # DECIDED, UNKNOWN or OVER (the game has ended here)
    method: str
    seconds: float
    # The played or discarded card: its hanab.live slot in the actor's hand (1 = the
    # newest; None for a deck play), its name, what its holder could know it to be,
    # and the action's class (visible, hidden, tempo: see ``hidden_knowledge``).
    slot: int | None = None
    card: str | None = None
    knew: tuple[str, ...] | None = None
    seen: str | None = None
    pace: int | None = None      # hanab.live's pace here (None once the deck is empty)

    def as_dict(self) -> dict:
        return {"position": self.position, "turn": self.turn, "player": self.player,
                "action": self.text, "best": self.best, "hanablive_max": self.hanablive_max,
                "status": self.status, "score": self.score, "lower": self.lower,
                "upper": self.upper, "method": self.method,
                "seconds": round(self.seconds, 6), "slot": self.slot, "card": self.card,
                "knew": None if self.knew is None else list(self.knew), "seen": self.seen,
                "pace": self.pace}


@dataclass(frozen=True)
class Drop:
    """An action after which the best score fell: why (``reason``, ``reason_kind``:
    ``drop_reasons``), and the other actions at the position before it that keep the
    previous best score (``keep``, each replayed with a certificate; ``undecided``:
    those not decided in time, left out; ``alternatives``).  Empty when the
    post-mortem was made without ``explain``."""

    position: int
    before: int
    after: int
    text: str
    reason: str = ""
    reason_kind: str = ""
    keep: tuple[Action, ...] = ()
    undecided: tuple[Action, ...] = ()
    instead: str = ""            # ``keep`` in a player's words

    def explained(self) -> dict:
        """The reason and the alternatives as JSON (hanab.live's action objects)."""
        return {"reason": self.reason, "reason_kind": self.reason_kind,
                "keep": [a.to_json() for a in self.keep],
                "keep_undecided": [a.to_json() for a in self.undecided],
                "instead": self.instead}


@dataclass(frozen=True)
class Explained:
    """What ``analyze`` found about one drop (see ``Drop``)."""

    reason: Reason
    keep: Keep
    instead: str


@dataclass(frozen=True)
class PostMortem:
    """A game's post-mortem: one ``Row`` per position (the deal, then after each
    action), the final score, how the game ended and the target (the deck's best).

    >>> from hanabi_cp.core.model import Deck
    >>> from hanabi_cp.real.actions import Action
    >>> deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2), (1, 1), (1, 2)])
    >>> pm = analyze(deck, Rules.for_players(2, hand_size=2, clues=1),
    ...              [Action.rank_clue(1, 1), Action.discard(3)])
    >>> pm.final_score, pm.target, pm.end, [(d.position, d.before, d.after) for d in pm.drops]
    (0, 4, 'not over after the last action', [(2, 4, 3)])
    """

    rows: list[Row]
    final_score: int
    end: str                     # how the game ended (or "not over")
    target: int
    explained: dict[int, Explained] = field(default_factory=dict)   # per drop position
    # The game itself, for the report (``lines``, ``to_json``): its rules, actions and
    # players' names; how its deck is not one its variant deals (None: it is); where
    # today's end rules would have ended an older game read as recorded (None: nowhere).
    rules: Rules | None = None
    actions: tuple[Action, ...] = ()
    names: tuple[str, ...] = ()
    any_deck: str | None = None
    as_recorded: str | None = None

    @property
    def drops(self) -> list[Drop]:
        out = []
        for prev, row in zip(self.rows, self.rows[1:]):
            if prev.best is not None and row.best is not None and row.best < prev.best:
                text = f"turn {row.turn}, {row.text}: best {prev.best} -> {row.best}"
                why = self.explained.get(row.position)
                out.append(Drop(row.position, prev.best, row.best, text) if why is None else
                           Drop(row.position, prev.best, row.best, text, why.reason.text,
                                why.reason.kind, why.keep.actions, why.keep.undecided,
                                why.instead))
        return out

    @property
    def decided(self) -> bool:
        return all(r.best is not None for r in self.rows)

    def lines(self, game: str = "the game", verbose: bool = False) -> list[str]:
        """The report ``analyze GAME`` prints (``game``: what it calls the game)."""
        from .printout import lines
        return lines(self, game, verbose)

    def to_json(self) -> dict:
        """The post-mortem as ``analyze --json`` prints it, but for the game's path."""
        from .printout import to_json
        return to_json(self)

    def lost_at(self) -> Row | None:
        """The first position from which the target is out of reach (None if the
        game was won or the deal itself cannot be won or some position is unknown
        before it)."""
        if not self.rows or self.rows[0].best != self.target:
            return None
        for row in self.rows:
            if row.best is None:
                return None
            if row.best < self.target:
                return row
        return None


def card_name(rules: Rules, deck: Deck, order: int) -> str:
    """A deck card as hanab.live players write it: the suit's letter and the rank,
    e.g. ``r3`` (No Variant's suits are Red, Yellow, Green, Blue, Purple)."""
    a, k = deck.cards[order]
    return kind_name(rules, a, k)


def drop_lines(drop: Drop, row: Row, names: Sequence[str]) -> list[str]:
    """A drop in a player's words, one line each: what the actor could know of the
    card they moved and so whether they could see the loss (``seen``), why the best
    score fell (``why``), what would have kept it (``instead``), and the
    alternatives left undecided.  ``analyze`` prints them under the drop, the HTML
    replay shows them at it."""
    out = []
    if row.seen is not None and row.player is not None:
        words = seen_words(row.seen, row.action is not None and row.action.kind is Kind.PLAY)
        if row.seen == "tempo" or row.knew is None:
            out.append(f"seen: {words}")
        else:
            who = names[row.player] if 0 <= row.player < len(names) else f"player {row.player}"
            could = (f"knew it was {row.knew[0]}" if len(row.knew) == 1
                     else f"could know it was one of {', '.join(row.knew)}")
            out.append(f"seen: {who} {could}; {words}")
    if drop.reason:
        out.append(f"why ({drop.reason_kind}): {drop.reason}")
    if drop.instead:
        out.append(f"instead: {drop.instead}")
    elif drop.reason:
        out.append("instead: no other action was shown to keep the best score")
    if drop.undecided:
        out.append(f"undecided: {len(drop.undecided)} other actions (not decided within "
                   f"the position limit; left out)")
    return out


def hanablive_pace(g: Game) -> int | None:
    """hanab.live's pace, as its client computes it: the score plus the cards left
    in the deck minus its "max score", plus the players (each has one more turn
    after the last draw); none once the game is over or the deck is empty."""
    left = g.deck.N - g.drawn
    if g.over or left <= 0:
        return None
    return sum(g.piles) + left - g.max_reachable + g.rules.players


def describe(g: Game, action: Action, names: Sequence[str]) -> str:
    """``action`` as played from position ``g`` (before it), in words."""
    who = names[g.player]
    deck, rules = g.deck, g.rules
    if action.ends_game:
        return ("the game is ended by a vote" if action.kind is Kind.END_GAME_BY_VOTE
                else "the game is terminated")
    if action.is_clue:
        to = names[action.target] if 0 <= action.target < len(names) else action.target
        if action.kind is Kind.RANK_CLUE:
            return f"{who} clues {to} {action.value}s"
        colors = NO_VARIANT_COLORS if rules.variant is None else rules.variant.clue_colors
        value = action.value or 0
        color = colors[value] if colors and 0 <= value < len(colors) else f"color {value + 1}"
        return f"{who} clues {to} {str(color).lower()}"
    if not 0 <= action.target < deck.N:     # the referee refuses it next, in one line
        return f"{who} names card #{action.target}, which the deck does not have"
    slot = slot_of(g, action.target)
    if slot is not None:
        name = f"slot {slot} ({card_name(rules, deck, action.target)})"
    elif action.target == g.deck_play():
        name = f"{card_name(rules, deck, action.target)} from the deck"
    else:
        name = f"{card_name(rules, deck, action.target)} (#{action.target})"
    a, k = g.card(action.target)
    kind = (k - 1) * deck.n + a - 1
    assert g.tables is not None
    last = g.lost_counts[kind] + 1 == g.tables.totals[kind] and g.needed(k - 1, a)
    if action.kind is Kind.DISCARD:
        verb = "discards"
    elif g.takes(k - 1, a):
        return f"{who} plays {name}"
    else:
        verb = "misplays"
    return f"{who} {verb} {name}" + (", the last copy" if last else "")


def analyze(deck: Deck, rules: Rules, actions: Sequence[Action],
            names: Sequence[str] | None = None, method: str = "auto",
            position_limit: float | None = POSITION_LIMIT,
            deadline: Deadline | None = None,
            progress: Callable[[int], None] | None = None,
            explain_drops: bool = True) -> PostMortem:
    """The post-mortem of the game ``actions`` on ``deck`` (see the module's text).
    ``position_limit`` seconds at most per solve; ``deadline`` bounds the whole.
    With ``explain_drops``, each drop also gets its reason and the actions that
    would have kept the best score (``Drop``; ``position_limit`` for each drop's
    alternatives together).  Every search of the game (the best-score solves,
    the questions under the previous best and the alternatives) shares one set of
    tables (``search.Memory``): each position's subtree holds the next one's, and
    the alternatives of a drop meet by transposition."""
    S = search_core()
    token = S.MEMORY.set(S.Memory())
    try:
        return _analyze(deck, rules, actions, names, method, position_limit, deadline,
                        progress, explain_drops)
    finally:
        S.MEMORY.reset(token)


def _analyze(deck: Deck, rules: Rules, actions: Sequence[Action],
             names: Sequence[str] | None, method: str, position_limit: float | None,
             deadline: Deadline | None, progress: Callable[[int], None] | None,
             explain_drops: bool) -> PostMortem:
    names = list(names or PLAYER_NAMES[:rules.players])
    g = Game.start(deck, rules)
    book = ClueBook(g)
    rows: list[Row] = []
    certs: dict[int, list[Action]] = {}     # per decided position, its certificate
    cert: list[Action] | None = None        # a decided position's certificate, followed
    best: int | None = None
    upper: int | None = None                # no position after scores more
    for k in range(len(actions) + 1):
        if k:
            act = actions[k - 1]
            text = describe(g, act, names)
            player, turn = g.player, g.turn + 1
            try:
                info = _card_info(g, act, book)
                book.observe(g, act)
                g.apply(act)
            except IllegalMove as exc:
                raise InvalidParameter(f"the game's action #{k - 1}: {g.describe(act)}: "
                                       f"{exc}") from None
            if best is not None and cert and _same_move(cert[0], act, rules):
                cert = cert[1:]
                rows.append(_row(k, turn, player, act, text, g, best, best, best,
                                 PositionStatus.DECIDED, "certificate", 0.0, info))
                certs[k] = cert
                _tick(progress, k)
                continue
        else:
            text, player, turn, act, info = "the deal", None, None, None, _NO_CARD
        if g.over or g.today_end is not None:
            # over, or past the end of today's rules in an older game (older_games):
            # nothing still needed can be played, no point can be scored
            best, cert = g.score, []
            rows.append(_row(k, turn, player, act, text, g, best, best, best,
                             PositionStatus.OVER, "", 0.0, info))
            _tick(progress, k)
            continue
        out, seconds = _solve(g, method, position_limit, deadline, upper)
        if out.status is Status.UNKNOWN:
            lower = out.score
            best, cert = None, None
            if lower is not None and upper is not None and lower >= upper:
                best, cert = upper, out.actions    # a refereed game reaches the bound
            status = PositionStatus.UNKNOWN if best is None else PositionStatus.DECIDED
            rows.append(_row(k, turn, player, act, text, g, best, lower, upper, status,
                             out.method, seconds, info))
            if best is not None:
                upper = best
        else:
            best, cert = out.score, out.actions
            upper = best
            rows.append(_row(k, turn, player, act, text, g, best, best, best,
                             PositionStatus.DECIDED, out.method, seconds, info))
        if cert is not None:
            certs[k] = cert
        _tick(progress, k)
    end = g.condition.describe() + (f": {g.cause}" if g.cause else "") if g.over \
        else "not over after the last action"
    pm = PostMortem(rows, g.score, end, g.target, {}, rules, tuple(actions), tuple(names),
                    deck_misfit(deck, rules), _today_end(deck, rules, actions))
    if not explain_drops:
        return pm
    return replace(pm, explained=_explain(pm, deck, rules, actions, names, certs, method,
                                          position_limit, deadline))


def _today_end(deck: Deck, rules: Rules, actions: Sequence[Action]) -> str | None:
    """Where today's end rules would have ended an older game read as recorded."""
    if rules.last_turn_unplayable:
        return None
    return as_recorded(deck, replace(rules, last_turn_unplayable=True), actions).text


def _explain(pm: PostMortem, deck: Deck, rules: Rules, actions: Sequence[Action],
             names: Sequence[str], certs: dict[int, list[Action]], method: str,
             position_limit: float | None, deadline: Deadline | None) -> dict[int, Explained]:
    """Each drop's reason and alternatives (``Drop``), the positions replayed once more."""
    drops = {d.position: d for d in pm.drops}
    out: dict[int, Explained] = {}
    g = Game.start(deck, rules)
    for k, act in enumerate(actions, 1):
        if k not in drops:
            g.apply(act)
            continue
        d, before = drops[k], g.copy()
        g.apply(act)
        reason = explain(before, act, g, d.before, d.after, names)
        clock = Deadline.after((deadline or NEVER).share(position_limit))
        keep = keeps(before, act, d.before, certs.get(k - 1), method, clock, fails=True)
        text = instead_text(before, keep.actions, names)
        out[k] = Explained(reason, keep, text)
    return out


def _solve(g: Game, method: str, limit: float | None, deadline: Deadline | None,
           upper: int | None = None) -> tuple[LiveOutcome, float]:
    if deadline is not None and deadline.expired():
        # The command's time is up: the rest of the positions are not reached, and
        # cost nothing (no search's first pass per position: 997 of them took 25 s).
        return LiveOutcome(Status.UNKNOWN, reason=str(TimeUp(deadline.limit, "the "
                                                             "post-mortem"))), 0.0
    share = (deadline or NEVER).share(limit)
    started = time.perf_counter()
    clock = Deadline.after(share)
    known = best_below(g, upper, method, Deadline.after(
        None if share is None else share * BELOW_SHARE), Deadline.after(
        None if share is None else share * SAT_SHARE))
    if known is not None:
        return known, time.perf_counter() - started
    share = clock.share(None)
    options = SolveOptions(time_limit=None if share is None else max(share, 0.0),
                           maximize=True)
    out = solve_position(g.copy(), method, options)
    return out, time.perf_counter() - started


def _same_move(planned: Action, played: Action, rules: Rules) -> bool:
    """Whether ``played`` leaves the state ``planned`` would: the same action, or
    two clues (with open hands a clue changes only the tokens and the turn), of the
    same type in Alternating Clues (where the type decides the next clue)."""
    return planned == played or (planned.is_clue and played.is_clue and (
        not rules.alternating_clues or planned.kind is played.kind))


@dataclass(frozen=True)
class CardInfo:
    """What a row says of the card its action moved: the slot, the name, what its
    holder could know it was, and the action's class (``hidden_knowledge.seen``)."""

    slot: int | None = None
    card: str | None = None
    knew: tuple[str, ...] | None = None
    seen: str | None = None


_NO_CARD = CardInfo()


def _card_info(g: Game, act: Action, book: ClueBook) -> CardInfo:
    """The slot and name of the card ``act`` moves at ``g`` (before it), what its
    holder could know it to be, and the action's class (``hidden_knowledge``)."""
    if act.is_clue:
        return CardInfo(seen="tempo")
    if not act.is_move or not isinstance(act.target, int) \
            or not 0 <= act.target < g.deck.N or g.over:
        return _NO_CARD     # an end of game, or an illegal move the referee names next
    knew = book.knew(g, act.target)
    names = tuple(kind_name(g.rules, c.value, c.color) for c in knew)
    return CardInfo(slot_of(g, act.target), card_name(g.rules, g.deck, act.target), names,
                    seen_class(g, act, knew))


def _row(k: int, turn, player, act, text: str, g: Game, best, lower, upper,
         status: PositionStatus, method: str, seconds: float, info: CardInfo = _NO_CARD) -> Row:
    return Row(k, turn, player, act, text, sum(g.piles), best, lower, upper,
               g.max_reachable, status, method, seconds, info.slot, info.card, info.knew,
               info.seen, pace=hanablive_pace(g))


def _tick(progress: Callable[[int], None] | None, k: int) -> None:
    if progress is not None:
        progress(k)



@dataclass(frozen=True)
class Loss:
    """Where a winnable deal's win slipped away: the action after which no game wins."""

    position: int        # the first position from which the target is out of reach
    turn: int            # hanab.live's turn number of the action that led there
    kind: str            # discard, misplay, play, clue, or "final round"
    text: str


def first_loss(deck: Deck, rules: Rules, actions: Sequence[Action],
               names: Sequence[str] | None = None,
               time_limit: float | None = POSITION_LIMIT) -> Loss | None:
    """The action after which the target went out of reach, for a game on a deal
    that can be won but was not; None if the game won, or the deal cannot be won.
    Whether the target is still reachable only ever changes once along a game, from
    yes to no, so a bisection over the positions asks about log2(actions) of them.  A position
    left undecided within ``time_limit`` makes the answer a Loss of kind
    "undecided" (position -1): never a guess."""
    names = list(names or PLAYER_NAMES[:rules.players])

    def winnable(k: int) -> bool:
        g = Game.after(deck, rules, actions[:k])
        if g.over:
            return g.won
        out = solve_position(g, "auto", SolveOptions(time_limit=time_limit))
        if out.status is Status.UNKNOWN:
            raise _Undecided(f"position {k} undecided within {time_limit} s")
        return out.status is Status.WINNABLE

    try:
        if not winnable(0) or winnable(len(actions)):
            return None
        lo, hi = 0, len(actions)          # winnable at lo, not at hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if winnable(mid):
                lo = mid
            else:
                hi = mid
    except _Undecided as exc:
        return Loss(-1, -1, "undecided", str(exc))
    before = Game.after(deck, rules, actions[:lo])
    act = actions[lo]
    text = describe(before, act, names)
    if before.end_turn is not None:
        kind = "final round"
    elif act.is_clue:
        kind = "clue"
    elif act.kind is Kind.DISCARD:
        kind = "discard"
    elif act.ends_game:
        kind = "ended"
    else:
        a, k = before.card(act.target)
        kind = "play" if before.takes(k - 1, a) else "misplay"
    return Loss(hi, before.turn + 1, kind, text)


class _Undecided(Exception):
    """A position the methods left undecided within the time limit."""
