"""Moved to ``hanabi_cp.analysis`` (it serves the algorithms as much as the encoders).

This name stays an alias of that module, not a copy: ``import
hanabi_cp.encoders.windows as W`` gives the module itself, so patching ``W`` patches
what ``analyse`` uses.
"""

import sys

from .. import analysis

sys.modules[__name__] = analysis
