"""App: the stand-in served as a Starlette ASGI app, one route that hands every request over.

Routing, parsing and validation live in ``standin`` so that the in-process transport and the
real server answer with the same bytes; this module only turns a ``Reply`` into a Starlette
response (JSON, or a streamed ``text/event-stream``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

from openai import AsyncOpenAI
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from .standin import Exchange, StandIn
from .transport import openai_client

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]


def build_app(standin: StandIn, on_request: Callable[[Exchange], None] | None = None) -> Starlette:
    """A Starlette app that answers every request through ``standin`` (``on_request`` sees
    each logged exchange, e.g. to print the server's request log)."""

    async def endpoint(request: Request) -> Response:
        reply = standin.handle(request.method, request.url.path, await request.body())
        if on_request is not None and standin.log:
            on_request(standin.log[-1])
        if reply.events is None:
            return Response(reply.content(), reply.status, media_type=reply.media_type)
        content = reply.content()

        async def chunks() -> AsyncIterator[bytes]:
            for block in content.split(b"\n\n")[:-1]:
                yield block + b"\n\n"

        return StreamingResponse(chunks(), reply.status, media_type=reply.media_type)

    return Starlette(routes=[Route("/{path:path}", endpoint, methods=METHODS)])


def standin_client() -> AsyncOpenAI:
    """A real ``AsyncOpenAI`` client whose requests reach a fresh stand-in in-process (no socket).

    The one piece of ours in notebook 01's bare reproduction: the SDK's own model and
    compaction session use it exactly as they would use the API's client.
    """
    return openai_client(build_app(StandIn()))
