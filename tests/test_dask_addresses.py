"""Cluster addresses: a malformed ``--dask`` address is refused at once, before dask is
imported; one where something accepts the connection but never answers is refused
once the handshake's bound (HANDSHAKE_SECONDS) passes.  One error line, exit code 2,
no "Exception ignored" from a half-built client.
"""

from __future__ import annotations

import socket
import threading

import pytest

from capped import assert_one_line_error, capped, cli_capped, invoke, needs_fork
from hanabi_cp.runtime import executors
from hanabi_cp.core.errors import InvalidParameter
from hanabi_cp.runtime.executors import dask_address

pytestmark = needs_fork


@pytest.mark.parametrize("address,found", [
    ("notanaddress", "found no port"),
    ("foo://", "found the protocol 'foo'"),
    ("foo://host:1", "found the protocol 'foo'"),
    ("tcp://", "found no port"),
    ("tcp://127.0.0.1", "found no port"),
    ("tcp://127.0.0.1:notaport", "found the port 'notaport'"),
    ("tcp://127.0.0.1:0", "found the port '0'"),
    ("tcp://[::1]:99999", "found the port '99999'"),
    ("tcp://:8786", "found no host"),
    ("", "found nothing"),
    ("x" * 10_000, "found no port"),
])
def test_a_malformed_address_is_refused_at_once(tmp_path, address, found):
    # 20 s is far above what this takes and far below the 23 s dask took to say so
    res = cli_capped(["study", "standard", "--count", 1, "--csv", tmp_path / "s.csv",
                      "--dask", address], timeout=20)
    line = assert_one_line_error(res, "--dask ", "expected a scheduler address like "
                                 "tcp://HOST:PORT", found)
    assert len(line) < 300
    assert not (tmp_path / "s.csv").exists()


def test_the_accepted_forms():
    assert dask_address(" 10.0.0.1:8786 ") == "tcp://10.0.0.1:8786"
    assert dask_address("tcp://host.example:8786") == "tcp://host.example:8786"
    assert dask_address("tls://[2001:db8::1]:8786") == "tls://[2001:db8::1]:8786"
    assert dask_address("inproc://10.0.0.1/1234/1") == "inproc://10.0.0.1/1234/1"
    with pytest.raises(InvalidParameter):
        dask_address("udp://h:1")


def test_a_refused_connection_is_one_line_at_once(tmp_path):
    with socket.socket() as s:           # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    res = cli_capped(["harness", "--count", 1, "--dask", f"127.0.0.1:{port}"], timeout=20)
    assert_one_line_error(res, f"--dask tcp://127.0.0.1:{port}: cannot connect to a dask "
                               "scheduler")


def test_a_listener_that_never_answers_is_refused_within_the_handshake_bound():
    pytest.importorskip("distributed")
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    port = srv.getsockname()[1]
    held = []

    def accept_and_say_nothing():
        while True:
            try:
                held.append(srv.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept_and_say_nothing, daemon=True).start()

    def run():
        executors.HANDSHAKE_SECONDS = 1.0         # in the child only
        return invoke(["study", "random", "--count", 1, "--dask", f"tcp://127.0.0.1:{port}"])

    try:
        res = capped(run, timeout=60)             # once: minutes, and then a traceback
    finally:
        srv.close()
        for c in held:
            c.close()
    assert_one_line_error(res, f"--dask tcp://127.0.0.1:{port}: no dask scheduler answers "
                               "there (no answer within 1 s)")
