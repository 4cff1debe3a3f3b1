"""mkdocs hooks: load every command before mkdocs-click reads them, and keep the
help's unwrapped paragraphs as they print.

The CLI's groups import a command's module only when it is first asked for
(``cli.common.TableGroup``), and mkdocs-click lists a group's subcommands from
``group.commands``, the ones loaded so far; so the reference would miss the
commands nothing has asked for yet.  ``load_all`` asks each group for every name
it lists, depth first.

A help text marks a paragraph that must not be rewrapped (a list of commands, the
examples) with click's ``\\b`` line; mkdocs-click drops that line and hands the
paragraph to Markdown, which joined its lines into one run of prose.
``unwrapped_as_code`` gives each such paragraph to Markdown as a text block.

The notes in ``encodings/`` are read in two places: on the site (``docs/encodings``
is a link to them) and in the repository.  They link to a manual page as
``../docs/PAGE.md``, the path from the repository's ``encodings/``;
``on_page_markdown`` rewrites it to ``../PAGE.md``, the path on the site.
"""

import inspect
from collections.abc import Iterator

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


def unwrapped_as_code(help_text: str) -> Iterator[str]:
    """The Markdown lines of a click help text, each ``\\b`` paragraph fenced."""
    lines = inspect.cleandoc(help_text).splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() != "\b":
            yield lines[i]
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip():
            j += 1
        yield "```text"
        yield from lines[i + 1:j]
        yield "```"
        i = j


def _description(ctx: click.Context, remove_ascii_art: bool = False) -> Iterator[str]:
    help_text = ctx.command.help or ctx.command.short_help
    if help_text:
        yield from unwrapped_as_code(help_text)
        yield ""


def on_page_markdown(markdown, page, config, files):
    if page.file.src_uri.startswith("encodings/"):
        return markdown.replace("](../docs/", "](../")
    return markdown


def on_startup(command, dirty):
    from mkdocs_click import _docs

    from hanabi_cp.cli.main import main
    load_all(main)
    _docs._make_description = _description
