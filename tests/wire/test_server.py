"""The real server on 127.0.0.1: the same answers over a socket, a log, and a port in use."""

from __future__ import annotations

import socket

import pytest

from approval_compaction.cli import main
from approval_compaction.wire.server import PortInUseError, bind, running

httpx = pytest.importorskip("httpx")


@pytest.mark.enable_socket
def test_server_answers_and_logs_each_request() -> None:
    with running() as server:
        with httpx.Client(base_url=server.base_url, timeout=10) as client:
            ok = client.post("/responses", json={"input": "q"})
            bad = client.post("/responses", content=b"{oops")
            lost = client.post("/nowhere", json={})
    assert ok.status_code == 200 and ok.json()["object"] == "response"
    assert bad.status_code == 400 and bad.json()["error"]["type"] == "invalid_request_error"
    assert lost.status_code == 404
    assert [e.status for e in server.standin.log] == [200, 400, 404]
    assert server.standin.log[-1].line() == "POST /v1/nowhere 404 Invalid URL (POST /v1/nowhere)"


@pytest.mark.enable_socket
def test_server_port_in_use_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        with pytest.raises(PortInUseError, match=f"cannot serve on 127.0.0.1:{port}"):
            bind("127.0.0.1", port)
        assert main(["serve", "--port", str(port)]) == 2
    finally:
        taken.close()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: cannot serve on 127.0.0.1:{port}")
