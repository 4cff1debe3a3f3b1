"""Play sequences (certificates) as text or JSON.

Text: the actions in deck order, as letters ``P S D`` (``PSSD`` or ``P S S D``) or
words ``play store discard``, any case, across any number of lines; ``#`` starts a
comment.  The output of ``hanabi-cp solve --certificate -`` reads as is: lines
starting with ``c`` are comments, ``s WINNABLE`` is skipped (another status is an
error) and a leading ``v`` is dropped.  JSON: an object whose ``"plays"`` is a string of letters (or a list of
letters/words); other keys (status, method, ...) are allowed and ignored.
"""

from __future__ import annotations

import json
from itertools import chain

from ..core.errors import InputError
from ..runtime.limits import echo
from .play_sequence import ACTIONS, PlaySequence, parse_action
from ..core.status import Status
from ..io.decks import format_of, looks_like_json
from ..io.jsonpos import describe, line_of, load_json
from ..io.textio import display_name, read_text, text_lines, token_runs
from ..io.outputs import write_text

_LETTERS = frozenset("PSDpsd")
EXPECTED_ACTION = "an action P, S, D (or play, store, discard)"
STATUSES = tuple(s.value for s in Status)


def _token_actions(token: str) -> str | None:
    action = parse_action(token)
    if action is not None:
        return action
    if _LETTERS.issuperset(token):
        return token.upper()
    return None


def parse_plays_text(text: str, path: str = "<string>") -> PlaySequence:
    """Parse the text format; a file with only comments is the empty sequence.

    >>> str(parse_plays_text("# certificate\\nPSS d\\nplay Discard"))
    'PSSDPD'
    >>> str(parse_plays_text("c method: dp\\ns WINNABLE\\nv PSSD\\n"))
    'PSSD'
    """
    if not text.strip():
        raise InputError(path, None, "a play sequence (P, S, D)", "an empty file")
    out = []
    for lineno, line in enumerate(text_lines(text), start=1):
        runs = token_runs(line.split("#", 1)[0], "reading the play sequence")
        tokens = next(runs)
        # `solve` output (SAT-competition style): `c` comments, an `s` status, `v` actions
        if tokens and tokens[0] == "c":
            continue
        if len(tokens) == 2 and tokens[0] == "s" and tokens[1] in STATUSES:
            if tokens[1] != Status.WINNABLE.value:
                raise InputError(path, lineno, "the certificate of a winnable deck",
                                 echo(" ".join(tokens)))
            continue
        if tokens and tokens[0] == "v":
            tokens = tokens[1:]
        for token in chain.from_iterable(chain((tokens,), runs)):
            actions = _token_actions(token)
            if actions is None:
                raise InputError(path, lineno, EXPECTED_ACTION, echo(token))
            out.append(actions)
    return PlaySequence("".join(out))


def parse_plays_json(text: str, path: str = "<string>") -> PlaySequence:
    """Parse ``{"plays": "PSD..."}`` (other keys ignored).

    >>> str(parse_plays_json('{"status": "winnable", "plays": "PSD"}'))
    'PSD'
    """
    data = load_json(text, path, "the play sequence")
    if not isinstance(data, dict) or "plays" not in data:
        raise InputError(path, line_of(text, ()), 'a JSON object with "plays"', describe(data))
    plays = data["plays"]
    if isinstance(plays, str):
        bad = set(plays) - _LETTERS - set(" \t\r\n")
        if bad:
            raise InputError(path, line_of(text, ("plays",)), f'"plays": letters {", ".join(ACTIONS)}',
                             echo(sorted(bad)[0]))
        return PlaySequence("".join(plays.split()).upper())
    if isinstance(plays, list):
        out = []
        for i, token in enumerate(plays):
            action = parse_action(token) if isinstance(token, str) else None
            if action is None:
                raise InputError(path, line_of(text, ("plays", i)),
                                 f"action #{i + 1} as {EXPECTED_ACTION}", describe(token))
            out.append(action)
        return PlaySequence("".join(out))
    raise InputError(path, line_of(text, ("plays",)), '"plays": a string of P, S, D or a list',
                     describe(plays))


def parse_plays(text: str, path: str = "<string>") -> PlaySequence:
    """Text or JSON, told apart by the first character."""
    return (parse_plays_json if looks_like_json(text) else parse_plays_text)(text, path)


def plays_given(arg: str) -> PlaySequence:
    """A play sequence given on a command line: letters (``SPPP``), or the path of a
    file (``-`` = stdin) that ``read_plays`` reads; an existing file wins.

    >>> plays_given("sppp").actions
    'SPPP'
    """
    import os
    if arg != "-" and not os.path.exists(arg) and arg and _LETTERS.issuperset(arg):
        return PlaySequence(arg.upper())
    return read_plays(arg)


def read_plays(path: str) -> PlaySequence:
    """Read a play sequence file (``-`` = stdin), text or JSON.

    >>> read_plays("missing.plays")
    Traceback (most recent call last):
    ...
    hanabi_cp.core.errors.InputError: missing.plays: expected an existing file, found nothing
    """
    return parse_plays(read_text(path, "the play sequence"), display_name(path))


def plays_to_text(plays: PlaySequence) -> str:
    """One line of letters; the empty sequence is a comment so that it reads back.

    >>> plays_to_text(PlaySequence("PSD"))
    'PSD\\n'
    """
    return f"{plays.actions}\n" if plays.actions else "# no actions (an empty deck)\n"


def plays_to_json(plays: PlaySequence) -> str:
    """``{"plays": "..."}``.

    >>> plays_to_json(PlaySequence("PSD"))
    '{"plays": "PSD"}\\n'
    """
    return json.dumps({"plays": plays.actions}, sort_keys=True) + "\n"


def write_plays(path: str, plays: PlaySequence, fmt: str | None = None,
                force: bool = False) -> None:
    """Write a play sequence (``-`` = stdout); JSON for ``.json`` paths unless ``fmt`` says.

    >>> write_plays("-", PlaySequence("PSSD"), fmt="json")
    {"plays": "PSSD"}
    """
    render = plays_to_json if format_of(path, fmt) == "json" else plays_to_text
    write_text(path, render(plays), force)
