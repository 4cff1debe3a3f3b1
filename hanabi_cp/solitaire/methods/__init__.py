"""The decision methods, one module each: greedy, lazy, dp, search, brute (algorithms
over the deck), sat and cpsat (solvers over the models ``hanabi_cp.solitaire.encoders``
builds).  Each defines one ``method_registry.Method`` (its ``METHOD``) returning
``method_registry.Outcome``; ``method_registry.METHODS`` lists them in the order ``auto`` tries them."""
