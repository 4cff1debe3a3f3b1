"""Root click group.  User mistakes (HanabiError) become one line on stderr and
exit code 2; anything else is a bug and keeps its traceback."""

from __future__ import annotations

import importlib
import sys

import click

from .. import __version__
from ..errors import HanabiError

# Each module defines click commands and a ``COMMANDS`` list of them.
_COMMAND_MODULES = (
)


class _Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except HanabiError as exc:
            click.echo(f"hanabi-cp: error: {exc}", err=True)
            sys.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="hanabi-cp")
def main() -> None:
    """Decide, encode and reduce Solitaire Hanabi with checked certificates.

    \b
    Example:
      hanabi-cp solve instances/standard-winnable-h2.txt --hand 2
    """


for _mod in _COMMAND_MODULES:
    for _cmd in importlib.import_module(f"hanabi_cp.cli.{_mod}").COMMANDS:
        main.add_command(_cmd)
