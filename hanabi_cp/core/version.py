"""The version of hanabi-cp and the program's name, in one small module that
imports nothing: the package root re-exports ``__version__``, pyproject.toml reads
it, and every file, CSV row and report that records a version imports it from here."""

__version__ = "0.1.0"

PROG = "hanabi-cp"
