"""hanab.live's "max score" in Up or Down and Sudoku, as its server computes it.

The server keeps, besides the piles, the best score it still thinks reachable
(``GetMaxScore`` in ``variants_reversible.go`` and ``variants_sudoku.go``) and lowers it
after each play and each card lost; the game ends once the score equals it.  The
referee follows it exactly, so the games it ends are the games hanab.live ends:

- **Up or Down**, per pile: complete, its stack size; else the longest walk in its
  direction (both, while undecided: the better one) from its first card, counting
  which values still have a copy not lost (a walk up starts if a 1 or the START
  still has one, then goes 2, 3, ... while each value does; down alike from the
  top value), whatever the pile already holds.
- **Sudoku**: a pile with no value dead (every copy lost) counts the stack size; a
  started one, its run from its first value (``sudoku_runs``); the others share
  the first values no pile has taken, the best assignment of distinct ones.

``sudoku_runs`` gives, as the server's sweep does, every value between two dead
ones the run of the first of them: a pile started at 2 with only the 3s dead
counts 2 cards where the 2 alone can be played.  That over-estimate is hanab.live's: it
only keeps a game going that the rule "no card still needed can be played" then
ends (encodings/variants.md, 8).

>>> from hanabi_cp.real.variants.catalogue import variant
>>> up = variant("Up or Down (5 Suits)")
>>> lost = {(0, 1), (0, 7)}           # suit 0: no way up, and down from 5 stops at 2
>>> max_score(up, ((), (), (), (), ()), lambda k, r: (k, r) in lost)
24
>>> max_score(up, ((1,), (), (), (), ()), lambda k, r: (k, r) in {(0, 3)})
22
>>> sudoku_runs([False, False, True, False, False], 5)
(False, [2, 2, 0, 4, 3])
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import permutations

from .catalogue import START, Variant

Played = tuple[int, ...]
# dead(k, rank): whether every copy of suit index k's card of hanab.live rank ``rank``
# is lost (or none is in the deck)
Dead = Callable[[int, int], bool]


def max_score(v: Variant, piles: tuple[Played, ...], dead: Dead) -> int:
    """The server's ``GetMaxScore`` for piles holding ``piles`` (real values)."""
    if v.up_or_down:
        return sum(up_or_down_cap(v, p, partial(dead, k)) for k, p in enumerate(piles))
    return _sudoku_max(v, piles, dead)


def up_or_down_cap(v: Variant, played: Played, dead: Callable[[int], bool]) -> int:
    """One Up or Down pile's part of the server's max score."""
    n = v.stack_size
    if len(played) >= n:
        return n
    up = not played or played == (START,) or played[0] == 1 or played[1:2] == (2,)
    down = not played or played == (START,) or played[0] == n or played[1:2] == (n - 1,)
    walks = []
    if up:
        walks.append(_walk(dead, 1, range(2, n + 1)))
    if down:
        walks.append(_walk(dead, n, range(n - 1, 0, -1)))
    return max(walks)


def _walk(dead: Callable[[int], bool], first: int, rest: range) -> int:
    if dead(first) and dead(START):
        return 0
    count = 1
    for r in rest:
        if dead(r):
            break
        count += 1
    return count


def sudoku_runs(dead: list[bool], n: int) -> tuple[bool, list[int]]:
    """(no value dead, per first value 1..n the cards the server counts a pile
    starting there can take), by the server's sweep (``sudokuWalkUpAll``)."""
    runs, last = [n] * n, -1
    for cur in range(n):
        if dead[cur]:
            for w in range(last + 1, cur):
                runs[w] = cur - last - 1
            runs[cur], last = 0, cur
    if last == -1:
        return True, runs
    for w in range(last + 1, n):
        runs[w] = min(runs[0] + n - w, n)
    return False, runs


def _sudoku_max(v: Variant, piles: tuple[Played, ...], dead: Dead) -> int:
    n, fixed, open_runs = v.stack_size, 0, []
    for k, played in enumerate(piles):
        whole, runs = sudoku_runs([dead(k, r) for r in range(1, n + 1)], n)
        if whole:
            fixed += n
        elif played:
            fixed += runs[played[0] - 1]
        else:
            open_runs.append(runs)
    if not open_runs:
        return fixed
    taken = {p[0] for p in piles if p}
    free = [s for s in range(1, n + 1) if s not in taken]
    best = max((sum(runs[s - 1] for runs, s in zip(open_runs, starts))
                for starts in permutations(free, len(open_runs))), default=0)
    return fixed + best
