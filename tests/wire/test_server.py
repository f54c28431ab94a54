"""The real server on 127.0.0.1: the same answers over a socket, a log, a port in use, and
random or malformed requests answered without a server error."""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from approval_compaction.cli import main
from approval_compaction.wire.server import PortInUseError, Running, bind, running

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
def test_server_lenient_compaction_accepts_what_the_faithful_one_refuses() -> None:
    call = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}
    statuses = []
    for rules in ("faithful", "lenient"):
        with running(compact_rules=rules) as server:  # type: ignore[arg-type]
            server.standin.script = [[call]]
            with httpx.Client(base_url=server.base_url, timeout=10) as client:
                first = client.post("/responses", json={"input": "q"}).json()
                body = {"previous_response_id": first["id"]}
                statuses.append(client.post("/responses/compact", json=body).status_code)
    assert statuses == [400, 200]


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


# Bad input never crashes the stand-in: random and malformed requests on a real port.


FUZZ_EXAMPLES = 600  # per test: bounded by count, not time
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
ITEM = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["function_call", "function_call_output", "message", "compaction"])
        | st.text(max_size=6),
        "call_id": st.sampled_from(["c1", "c2"]) | JSON,
    },
    optional={"role": st.sampled_from(["user", "assistant"]) | JSON, "content": JSON},
)
BODY = st.fixed_dictionaries(
    {},
    optional={
        "input": st.lists(ITEM | JSON, max_size=5) | JSON,
        "previous_response_id": st.sampled_from(["resp_standin_0001", "resp_x"]) | JSON,
        "stream": st.booleans() | JSON,
        "tools": st.lists(JSON, max_size=3) | JSON,
        "model": JSON,
    },
)
PATHS = st.sampled_from(["/responses", "/responses/compact", "/responses/", "/nowhere", ""])


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[Running, Any]]:
    """One server and one keep-alive client for every example."""
    with running() as server, httpx.Client(base_url=server.base_url, timeout=10) as client:
        yield server, client


@pytest.mark.enable_socket
@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    method=st.sampled_from(["POST", "GET", "PUT", "DELETE"]),
    path=PATHS,
    body=BODY.map(lambda b: json.dumps(b).encode()) | st.binary(max_size=64),
)
def test_server_random_requests_never_get_a_server_error(
    served: tuple[Running, Any], method: str, path: str, body: bytes
) -> None:
    """Whatever it is sent, the stand-in answers in the API's shape, never with a 5xx."""
    server, client = served
    answer = client.request(method, path, content=body)
    assert answer.status_code < 500, (answer.text, server.standin.log[-1])
    if answer.headers["content-type"].startswith("application/json"):
        assert answer.status_code == 200 or "error" in answer.json()


@pytest.mark.enable_socket
def test_server_answers_413_past_the_body_limit_before_reading_the_rest() -> None:
    with running() as server, socket.create_connection(server_address(server)) as conn:
        conn.sendall(
            b"POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999999\r\n\r\n"
        )
        conn.settimeout(10)
        assert conn.recv(200).startswith(b"HTTP/1.1 413 ")


def server_address(server: Running) -> tuple[str, int]:
    return "127.0.0.1", int(server.base_url.rsplit(":", 1)[1].split("/")[0])


@pytest.mark.enable_socket
def test_server_closes_a_connection_that_sends_nothing_or_trickles_its_headers() -> None:
    """Regression for issue 33: 350 slow and 1,200 idle connections were never timed out."""
    with running(head_seconds=0.5) as server:
        idle = socket.create_connection(server_address(server))
        slow = socket.create_connection(server_address(server))
        slow.sendall(b"POST /v1/responses HTTP/1.1\r\nHo")
        for conn in (idle, slow):
            conn.settimeout(10)
            started = time.monotonic()
            assert conn.recv(100) == b""  # closed by the server
            assert time.monotonic() - started < 5
            conn.close()


@pytest.mark.enable_socket
def test_server_answers_408_to_a_body_that_does_not_arrive() -> None:
    with (
        running(body_seconds=0.5) as server,
        socket.create_connection(server_address(server)) as conn,
    ):
        conn.sendall(b"POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        conn.settimeout(10)
        assert conn.recv(200).startswith(b"HTTP/1.1 408 ")


@pytest.mark.enable_socket
def test_server_a_client_gone_mid_body_leaves_no_traceback() -> None:
    """Regression for issue 33: 52 "Exception in ASGI application" tracebacks on the console
    when clients disconnected mid-body."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = records.append  # type: ignore[method-assign]  # a list is the whole handler
    uvicorn_log = logging.getLogger("uvicorn.error")  # uvicorn's loggers do not propagate
    with running() as server:
        uvicorn_log.addHandler(handler)
        for _ in range(5):
            with socket.create_connection(server_address(server)) as conn:
                conn.sendall(
                    b"POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n{"
                )
        with httpx.Client(base_url=server.base_url, timeout=10) as client:
            assert client.post("/responses", json={"input": "q"}).status_code == 200
    uvicorn_log.removeHandler(handler)
    assert [r.getMessage() for r in records] == []


def test_server_docs_state_the_bounds_the_code_sets() -> None:
    from approval_compaction import paths
    from approval_compaction.wire import app, server, standin

    paragraphs = (paths.ROOT / "docs" / "wire.md").read_text().split("\n\n")
    found = next(p for p in paragraphs if p.startswith("**What `serve` bounds.**"))
    row = " ".join(found.split()).lower()
    stand_in = standin.StandIn()
    for said in (
        f"a body over {app.MAX_BODY // 2**20} MiB is a 413",
        f"nested deeper than {standin.MAX_DEPTH} levels a 400",
        f"a whole request head in {server.HEAD_SECONDS:g} s is closed",
        f"does not arrive in {app.BODY_SECONDS:g} s is a 408",
        f"at most {stand_in.max_responses:,} responses ({stand_in.max_stored_bytes // 2**20} MiB",
    ):
        assert said.lower() in row, said
