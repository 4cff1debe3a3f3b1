"""What ``hanabi-cp generate`` writes: seeded random decks, shuffled standard (or
hanab.live variant) decks and random k-CNF formulas, each file opening with comment
lines naming the generator, version, seed and the command line that regenerates it
byte for byte.

A ``Spec`` is checked once when made (sizes within the limits), then gives the text
of the file of any seed (``text``) and its name among several (``file_name``).
"""

from __future__ import annotations

import os

from ..io.outputs import provenance
from ..runtime.limits import MAX_CNF_LITERALS, MAX_CNF_VARS, check_at_most, check_cards, check_kinds
from .generators import random_deck, random_kcnf, standard_deck, variant_deck


def fresh_seed() -> int:
    return int.from_bytes(os.urandom(4), "big")


class Spec:
    """What to generate, checked once: kind, parameters and the canonical options.

    ``args`` is the canonical command line after ``hanabi-cp generate`` (the
    subcommand spelling), written into every file so that it regenerates it."""

    kind: str
    ext: str
    size: int
    args: list
    name: str
    what: str

    def __init__(self, kind: str, hand=None, fmt=None):
        self.kind, self.hand, self.fmt = kind, hand, fmt
        self.ext = ".cnf" if kind == "cnf" else ".json" if fmt == "json" else ".txt"

    def deck_args(self) -> None:
        if self.hand is not None:
            self.args += ["--hand", self.hand]
        if self.fmt is not None:
            self.args += ["--format", self.fmt]

    def make(self, seed: int):
        raise NotImplementedError

    def file_name(self, seed: int) -> str:
        """The name of the file of ``seed`` among several (``generate --count``)."""
        return f"{self.name}-s{seed}{self.ext}"

    def text(self, seed: int) -> str:
        from ..io import deck_to_json, deck_to_text
        from ..solvers.dimacs import dimacs_text
        argv = ["hanabi-cp", "generate", *self.args, "--seed", seed]
        comments = [*provenance(f"generate: {self.what}"), f"seed: {seed}",
                    "command: " + " ".join(map(str, argv))]
        made = self.make(seed)
        if self.kind == "cnf":
            return dimacs_text(made, comments=comments)
        to = deck_to_json if self.fmt == "json" else deck_to_text
        return to(made, h=self.hand, comments=comments)


class CnfSpec(Spec):
    def __init__(self, num_vars: int, clauses: int, k: int | None):
        super().__init__("cnf")
        self.num_vars, self.clauses, self.k = num_vars, clauses, 3 if k is None else k
        check_at_most("generate --vars", num_vars, MAX_CNF_VARS, "variables of a formula")
        check_at_most("generate: --clauses x --k =", clauses * self.k, MAX_CNF_LITERALS,
                      "literals of a generated formula")
        self.size = clauses * self.k
        self.args = ["cnf", "--vars", num_vars, "--clauses", clauses, "--k", self.k]
        self.name = f"kcnf-k{self.k}-v{num_vars}-m{clauses}"
        self.what = f"random {self.k}-CNF, {num_vars} variables, {clauses} clauses"

    def make(self, seed: int):
        return random_kcnf(seed, self.num_vars, self.clauses, self.k)


class StandardSpec(Spec):
    def __init__(self, colors: int | None, hand=None, fmt=None, variant=None):
        super().__init__("deck", hand, fmt)
        self.colors = 5 if colors is None else colors
        self.variant = variant
        if variant is None:
            self.args = ["standard", "--colors", self.colors]
            self.name = f"standard{self.colors}"
            self.what = f"shuffled standard deck, {self.colors} colors"
            self.size = 5 * 2 * self.colors
        else:
            self.args = ["standard", "--variant", repr(variant.name)]
            self.name = "variant-" + "".join(ch if ch.isalnum() else "-"
                                             for ch in variant.name.lower()).strip("-")
            self.what = (f"shuffled deck of hanab.live's variant {variant.name!r} (suits "
                         + ", ".join(s.name for s in variant.suits)
                         + (f"; START as {variant.deck_n}" if variant.up_or_down else "") + ")")
            self.size = len(variant.deck_cards())
        self.deck_args()

    def make(self, seed: int):
        if self.variant is None:
            return standard_deck(seed, self.colors)
        v = self.variant
        return variant_deck(seed, v.model_cards(), v.deck_n, len(v.suits))


class DeckSpec(Spec):
    def __init__(self, n: int, c: int, r: int, exact_copies: bool, missing, hand=None, fmt=None):
        super().__init__("deck", hand, fmt)
        check_kinds(n, c, "generate")
        self.n, self.c, self.r, self.exact, self.missing = n, c, r, exact_copies, missing
        self.size = n * c * r
        check_cards(self.size, "generate: the deck", option=None)
        self.args = ["deck", "--n", n, "--c", c, "--r", r]
        if exact_copies:
            self.args.append("--exact-copies")
        if missing:
            self.args += ["--missing", missing]
        self.deck_args()
        self.name = f"deck-n{n}-c{c}-r{r}"
        self.what = (f"random deck, n = {n}, c = {c}, r = {r}"
                     + (" exactly" if exact_copies else " at most")
                     + (f", each card missing with probability {missing}" if missing else ""))

    def make(self, seed: int):
        return random_deck(seed, self.n, self.c, self.r, self.exact, self.missing or 0.0)
