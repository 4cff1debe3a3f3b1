"""Real-rules methods: every module here registers one with ``live.solve.register``."""
