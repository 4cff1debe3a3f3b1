"""``generate``: seeded random decks, shuffled standard decks and random k-CNF formulas.

Every file starts with comment lines naming the generator, version, seed and a
command line that regenerates it byte for byte.
"""

from __future__ import annotations

import contextlib
import os

import click

from ..core.errors import FileError, UsageError
from ..apps.generators import random_deck, random_kcnf, standard_deck, variant_deck
from ..runtime.limits import MAX_CNF_LITERALS, MAX_CNF_VARS, MAX_FILES, check_at_most, check_cards, check_kinds
from ..io.outputs import check_folder, check_outputs, folder, provenance, refuse_overwrite, write_texts
from .common import Command, Group, NestedCommand, force_option, not_stdout
from .numbers import HAND, NONNEGATIVE_SEED, RATIO, Integer, Real, count


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


def legacy_spec(n, c, r, exact_copies, missing, standard, colors, cnf, num_vars, clauses, k,
                hand, fmt) -> Spec:
    """The old one-command spelling: three exclusive option families, checked here."""
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
        return CnfSpec(num_vars, clauses, k)
    if standard:
        return StandardSpec(colors, hand, fmt)
    if n is None or c is None or r is None:
        raise UsageError("generate: pass --n N --c C --r R (random deck), "
                          "--standard, or --cnf")
    return DeckSpec(n, c, r, exact_copies, missing, hand, fmt)


def emit(spec: Spec, seed: int | None, output: str, count: int | None, force: bool) -> None:
    """Write ``spec``'s file (or ``count`` files into the directory ``output``)."""
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
    with folder(output) if count is not None else contextlib.nullcontext():
        write_texts([(path, text) for (path, _), text in zip(jobs, texts)], force)   # all or none
    if count is not None:
        click.echo(f"c wrote {count} files to {output} (seeds {seed}..{seed + count - 1})", err=True)


def json_by_extension(fmt, output: str, count) -> str | None:
    if fmt is None and output.endswith(".json") and count is None:
        return "json"
    return fmt


LEGACY = "_legacy"               # the hidden name of the old one-command spelling


class GenerateGroup(Group):
    """``generate KIND ...``, and the old ``generate --standard ...`` spelling.

    A first argument that is an option (or none at all) is the old spelling: it is
    routed to a hidden command that keeps its options and messages, and says on
    stderr, after it has written its output, how to spell it now."""

    def parse_args(self, ctx, args):
        if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help")):
            args = [LEGACY, *args]
        return super().parse_args(ctx, args)


class SubCommand(NestedCommand):
    """One-line usage errors naming ``generate KIND``."""

    group = "generate"


@click.group("generate", cls=GenerateGroup,
             context_settings={"help_option_names": ["-h", "--help"]})
def generate_group() -> None:
    """Generate seeded instances: random decks, shuffled standard decks, random k-CNF
    formulas, and benchmark families for SAT solvers.

    The same options and seed always give byte-identical output; every file names
    the generator, version, seed and a command line that regenerates it.  The old
    spelling (`generate --standard`, `generate --n N --c C --r R`, `generate --cnf`)
    still works and says so on stderr.

    \b
    Examples:
      hanabi-cp generate standard --seed 59 -o deck.txt
      hanabi-cp generate deck --n 5 --c 3 --r 2 --seed 7 --hand 2
      hanabi-cp generate cnf --vars 20 --clauses 91 --seed 1 -o f.cnf
      hanabi-cp generate standard --count 10 --seed 100 -o decks/
      hanabi-cp generate family images --vars 5 --count 2 --seed 1 -o family/
    """


def _seed_output_options(func):
    opts = [
        click.option("--seed", type=NONNEGATIVE_SEED, default=None,
                     help="Random seed (default: fresh from os.urandom); always printed to stderr."),
        click.option("-o", "--output", default="-", show_default=True, metavar="PATH",
                     help="Output file (`-` = stdout); with --count, a directory."),
        click.option("--count", type=count(low=1), default=None, metavar="K",
                     help="Write K files into the directory -o, seeds S, S+1, ..., S+K-1."),
        force_option,
    ]
    for opt in reversed(opts):
        func = opt(func)
    return func


