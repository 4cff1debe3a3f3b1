"""Hidden-information Hanabi: strategies that do not see their own cards, played
under the real rules and refereed by ``hanabi_cp.real.referee`` (see ``game``,
``view`` and ``strategy``; the strategies are in ``players.strategies``)."""
