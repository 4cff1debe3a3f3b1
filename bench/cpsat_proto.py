"""CP-SAT on a model file, as a command line (the pip package ships no solver binary):

    python -m bench.cpsat_proto MODEL RESPONSE [--workers W] [--time-limit S]

MODEL is a CpModelProto (`hanabi-cp encode --format cpsat`: binary if it ends in .pb
or .bin, else text); RESPONSE gets the CpSolverResponse in the same kind, which
`hanabi-cp decode DECK RESPONSE --format cpsat` reads back.
"""

from __future__ import annotations

import argparse

BINARY = (".pb", ".bin", ".binpb")


def solve_file(argv=None) -> None:
    from google.protobuf import text_format
    from ortools.sat import cp_model_pb2
    from ortools.sat.python import cp_model
    ap = argparse.ArgumentParser(prog="python -m bench.cpsat_proto")
    ap.add_argument("model")
    ap.add_argument("response")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=None)
    args = ap.parse_args(argv)
    msg = cp_model_pb2.CpModelProto()
    if args.model.endswith(BINARY):
        with open(args.model, "rb") as f:
            msg.ParseFromString(f.read())
    else:
        with open(args.model, encoding="utf-8") as f:
            text_format.Parse(f.read(), msg)
    model = cp_model.CpModel()
    model.Proto().parse_text_format(text_format.MessageToString(msg))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = args.workers
    if args.time_limit is not None:
        solver.parameters.max_time_in_seconds = args.time_limit
    code = solver.solve(model)
    out = cp_model_pb2.CpSolverResponse()
    text_format.Parse(str(solver.response_proto), out)
    if args.response.endswith(BINARY):
        with open(args.response, "wb") as f:
            f.write(out.SerializeToString())
    else:
        with open(args.response, "w", encoding="utf-8") as f:
            f.write(text_format.MessageToString(out))
    print(f"s {solver.status_name(code)}  ({solver.wall_time:.3f} s)")


# Not ``main``: `python -m bench` runs every module's ``main`` as a benchmark.
if __name__ == "__main__":
    solve_file()
