"""One module per strategy; each registers its class with ``players.strategy.register``."""
