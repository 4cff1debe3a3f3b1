"""hanab.live's variants: the catalogue of every variant (``catalogue``), built from
its suits (``suits``) and families (``families``); how clues touch cards
(``clue_rules``), how piles grow and score in Up or Down and Sudoku (``pile_rules``,
``pile_score``), and how two variants differ (``diff``)."""
