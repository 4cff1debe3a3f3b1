"""Moved to ``hanabi_cp.analysis`` (it serves the algorithms as much as the encoders);
the names stay importable from here.  To patch what ``analyse`` uses, patch
``hanabi_cp.analysis``."""

from ..analysis import CHAIN_CAP, NEVER, PHASE, Windows, _chain_overflows, analyse

__all__ = ["CHAIN_CAP", "NEVER", "PHASE", "Windows", "_chain_overflows", "analyse"]
