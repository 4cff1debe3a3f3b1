"""Root click group.  User mistakes (HanabiError) become one line on stderr and
exit code 2; an interrupt (SIGINT, SIGTERM) becomes ``c interrupted`` on stdout and
exit code 130 / 143 (see hanabi_cp.runtime.interrupts); anything else is a bug and keeps
its traceback."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import traceback
from typing import Any, NoReturn

import click

from ..runtime import interrupts
from ..core.errors import HanabiError
from ..core.registry import Registry
from ..core.version import __version__
from .common import TableGroup


@contextlib.contextmanager
def _one_line():
    from .common import UsageLine
    try:
        yield
    except click.UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":   # bare `hanabi-cp`: show the help
            raise
        raise UsageLine(f"{exc.format_message()} (see 'hanabi-cp --help')") from None


# Every command and where it is, each module imported when its command is first
# asked for (``hanabi-cp solve`` imports cli/solve.py, not the others); the help
# lists them by name.  A new command is one row here.
COMMANDS: Registry[click.Command] = Registry("command", [
    ("analyze", "hanabi_cp.cli.analyze:analyze"),
    ("decode", "hanabi_cp.cli.encode:decode_cmd"),
    ("encode", "hanabi_cp.cli.encode:encode_cmd"),
    ("generate", "hanabi_cp.cli.generate:generate_group"),
    ("harness", "hanabi_cp.cli.harness:harness_cmd"),
    ("hle", "hanabi_cp.cli.hle:hle"),
    ("min-hand", "hanabi_cp.cli.encode:min_hand_cmd"),
    ("play", "hanabi_cp.cli.play:play"),
    ("reduce", "hanabi_cp.cli.reduce:reduce_cmd"),
    ("roundtrip", "hanabi_cp.cli.reduce:roundtrip_cmd"),
    ("show", "hanabi_cp.cli.show:show_cmd"),
    ("solve", "hanabi_cp.cli.solve:solve_cmd"),
    ("study", "hanabi_cp.cli.study:study"),
    ("variants", "hanabi_cp.cli.variants:variants_cmd"),
    ("verify", "hanabi_cp.cli.solve:verify_cmd"),
])


class _Group(TableGroup):
    # Usage errors of the root itself (unknown command or option) as one line too.
    def parse_args(self, ctx, args):
        with _one_line():
            return super().parse_args(ctx, args)

    def resolve_command(self, ctx, args):
        with _one_line():
            return super().resolve_command(ctx, args)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # Only the process entry point (console script, python -m hanabi_cp) comes
        # here; CliRunner calls main(), so in-process tests keep their own handlers.
        interrupts.install()
        return super().__call__(*args, **kwargs)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        from ..io.outputs import is_write_failure
        # A file name that is not UTF-8 is printed as the bytes it is made of, not
        # refused by the UTF-8 encoder midway through a report.
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(AttributeError, ValueError, io.UnsupportedOperation):
                stream.reconfigure(errors="surrogateescape")       # type: ignore[union-attr]
        error: BaseException | None = None
        try:
            result = super().main(*args, **kwargs)
        except BaseException as exc:
            error = exc
        interrupted = None if error is None else interrupts.from_exception(error)
        if interrupted is None:
            # A full disk behind stdout is found here, not by the interpreter's flush
            # at exit (an "Exception ignored" message and exit code 120).
            try:
                sys.stdout.flush()
            except OSError as exc:
                if not is_write_failure(exc):
                    raise
                _fail(f"<stdout>: cannot write: {exc.strerror or exc}")
        if error is None:
            return result
        if is_write_failure(error):
            # A write that found no room outside the outputs' own (those are
            # FileErrors naming their file): stdout itself, by click.echo.
            where = "<stdout>: " if _echoed_to_stdout(error) else ""
            _fail(f"{where}cannot write: {getattr(error, 'strerror', None) or error}")
        if interrupted is None:
            raise error
        interrupts.report()
        sys.exit(interrupted.exit_code)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except HanabiError as exc:
            # The refused run's objects go now, not when the exception is dropped: a
            # result CSV's lock is released and an empty CSV it created is removed.
            traceback.clear_frames(exc.__traceback__)
            _fail(str(exc))


def _fail(message: str) -> NoReturn:
    """The one error line, exit code 2; stdout, if it cannot take what it holds, is
    pointed at /dev/null first, so that the interpreter's flush at exit stays quiet."""
    try:
        sys.stdout.flush()
    except OSError:
        with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, sys.stdout.fileno())
            os.close(null)
    from ..runtime.limits import cut_quoted
    click.echo(f"hanabi-cp: error: {cut_quoted(message)}", err=True)   # user text: 60 chars
    sys.exit(2)


def _echoed_to_stdout(exc: BaseException) -> bool:
    """Was ``exc`` raised inside ``click.echo`` writing to stdout?"""
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_name == "echo" and frame.f_globals.get("__name__") == "click.utils":
            stream = frame.f_locals.get("file")
            return stream is sys.stdout or getattr(stream, "name", None) == "<stdout>"
        tb = tb.tb_next
    return False


@click.group(cls=_Group, table=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="hanabi-cp")
def main() -> None:
    """Judge real Hanabi games against the exact best score of their deal, and
    decide, encode and reduce Solitaire Hanabi; every answer is checked (a win is
    replayed by the referee, a "no" carries its reason or a proof).

    \b
    Players of hanab.live (its rules and variants):
      analyze GAME                  where the best score fell, and why
      show GAME -o game.png         the picture of that post-mortem
      verify DECK GAME --rules live  replay a game, every action checked
      solve DECK --rules live       can the deal be won (open hands)
      play DECK --bound             a strategy's games against the deal's best
      variants [WORD]               the variants hanabi-cp supports
      (GAME: saved from https://hanab.live/export/ID, or by `play --replay`)

    \b
    AI researchers (DeepMind's Hanabi Learning Environment):
      hle play                      HLE's agents play games, as game files
      analyze DIR --summary         their games against each deal's bound
      study hle, study strategies   agents and strategies over many deals

    \b
    SAT/CP researchers (Solitaire Hanabi, the journal's model):
      solve, verify, min-hand       decide a deck, check a play sequence
      encode, decode                a deck for your solver, its answer back
      reduce, roundtrip             a CNF formula to a deck and back
      generate, study, harness      instances, sweeps, cross-checks

    \b
    Examples (run from a clone's root: instances/ is the repository's):
      hanabi-cp analyze instances/games/standard-winnable-4p.json
      hanabi-cp solve instances/hanablive-standard.json --rules live --players 3
      hanabi-cp solve instances/standard-winnable-h2.txt --hand 2
    """
