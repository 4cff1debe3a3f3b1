"""Pieces shared by the command modules: options, deck loading, output, Outcome printing.

Output follows the SAT competition: ``c`` comment lines, one ``s`` status line, the
certificate as a ``v`` line.  User mistakes raise HanabiError (one line on stderr,
exit code 2, printed by the root group); click's own usage errors are shortened to
the same one-line form by ``Command``.
"""

from __future__ import annotations

import functools
import json
import time
from typing import Any

import click

from ..core.errors import FileError, HanabiError, UsageError
from ..core.model import Deck
from ..core.registry import Registry
from ..core.status import Status
from ..core.status import spelled
from ..core.version import PROG
from .numbers import HAND, Seconds

# The options a library reason may name, spelled as this CLI's flags (status.Reason).
REASON_FLAGS = {"proof": "--proof FILE"}

STARTED = "hanabi_cp.started"    # ctx.meta key: time.monotonic() when parsing began


class UsageLine(click.ClickException):
    """A usage error shown as one line (``hanabi-cp: error: ...``), exit code 2."""

    exit_code = 2

    def show(self, file=None) -> None:
        from ..runtime.limits import cut_quoted
        click.echo(f"{PROG}: error: {cut_quoted(self.format_message())}", err=True)


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


class TableGroup(click.Group):
    """A click group whose commands are its own and those of ``table`` (a
    ``registry.Registry`` of ``name -> "module:command"``), each imported when first
    asked for and made to name its flags in library errors (``speak_flags``)."""

    def __init__(self, *args: Any, table: Registry | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.table = table

    def list_commands(self, ctx):
        return sorted({*self.commands, *(self.table or ())})

    def get_command(self, ctx, cmd_name):
        if cmd_name not in self.commands and self.table is not None and cmd_name in self.table:
            cmd = self.table.load(cmd_name)
            speak_flags(cmd)
            self.add_command(cmd, cmd_name)
        return super().get_command(ctx, cmd_name)


class Group(TableGroup):
    """A click group whose unknown-subcommand errors are one line naming the group
    and its subcommands (hidden ones left out)."""

    def resolve_command(self, ctx, args):
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            path = ctx.command_path.removeprefix(PROG).strip() or PROG
            names = sorted(n for n in self.list_commands(ctx)
                           if not self.get_command(ctx, n).hidden)
            raise UsageLine(f"{path}: {exc.format_message()} (choose one of {', '.join(names)}; "
                            f"see '{ctx.command_path} --help')") from None


def command(name: str | None = None, **kwargs):
    """``click.command`` with one-line usage errors and ``-h`` for help."""
    kwargs.setdefault("context_settings", {"help_option_names": ["-h", "--help"]})
    return click.command(name, cls=Command, **kwargs)


class MethodChoice(click.Choice):
    """The method names of ``solitaire.methods.METHODS``, read when first needed: listing
    them loads every method's module (OR-Tools, pysat), which a command that never
    parses ``--method`` should not pay for.
    """

    def __init__(self, extra=("auto",)):
        self._extra = tuple(extra)
        super().__init__((), case_sensitive=True)

    @property
    def choices(self):
        from ..solitaire.solve import methods
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
    from ..runtime.deadline import Deadline
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
    from ..io import read_deck_file
    try:
        return read_deck_file(path)
    except OSError as exc:
        raise FileError(f"{path}: cannot read: {exc.strerror or exc}") from None


def load_instance(path: str, hand: int | None) -> tuple[Deck, int]:
    df = load_deck(path)
    return df.deck, df.hand(hand)


def not_stdout(command: str, option: str, path: str | None, what: str) -> None:
    """Refuse ``-`` for an output that is ``what`` (files, a folder), not one stream:
    ``-`` would otherwise be taken as a file name (``-.png``, a folder ``-``)."""
    if path == "-":
        raise UsageError(f"{command}: {option} - is not possible: {option} names {what}, "
                         "not stdout")


def open_output(path: str, force: bool):
    from ..io import open_output as _open
    return _open(path, force=force)


def deck_summary(deck: Deck) -> str:
    return f"{deck.N} cards, n = {deck.n}, c = {deck.c}, r = {deck.r}"


def echo_json(data) -> None:
    click.echo(json.dumps(data, sort_keys=True, indent=2))


def write_plays_to(path: str, plays, force: bool) -> None:
    """The certificate: ``-`` prints a ``v`` line, a path gets a play-sequence file."""
    if path == "-":
        click.echo(f"v {plays.actions}")
        return
    from ..solitaire.play_text import write_plays
    write_plays(path, plays, force=force)
    click.echo(f"c certificate written to {path}")


def echo_verdict(out, target: int) -> None:
    """The ``s`` line, the reason of a loss and the score, for any outcome type."""
    click.echo(f"s {out.status.value}")
    if out.reason and out.status is not Status.WINNABLE:
        click.echo(f"c reason: {spelled(out.reason, REASON_FLAGS)}")
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
    >>> flag_names(main.get_command(None, "show"))["first"], flag_names(main.get_command(None, "reduce"))["h"]
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


def speak_flags(cmd: click.Command) -> None:
    """Make library errors raised under ``cmd`` name its flags, not the library's
    parameters: ``copies 1: ...`` becomes ``--copies 1: ...`` (HanabiError.rename).
    A group's commands loaded later from its table are wrapped when loaded."""
    if isinstance(cmd, click.Group):
        for sub in cmd.commands.values():
            speak_flags(sub)
        return
    callback, flags = cmd.callback, flag_names(cmd)
    if callback is None or getattr(callback, "speaks_flags", False):
        return

    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return callback(*args, **kwargs)
        except HanabiError as exc:
            exc.rename(flags)
            raise

    run.speaks_flags = True         # type: ignore[attr-defined]
    cmd.callback = run
