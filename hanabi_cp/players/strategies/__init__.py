"""One module per strategy; ``players.strategy.STRATEGIES`` names each one's class."""
