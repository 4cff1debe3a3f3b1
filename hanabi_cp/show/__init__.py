"""Pictures of decks and play sequences: ``hanabi-cp show``.

``timeline`` replays a play sequence as the referee does and keeps what a picture
needs (holds, hand occupancy, pile rises); ``scene`` gathers what is shown (deck,
roles, window, timeline, verdict and the loss ``witness``); ``figure`` draws a
window card by card and ``density`` aggregates a wide one (matplotlib, SVG or PNG);
``html`` writes the self-contained step-through replay; ``render`` picks the format
from the file name and writes the bytes.
"""
