"""Solitaire Hanabi, the wing of the papers: one player who knows the whole deck,
hand size h, a win when every card is played.

``referee`` replays a play sequence, ``preprocessing`` holds the deck's facts every
method shares, ``encoders/`` build the CNF, CP-SAT, MiniZinc and PB models,
``methods/`` are the decision methods (one registry, ``solve``), ``reduction/`` is
the NP-hardness proof's reduction from 3-SAT, ``answers`` and ``exports`` carry a
deck to other solvers and their answers back."""
