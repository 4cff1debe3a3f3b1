"""What players of the hidden-information game know about their own cards.

Shared by the information, cheat and infobot strategies: the card space as bit
masks (``cards``), the hint-set partition of the information strategy
(``partition``), the hat-guessing arithmetic of mixed-radix answers
(``modular``) and infobot's questions about a hand (``questions``).
"""
