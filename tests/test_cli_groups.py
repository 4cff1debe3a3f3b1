"""Every command group answers an unknown subcommand with one line and exit 2."""

import subprocess
import sys

import click
import pytest

from hanabi_cp.cli import main


def _groups(group: click.Group, path: tuple[str, ...] = ()):
    yield path
    for name in group.list_commands(None):       # the commands of its table too
        cmd = group.get_command(None, name)
        if isinstance(cmd, click.Group):
            yield from _groups(cmd, (*path, name))


@pytest.mark.parametrize("path", list(_groups(main)), ids=lambda p: " ".join(p) or "root")
def test_unknown_subcommand_is_one_line(path):
    proc = subprocess.run([sys.executable, "-m", "hanabi_cp", *path, "nosuch"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("hanabi-cp: error: ") and "nosuch" in lines[0]
