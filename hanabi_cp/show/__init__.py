"""Pictures of decks and play sequences, and of real games: ``hanabi-cp show``.

``timeline`` replays a play sequence as the referee does and keeps what a picture
needs (holds, hand occupancy, pile rises); ``scene`` gathers what is shown (deck,
roles, window, timeline, verdict and the loss ``witness``); ``figure`` draws a
window card by card and ``density`` aggregates a wide one (matplotlib, SVG or PNG);
``html`` writes the self-contained step-through replay; ``render`` picks the format
from the file name and writes the bytes.

A real game: ``game`` gathers the game and its post-mortem; ``game_figure`` draws
the points over the turns (matplotlib); ``game_html`` writes its replay, with
``game_chart`` (the chart as inline SVG) and ``suit_colors`` (hanab.live's suits as
tile colours).
"""
