"""Real Hanabi: the hanab.live "No Variant" rules with open hands (every player sees
every card), for the players' question "could this shuffle have been won at all?".

``rules`` holds the parameters (players, hand size, clue tokens, strikes),
``actions`` the moves in hanab.live's numbering, ``referee`` replays a list of moves
and names the first illegal one.  Every method that claims a score is checked by
the referee, as the solitaire methods are by ``hanabi_cp.solitaire.referee``.
"""
