"""Empirical studies: seeded, resumable sweeps that write CSV rows and figures.

One module per study (``standard``, ``random_decks``, ``reduction``, ``live``,
``hard``, ``hle_agents``, ``strategies``), each with ``run(csv_path, seed, ...)``
appending rows to a CSV, ``plot(rows, stem)`` writing ``stem``.png and ``stem``.svg
from the rows, and ``summary(rows)`` for the terminal; ``catalogue`` holds each as
an object (``hc.study(NAME)``) that also picks the rows of one sweep, in the one
table of studies; ``common`` holds the CSV, statistics and figure helpers.
"""
