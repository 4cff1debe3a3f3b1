"""What both wings ask of SAT solvers and other solvers' files: the CaDiCaL session
(``sat_backend``), DRUP proofs (``proofs``), CNF formulas (``formula``), and each
external format with its one reader of answers (``dimacs``, ``pbformats``)."""
