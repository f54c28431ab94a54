"""The transport: a real ``AsyncOpenAI`` client whose requests reach an ASGI app in-process."""

from __future__ import annotations

import json
from typing import Any

import openai

from approval_compaction.wire.transport import API_KEY, BASE_URL, http_library, openai_client


class Echo:
    """An ASGI app that records each request and answers ``{"data": []}``."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        self.requests.append({"method": scope["method"], "path": scope["path"], **headers})
        body = json.dumps({"object": "list", "data": []}).encode()
        start = {"type": "http.response.start", "status": 200}
        await send({**start, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})


def test_transport_http_library_is_the_one_the_openai_client_sends_with() -> None:
    library = http_library()
    assert hasattr(library, "ASGITransport") and hasattr(library, "AsyncClient")
    assert library.__name__ in ("httpx", "httpx2")


async def test_transport_client_is_the_real_openai_client_on_the_app() -> None:
    app = Echo()
    client = openai_client(app)
    assert isinstance(client, openai.AsyncOpenAI) and str(client.base_url) == BASE_URL + "/"
    page = await client.models.list()
    assert page.data == []
    (request,) = app.requests
    assert (request["method"], request["path"]) == ("GET", "/v1/models")
    assert request["authorization"] == f"Bearer {API_KEY}"
