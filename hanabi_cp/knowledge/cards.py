"""Card kinds as bits: a possibility table is an int with one bit per kind.

A kind is (rank, color) with rank 1..5 and color 1..C, numbered rank-major:
``kind = (rank - 1) * C + (color - 1)``, so a table's bits in increasing order
read the paper's possibility table row by row (rank by rank, colors left to
right).  ``Board`` turns the piles and the discard counts into the masks every
strategy asks about: playable, played (the paper's "dead"), dead (played or out
of reach because every copy of a lower rank is gone), dispensable.

>>> space = CardSpace(5)
>>> space.kind(1, 1), space.kind(5, 5), space.rank_of(24), space.color_of(24)
(0, 24, 5, 5)
>>> board = Board.start(space)
>>> [space.name(k) for k in bits(board.playable)]
['1:1', '1:2', '1:3', '1:4', '1:5']
>>> board = board.after_play(space.kind(1, 2)).after_discard(space.kind(2, 2))
>>> board.after_discard(space.kind(2, 2)).dead & space.bit(3, 2) != 0   # both 2:2 gone
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

RANKS = 5
# Copies of each rank in a standard deck (hanab.live "No Variant", any color count).
COPIES = (3, 2, 2, 2, 1)


# How many transitions of the shared knowledge states (``possibilities.Public``,
# ``common.Common``) a cache keeps.  The seats of a game look a transition up in the
# same turn, one after the other, and a finished game's states are never asked for
# again: a large cache only kept thousands of dead states alive, which every full
# pass of the cyclic garbage collector then scanned (a tenth to a quarter of the
# strategies' time in a process that had played a few hundred games).
TRANSITIONS = 1 << 8


def bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    return mask.bit_count()


@dataclass(frozen=True, eq=False)
class CardSpace:
    """The kinds of a deck: ``colors`` colors, ranks 1..``ranks``, ``copies[kind]``
    cards of each kind (the standard deck's 3, 2, 2, 2, 1 per color by default).
    ``clue_masks``, in a hanab.live variant whose clues touch otherwise than No
    Variant's: (the kinds each clue color touches, by its number 1.. (index 0
    unused), the kinds each rank clue touches, by rank); empty: No Variant's."""

    colors: int
    ranks: int = RANKS
    copies: tuple[int, ...] = ()
    clue_masks: tuple[tuple[int, ...], ...] = ()      # () or (colors, ranks)
    kinds: int = field(init=False)
    full: int = field(init=False)            # every kind possible
    rank_masks: tuple[int, ...] = field(init=False)    # [rank] -> kinds of that rank (index 0 unused)
    color_masks: tuple[int, ...] = field(init=False)   # [color] -> kinds of that color (index 0 unused)

    def __post_init__(self) -> None:
        C, R = self.colors, self.ranks
        set_ = object.__setattr__
        if not self.copies:
            if R != RANKS:
                raise ValueError("a deck of other ranks than 1..5 needs its copies")
            set_(self, "copies", tuple(COPIES[k // C] for k in range(C * R)))
        if len(self.copies) != C * R:
            raise ValueError(f"copies has {len(self.copies)} kinds, expected {C * R}")
        set_(self, "kinds", C * R)
        set_(self, "full", sum(1 << k for k in range(C * R) if self.copies[k] > 0))
        set_(self, "rank_masks", (0,) + tuple(((1 << C) - 1) << ((r - 1) * C) for r in range(1, R + 1)))
        set_(self, "color_masks", (0,) + tuple(sum(1 << ((r - 1) * C + c - 1) for r in range(1, R + 1))
                                               for c in range(1, C + 1)))

    def _key(self) -> tuple:
        return (self.colors, self.ranks, self.copies, self.clue_masks)

    def clue_mask(self, is_color: bool, value: int) -> int:
        """The kinds a clue touches: ``value`` a clue color's number 1.. (in No Variant
        the suit's) or a rank.

        >>> CardSpace(5).clue_mask(True, 2) == CardSpace(5).color_masks[2]
        True
        """
        if self.clue_masks:
            masks = self.clue_masks[0] if is_color else self.clue_masks[1]
            return masks[value] if 0 <= value < len(masks) else 0
        return self.color_masks[value] if is_color else self.rank_masks[value]

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, CardSpace) and self._key() == other._key())

    def __hash__(self) -> int:
        # boards (and the caches keyed by them) hash their space on every lookup
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash(self._key())
            object.__setattr__(self, "_hash", h)
        return h

    @classmethod
    def of_copies(cls, ranks: int, colors: int, copies: Mapping[tuple[int, int], int]) -> CardSpace:
        """From a deck composition: ``copies[(rank, color)]`` cards of each kind."""
        return cls(colors, ranks, tuple(copies.get((k // colors + 1, k % colors + 1), 0)
                                        for k in range(colors * ranks)))

    def kind(self, rank: int, color: int) -> int:
        return (rank - 1) * self.colors + color - 1

    def bit(self, rank: int, color: int) -> int:
        return 1 << self.kind(rank, color)

    def rank_of(self, kind: int) -> int:
        return kind // self.colors + 1

    def color_of(self, kind: int) -> int:
        return kind % self.colors + 1

    def name(self, kind: int) -> str:
        return f"{self.rank_of(kind)}:{self.color_of(kind)}"

    def total(self) -> int:
        return sum(self.copies)


@dataclass(frozen=True)
class Board:
    """The public state of the piles and of the lost cards, with its masks.

    ``piles[c - 1]`` is the top rank of color c; ``lost[k]`` counts the discarded
    and misplayed copies of kind k."""

    space: CardSpace
    piles: tuple[int, ...]
    lost: tuple[int, ...]
    playable: int = field(init=False, compare=False)
    played: int = field(init=False, compare=False)       # rank <= pile: the paper's "dead"
    dead: int = field(init=False, compare=False)         # played or out of reach
    dispensable: int = field(init=False, compare=False)  # dead, or not the last copy left
    _hash: int = field(init=False, compare=False, repr=False)

    @classmethod
    def start(cls, space: CardSpace) -> Board:
        return cls(space, (0,) * space.colors, (0,) * space.kinds)

    def __post_init__(self) -> None:
        space, C, R = self.space, self.space.colors, self.space.ranks
        copies, lost = space.copies, self.lost
        playable = played = dead = 0
        for c in range(C):
            top = self.piles[c]
            for r in range(top):                    # 0-based ranks below the top
                played |= 1 << (r * C + c)
            if top < R:
                playable |= 1 << (top * C + c)
            for r in range(top, R):
                k = r * C + c
                if lost[k] >= copies[k]:            # rank r + 1 is gone: it and above unreachable
                    for above in range(r, R):
                        dead |= 1 << (above * C + c)
                    break
        dead |= played
        last = 0
        for k in range(space.kinds):
            if copies[k] - lost[k] == 1:
                last |= 1 << k
        set_ = object.__setattr__
        set_(self, "playable", playable)
        set_(self, "played", played)
        set_(self, "dead", dead)
        set_(self, "dispensable", dead | (space.full & ~last))
        # boards key the strategies' caches: hashing the piles and 25 counts on every
        # lookup would cost more than most lookups save
        set_(self, "_hash", hash((space, self.piles, self.lost)))

    def __hash__(self) -> int:
        return self._hash

    @property
    def score(self) -> int:
        return sum(self.piles)

    def after_play(self, kind: int) -> Board:
        """The board after ``kind`` was played: on its pile if playable, else lost."""
        if self.playable >> kind & 1:
            return _grown(self, kind)
        return _lost(self, kind)

    def after_discard(self, kind: int) -> Board:
        return _lost(self, kind)


# Boards change only in the shared state transitions (cached per turn, see
# TRANSITIONS); what a cache of boards saves is the masks of the boards games
# have in common (the first plays), which a small one keeps.
@lru_cache(maxsize=TRANSITIONS)
def _grown(board: Board, kind: int) -> Board:
    piles = list(board.piles)
    piles[board.space.color_of(kind) - 1] += 1
    return Board(board.space, tuple(piles), board.lost)


@lru_cache(maxsize=TRANSITIONS)
def _lost(board: Board, kind: int) -> Board:
    lost = list(board.lost)
    lost[kind] += 1
    return Board(board.space, board.piles, tuple(lost))


def planes_of(counts: Sequence[int]) -> tuple[int, ...]:
    """Bit planes of non-negative counts: plane i holds the kinds whose count has
    bit i set, so the counts over a mask add up as popcounts.

    >>> planes_of([3, 0, 1, 2])
    (5, 9)
    """
    if min(counts, default=0) < 0:
        raise ValueError("negative copy count")
    planes = [0] * max(counts, default=0).bit_length()
    for k, c in enumerate(counts):
        i = 0
        while c:
            if c & 1:
                planes[i] |= 1 << k
            c >>= 1
            i += 1
    return tuple(planes)


class Weights:
    """Copies of each kind not yet accounted for, with fast sums over masks.

    A possibility table weighs each kind it allows by these counts (the chance a
    hidden card is that kind).  The counts are kept as bit planes (plane i holds
    the kinds whose count has bit i set), so ``sum(mask)`` is a few popcounts.

    >>> w = Weights(CardSpace(5))
    >>> w.sum(w.space.full), w.sum(w.space.rank_masks[1])
    (50, 15)
    >>> w.take(0); w.take(0); w.take(0); w.sum(w.space.rank_masks[1]), w.alive >> 0 & 1
    (12, 0)
    """

    __slots__ = ("space", "counts", "alive", "planes")

    def __init__(self, space: CardSpace, counts: list[int] | None = None):
        self.space = space
        self.counts = list(space.copies) if counts is None else list(counts)
        self.alive = 0
        self.planes: tuple[int, ...] = ()
        self._rebuild()

    def copy(self) -> Weights:
        return Weights(self.space, self.counts)

    def _rebuild(self) -> None:
        self.planes = planes_of(self.counts)
        self.alive = sum(1 << k for k, c in enumerate(self.counts) if c)

    def take(self, kind: int) -> None:
        """One copy of ``kind`` became known (played, discarded or seen)."""
        if self.counts[kind] <= 0:
            raise ValueError(f"no copy of kind {kind} left")
        self.counts[kind] -= 1
        self._rebuild()

    def sum(self, mask: int) -> int:
        total = 0
        for i, plane in enumerate(self.planes):
            total += (mask & plane).bit_count() << i
        return total
