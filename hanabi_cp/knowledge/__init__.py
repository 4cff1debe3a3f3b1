"""What players of the hidden-information game know about their own cards.

Shared by the information, cheat and infobot strategies (``players.strategies``):

- ``cards``: card kinds as bits of a possibility table, the board's masks
  (playable, played, dead, dispensable), copy counts as bit planes (``Weights``);
- ``partition``: the information strategy's hint sets;
- ``possibilities``: the information strategy's public tables and their updates;
- ``modular``: packing answers of varying size into one number (infobot's hat sum);
- ``questions``: infobot's questions about a hand and the rule that picks them;
- ``common``: infobot's common knowledge and its updates.
"""
