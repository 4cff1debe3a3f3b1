"""``encode --format F`` and ``decode --format F`` for every format but DIMACS (whose
path in cli/encode.py is unchanged): files out through ``exports.export``, a
solver's answer back through ``exports.read``, verdicts as ``solve`` prints them."""

from __future__ import annotations

import click

from ..core.errors import LimitError, UsageError
from ..runtime.limits import effective_hand
from ..core.status import Status
from ..io.outputs import check_outputs, provenance
from ..io.textio import display_name
from .common import deck_summary, load_instance, write_plays_to


def encode_other(deck: str, hand, output: str, varmap, fmt: str, maximize: bool, data,
                 force: bool) -> None:
    from ..solitaire.exports import binary, export, mzn_data_path, varmap_text
    from ..io.outputs import open_output, write_texts
    if data is not None and fmt != "mzn":
        raise UsageError("encode: --data goes with --format mzn")
    if fmt == "mzn" and varmap is not None:
        raise UsageError("encode: --format mzn has no variable map (its output names the "
                         "chosen positions)")
    if fmt == "mzn" and data is None:
        data = mzn_data_path(output)
    binary_proto = fmt == "cpsat" and binary(output)
    if binary_proto and output == "-":
        raise UsageError("encode: a binary proto needs -o FILE")
    check_outputs("encode", {"-o": output, "--data": data, "--varmap": varmap}, force,
                  {"DECK": deck})
    the_deck, h = load_instance(deck, hand)
    argv = ["hanabi-cp", "encode", deck, "--hand", h, "--format", fmt] + \
        (["--maximize"] if maximize else [])
    comments = [*provenance(f"encode --format {fmt}: "
                            + ("the largest score" if maximize or fmt == "wcnf" else
                               "winnable iff the model has a solution"), argv)]
    try:
        made = export(fmt, the_deck, effective_hand(h, the_deck.N), maximize, comments,
                      binary_proto)
    except LimitError as exc:
        model = f"--format {fmt}" + (" --maximize" if maximize else "")
        raise LimitError(f"{display_name(deck)}: {exc}: {model} needs the score model; "
                         "--format dimacs or cpsat encode this deck") from None
    placed = made.placed(output, data)
    files = [(path, text) for path, text in placed if isinstance(text, str)]
    if varmap is not None:
        files.append((varmap, varmap_text(made.varmap, varmap)))
    for path, proto in placed:
        if isinstance(proto, bytes):
            with open_output(path, force, binary=True) as f:
                f.write(proto)
    write_texts(files, force)
    note = click.echo if output != "-" else (lambda s: click.echo(s, err=True))
    if made.status is Status.UNWINNABLE:
        note(f"c preprocessing proved UNWINNABLE ({made.reason}); the model has no solution")
    if output != "-":
        where = output + (f" and {data}" if data else "")
        note(f"c wrote {made.summary} ({fmt}) to {where}")


def decode_other(deck: str, model: str, hand, certificate: str, fmt: str, maximize: bool,
                 force: bool, as_json: bool = False) -> int:
    """Print the verdict of a solver's answer; the exit code (10, 20 or 0)."""
    from ..solitaire.answers import read_file
    check_outputs("decode", {"--certificate": certificate}, force, {"DECK": deck, "MODEL": model})
    the_deck, h = load_instance(deck, hand)
    verdict = read_file(fmt, the_deck, effective_hand(h, the_deck.N), maximize, model)
    return report(the_deck, h, verdict, as_json, certificate, force)


def report(deck, h, verdict, as_json: bool, certificate: str, force: bool) -> int:
    """Print a decoded verdict (text or JSON), write its certificate; the exit code."""
    from .common import echo_json
    if as_json:
        echo_json(verdict.to_json(deck, h))
        if certificate != "-" and verdict.plays is not None:
            from ..solitaire.play_text import write_plays
            write_plays(certificate, verdict.plays, force=force)
    else:
        click.echo(f"c deck: {deck_summary(deck)}; hand size h = {h}")
        click.echo(f"s {verdict.status.value}")
        if verdict.reason and verdict.status is not Status.WINNABLE:
            click.echo(f"c reason: {verdict.reason}")
        if verdict.claim:
            click.echo(f"c claim: {verdict.claim}")
        if verdict.score is not None:
            click.echo(f"c score: {verdict.score} of {deck.target}")
        if verdict.plays is not None:
            click.echo("c certificate verified by the referee")
            write_plays_to(certificate, verdict.plays, force)
    return verdict.status.exit_code
