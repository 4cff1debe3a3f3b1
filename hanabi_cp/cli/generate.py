"""``generate``: seeded random decks, shuffled standard decks and random k-CNF formulas.

Every file starts with comment lines naming the generator, version, seed and a
command line that regenerates it byte for byte.
"""

from __future__ import annotations

import os

import click

from ..errors import FileError, UsageError
from ..generators import random_deck, random_kcnf, standard_deck
from ..formats.outputs import write_texts
from ..limits import (MAX_CNF_LITERALS, MAX_CNF_VARS, MAX_FILES, check_at_most, check_cards,
                      check_kinds)
from .common import check_folder, check_outputs, command, force_option, provenance, refuse_overwrite


def fresh_seed() -> int:
    return int.from_bytes(os.urandom(4), "big")


class Spec:
    """What to generate, checked once: kind, parameters and the canonical options."""

    def __init__(self, n, c, r, exact_copies, missing, standard, colors, cnf, num_vars,
                 clauses, k, hand, fmt):
        deck_opts = {"--n": n, "--c": c, "--r": r}
        given_deck = [o for o, v in deck_opts.items() if v is not None]
        if exact_copies:
            given_deck.append("--exact-copies")
        if missing:
            given_deck.append("--missing")
        if standard and cnf:
            raise UsageError("generate: choose one of --standard and --cnf")
        if (standard or cnf) and given_deck:
            raise UsageError(f"generate: {given_deck[0]} does not apply with "
                             f"{'--standard' if standard else '--cnf'}")
        if not cnf and (num_vars is not None or clauses is not None or k is not None):
            raise UsageError("generate: --vars, --clauses and --k need --cnf")
        if not standard and colors is not None:
            raise UsageError("generate: --colors needs --standard (use --c for random decks)")
        if cnf and (hand is not None or fmt is not None):
            raise UsageError("generate: --hand and --format apply to decks, not to --cnf")
        if cnf:
            if num_vars is None or clauses is None:
                raise UsageError("generate --cnf: pass --vars V and --clauses M")
            self.kind, self.ext = "cnf", ".cnf"
            k = 3 if k is None else k
            check_at_most("generate --vars", num_vars, MAX_CNF_VARS, "variables of a formula")
            check_at_most("generate: --clauses x --k =", clauses * k, MAX_CNF_LITERALS,
                          "literals of a generated formula")
            self.size = clauses * k
            self.args = ["--cnf", "--vars", num_vars, "--clauses", clauses, "--k", k]
            self.name = f"kcnf-k{k}-v{num_vars}-m{clauses}"
            self.what = f"random {k}-CNF, {num_vars} variables, {clauses} clauses"
            self.make = lambda seed: random_kcnf(seed, num_vars, clauses, k)
        elif standard:
            colors = 5 if colors is None else colors
            self.kind = "deck"
            self.args = ["--standard", "--colors", colors]
            self.name = f"standard{colors}"
            self.what = f"shuffled standard deck, {colors} colors"
            self.make = lambda seed: standard_deck(seed, colors)
            self.size = 5 * 2 * colors
        else:
            if None in (n, c, r):
                raise UsageError("generate: pass --n N --c C --r R (random deck), "
                                 "--standard, or --cnf")
            self.kind = "deck"
            check_kinds(n, c, "generate")
            self.size = n * c * r
            check_cards(self.size, "generate: the deck", option=None)
            self.args = ["--n", n, "--c", c, "--r", r]
            if exact_copies:
                self.args.append("--exact-copies")
            if missing:
                self.args += ["--missing", missing]
            self.name = f"deck-n{n}-c{c}-r{r}"
            self.what = (f"random deck, n = {n}, c = {c}, r = {r}"
                         + (" exactly" if exact_copies else " at most")
                         + (f", each card missing with probability {missing}" if missing else ""))
            self.make = lambda seed: random_deck(seed, n, c, r, exact_copies, missing or 0.0)
        self.hand, self.fmt = hand, fmt
        if self.kind == "deck":
            if hand is not None:
                self.args += ["--hand", hand]
            if fmt is not None:
                self.args += ["--format", fmt]
            self.ext = ".json" if fmt == "json" else ".txt"

    def text(self, seed: int) -> str:
        from ..formats import deck_to_json, deck_to_text, dimacs_text
        argv = ["hanabi-cp", "generate", *self.args, "--seed", seed]
        comments = [*provenance(f"generate: {self.what}"), f"seed: {seed}",
                    "command: " + " ".join(map(str, argv))]
        made = self.make(seed)
        if self.kind == "cnf":
            return dimacs_text(made, comments=comments)
        to = deck_to_json if self.fmt == "json" else deck_to_text
        return to(made, h=self.hand, comments=comments)


