"""A method to copy: "template", a small correct method that is not registered.

Its strategy: scan the deck, play every card that is playable (stored cards follow
by themselves, journal fact 1), store the first copy of every other card still
needed, discard the rest.  When that never holds more than h cards it wins, and the
play sequence is the certificate; a card with no copy in the deck loses, and says
so; anything else proves nothing, so the answer is UNKNOWN, never a guess.

How to add a method (docs/methods.md, "Adding a method"):

1. Copy this file to ``hanabi_cp/solitaire/methods/NAME.py``; ``METHOD``'s name is
   ``NAME``.
2. ``run(deck, h, options) -> Outcome``: WINNABLE with a ``PlaySequence`` (``solve``
   replays it with the referee: a sequence that does not win is a SolverBug, never
   an answer); UNWINNABLE with a ``reason`` a reader can check (or a checked proof);
   else UNKNOWN with why.  Look at ``options.clock()`` in every loop that may run
   long: its ``check`` raises TimeUp, which ``solve`` turns into UNKNOWN.
3. ``refuses(deck, h)``: None, or one line saying why the method cannot decide
   this deck (too large, a deck shape it does not handle); ``solve`` asks it first
   and raises MethodRefused with it.  ``maximizes=True`` only if ``run`` honours
   ``options.maximize`` (a certificate reaching the best score, ``Outcome.score``);
   ``prepare`` imports a costly library before the clock starts.
4. Add one row ``("NAME", "hanabi_cp.solitaire.methods.NAME:METHOD")`` to
   ``METHODS`` in ``methods/__init__.py``, where ``auto`` should try it (``auto``
   takes the first method that accepts the deck, so a method that may answer
   UNKNOWN goes after the exact ones).  The CLI (``--method NAME``), ``hc.solve``,
   the harness and the studies see it from there.
5. Test it against the oracle: ``hanabi-cp harness --methods NAME,brute`` cross-checks
   it with ``brute`` on small decks; tests/test_method_templates.py shows how a
   test registers a method for its own run.

>>> from hanabi_cp.core.model import Deck
>>> from hanabi_cp.core.options import SolveOptions
>>> out = run(Deck.of([(2, 1), (1, 1), (3, 1)]), 1, SolveOptions())
>>> out.status.value, str(out.plays)
('WINNABLE', 'SPP')
>>> run(Deck.of([(1, 1), (3, 1)]), 1, SolveOptions()).reason
'card 2:1 has no copy in the deck'
"""

from __future__ import annotations

from ...core.model import Deck
from ...core.options import SolveOptions
from ...core.status import Status
from ..play_sequence import DISCARD, PLAY, STORE, PlaySequence
from ..solve import Method, Outcome

CHECK_EVERY = 4096      # cards between two looks at the clock
MAX_CARDS = 1_000_000   # the template declines longer decks (to show a refusal)


def run(deck: Deck, h: int, options: SolveOptions) -> Outcome:
    """Play when playable, store the first copy of a card still needed, else discard."""
    missing = deck.missing()
    if missing:
        return Outcome(Status.UNWINNABLE, reason=f"card {missing[0]} has no copy in the deck")
    clock = options.clock()
    top = [0] * (deck.c + 1)               # the value on top of each color's pile
    hand: set[tuple[int, int]] = set()
    actions = []
    most = 0                               # the most cards held at once
    for t, (a, k) in enumerate(deck.cards):
        if t % CHECK_EVERY == 0:
            clock.check("the template's scan")
        if top[k] + 1 == a:
            actions.append(PLAY)
            top[k] = a
            while (top[k] + 1, k) in hand:  # stored cards follow by themselves
                hand.remove((top[k] + 1, k))
                top[k] += 1
        elif a > top[k] and (a, k) not in hand:
            actions.append(STORE)
            hand.add((a, k))
            most = max(most, len(hand))
        else:
            actions.append(DISCARD)
    stats = {"cards": deck.N, "most_held": most}
    if most <= h:
        return Outcome(Status.WINNABLE, PlaySequence("".join(actions)), stats=stats)
    return Outcome(Status.UNKNOWN, stats=stats,
                   reason=f"storing every needed card holds {most} cards at once, h = {h}; "
                          "another order of discards may still win")


def refuses(deck: Deck, h: int) -> str | None:
    """A method refuses in one line what it cannot decide (here: no deck is too hard
    for one pass, only too large)."""
    if deck.N > MAX_CARDS:
        return f"{deck.N:,} cards: the template scans at most {MAX_CARDS:,}"
    return None


METHOD = Method("template", run, "store every needed card, play when playable "
                "(wins or says nothing: a method to copy)", refuses=refuses)
