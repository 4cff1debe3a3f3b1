"""What ``solve --proof FILE`` writes and says: the files it names, and the
``c proof:`` line (or why no proof was written), for both rule sets."""

from __future__ import annotations

import os

import click

from ..core.errors import FileError
from ..io.outputs import check_folder, refuse_folder_name
from ..core.status import Status
from ..solvers.proofs import check_proof_path, cnf_path_for


def proof_outputs(proof: str | None, certificate: str | None) -> dict[str, str | None]:
    """The files ``solve`` writes, by the option that names them (``check_outputs``);
    a proof path that is a device is refused here, before any work."""
    if proof not in (None, "-"):
        check_proof_path(proof)
    return {"--proof": proof, "--proof's CNF": None if proof is None else cnf_path_for(proof),
            "--certificate": certificate}


def bundle_target(proof: str, force: bool, bundle: bool) -> None:
    """Refuse a ``--proof`` path the answer cannot be written to: in Up or Down and
    Sudoku a folder of proofs (new, empty, or an older bundle with --force: never a
    folder holding other files), elsewhere a file (never a folder)."""
    if not bundle:
        if os.path.isdir(proof):
            raise FileError(f"{proof}: cannot write: it is a directory")
        refuse_folder_name(proof)
        return                      # a file: ``check_outputs`` has checked it
    if not os.path.isdir(proof):
        if proof.endswith(("/", os.sep)):       # not checked with the other outputs
            check_folder(os.path.dirname(os.path.abspath(proof.rstrip("/" + os.sep))),
                         False, proof)
        return
    if not os.listdir(proof):
        return
    from ..real.plan_proofs import MANIFEST, read_manifest
    if not os.path.isfile(os.path.join(proof, MANIFEST)):
        raise FileError(f"{proof}: a folder that holds other files; --proof writes its "
                        f"proofs to a new folder (or replaces a proof bundle, with --force)")
    read_manifest(proof)
    if not force:
        raise FileError(f"{proof}: refusing to overwrite an existing proof bundle; use "
                        f"{{force}}", force="--force")


def echo_proof(out, proof: str | None) -> None:
    """The ``c proof:`` line of an answer, or why no proof was written (with --proof)."""
    if proof is None:
        return
    if out.stats.get("proof_bundle"):
        click.echo(f"c proof: {out.stats['proof']} (a folder; {out.stats['proof_bundle']})")
    elif out.stats.get("proof"):
        checked = "checked by drup" if out.stats.get("proof_checked") else "NOT checked"
        click.echo(f"c proof: {out.stats['proof']} ({checked}; for the CNF "
                   f"{out.stats.get('proof_cnf', cnf_path_for(proof))})")
    else:
        click.echo(f"c no proof written: {no_proof(out)}")


def no_proof(out) -> str:
    if out.status is Status.WINNABLE:
        return "the deck is winnable (the certificate is the evidence)"
    if out.status is Status.UNKNOWN:
        return "undecided (a time-out leaves no proof file behind)" if \
            (out.reason or "").startswith(("time limit", "proof check")) else "undecided"
    tried = out.stats.get("proof_attempt")
    if tried:
        return f"the SAT method's proof: {tried}; the reason above is the evidence"
    return f"method {out.method} did not need a SAT call or cannot write proofs; " \
           "the reason above is its evidence"
