"""Pieces shared by the command modules: options, deck loading, output, Outcome printing.

Output follows the SAT competition: ``c`` comment lines, one ``s`` status line, the
certificate as a ``v`` line.  User mistakes raise HanabiError (one line on stderr,
exit code 2, printed by the root group); click's own usage errors are shortened to
the same one-line form by ``Command``.
"""

from __future__ import annotations

import json
import os
import shlex
import time
from collections.abc import Collection, Mapping

import click

from .. import __version__
from ..errors import FileError, UsageError
from ..model import Deck
from ..solvers import Status
from .numbers import HAND, Seconds

PROG = "hanabi-cp"
STARTED = "hanabi_cp.started"    # ctx.meta key: time.monotonic() when parsing began


class UsageLine(click.ClickException):
    """A usage error shown as one line (``hanabi-cp: error: ...``), exit code 2."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"{PROG}: error: {self.format_message()}", err=True)


class Command(click.Command):
    """A click command whose usage errors are one line naming the command."""

    def parse_args(self, ctx, args):
        # --time-limit counts from here: parsing --method loads every method module
        # (OR-Tools, pysat), a good part of a second.
        ctx.meta.setdefault(STARTED, time.monotonic())
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise UsageLine(f"{self.name}: {exc.format_message()} "
                            f"(see '{PROG} {self.name} --help')") from None


class NestedCommand(Command):
    """A command of the group ``GROUP`` (a subclass names it, e.g. "generate family"),
    whose usage errors are one line naming it as ``GROUP NAME``."""

    group = ""

    def parse_args(self, ctx, args):
        try:
            return click.Command.parse_args(self, ctx, args)
        except click.UsageError as exc:
            path = f"{self.group} {self.name}"
            raise UsageLine(f"{path}: {exc.format_message()} "
                            f"(see '{PROG} {path} --help')") from None


class Group(click.Group):
    """A click group whose unknown-subcommand errors are one line naming the group
    and its subcommands (hidden ones left out)."""

    def resolve_command(self, ctx, args):
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            path = ctx.command_path.removeprefix(PROG).strip() or PROG
            names = sorted(n for n, c in self.commands.items() if not c.hidden)
            raise UsageLine(f"{path}: {exc.format_message()} (choose one of {', '.join(names)}; "
                            f"see '{ctx.command_path} --help')") from None


def command(name: str | None = None, **kwargs):
    """``click.command`` with one-line usage errors and ``-h`` for help."""
    kwargs.setdefault("context_settings", {"help_option_names": ["-h", "--help"]})
    return click.command(name, cls=Command, **kwargs)


class MethodChoice(click.Choice):
    """The registered method names, read from the registry when first needed.

    Methods register themselves from modules that others add, so the list cannot be
    fixed when this module is imported.
    """

    def __init__(self, extra=("auto",)):
        self._extra = tuple(extra)
        super().__init__((), case_sensitive=True)

    @property
    def choices(self):
        from ..solvers import methods
        return (*self._extra, *sorted(methods()))

    @choices.setter
    def choices(self, value) -> None:
        pass


def time_limit_option(help: str, default: float | None = None):
    """The one ``--time-limit`` of every command that offers it."""
    return click.option("--time-limit", type=Seconds(), default=default, metavar="S",
                        show_default=default is not None, help=help)


def command_deadline(seconds: float | None):
    """The deadline of the running command: ``seconds`` after it started."""
    from ..deadline import Deadline
    return Deadline.after(seconds, start=click.get_current_context().meta.get(STARTED))


def deck_argument(func):
    return click.argument("deck", metavar="DECK")(func)


def hand_option(func):
    return click.option("--hand", "hand", type=HAND, default=None, metavar="H",
                        help="Hand size h (default: the deck file's `h` line).")(func)


def force_option(func):
    return click.option("--force", is_flag=True,
                        help="Overwrite existing output files.")(func)


def load_deck(path: str):
    """Read a deck file (``-`` for stdin) as a formats.DeckFile."""
    from ..formats import read_deck
    try:
        return read_deck(path)
    except OSError as exc:
        raise FileError(f"{path}: cannot read: {exc.strerror or exc}") from None


def resolve_hand(deck_file, hand: int | None) -> int:
    """``--hand`` if given, else the file's ``h`` header, else an error."""
    if hand is not None:
        return hand
    if deck_file.h is not None:
        return deck_file.h
    raise UsageError(f"{deck_file.path}: no hand size given: pass --hand H "
                     "(or put a line `h H` in the deck file)")


def load_instance(path: str, hand: int | None) -> tuple[Deck, int]:
    df = load_deck(path)
    return df.deck, resolve_hand(df, hand)


def refuse_overwrite(path: str | None, force: bool) -> None:
    """Raise unless ``path`` is free (or stdout, or ``force``).

    Commands check every output before any work, so a refused file never costs a
    solve nor leaves some outputs written and others not.
    """
    if path and path != "-" and not force and os.path.isfile(path):
        raise FileError(f"{path}: refusing to overwrite an existing file; use --force")


def not_stdout(command: str, option: str, path: str | None, what: str) -> None:
    """Refuse ``-`` for an output that is ``what`` (files, a folder), not one stream:
    ``-`` would otherwise be taken as a file name (``-.png``, a folder ``-``)."""
    if path == "-":
        raise UsageError(f"{command}: {option} - is not possible: {option} names {what}, "
                         "not stdout")


