"""The post-mortem of a real game: the best score after every action (``report``),
why it fell (``drop_reasons``), what would have kept it (``alternatives``) and
whether the player could have seen it (``hidden_knowledge``)."""
