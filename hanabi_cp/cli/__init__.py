"""The ``hanabi-cp`` command line: one root group, one module per command family."""

from .main import main

__all__ = ["main"]
