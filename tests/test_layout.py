"""The layout the architecture promises: encoders only build, so importing one loads
neither the method registry nor any method; every method lives in hanabi_cp/methods/."""

import json
import pkgutil
import subprocess
import sys

import hanabi_cp.encoders
from hanabi_cp import solvers


def test_encoders_import_no_method_and_not_the_registry():
    names = [f"hanabi_cp.encoders.{m.name}" for m in pkgutil.iter_modules(hanabi_cp.encoders.__path__)]
    assert {"hanabi_cp.encoders.cnf", "hanabi_cp.encoders.cpsat"} <= set(names)
    code = ("import importlib, json, sys\n"
            f"for name in {names!r}: importlib.import_module(name)\n"
            "print(json.dumps(sorted(sys.modules)))")
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                       text=True, check=True).stdout)
    assert [m for m in loaded if m == "hanabi_cp.solvers" or m.startswith("hanabi_cp.methods")] == []


def test_every_method_is_a_module_of_the_methods_package():
    assert [module for _, module in solvers.METHODS] == [f"hanabi_cp.methods.{name}"
                                                           for name, _ in solvers.METHODS]
    assert set(solvers.methods()) == {"greedy", "lazy", "dp", "search", "brute", "sat", "cpsat",
                                      "minizinc", "pb", "maxsat"}
