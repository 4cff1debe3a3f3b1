"""Cross-checking every method against every other, with counterexample shrinking.

``space`` draws seeded random instances, ``check`` runs the methods on one and
compares them, ``shrink`` minimises a failing instance, ``runner`` is the loop the
``hanabi-cp harness`` command drives, and ``roundtrip`` checks CNF formulas
through the reduction against a SAT solver on the formula.  ``live_space`` and
``live`` do the same for the real-rules methods (``harness --rules live``), with
journal §5.1 as a property.
"""

from .check import Check, Result, problems, run_check
from .runner import (Failure, Report, Tally, cross_check, failure_text, parse_sample, select_checks, summary_table,
                     write_failure)
from .shrink import Shrunk, shrink
from .space import Instance, Space

__all__ = ["Check", "Result", "problems", "run_check", "Failure", "Report", "Tally",
           "cross_check", "failure_text", "parse_sample", "select_checks", "summary_table",
           "write_failure", "Shrunk", "shrink", "Instance", "Space"]
