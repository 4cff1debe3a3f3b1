"""Which counts per player and slot both real-rules encodings keep for the clue
targets, and which of them says "player q can be clued" (encodings/live-cnf.md §1,
row 10; encodings/live-cpsat.md §3.10): ``CnfEnds`` and ``CpEnds`` differ only in how
a count is kept (order-encoded literals against an integer and its "at least one"),
which their ``_track`` and ``ANY`` say.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..referee import Game
from .schedule import Layout


class HandTargets:
    """Mixin of ``CnfEnds`` and ``CpEnds``: the hand counts and the clue targets per
    slot (``holds``, ``cluable``, ``typed``), in the terms of the encoding's own
    ``_track``, ``_clue_targets`` and ``_typed_targets``."""

    start: Game
    lay: Layout
    HOLDS = "holds"     # the name of the hand counts' variables
    ANY = 0             # where a count of ``_track`` holds its "at least one"

    if TYPE_CHECKING:
        def _track(self, name: str, first: int, init: list[int],
                   member: list[bool] | None) -> dict[int, list[Any]]: ...
        def _clue_targets(self, k: int, has: list[Any]) -> None: ...
        def _typed_targets(self) -> None: ...

    def _hands(self) -> None:
        lay = self.lay
        self._moves: dict = {}
        # holds[k][q]: the cards player q holds before slot k
        self.holds = self._track(self.HOLDS, lay.last_draw + 1, lay.hands, None) \
            if lay.tail_matters else {}
        # cluable[k][q]: player q can be clued during run k (absent: no constraint)
        self.cluable: dict[int, list[Any]] = {}
        if lay.clue_targets_checked == "hands":
            self.cluable = self._any_of(self.holds)
        elif lay.clue_targets_checked == "touch":
            init = [sum(lay.touchable[o] for o in hand) for hand in self.start.hands]
            self.cluable = self._any_of(self._track("touch", 0, init, lay.touchable))
        for k, has in self.cluable.items():
            self._clue_targets(k, has)
        # typed[k][t]: per player, can be clued by a clue of type t (1: colour) during
        # run k (None: a clue of that type needs no target)
        self.typed: dict[int, list[list[Any] | None]] = {}
        if lay.clue_targets_checked == "typed":
            self._typed_targets()

    def _any_of(self, track: dict[int, list[Any]]) -> dict[int, list[Any]]:
        """Per slot and player, "holds at least one" of the counts ``track``."""
        return {k: [h[self.ANY] for h in hk] for k, hk in track.items()}

    def _type_tracks(self) -> list[dict[int, list[Any]] | None]:
        """Per clue type t (1: colour), the counts of the cards it touches in each
        hand, or None where a clue of that type needs no target (Alternating Clues
        where a card is touched by one clue type only)."""
        lay = self.lay
        assert lay.by_type is not None
        tracks: list[dict[int, list[Any]] | None] = []
        for t in (0, 1):
            if lay.free_type[t]:
                tracks.append(None)
                continue
            member = lay.by_type[t]
            init = [sum(member[o] for o in hand) for hand in self.start.hands]
            tracks.append(self._track(f"touch{t}", 0, init, member))
        return tracks

    def _typed_at(self, k: int, tracks: list[dict[int, list[Any]] | None]) -> list:
        """``typed[k]`` from ``_type_tracks``: per type, who can be clued by it in run k."""
        has = self.typed[k] = [None if tr is None else [h[self.ANY] for h in tr[k]]
                               for tr in tracks]
        return has
