"""A study's figures are outputs derived from its CSV, and say so inside.

Each figure (``STEM.png`` and ``STEM.svg``) carries the line ``drawn by hanabi-cp
study from CSV`` (the CSV's path relative to the figure's folder, so that moving
or cloning both keeps it true) as its description (a PNG text chunk, the SVG's
``dc:description``).  An existing figure that says it was drawn from the same
CSV is redrawn freely, so rerunning a study to resume or enlarge it just works; any
other existing file at those paths is kept unless ``--force``.  Both files are
written to temporary files and renamed together.

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> csv = os.path.join(d, "s.csv")
>>> fig, _ = panels(1, 1, (2, 2))
>>> [os.path.basename(p) for p in save_figure(fig, os.path.join(d, "s"), csv)]
['s.png', 's.svg']
>>> [drawn_from(os.path.join(d, f"s.{ext}"), csv, os.path.join(d, "s")) for ext in EXTENSIONS]
[True, True]
>>> check_figures(os.path.join(d, "s"), os.path.join(d, "other.csv"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hanabi_cp.core.errors.FileError: .../s.png: refusing to overwrite a figure not drawn from .../other.csv; use force=True
"""

from __future__ import annotations

import os
from xml.sax.saxutils import escape

from ...core.errors import FileError
from ...io.outputs import open_outputs
from ...io.textio import printable

EXTENSIONS = ("png", "svg")
_PNG = b"\x89PNG\r\n\x1a\n"


def default_stem(csv_path: str) -> str:
    """The figure's stem when none is given: the CSV's path without ``.csv``."""
    base, ext = os.path.splitext(csv_path)
    return base if ext.lower() == ".csv" else csv_path


def figure_paths(stem: str) -> list[str]:
    return [f"{stem}.{ext}" for ext in EXTENSIONS]


def description(csv_path: str | None, stem: str) -> str | None:
    if csv_path is None:
        return None
    folder = os.path.dirname(os.path.realpath(stem))
    source = os.path.relpath(os.path.realpath(csv_path), folder)
    return f"drawn by hanabi-cp study from {printable(source)}"


def check_figures(stem: str, csv_path: str | None, force: bool = False) -> None:
    """Raise unless each figure path is free, a figure of ``csv_path``, or ``force``."""
    for path in figure_paths(stem):
        if os.path.isdir(path):
            raise FileError(f"{path}: cannot write: it is a directory")
        if not force and os.path.exists(path) and not drawn_from(path, csv_path, stem):
            source = "a CSV" if csv_path is None else csv_path
            raise FileError(f"{path}: refusing to overwrite a figure not drawn from {source}; "
                            "use {force}", force="force=True")


def drawn_from(path: str, csv_path: str | None, stem: str) -> bool:
    """Does the figure at ``path`` (of ``stem``) say it was drawn from ``csv_path``?"""
    text = description(csv_path, stem)
    if text is None:
        return False
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return False
    if data.startswith(_PNG):
        return _png_texts(data).get("Description") == text
    return f"<dc:description>{escape(text)}</dc:description>".encode() in data


def _png_texts(data: bytes) -> dict[str, str]:
    """The tEXt / iTXt (uncompressed) chunks of a PNG file."""
    out, pos = {}, len(_PNG)
    while pos + 8 <= len(data):
        size = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + size]
        if kind == b"tEXt":
            key, _, value = body.partition(b"\0")
            out[key.decode("latin-1")] = value.decode("latin-1")
        elif kind == b"iTXt":
            key, _, rest = body.partition(b"\0")
            if rest[:1] == b"\0":       # not compressed
                _, _, rest = rest[2:].partition(b"\0")     # language tag
                _, _, value = rest.partition(b"\0")        # translated keyword
                out[key.decode("latin-1")] = value.decode("utf-8", "replace")
        elif kind == b"IEND":
            break
        pos += 12 + size
    return out


def panels(nrows: int, ncols: int, size):
    """A new Agg figure with a flat list of nrows x ncols axes."""
    import matplotlib
    matplotlib.use("Agg")
    # A fixed salt makes the SVG element ids, hence the files, reproducible.
    matplotlib.rcParams["svg.hashsalt"] = "hanabi-cp"
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(nrows, ncols, figsize=size, squeeze=False)
    return fig, [a for row in axes for a in row]


def save_figure(fig, stem: str, csv_path: str | None = None, force: bool = False) -> list[str]:
    """Write ``stem``.png and ``stem``.svg, marked as drawn from ``csv_path``; returns the
    paths.  Neither format carries a timestamp, so the same data gives the same files."""
    import matplotlib.pyplot as plt

    check_figures(stem, csv_path, force)
    paths = figure_paths(stem)
    os.makedirs(os.path.dirname(os.path.abspath(stem)), exist_ok=True)
    fig.tight_layout()
    text = description(csv_path, stem)
    metadata = {"png": {"Software": None, "Description": text},
                "svg": {"Date": None, "Description": text}}
    with open_outputs(paths, force=True, binary=True) as streams:
        for ext, stream in zip(EXTENSIONS, streams):
            extra = {"dpi": 110} if ext == "png" else {}
            fig.savefig(stream, format=ext, metadata=metadata[ext], **extra)
    plt.close(fig)
    return paths
