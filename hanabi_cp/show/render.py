"""A scene (or a real game) as the bytes of an SVG, PNG or HTML file, and writing
them safely."""

from __future__ import annotations

import io
import os
from collections.abc import Callable

from ..core.errors import InvalidParameter
from .scene import Scene

TYPE_CHECKING = False             # (typing is not imported for it: see hanabi_cp/__init__.py)
if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .game import GameView

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
    return picture(draw, scene, fmt)


def render_game(view: GameView, fmt: str) -> bytes:
    """A real game's post-mortem: the points over the turns, or the HTML replay."""
    if fmt == ".html":
        from .game_html import page
        return page(view).encode("utf-8")
    from .game_figure import draw as draw_game
    return picture(draw_game, view, fmt)


def picture(draw_figure: Callable[..., Figure], what: object, fmt: str) -> bytes:
    """The SVG or PNG bytes of ``draw_figure(what)``."""
    import matplotlib
    buf = io.BytesIO()
    # SVG text stays text (searchable, small); a fixed salt gives the same ids each run.
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "hanabi-cp"}):
        draw_figure(what).savefig(buf, format=fmt[1:], dpi=DPI, metadata=_metadata(fmt))
    return buf.getvalue()


def _metadata(fmt: str) -> dict:
    # Fixed metadata: the same scene gives the same bytes (no creation date in SVG).
    return {"Date": None} if fmt == ".svg" else {}


def write_bytes(path: str, data: bytes, force: bool) -> None:
    """Write ``data`` to ``path`` through a temporary file renamed into place, so a
    failure never leaves half a picture; never overwrite without ``force``."""
    from ..io.outputs import open_output
    with open_output(path, force, binary=True) as f:
        f.write(data)
