"""Server: the stand-in on a real port, with uvicorn, and a request log on stdout.

``python -m approval_compaction serve [--host 127.0.0.1] [--port N]`` lets a user point their
own app at it (``OPENAI_BASE_URL=http://127.0.0.1:N/v1``) and watch each request validated:
one log line per request, ``POST /v1/responses 400 No tool call found ...``. The compaction
endpoint answers by the API's rules (``--compact-rules faithful``, the default) or accepts
anything (``lenient``). The socket is bound before uvicorn starts, so a port already in use is
one clear line, not a traceback.

A connection is bounded in time: one that has not sent a whole request head within
``HEAD_SECONDS`` is closed (idle, or trickling its headers), one idle between requests after
uvicorn's ``timeout_keep_alive``, and a body has ``app.BODY_SECONDS``; at most
``MAX_CONNECTIONS`` are served at once (uvicorn answers 503 past it). With ``app``'s cap on a
body and ``standin``'s on what it keeps, memory stays bounded whatever clients send.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..errors import InvestigationError, printable
from .app import BODY_SECONDS, build_app
from .rules import FAITHFUL, KEEPS_USERS, CompactRules, CompactShape
from .standin import Conversations, Exchange, StandIn

DEFAULT_PORT = 8000
HEAD_SECONDS = 10.0
KEEP_ALIVE_SECONDS = 5
MAX_CONNECTIONS = 256


class BoundedProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection that sends no whole request head in
    ``head_seconds`` (uvicorn times out only the idle time between requests)."""

    head_seconds = HEAD_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer = self.loop.call_later(self.head_seconds, self._head_too_slow)

    def _head_too_slow(self) -> None:
        if self.cycle is None and not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_timer.cancel()
        super().connection_lost(exc)


class PortInUseError(InvestigationError):
    """The address to serve on cannot be bound (in use, or not ours to bind)."""


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port, or one line saying why it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio turns Nagle off only on sockets that name TCP, and with Nagle
    # on, every reply waits out the client's delayed acknowledgement (about 40 ms).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except (OSError, ValueError, UnicodeError) as error:  # in use, not ours, not a host
        sock.close()
        said = getattr(error, "strerror", None) or " ".join(str(error).split())
        raise PortInUseError(f"cannot serve on {printable(host)}:{port}: {said}") from None
    sock.listen(128)
    return sock


def server_for(
    standin: StandIn | Conversations,
    log: Callable[[Exchange], None] | None = None,
    head_seconds: float = HEAD_SECONDS,
    body_seconds: float = BODY_SECONDS,
) -> uvicorn.Server:
    """A uvicorn server of the stand-in, every connection bounded in time (module docstring)."""
    protocol = type("BoundedProtocol", (BoundedProtocol,), {"head_seconds": head_seconds})
    config = uvicorn.Config(
        build_app(standin, log, body_seconds=body_seconds),
        http=protocol,
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        limit_concurrency=MAX_CONNECTIONS,
    )
    return uvicorn.Server(config)


@dataclass
class Running:
    """A server started in a thread: its stand-in (or one per conversation), its base URL, and
    its uvicorn server."""

    standin: StandIn | Conversations
    base_url: str
    server: uvicorn.Server


@contextmanager
def running(
    host: str = "127.0.0.1",
    port: int = 0,
    timeout: float = 10.0,
    compact_rules: CompactRules = FAITHFUL,
    head_seconds: float = HEAD_SECONDS,
    body_seconds: float = BODY_SECONDS,
    conversations: bool = False,
    compact_shape: CompactShape = KEEPS_USERS,
) -> Iterator[Running]:
    """Serve a fresh stand-in in a background thread (port 0 picks a free one); stop on exit.
    ``conversations``: a fresh stand-in for each conversation a request header names;
    ``compact_shape``: what an accepted compaction answers (``rules.COMPACTION_OUTPUT``)."""
    standin: StandIn | Conversations = (
        Conversations(compact_rules, compact_shape)
        if conversations
        else StandIn(compact_rules=compact_rules, compact_shape=compact_shape)
    )
    sock = bind(host, port)
    server = server_for(standin, head_seconds=head_seconds, body_seconds=body_seconds)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise InvestigationError(f"the stand-in did not start on {host}:{port}")
        time.sleep(0.01)
    try:
        yield Running(standin, f"http://{host}:{sock.getsockname()[1]}/v1", server)
    finally:
        server.should_exit = True
        thread.join(timeout)
        sock.close()


def command(args: argparse.Namespace) -> int:
    """``serve``: run the stand-in until interrupted, printing one line per request."""
    sock = bind(args.host, args.port)
    port = sock.getsockname()[1]
    rules = getattr(args, "compact_rules", FAITHFUL)
    shape = getattr(args, "compact_shape", KEEPS_USERS)
    print(f"Responses API stand-in on http://{args.host}:{port}/v1 (Ctrl-C stops)")
    print(f"/v1/responses/compact answers {rules}ly, with {shape}")
    print(f"point a client at it: OPENAI_BASE_URL=http://{args.host}:{port}/v1", flush=True)

    def log(exchange: Exchange) -> None:
        print(exchange.line(), flush=True)

    try:
        server_for(Conversations(rules, shape), log).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    sys.stdout.flush()
    return 0
