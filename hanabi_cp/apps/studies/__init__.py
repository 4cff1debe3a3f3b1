"""Empirical studies: seeded, resumable sweeps that write CSV rows and figures.

One module per study (``standard``, ``random_decks``, ``reduction``), each with
``run(csv_path, seed, count, ...)`` appending rows to a CSV, ``plot(rows, stem)``
writing ``stem``.png and ``stem``.svg from the rows, and ``summary(rows)`` for the
terminal; ``common`` holds the CSV, statistics and figure helpers.
"""