def _deck_file_options(func):
    opts = [
        click.option("--hand", type=HAND, default=None, metavar="H",
                     help="Write an `h H` line, the default hand size of other commands."),
        click.option("--format", "fmt", type=click.Choice(["text", "json"]), default=None,
                     help="Deck file format.  [default: from -o's extension, else text]"),
    ]
    for opt in reversed(opts):
        func = opt(func)
    return func


@generate_group.command("deck", cls=SubCommand)
@click.option("--n", type=Integer(1), required=True, help="Values 1..N.")
@click.option("--c", type=Integer(1), required=True, help="Colors 1..C.")
@click.option("--r", type=Integer(1), required=True,
              help="Copies per card, uniform in 1..R.")
@click.option("--exact-copies", is_flag=True, help="Exactly R copies of each card.")
@click.option("--missing", type=Real(0, 1), default=None, metavar="P",
              help="Each card has no copy with probability P.")
@_deck_file_options
@_seed_output_options
def generate_deck(n, c, r, exact_copies, missing, hand, fmt, seed, output, count, force):
    """A seeded random deck over values 1..N and colors 1..C.

    \b
    Example:
      hanabi-cp generate deck --n 5 --c 3 --r 2 --missing 0.05 --seed 7
    """
    fmt = json_by_extension(fmt, output, count)
    emit(DeckSpec(n, c, r, exact_copies, missing, hand, fmt), seed, output, count, force)


@generate_group.command("standard", cls=SubCommand)
@click.option("--colors", type=click.Choice(["5", "6"]), default=None,
              help="5 colors, or 6 (hanab.live's 6 Suits) [default: 5].")
@click.option("--variant", default=None, metavar="NAME",
              help="The deck of a hanab.live variant, by its exact name (`hanabi-cp "
                   "variants` lists them; colors are its suits in order).")
@_deck_file_options
@_seed_output_options
def generate_standard(colors, variant, hand, fmt, seed, output, count, force):
    """A shuffled real Hanabi deck (50 cards, 60 with 6 colors, or a variant's).

    \b
    Example:
      hanabi-cp generate standard --seed 59 --hand 2
      hanabi-cp generate standard --seed 59 --variant "Rainbow (6 Suits)"
    """
    fmt = json_by_extension(fmt, output, count)
    chosen = None
    if variant is not None:
        if colors is not None:
            raise UsageError("generate standard: give --colors or --variant, not both")
        from ..real.variants.catalogue import variant as find_variant
        chosen = find_variant(variant)
        why = chosen.unsupported()
        if why is not None:
            raise UsageError(f"generate standard: variant {chosen.name!r} is not "
                             f"supported: {why}")
    emit(StandardSpec(None if colors is None else int(colors), hand, fmt, chosen), seed,
         output, count, force)


@generate_group.command("cnf", cls=SubCommand)
@click.option("--vars", "num_vars", type=Integer(1), required=True, metavar="V",
              help="Number of variables.")
@click.option("--clauses", type=Integer(0), required=True, metavar="M",
              help="Number of clauses.")
@click.option("--k", type=Integer(1), default=3, show_default=True,
              help="Literals per clause.")
@_seed_output_options
def generate_cnf(num_vars, clauses, k, seed, output, count, force):
    """A uniform random k-CNF formula (DIMACS), as SATLIB's uf/uuf families.

    \b
    Example:
      hanabi-cp generate cnf --vars 20 --clauses 91 --seed 1
    """
    emit(CnfSpec(num_vars, clauses, k), seed, output, count, force)


class FamilyCommand(NestedCommand):
    """One-line usage errors naming ``generate family KIND``."""

    group = "generate family"


