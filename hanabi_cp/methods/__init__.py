"""The decision methods, one module each: greedy, lazy, dp, search, brute (algorithms
over the deck), sat and cpsat (solvers over the models ``hanabi_cp.encoders``
builds).  Each defines one ``solvers.Method`` (its ``METHOD``) returning
``solvers.Outcome``; ``solvers.METHODS`` lists them in the order ``auto`` tries them."""
