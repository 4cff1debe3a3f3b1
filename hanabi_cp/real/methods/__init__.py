"""Real-rules methods: every module here defines one as ``METHOD``, named in
``live.solve.LIVE_METHODS``."""


def search_core():
    """The search module: its compiled copy when one was built from the current
    source (``runtime.compiled``), else the source itself."""
    from ...runtime.compiled import load
    from . import search
    return load(search.__name__, search.__file__) or search
