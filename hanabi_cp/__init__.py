"""hanabi-cp: a SAT/CP-backed verifier for the complexity of Solitaire Hanabi."""

__version__ = "0.1.0"