class FamilyGroup(Group):
    """``generate family KIND``."""


@generate_group.group("family", cls=FamilyGroup,
                      context_settings={"help_option_names": ["-h", "--help"]})
def generate_family() -> None:
    """A named benchmark family for SAT solvers: a folder of DIMACS files (and decks)
    with provenance headers and a MANIFEST.csv, the expected answer as a label.

    \b
    Examples:
      hanabi-cp generate family images --vars 5 --count 2 --seed 1 -o family/
      hanabi-cp generate family hard --decks instances/hard -o hard-family/
    """


def _family_output(func):
    opts = [click.option("--format", "fmt", type=click.Choice(["dimacs", "mzn", "opb", "wcnf"]),
                         default="dimacs", show_default=True,
                         help="Each deck's file: dimacs (CNF), mzn (MiniZinc Challenge: one "
                              "model, a .dzn per deck), opb (PB competition), wcnf (MaxSAT "
                              "Evaluation)."),
            click.option("--name", default=None, metavar="NAME",
                         help="Family name in the headers  [default: -o's folder name]."),
            click.option("-o", "--output", required=True, metavar="DIR",
                         help="Folder to write the family into."),
            force_option]
    for opt in reversed(opts):
        func = opt(func)
    return func


def _write_family(members, output: str, force: bool) -> None:
    from ..apps.families import MANIFEST, manifest

    if os.path.exists(output) and not os.path.isdir(output):
        raise FileError(f"{output}: not a directory (-o DIR: the family's folder)")
    check_folder(os.path.abspath(output), True, output)
    files = [(os.path.join(output, m.name), m.text) for m in members]
    files.append((os.path.join(output, MANIFEST), manifest(members)))
    for path, _ in files:
        refuse_overwrite(path, force)
    with folder(output):
        write_texts(files, force)          # all or none
    click.echo(f"c wrote {len(members)} files and {MANIFEST} to {output}", err=True)


def _family_name(name: str | None, output: str) -> str:
    return name or os.path.basename(os.path.normpath(os.path.abspath(output)))


@generate_family.command("hard", cls=FamilyCommand)
@click.option("--decks", required=True, metavar="DIR",
              help="Folder of deck files (each with an `h` line), e.g. study hard --out.")
@_family_output
def family_hard(decks, fmt, name, output, force):
    """The compact CNF of every deck file in DIR (satisfiable iff the deck is winnable at
    its `h`), e.g. the hardest decks `study hard` found; the expected answer is copied
    from each file's `# verdict:` label.

    \b
    Example:
      hanabi-cp generate family hard --decks instances/hard -o hard-family/
      hanabi-cp generate family hard --decks instances/hard --format mzn -o hard-mzn/
    """
    not_stdout("generate family", "-o", output, "the family's folder")
    from ..apps.families import hard_family

    name = _family_name(name, output)
    command = f"hanabi-cp generate family hard --decks {decks} --name {name}" + \
        (f" --format {fmt}" if fmt != "dimacs" else "")
    _write_family(hard_family(decks, name, command, fmt), output, force)


@generate_family.command("images", cls=FamilyCommand)
@click.option("--vars", "num_vars", type=Integer(3), required=True, metavar="V",
              help="Variables of each random 3-CNF formula.")
@click.option("--ratio", type=RATIO, default=4.26,
              show_default=True, help="Clauses per variable.")
@click.option("--count", type=count(low=1), default=4, show_default=True,
              help="Formulas (seeds S..S+K-1).")
@click.option("--seed", type=NONNEGATIVE_SEED, default=None,
              help="First seed (default: fresh from os.urandom); always printed to stderr.")
