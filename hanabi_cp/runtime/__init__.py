"""How commands run: one deadline, signals, size guards, worker pools."""
