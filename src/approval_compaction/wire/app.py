"""App: the stand-in served as a Starlette ASGI app, one route that hands every request over.

Routing, parsing and validation live in ``standin`` so that the in-process transport and the
real server answer with the same bytes; this module only reads the body, within bounds, has a
large one parsed in a worker thread (``standin.parse`` touches no state; the answer, which does,
runs on the event loop), and turns a ``Reply`` into a Starlette response (JSON, or a streamed
``text/event-stream``).

The body is read up to ``MAX_BODY`` bytes (past it, or a ``Content-Length`` over it, is a 413
before the rest is read) and within ``BODY_SECONDS`` (a client that trickles it gets a 408); a
client that disconnects mid-body is let go without a word (no traceback on the console).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator, Callable

import anyio.to_thread
from openai import AsyncOpenAI
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from . import rules
from .standin import (
    CONVERSATION_HEADER,
    REPLY_HEADER,
    Conversations,
    Exchange,
    Reply,
    StandIn,
    parse,
)
from .transport import openai_client

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]


MAX_BODY = 64 * 1024 * 1024
THREAD_BYTES = 256 * 1024  # a larger body is parsed off the event loop
BODY_SECONDS = 30.0


async def read_body(request: Request, limit: int, seconds: float) -> bytes | Reply:
    """The request's body, or the error reply for one too large or too slow to read."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        return Reply(413, rules.too_large(limit).body())
    chunks, size = [], 0
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    return Reply(413, rules.too_large(limit).body())
                chunks.append(chunk)
    except TimeoutError:
        return Reply(408, rules.too_slow(seconds).body())
    return b"".join(chunks)


def build_app(
    standin: StandIn | Conversations,
    on_request: Callable[[Exchange], None] | None = None,
    max_body: int = MAX_BODY,
    body_seconds: float = BODY_SECONDS,
) -> Starlette:
    """A Starlette app that answers every request through ``standin``, or through the stand-in
    of the request's conversation (``Conversations``); ``on_request`` sees each logged
    exchange, e.g. to print the server's request log."""

    def pick(request: Request) -> StandIn:
        if isinstance(standin, StandIn):
            return standin
        return standin.named(request.headers.get(CONVERSATION_HEADER))

    async def endpoint(request: Request) -> Response:
        try:
            body = await read_body(request, max_body, body_seconds)
        except ClientDisconnect:  # nobody is left to answer
            return Response(b"", 400)
        if isinstance(body, Reply):
            if on_request is not None:
                said = str((body.body or {}).get("error", {}).get("message", ""))
                on_request(Exchange(request.method, request.url.path, None, body.status, said))
            return Response(body.content(), body.status, media_type=body.media_type,
                            headers={"connection": "close"})  # fmt: skip
        method, path = request.method, request.url.path
        if len(body) > THREAD_BYTES:  # parsed in a worker thread: other clients are answered
            parsed = await anyio.to_thread.run_sync(parse, method, path, body)
        else:
            parsed = parse(method, path, body)
        chosen = pick(request)
        reply = chosen.answer(parsed, request.headers.get(REPLY_HEADER, ""))
        if on_request is not None and chosen.log:
            on_request(chosen.log[-1])
        if reply.events is None:
            return Response(reply.content(), reply.status, media_type=reply.media_type)
        content = reply.content()

        async def chunks() -> AsyncIterator[bytes]:
            for block in content.split(b"\n\n")[:-1]:
                yield block + b"\n\n"

        return StreamingResponse(chunks(), reply.status, media_type=reply.media_type)

    return Starlette(routes=[Route("/{path:path}", endpoint, methods=METHODS)])


# Each client ``standin_client`` made, with the stand-in that answers it (``standin_log``).
_STANDINS: weakref.WeakKeyDictionary[AsyncOpenAI, StandIn] = weakref.WeakKeyDictionary()


def standin_client() -> AsyncOpenAI:
    """A real ``AsyncOpenAI`` client whose requests reach a fresh stand-in in-process (no socket).

    The one piece of ours in notebook 01's bare reproduction: the SDK's own model and
    compaction session use it exactly as they would use the API's client.
    """
    standin = StandIn()
    client = openai_client(build_app(standin))
    _STANDINS[client] = standin
    return client


def standin_log(client: AsyncOpenAI) -> list[Exchange]:
    """Every request the stand-in behind ``client`` (one ``standin_client`` made) answered, in
    order: what the SDK sent, and how the API's rules answered it."""
    standin = _STANDINS.get(client)
    if standin is None:
        raise ValueError("this client was not made by standin_client: no stand-in log to read")
    return list(standin.log)
