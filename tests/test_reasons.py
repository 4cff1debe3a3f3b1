"""Reasons name the caller's options: the library's keyword in the library, the
flag on the command line (status.Reason)."""

import pickle

import hanabi_cp as hc
from hanabi_cp.cli.main import main
from hanabi_cp.core.status import Reason
from click.testing import CliRunner

LOST = "instances/small-search-unwinnable-h1.txt"      # decided by the solver, not preprocessing


def test_an_unsat_without_proof_names_the_keyword_in_the_library_and_the_flag_in_the_cli():
    out = hc.solve(hc.read_deck(LOST), 1, method="sat")
    assert out.status is hc.Status.UNWINNABLE
    assert "use proof=FILE" in out.reason and "--proof" not in out.reason
    res = CliRunner().invoke(main, ["solve", LOST, "--hand", "1", "--method", "sat"])
    assert res.exit_code == 20 and "use --proof FILE)" in res.output


def test_a_reason_crosses_process_pools_whole():
    r = Reason("no proof requested; use {proof}", proof="proof=FILE")
    back = pickle.loads(pickle.dumps(r))
    assert back == r and back.text({"proof": "--proof FILE"}) == "no proof requested; use --proof FILE"