@command("generate")
@click.option("--n", type=click.IntRange(min=1), default=None, help="Random deck: values 1..N.")
@click.option("--c", type=click.IntRange(min=1), default=None, help="Random deck: colors 1..C.")
@click.option("--r", type=click.IntRange(min=1), default=None,
              help="Random deck: copies per card, uniform in 1..R.")
@click.option("--exact-copies", is_flag=True, help="Random deck: exactly R copies of each card.")
@click.option("--missing", type=click.FloatRange(0, 1), default=None, metavar="P",
              help="Random deck: each card has no copy with probability P.")
@click.option("--standard", is_flag=True, help="A shuffled real Hanabi deck (50 or 60 cards).")
@click.option("--colors", type=click.Choice(["5", "6"]), default=None,
              help="Standard deck: 5 colors, or 6 for the variant.  [default: 5]")
@click.option("--cnf", is_flag=True, help="A uniform random k-CNF formula (DIMACS).")
@click.option("--vars", "num_vars", type=click.IntRange(min=1), default=None, metavar="V",
              help="k-CNF: number of variables.")
@click.option("--clauses", type=click.IntRange(min=0), default=None, metavar="M",
              help="k-CNF: number of clauses.")
@click.option("--k", type=click.IntRange(min=1), default=None, help="k-CNF: literals per clause.  [default: 3]")
@click.option("--hand", type=click.IntRange(min=0), default=None, metavar="H",
              help="Deck: write an `h H` line, the default hand size of other commands.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default=None,
              help="Deck file format.  [default: from -o's extension, else text]")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Random seed (default: fresh from os.urandom); always printed to stderr.")
@click.option("-o", "--output", default="-", show_default=True, metavar="PATH",
              help="Output file (`-` = stdout); with --count, a directory.")
@click.option("--count", type=click.IntRange(min=1), default=None, metavar="K",
              help="Write K files into the directory -o, seeds S, S+1, ..., S+K-1.")
@force_option
def generate_cmd(n, c, r, exact_copies, missing, standard, colors, cnf, num_vars, clauses, k,
                 hand, fmt, seed, output, count, force):
    """Generate a seeded random deck, a shuffled standard deck or a random k-CNF.

    The same options and seed always give byte-identical output.

    \b
    Examples:
      hanabi-cp generate --standard --seed 59 -o deck.txt
      hanabi-cp generate --n 5 --c 3 --r 2 --seed 7 --hand 2
      hanabi-cp generate --cnf --vars 20 --clauses 91 --seed 1 -o f.cnf
      hanabi-cp generate --standard --count 10 --seed 100 -o decks/
    """
    if fmt is None and output.endswith(".json") and count is None and not cnf:
        fmt = "json"
    spec = Spec(n, c, r, exact_copies, missing, standard,
                None if colors is None else int(colors), cnf, num_vars, clauses, k, hand, fmt)
    if seed is None:
        seed = fresh_seed()
    # Every check comes before the seed line and before any file is written, so a
    # mistake is one line on stderr and leaves nothing behind.
    if count is None:
        if output != "-" and os.path.isdir(output):
            raise FileError(f"{output}: is a directory; pass --count K to write files into it")
        check_outputs("generate", {"-o": output}, force)
        jobs = [(output, seed)]
    else:
        # Every file is made before the first is written: bound the files and their sum.
        check_at_most("generate --count", count, MAX_FILES, "files one command writes")
        if spec.kind == "cnf":
            check_at_most("generate: --count x --clauses x --k =", count * spec.size,
                          MAX_CNF_LITERALS, "literals generated by one command")
        else:
            check_cards(count * spec.size, f"generate: --count {count} decks together",
                        option=None)
        if output == "-":
            raise UsageError("generate --count: pass -o DIR, the directory to write into")
        if os.path.exists(output) and not os.path.isdir(output):
            raise FileError(f"{output}: not a directory (--count writes K files into -o DIR)")
        jobs = [(os.path.join(output, f"{spec.name}-s{seed + i}{spec.ext}"), seed + i)
                for i in range(count)]
        check_folder(os.path.abspath(output), True, output)
        for path, _ in jobs:
            refuse_overwrite(path, force)
    texts = [spec.text(s) for _, s in jobs]
    click.echo(f"c seed: {seed}", err=True)
    if count is not None:
        os.makedirs(output, exist_ok=True)
    write_texts([(path, text) for (path, _), text in zip(jobs, texts)], force)   # all or none
    if count is not None:
        click.echo(f"c wrote {count} files to {output} (seeds {seed}..{seed + count - 1})", err=True)

COMMANDS = [generate_cmd]
