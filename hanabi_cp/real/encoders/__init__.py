"""The real-rules models for SAT and CP-SAT: a game from a position as clauses
(``cnf``, its hands in ``cnf_hands``) or as a CP-SAT model (``cpsat``,
``cpsat_hands``), both over the turn schedule of ``schedule``; ``plans`` fixes
a pile plan for the variants whose piles choose their order (Up or Down, Sudoku),
``pile_needs`` says when a pile still needs a card."""
