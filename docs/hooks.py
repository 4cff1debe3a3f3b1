"""mkdocs hooks: load every command before mkdocs-click reads them.

The CLI's groups import a command's module only when it is first asked for
(``cli.common.TableGroup``), and mkdocs-click lists a group's subcommands from
``group.commands``, the ones loaded so far; so the reference would miss the
commands nothing has asked for yet.  ``load_all`` asks each group for every name
it lists, depth first.
"""

import click


def load_all(group: click.Group) -> list[str]:
    """Every command path below ``group``, each loaded (so in ``group.commands``)."""
    ctx = click.Context(group)
    paths = []
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if cmd is None:
            continue
        paths.append(name)
        if isinstance(cmd, click.Group):
            paths += [f"{name} {sub}" for sub in load_all(cmd)]
    return paths


def on_startup(command, dirty):
    from hanabi_cp.cli.main import main
    load_all(main)
