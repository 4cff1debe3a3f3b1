"""Real-rules methods, one module each: brute (every move, on the referee), search
(depth-first with bounds), sat and cpsat (solvers over the models
``hanabi_cp.real.encoders`` builds).  Each module defines one ``core.methods.Method``
as ``METHOD``, returning ``real.solve.LiveOutcome``; ``METHODS`` below lists them.
To add one, copy TEMPLATE.py (its docstring says how).
"""

from __future__ import annotations

from ...core.methods import Method, Methods

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..solve import LiveOutcome

# Every real-rules method and where it is (its module's METHOD), imported on first
# use; the order is the listings'.  The order ``auto`` runs them in is
# ``real.solve.AUTO_ORDER``.
METHODS: Methods[LiveOutcome] = Methods("real-rules method", [
    ("brute", "hanabi_cp.real.methods.brute:METHOD"),
    ("cpsat", "hanabi_cp.real.methods.cpsat:METHOD"),
    ("sat", "hanabi_cp.real.methods.sat:METHOD"),
    ("search", "hanabi_cp.real.methods.search:METHOD"),
])

__all__ = ["METHODS", "Method", "search_core"]


def search_core():
    """The search module: its compiled copy when one was built from the current
    source (``runtime.compiled``), else the source itself."""
    from ...runtime.compiled import load
    from . import search
    return load(search.__name__, search.__file__) or search
