"""Backend: a case wired to the SDK's own ``OpenAIResponsesModel`` and compaction call over HTTP.

The agent runs on ``OpenAIResponsesModel`` with a real ``AsyncOpenAI`` client whose transport
is the stand-in's ASGI app, in-process; ``OpenAIResponsesCompactionSession`` calls
``responses.compact`` on that same client. The stand-in answers with the case's script (the
same items the scripted model returns). The capture gets three live logs: what the runner
handed the model interface (a thin subclass records it, then defers to the SDK), each
compaction request's input as sent, and every HTTP request with its status.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI

from ..study.harness import Script, Wiring
from ..study.items import Item, to_item, to_items
from .app import build_app
from .rules import COMPACT
from .standin import Exchange, StandIn
from .transport import API_KEY, openai_client

MODEL = "gpt-4.1"  # an OpenAI model name, as OpenAIResponsesCompactionSession requires


class RecordingResponsesModel(OpenAIResponsesModel):
    """The SDK's Responses model, keeping the input the runner hands it before it converts it."""

    def __init__(self, model: str, openai_client: Any, requests: list[list[Item]] | None) -> None:
        super().__init__(model=model, openai_client=openai_client)
        self.requests = requests

    def _keep(self, input: Any) -> None:
        if self.requests is not None:
            self.requests.append(to_items(input))

    async def get_response(
        self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
    ) -> Any:
        self._keep(input)
        return await super().get_response(system_instructions, input, *args, **kwargs)

    async def stream_response(
        self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
    ) -> AsyncIterator[Any]:
        self._keep(input)
        async for event in super().stream_response(system_instructions, input, *args, **kwargs):
            yield event


def standin_for(script: Script) -> StandIn:
    """A stand-in that answers with the script's steps, as JSON items."""
    steps = [[to_item(item) for item in step] for step in script.model(False).steps]
    return StandIn(script=steps)


def responses_backend(script: Script, capture: bool) -> Wiring:
    """Wire one case to the stand-in over an in-process ASGI transport (no socket)."""
    standin = standin_for(script)
    wiring = Wiring("responses", None, None, [], [], [])

    def on_request(exchange: Exchange) -> None:
        if not capture:
            return
        wiring.http_requests.append(
            {"path": exchange.path, "status": exchange.status, "body": exchange.body}
        )
        if exchange.path == COMPACT and isinstance(exchange.body, dict):
            wiring.compaction_inputs.append(to_items(exchange.body.get("input")))

    client = openai_client(build_app(standin, on_request))
    wiring.model = RecordingResponsesModel(MODEL, client, wiring.model_inputs if capture else None)
    wiring.compaction_client = client
    wiring.close = client.close
    return wiring


def remote_backend(base_url: str) -> Callable[[Script, bool], Wiring]:
    """Wire cases to a stand-in already serving at ``base_url`` (``serve``), over a socket.

    The request bodies stay in the server's log; the capture keeps what the runner handed the
    model interface."""

    def backend(script: Script, capture: bool) -> Wiring:
        client = AsyncOpenAI(base_url=base_url, api_key=API_KEY)
        wiring = Wiring("responses", None, client, [], [], [], client.close)
        wiring.model = RecordingResponsesModel(
            MODEL, client, wiring.model_inputs if capture else None
        )
        return wiring

    return backend
