"""Games of other Hanabi engines in hanabi-cp's form (``hle``: DeepMind's Hanabi
Learning Environment), so that the referee, the bound and the post-mortem judge them."""
