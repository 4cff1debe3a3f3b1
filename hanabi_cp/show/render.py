"""A scene as the bytes of an SVG, PNG or HTML file, and writing them safely."""

from __future__ import annotations

import io
import os

from ..errors import InvalidParameter
from .scene import Scene

FORMATS = (".svg", ".png", ".html")
DPI = 110


def format_of(path: str) -> str:
    """The picture format named by the extension of ``path``.

    >>> format_of("fig.SVG"), format_of("replay.html")
    ('.svg', '.html')
    """
    ext = os.path.splitext(path)[1].lower()
    if ext == ".htm":
        return ".html"
    if ext not in FORMATS:
        raise InvalidParameter(f"{path}: cannot tell the picture format from {ext or 'no extension'!r}; "
                          "name the output .svg, .png or .html")
    return ext


def draw(scene: Scene):
    """The matplotlib figure: card by card, or aggregated above ``DETAIL_MAX`` cards."""
    from . import density, figure
    return (figure if scene.width <= figure.DETAIL_MAX else density).draw(scene)


def render(scene: Scene, fmt: str) -> bytes:
    if fmt == ".html":
        from .html import page
        return page(scene).encode("utf-8")
    import matplotlib
    buf = io.BytesIO()
    # SVG text stays text (searchable, small); a fixed salt gives the same ids each run.
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "hanabi-cp"}):
        draw(scene).savefig(buf, format=fmt[1:], dpi=DPI, metadata=_metadata(fmt))
    return buf.getvalue()


def _metadata(fmt: str) -> dict:
    # Fixed metadata: the same scene gives the same bytes (no creation date in SVG).
    return {"Date": None} if fmt == ".svg" else {}


def write_bytes(path: str, data: bytes, force: bool) -> None:
    """Write ``data`` to ``path`` through a temporary file renamed into place, so a
    failure never leaves half a picture; never overwrite without ``force``."""
    from ..formats.outputs import open_output
    with open_output(path, force, binary=True) as f:
        f.write(data)
