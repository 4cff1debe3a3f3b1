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


def test_the_top_level_help_names_every_command_by_audience():
    """`hanabi-cp --help` says which command is for whom before the alphabetical
    list: the real games first (hanab.live's players, then AI researchers), then
    Solitaire Hanabi; every command is in a group."""
    import re

    proc = subprocess.run([sys.executable, "-m", "hanabi_cp", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    text = proc.stdout.split("\nOptions:")[0]
    groups = re.split(r"^  (?=\S.*:$)", text, flags=re.M)
    named = {g.splitlines()[0]: g for g in groups[1:]}
    headings = list(named)
    assert [h.split(" (")[0] for h in headings[:3]] == [
        "Players of hanab.live", "AI researchers", "SAT/CP researchers"], headings
    players, ai, sat = (named[h] for h in headings[:3])
    for name in ("analyze", "show", "verify", "solve", "play", "variants"):
        assert re.search(rf"^    {name} ", players, re.M), name
    assert "hanab.live/export/" in players
    assert re.search(r"^    hle ", ai, re.M)
    words = set(re.findall(r"[\w-]+", players + ai + sat))
    assert set(main.list_commands(None)) <= words, set(main.list_commands(None)) - words
