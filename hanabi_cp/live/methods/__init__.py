"""Real-rules methods: every module here defines one as ``METHOD``, named in
``live.solve.LIVE_METHODS``."""