def check_outputs(command: str, outputs: Mapping[str, str | None], force: bool,
                  inputs: Mapping[str, str | None] | None = None,
                  appended: Collection[str] = (), dirs_made: Collection[str] = ()) -> None:
    """Refuse, before any work, every output that would be wrong or clobber a file.

    ``outputs`` and ``inputs`` map option labels (for the messages) to paths (None:
    not given; ``-``: stdout/stdin).  Refused, whatever ``force`` says: two outputs
    naming one file however spelled (``x``, ``./x``, a symlink), both on stdout, an
    output that is also an input, an output that is a directory or lies in a missing
    or read-only directory (except ``dirs_made`` ones, whose folders are created).
    Refused without ``force``: an existing file (except ``appended`` outputs, which
    a rerun resumes).
    """
    given = [(label, path) for label, path in outputs.items() if path is not None]
    for i, (label, path) in enumerate(given):
        for other, other_path in given[:i]:
            if path == "-" and other_path == "-":
                raise UsageError(f"{command}: {other} - and {label} - cannot both go to stdout")
            if path != "-" and other_path != "-" and same_file(path, other_path):
                raise UsageError(f"{command}: {other} and {label} name the same file: "
                                 f"{other_path}, {path}")
        if path == "-":
            continue
        for in_label, in_path in (inputs or {}).items():
            if in_path not in (None, "-") and same_file(path, in_path):
                raise UsageError(f"{command}: {label} {path} is also the input {in_label}; "
                                 "write it elsewhere")
        if os.path.isdir(path):
            raise FileError(f"{path}: cannot write: it is a directory")
        check_folder(os.path.dirname(os.path.abspath(path)), label in dirs_made, path)
        if label not in appended:
            refuse_overwrite(path, force)


def same_file(a: str, b: str) -> bool:
    """Do two spellings name one file (through symlinks and hard links)?"""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_folder(folder: str, may_create: bool, path: str) -> None:
    """Can ``path`` be written in ``folder`` (or, ``may_create``, in a folder made there)?"""
    if may_create:
        while not os.path.exists(folder):
            folder = os.path.dirname(folder)
    if not os.path.isdir(folder):
        what = "not a directory" if os.path.exists(folder) else "no such directory"
        raise FileError(f"{path}: cannot write: {what}: {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FileError(f"{path}: cannot write: permission denied: {folder}")


def open_output(path: str, force: bool):
    from ..formats import open_output as _open
    return _open(path, force=force)


def deck_summary(deck: Deck) -> str:
    return f"{deck.N} cards, n = {deck.n}, c = {deck.c}, r = {deck.r}"


def provenance(what: str, argv=()) -> list[str]:
    """Comment lines saying which tool, version and command wrote a file.

    ``argv`` is a canonical command line (built from the parsed options, not from
    sys.argv), so the same options always give byte-identical files.
    """
    lines = [f"generated by {PROG} {__version__} ({what})"]
    if argv:
        lines.append("command: " + " ".join(shlex.quote(str(a)) for a in argv))
    return lines


def echo_json(data) -> None:
    click.echo(json.dumps(data, sort_keys=True, indent=2))


def write_plays_to(path: str, plays, force: bool) -> None:
    """The certificate: ``-`` prints a ``v`` line, a path gets a play-sequence file."""
    if path == "-":
        click.echo(f"v {plays.actions}")
        return
    from ..formats import write_plays
    write_plays(path, plays, force=force)
    click.echo(f"c certificate written to {path}")


def echo_verdict(out, target: int) -> None:
    """The ``s`` line, the reason of a loss and the score, for any outcome type."""
    click.echo(f"s {out.status.value}")
    if out.reason and out.status is not Status.WINNABLE:
        click.echo(f"c reason: {out.reason}")
    if out.score is not None:
        click.echo(f"c score: {out.score} of {target}")


def print_outcome(out, deck: Deck, h: int, certificate: str | None = None,
                  force: bool = False, chosen: str | None = None) -> None:
    """The SAT-competition style report of an Outcome."""
    how = f"{out.method} (auto)" if chosen == "auto" else out.method
    click.echo(f"c method: {how}")
    click.echo(f"c deck: {deck_summary(deck)}; hand size h = {h}")
    sizes = {k: v for k, v in sorted(out.stats.items())
             if k in ("variables", "clauses", "states", "solver") or k.endswith("_seconds")}
    if sizes:
        click.echo("c stats: " + ", ".join(
            f"{k} = {v:.3f}" if isinstance(v, float) else f"{k} = {v}" for k, v in sizes.items()))
    if "seconds" in out.stats:
        click.echo(f"c time: {out.stats['seconds']:.3f} s")
    echo_verdict(out, deck.target)
    if out.plays is not None and out.verified:
        click.echo("c certificate verified by the referee")
    if certificate is not None:
        if out.plays is None:
            click.echo("c no certificate: " + ("the deck is not winnable" if
                                                out.status is Status.UNWINNABLE else "undecided"))
        else:
            write_plays_to(certificate, out.plays, force)


# Library parameters a command sets through an option of another name.
_ALIASES = {"h": "hand"}


def flag_names(cmd: click.Command) -> dict[str, str]:
    """The flag that sets each parameter of ``cmd``, by the parameter's name: what
    ``HanabiError.rename`` needs to make a library message name the CLI's flags.

    >>> from hanabi_cp.cli import main
    >>> flag_names(main.commands["show"])["first"], flag_names(main.commands["reduce"])["h"]
    ('--from', '--hand')
    """
    names = {}
    for p in cmd.params:
        if isinstance(p, click.Option) and p.name:
            longs = [o for o in p.opts if o.startswith("--")]
            names[p.name] = (longs or p.opts)[0]
    for param, option in _ALIASES.items():
        if option in names:
            names.setdefault(param, names[option])
    return names
