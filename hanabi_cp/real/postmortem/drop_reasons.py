"""Why the best score fell: short arguments that bound the best score of a position.

Each argument reads one position (a referee ``Game``) and returns a ``Reason``: a
``kind``, a ``bound`` (no game from the position scores more: the argument is a
proof of it, encodings/drop-reasons.md) and the argument in a player's words, with
the cards named as hanab.live players name them (``r4``); or None where it says
nothing.  ``explain`` picks, for the position after an action that lowered the best
score, the first argument whose bound IS the new best score (it explains the whole
drop); if none does, the kind is ``other`` and the text says so.  The arguments, in
the order they are tried:

- ``ended``: the game is over (a third strike: 0 points, ``strikes``; the final
  round is over; a speedrun lost);
- ``last_copy``: a value whose copies are all lost stops its color (hanab.live's
  "max score");
- ``too_late``: besides, the only copy left of a value is the deck's last card (its
  drawer plays it on the game's last turn at the earliest: nothing follows it), or
  in the final round, held only by players whose last turn is over;
- ``pace``: the cards still to play against the turns that can play one (one per
  card left in the deck, one per player in the final round); in the final round,
  one card per turn from the mover's own hand; and per deck card, the cards that
  cannot be played before it is drawn against the turns after that draw;
- ``last_draws``: with few cards left, the search's relaxation of the last turns
  (who draws each card, who can stall with a clue: ``tokens`` when more tokens
  would let more cards be played, else ``pace``).

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.real.rules import Rules
>>> deck = Deck.of([(1, 1), (2, 1), (1, 2), (2, 2), (1, 1), (1, 2)])
>>> rules = Rules.for_players(2, hand_size=2, clues=1)
>>> before = Game.after(deck, rules, [Action.rank_clue(1, 1)])
>>> after = Game.after(deck, rules, [Action.rank_clue(1, 1), Action.discard(3)])
>>> explain(before, Action.discard(3), after, 4, 3, ["Alice", "Bob"])
Reason(kind='last_copy', bound=3, text='the last y2 is discarded, so y2 can no longer be played')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...core.errors import SolverBug
from ..actions import Action, Kind
from ..methods import search_core
from ..referee import BEST_REACHED, EndCondition, Game
from ..rules import Rules

# hanab.live's No Variant suits (and the sixth of "6 Suits"): hanabi-cp's deck files
# write them r y g b w m, so its w is hanab.live's Purple.
NO_VARIANT_COLORS = ("Red", "Yellow", "Green", "Blue", "Purple", "Teal")
KINDS = ("last_copy", "too_late", "pace", "tokens", "strikes", "other")
# Deck cards left at most where ``last_draws`` runs the search's relaxation of the
# last turns by dynamic programming with exact tokens (beyond the exact count of its
# last two draws; the search's own ROOT_LEFT), with at most RELAX_STEPS states of it.
# Larger limits leave fewer drops ``other`` (unexplained); these cost nothing seen in
# the median or the max time per game (bench/postmortem.py).
RELAX_LEFT = 20
RELAX_STEPS = 100_000
ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


@dataclass(frozen=True)
class Reason:
    kind: str          # one of KINDS
    bound: int         # no game from the position scores more (``other``: the best known)
    text: str


def kind_name(rules: Rules, value: int, color: int) -> str:
    """A card kind as hanab.live players write it: the suit's letter and the rank,
    e.g. ``r3`` (No Variant's suits are Red, Yellow, Green, Blue, Purple, Teal)."""
    if rules.variant is not None:
        letter = rules.variant.suits[color - 1].abbreviation.lower()
        if rules.variant.live_rank(value) != value:
            return f"{letter} START"                # Up or Down's START (encodings/variants.md, 8)
    elif color <= 6:
        letter = "rygbpt"[color - 1]
    else:
        return f"{value}:{color}"
    return f"{letter}{value}"


def _names(rules: Rules, cards: Sequence[tuple[int, int]], most: int = 8) -> str:
    """``(value, color)`` pairs as ``r4, r5`` (the first ``most`` and a count)."""
    shown = ", ".join(kind_name(rules, a, k) for a, k in cards[:most])
    return shown + (f" and {len(cards) - most} more" if len(cards) > most else "")


def _final_round(rules: Rules) -> bool:
    return rules.final_round and not rules.all_or_nothing


def _turns_left_players(g: Game) -> set[int] | None:
    """In the final round, the players who still have a turn; else None."""
    if g.end_turn is None:
        return None
    p, first = g.rules.players, g.rules.first_player
    return {(t + first) % p for t in range(g.turn, g.end_turn)}


@dataclass(frozen=True)
class _Stop:
    """Why color ``color`` stops where it does: ``why`` is ``lost`` (every copy of
    ``value`` lost), ``missing`` (no copy in the deck), ``bottom`` (``value``'s only
    copy left is the deck's last card: ``value`` may be played, nothing after it)
    or ``late_hand`` (every copy of ``value`` left is held by ``holders``, none with
    a turn left).  ``height``: the pile height ``value`` would make (its value but
    in a reversed suit, played from the top value down)."""

    color: int
    value: int
    height: int
    why: str
    holders: tuple[int, ...] = ()


def _reach(g: Game, late: bool) -> tuple[list[int], list[_Stop]]:
    """Per color (index color - 1), the highest pile height a game from ``g`` can
    still reach, and why each color stops below the top; with ``late`` also the
    too-late rules, else only the lost copies."""
    deck, rules = g.deck, g.rules
    n, N = deck.n, deck.N
    assert g.tables is not None
    totals = g.tables.totals
    held: dict[int, list[int]] = {}
    for q, hand in enumerate(g.hands):
        for o in hand:
            a, k = g.card(o)
            held.setdefault((k - 1) * n + a - 1, []).append(q)
    in_deck: dict[int, list[int]] = {}
    for o in range(g.drawn, N):
        a, k = g.card(o)
        in_deck.setdefault((k - 1) * n + a - 1, []).append(o)
    movers = _turns_left_players(g) if g.drawn == N else None
    bottom = late and _final_round(rules) and not rules.deck_plays and g.drawn < N
    reach, stops = [], []
    for k in range(1, deck.c + 1):
        h = g.piles[k - 1] + 1
        stop = None
        while h <= n and stop is None:
            v = g.value_at(k - 1, h)
            x = (k - 1) * n + v - 1
            holders = held.get(x, [])
            if totals[x] == 0:
                stop = _Stop(k, v, h, "missing")
            elif g.lost_counts[x] == totals[x]:
                stop = _Stop(k, v, h, "lost")
            elif late and movers is not None and not in_deck.get(x) \
                    and not any(q in movers for q in holders):
                stop = _Stop(k, v, h, "late_hand", tuple(sorted(set(holders))))
            elif bottom and not holders and in_deck.get(x) == [N - 1] and h < n:
                stop = _Stop(k, v, h, "bottom")
                h += 1              # the bottom card itself may be played
            else:
                h += 1
        if stop is not None:
            stops.append(stop)
            reach.append(stop.height if stop.why == "bottom" else stop.height - 1)
        else:
            reach.append(n)
    return reach, stops


def _heights(g: Game, color: int, low: int, high: int) -> list[tuple[int, int]]:
    """The cards (value, color) that make pile heights ``low`` .. ``high``."""
    return [(g.value_at(color - 1, h), color) for h in range(low, high + 1)]


def _stop_text(g: Game, s: _Stop, names: Sequence[str], action: Action | None,
               before: Game | None, short: bool = False) -> str:
    """Why color ``s.color`` stops: a sentence, or with ``short`` the cards it costs
    and the cause in a few words (``r3, r4, r5 (the last r3 is lost)``)."""
    rules, n = g.rules, g.deck.n
    card = kind_name(rules, s.value, s.color)
    if s.why == "bottom":
        after = _names(rules, _heights(g, s.color, s.height + 1, n))
        other = "other" if _moved_kind(before, action) == (s.value, s.color) else "only"
        cause = f"the {other} {card}{' left' if other == 'only' else ''} is the deck's last card"
        if short:
            return f"{after} ({cause})"
        return (f"{cause}: drawn last, it can be played on the game's last turn at the "
                f"earliest, so {after} cannot follow it")
    gone = _names(rules, _heights(g, s.color, s.height, n))
    if s.why == "missing":
        cause = f"the deck has no {card}"
    elif s.why == "late_hand":
        who = " and ".join(names[q] for q in s.holders)
        has = "has" if len(s.holders) == 1 else "have"
        cause = f"the {card} left is held by {who}, who {has} no turn left"
    else:
        verb = "lost"
        if _moved_kind(before, action) == (s.value, s.color) and action is not None:
            verb = "discarded" if action.kind is Kind.DISCARD else "misplayed"
        cause = f"the last {card} is {verb}"
    return f"{gone} ({cause})" if short else f"{cause}, so {gone} can no longer be played"


def _stop_reach(s: _Stop) -> int:
    """The pile height color ``s.color`` reaches at most, stopped by ``s``."""
    return s.height if s.why == "bottom" else s.height - 1


def _new_stops(stops: list[_Stop], before: Game | None) -> list[_Stop]:
    """The stops that lower their color's reach below what it was at ``before`` (a
    stop whose cause only changed, as the deck's last card being drawn, is not new)."""
    if before is None:
        return list(stops)
    old = _reach(before, True)[0]
    return [s for s in stops if _stop_reach(s) < old[s.color - 1]]


def _moved_kind(before: Game | None, action: Action | None) -> tuple[int, int] | None:
    """The card the action played or discarded, as (value, color)."""
    if before is None or action is None or not action.is_move \
            or not 0 <= action.target < before.deck.N:
        return None
    return before.card(action.target)


def _stops_text(g: Game, stops: list[_Stop], names: Sequence[str], action: Action | None,
                before: Game | None) -> str:
    """The stops, those the action caused first and in full (``before`` lacks them),
    then the others in short."""
    new = _new_stops(stops, before)
    seen = [s for s in stops if s not in new]
    parts = [_stop_text(g, s, names, action, before) for s in new]
    if seen:
        text = "; ".join(_stop_text(g, s, names, action, before, True) for s in seen)
        parts.append(f"already out of reach: {text}" if parts else
                     "; ".join(_stop_text(g, s, names, action, before) for s in seen))
    return "; ".join(parts)


def ended(g: Game, names: Sequence[str]) -> Reason | None:
    """The game is over: its score is final."""
    if not g.over:
        return None
    c, score = g.condition, g.score
    if c is EndCondition.STRIKEOUT:
        nth = ORDINALS.get(g.rules.strikes, f"{g.rules.strikes}th")
        return Reason("strikes", 0, f"the {nth} strike ends the game with 0 points")
    if g.chosen is not None and (c in (EndCondition.SPEEDRUN_FAIL, EndCondition.ALL_OR_NOTHING_FAIL)
                                 or g.cause == BEST_REACHED):
        return _chosen_ended(g)
    if c in (EndCondition.SPEEDRUN_FAIL, EndCondition.ALL_OR_NOTHING_FAIL):
        what = "speedrun" if c is EndCondition.SPEEDRUN_FAIL else "all or nothing"
        stops = _reach(g, False)[1]
        lost = _stops_text(g, stops, names, None, None)
        return Reason("last_copy", 0, f"{lost}: a game of {what} that can no longer reach "
                                      f"the maximum ends at once with 0 points")
    if c is not EndCondition.NORMAL:
        return Reason("other", 0, f"the game ended ({c.describe()}) with 0 points")
    if g.cause == BEST_REACHED:
        stops = _reach(g, False)[1]
        return Reason("last_copy", score, f"{_stops_text(g, stops, names, None, None)}: "
                                          f"the game ends with {score} points")
    if "no card still needed" in g.cause:
        return Reason("too_late", score, f"no card still needed can be played (each copy "
                                         f"is lost or held by a player whose last turn "
                                         f"is over): the game ends with {score} points")
    return Reason("pace", score, f"no turns left ({g.cause}): the game ends with "
                                 f"{score} points")


def _chosen_ended(g: Game) -> Reason:
    """Up or Down, Sudoku: a game that hanab.live's max score (``pile_score``, lowered
    by the cards lost) ended: with 0 points below the maximum in a speedrun or all or
    nothing, else once the score reached it."""
    best = f"hanab.live's max score fell to {g.max_reachable} of {g.target} with the cards lost"
    if g.condition is EndCondition.NORMAL:
        return Reason("last_copy", g.score, f"{best}: the game ends with {g.score} points")
    what = "speedrun" if g.condition is EndCondition.SPEEDRUN_FAIL else "all or nothing"
    return Reason("last_copy", 0, f"{best}: a game of {what} that can no longer reach the "
                                  f"maximum ends at once with 0 points")


def last_copy(g: Game, names: Sequence[str], action: Action | None = None,
              before: Game | None = None) -> Reason | None:
    """The colors stopped at a value whose copies are all lost: hanab.live's max."""
    reach, stops = _reach(g, False)
    if not stops:
        return None
    return Reason("last_copy", sum(reach), _stops_text(g, stops, names, action, before))


def too_late(g: Game, names: Sequence[str], action: Action | None = None,
             before: Game | None = None) -> Reason | None:
    """``last_copy`` and the copies that come too late: the deck's last card, or in
    the final round cards held only by players with no turn left."""
    reach, stops = _reach(g, True)
    if not any(s.why in ("bottom", "late_hand") for s in stops):
        return None
    return Reason("too_late", sum(reach), _stops_text(g, stops, names, action, before))


def _to_play(g: Game) -> tuple[list[tuple[int, int]], list[_Stop]]:
    """The cards a game from ``g`` may still play (value, color), color by color."""
    reach, stops = _reach(g, True)
    return [card for k in range(1, g.deck.c + 1)
            for card in _heights(g, k, g.piles[k - 1] + 1, reach[k - 1])], stops


def _others(g: Game, stops: list[_Stop], names: Sequence[str]) -> str:
    """The cards out of reach, in short, after an argument about the others."""
    if not stops:
        return ""
    return ("; out of reach besides: "
            + "; ".join(_stop_text(g, s, names, None, None, True) for s in stops))


def pace(g: Game, names: Sequence[str]) -> Reason | None:
    """Every play takes a turn: before the last draw each play draws a card (one
    turn per card left in the deck), then each player has one turn."""
    if not _final_round(g.rules):
        return None
    cards, stops = _to_play(g)
    if g.end_turn is not None:
        turns = g.end_turn - g.turn
        detail = f"{_count(turns, 'turn')} {'is' if turns == 1 else 'are'} left"
    else:
        left, p = g.deck.N - g.drawn, g.rules.players
        turns = left + p
        detail = (f"{turns} turns can play one: {_count(left, 'card')} in the deck, then "
                  f"the final round's {p} turns")
    if len(cards) <= turns:
        return None
    return Reason("pace", g.score + turns,
                  f"not enough turns left: {_count(len(cards), 'card')} still to play "
                  f"({_names(g.rules, cards)}), but only {detail}{_others(g, stops, names)}")


def final_round(g: Game, names: Sequence[str]) -> Reason | None:
    """In the final round (the deck empty): each turn left plays at most one card,
    from its player's own hand, in turn order (the most such plays, exactly)."""
    if g.end_turn is None or g.drawn < g.deck.N:
        return None
    S = search_core()
    cards, stops = _to_play(g)
    wanted = set(cards)
    # by pile height (a reversed suit's values count down)
    hands = [[(k - 1, g.height_of(k - 1, a)) for a, k in map(g.card, hand) if (a, k) in wanted]
             for hand in g.hands]
    p, first = g.rules.players, g.rules.first_player
    order = [(t + first) % p for t in range(g.turn, g.end_turn)]
    most = S.most_plays(order, hands, list(g.piles))
    if most >= len(cards):
        return None
    held = "; ".join(f"{names[q]}: {_names(g.rules, [(g.value_at(k, h), k + 1) for k, h in hands[q]]) or 'none'}"
                     for q in dict.fromkeys(order))
    who = ", then ".join(names[q] for q in order)
    return Reason("pace", g.score + most,
                  f"the final round: the turns left are {who}'s, each playing at most one "
                  f"card of their own hand ({held}), so at most {most} of the {len(cards)} "
                  f"cards still to play ({_names(g.rules, cards)}) can be played"
                  f"{_others(g, stops, names)}")


def gated_pace(g: Game, names: Sequence[str]) -> Reason | None:
    """Per deck card j still to draw: the cards that cannot be played before j is
    drawn (their first copy, or that of a lower value of their color, is j or
    below it) against the turns after that draw (the draws below j, the final
    round; one more with deck plays)."""
    rules, deck = g.rules, g.deck
    N = deck.N
    if not _final_round(rules) or g.drawn >= N:
        return None
    cards, stops = _to_play(g)
    held = {g.card(o) for hand in g.hands for o in hand}
    first: dict[tuple[int, int], int] = {}
    for o in range(N - 1, g.drawn - 1, -1):
        first[g.card(o)] = o
    gates: list[tuple[int, tuple[int, int]]] = []
    gate, color = -1, 0
    for a, k in cards:
        if k != color:
            gate, color = -1, k
        gate = max(gate, -1 if (a, k) in held else first.get((a, k), -1))
        if gate >= 0:
            gates.append((gate, (a, k)))
    after_last = rules.players + rules.deck_plays
    best: tuple[int, int, list[tuple[int, int]]] | None = None
    for j in range(g.drawn, N):
        late = [card for at, card in gates if at >= j]
        excess = len(late) - (N - 1 - j + after_last)
        if excess > 0 and (best is None or excess > best[0]):
            best = (excess, j, late)
    if best is None:
        return None
    excess, j, late = best
    depth = j - g.drawn + 1
    extra = " (and a deck play of the last card)" if rules.deck_plays else ""
    return Reason("pace", g.score + len(cards) - excess,
                  f"not enough turns left: {len(late)} cards ({_names(rules, sorted(late, key=_by_color))}) "
                  f"cannot be played before the {kind_name(rules, *g.card(j))}, the "
                  f"{_nth(depth)} card still to be drawn, is drawn, and after that draw only "
                  f"{_count(N - 1 - j, 'draw')} and the final round's {rules.players} turns{extra} "
                  f"are left{_others(g, stops, names)}")


def _count(k: int, what: str) -> str:
    return f"{k} {what}" if k == 1 else f"{k} {what}s"


def _by_color(card: tuple[int, int]) -> tuple[int, int]:
    return card[1], card[0]


def _nth(i: int) -> str:
    suffix = "th" if 10 <= i % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(i % 10, "th")
    return f"{i}{suffix}"


def _relaxed_bound(g: Game, tokens: int | None) -> int | None:
    """The search's bound of the position with its relaxation of the last draws
    (exact with at most two cards left, by dynamic programming up to RELAX_LEFT),
    the tokens set to ``tokens`` (None: as they are); None outside its window."""
    S = search_core()
    s = S.LiveSearch(g)
    if not s.simple_draws or not s.N - RELAX_LEFT <= s.drawn < s.N:
        return None
    if tokens is not None:
        s.clues = tokens
    bound = s.bound()
    if s.drawn < s.N - s.ENDGAME:
        most = s.relaxed_plays(bound - s.score, RELAX_STEPS, exact=True)
        if s.steps >= 0:        # else its steps ran out: it shows nothing
            bound = min(bound, s.score + most)
    return bound


def last_draws(g: Game, names: Sequence[str]) -> Reason | None:
    """The search's relaxation of the last draws (encodings/live-search.md, 3.5):
    ``tokens`` when a full set of tokens would raise its bound, else ``pace``."""
    if g.over or g.clues is None:
        bound = None if g.over else _relaxed_bound(g, None)
        full = bound
    else:
        bound = _relaxed_bound(g, None)
        full = None if bound is None else _relaxed_bound(g, g.rules.max_tokens)
    if bound is None:
        return None
    cards, stops = _to_play(g)
    if bound - g.score >= len(cards):
        return None
    left = g.deck.N - g.drawn
    last = "draw" if left == 1 else f"{left} draws"
    counted = (f"counting the last {last} and the final round turn by turn (who "
               f"draws each card, who can stall with a clue while a token is left)")
    if full is not None and full > bound:
        unit = "half clue tokens" if g.rules.clue_cost == 2 else "clue tokens"
        return Reason("tokens", bound,
                      f"too few clue tokens to wait for the last cards: {counted}, with "
                      f"{g.clues} of {g.rules.max_tokens} {unit} at most "
                      f"{bound - g.score} of the {len(cards)} cards still to play "
                      f"({_names(g.rules, cards)}) can be played, and with all "
                      f"{g.rules.max_tokens} it would be {full - g.score}"
                      f"{_others(g, stops, names)}")
    return Reason("pace", bound,
                  f"not enough turns left: {counted}, at most {bound - g.score} of the "
                  f"{len(cards)} cards still to play ({_names(g.rules, cards)}) can be "
                  f"played{_others(g, stops, names)}")


def arguments(g: Game, names: Sequence[str], action: Action | None = None,
              before: Game | None = None) -> list[Reason]:
    """Every argument that bounds the best score of position ``g`` below the sum of
    its colors' values (``action`` from ``before`` led to it: named in the text)."""
    over = ended(g, names)
    if over is not None:
        return [over]
    if g.chosen is not None:
        # Up or Down, Sudoku: the arguments below follow each pile's one order
        return []
    found = [last_copy(g, names, action, before), too_late(g, names, action, before),
             pace(g, names), final_round(g, names), gated_pace(g, names),
             last_draws(g, names)]
    return [r for r in found if r is not None]


def _led_by_the_action(r: Reason, before: Game, action: Action, after: Game,
                       names: Sequence[str]) -> Reason:
    """``r`` named by what the action added.  The too-late argument bounds each
    color apart, so the colors whose reach the action lowered (its text names them
    first) are the whole drop: its kind is theirs, ``last_copy`` where a last copy
    went, else ``too_late``.  A pace or tokens bound is kept as it is: there a lost
    card may cost nothing the turns had not already cost."""
    if r.kind != "too_late" or after.over:
        return r
    new = _new_stops(_reach(after, True)[1], before)
    if not new:
        return r
    kind = "last_copy" if any(x.why in ("lost", "missing") for x in new) else "too_late"
    return Reason(kind, r.bound, r.text)


def explain(before: Game, action: Action, after: Game, best_before: int, best_after: int,
            names: Sequence[str]) -> Reason:
    """Why the best score fell from ``best_before`` to ``best_after`` on ``action``:
    the first argument of ``arguments`` whose bound is ``best_after``, else
    ``other``.  A bound below ``best_after`` (a refereed game's score) is a SolverBug."""
    found = arguments(after, names, action, before)
    for r in found:
        if r.bound < best_after:
            raise SolverBug(f"the {r.kind} argument bounds the best score by {r.bound}, but "
                            f"a refereed game scores {best_after}: {r.text}")
    for r in found:
        if r.bound == best_after:
            return _led_by_the_action(r, before, action, after, names)
    part = min(found, key=lambda r: r.bound, default=None)
    if after.chosen is not None:
        text = (f"no short argument explains the whole drop ({best_before} -> {best_after}): "
                f"the piles choose their order in play, and the best scores are the exact "
                f"methods', replayed by the referee")
    else:
        text = (f"no short argument explains the whole drop ({best_before} -> {best_after}); "
                f"`analyze --refutations DIR` writes the search's proof that no game scores "
                f"more than {best_after}")
    if part is not None and part.bound < best_before:
        text += f"; part of it ({best_before} -> {part.bound}): {part.text}"
    return Reason("other", part.bound if part is not None else after.target, text)