@_family_output
def family_images(num_vars, ratio, count, seed, fmt, name, output, force):
    """Random 3-CNF formulas near the threshold and their reduction images (decks of
    journal §5 at h = 2, with role lines): each image is winnable iff its formula is
    satisfiable (the expected answer, by CaDiCaL, is a label).

    \b
    Example:
      hanabi-cp generate family images --vars 5 --count 2 --seed 1 -o family/
    """
    not_stdout("generate family", "-o", output, "the family's folder")
    from ..apps.families import image_family
    from ..solitaire.reduction.size import random_image_size

    m = max(1, round(ratio * num_vars))
    check_at_most("generate family images --count", count, MAX_FILES // 2,
                  "formulas one command writes")
    check_cards(count * random_image_size(num_vars, m).cards,
                f"generate family images: {count} images together", option=None)
    if seed is None:
        seed = fresh_seed()
    click.echo(f"c seed: {seed}", err=True)
    name = _family_name(name, output)
    command = (f"hanabi-cp generate family images --vars {num_vars} --ratio {ratio:g} "
               f"--count {count} --seed {seed} --name {name}"
               + (f" --format {fmt}" if fmt != "dimacs" else ""))
    _write_family(image_family(num_vars, ratio, count, seed, name, command, fmt), output, force)


@generate_group.command(LEGACY, cls=Command, hidden=True)
@click.option("--n", type=Integer(1), default=None, help="Random deck: values 1..N.")
@click.option("--c", type=Integer(1), default=None, help="Random deck: colors 1..C.")
@click.option("--r", type=Integer(1), default=None,
              help="Random deck: copies per card, uniform in 1..R.")
@click.option("--exact-copies", is_flag=True, help="Random deck: exactly R copies of each card.")
@click.option("--missing", type=Real(0, 1), default=None, metavar="P",
              help="Random deck: each card has no copy with probability P.")
@click.option("--standard", is_flag=True, help="A shuffled real Hanabi deck (50 or 60 cards).")
@click.option("--colors", type=click.Choice(["5", "6"]), default=None,
              help="Standard deck: 5 colors, or 6 for the variant.  [default: 5]")
@click.option("--cnf", is_flag=True, help="A uniform random k-CNF formula (DIMACS).")
@click.option("--vars", "num_vars", type=Integer(1), default=None, metavar="V",
              help="k-CNF: number of variables.")
@click.option("--clauses", type=Integer(0), default=None, metavar="M",
              help="k-CNF: number of clauses.")
@click.option("--k", type=Integer(1), default=None, help="k-CNF: literals per clause.  [default: 3]")
@click.option("--hand", type=HAND, default=None, metavar="H",
              help="Deck: write an `h H` line, the default hand size of other commands.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default=None,
              help="Deck file format.  [default: from -o's extension, else text]")
@click.option("--seed", type=NONNEGATIVE_SEED, default=None,
              help="Random seed (default: fresh from os.urandom); always printed to stderr.")
@click.option("-o", "--output", default="-", show_default=True, metavar="PATH",
              help="Output file (`-` = stdout); with --count, a directory.")
@click.option("--count", type=count(low=1), default=None, metavar="K",
              help="Write K files into the directory -o, seeds S, S+1, ..., S+K-1.")
@force_option
def generate_legacy(n, c, r, exact_copies, missing, standard, colors, cnf, num_vars, clauses,
                    k, hand, fmt, seed, output, count, force):
    """The old spelling of generate deck / standard / cnf (deprecated)."""
    if not cnf:
        fmt = json_by_extension(fmt, output, count)
    spec = legacy_spec(n, c, r, exact_copies, missing, standard,
                       None if colors is None else int(colors), cnf, num_vars, clauses, k,
                       hand, fmt)
    emit(spec, seed, output, count, force)
    # After the output, so that a mistake stays one line on stderr.
    click.echo(f"c note: `generate {' '.join(_old_words(standard, cnf))}` is deprecated; "
               f"write `generate {spec.args[0]} ...` (same options, same files)", err=True)


def _old_words(standard: bool, cnf: bool) -> list[str]:
    return ["--standard"] if standard else ["--cnf"] if cnf else ["--n", "--c", "--r"]


generate_legacy.name = "generate"      # its usage errors name `generate`, as before
