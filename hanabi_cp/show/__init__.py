"""Pictures of decks and play sequences: ``hanabi-cp show``.

``scene`` gathers what is shown (deck, roles, window, the referee's timeline of a
play sequence, the verdict); ``figure`` draws a window card by card and ``density``
aggregates a wide one (both matplotlib, SVG or PNG); ``html`` writes the
self-contained step-through replay.
"""
