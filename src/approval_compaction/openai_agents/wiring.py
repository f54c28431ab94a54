"""Wiring: the model and compaction client a conversation runs on, and the logs they keep.

``scripted``: the study's scripted model and the recording compaction stand-in, in process.
``responses``: the SDK's own ``OpenAIResponsesModel`` with a real ``AsyncOpenAI`` client whose
transport is the wire's stand-in app, in-process (no socket); ``OpenAIResponsesCompactionSession``
calls ``responses.compact`` on that same client. The stand-in answers with each step's reply
(the same items the scripted model returns). ``remote_backend`` points the same model at a
stand-in already serving (``serve``), over a socket.

Both answer the compaction endpoint by its rules (``faithful``, ``wire.rules``) unless told
``lenient`` (``backend_for(model, "lenient")``): the compaction client of the scripted model
reads the chain of a ``previous_response_id`` from the model's own responses, and refuses with
the same ``openai.BadRequestError`` the stand-in's 400 raises over HTTP.

A wiring keeps three live logs the driver slices into stages: what the runner handed the
model interface (over HTTP a thin subclass records it, then defers to the SDK), each
compaction request's input, and (over HTTP only) each request with its status, and the
stand-in's error message when it refused it.

The scripted model's compaction client (``CompactionClient``) records each request and answers
with the endpoint's one shape (``wire.standin.compacted_output``), its items numbered.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Any

from agents.models.openai_responses import OpenAIResponsesModel

from ..study.items import Item, to_items
from ..study.words import CompactRules, Model
from ..wire import rules
from ..wire.rules import COMPACT, FAITHFUL, LENIENT, ApiError
from ..wire.standin import Exchange, StandIn, compacted_output
from ..wire.transport import API_KEY, openai_client, status_error
from .model import ScriptedModel

Chains = Callable[[str], list[Item] | None]  # a response id's input and output; None: unknown


def _no_chains(response_id: str) -> list[Item] | None:
    return None


@dataclass
class CompactionClient:
    """Duck-typed client: ``client.responses.compact(...)`` records, checks by the rules, and
    answers one item (or raises the API's refusal)."""

    capture: bool = True
    compact_rules: CompactRules = FAITHFUL
    chains: Chains = _no_chains
    requests: list[list[Item]] = field(default_factory=list)
    calls: int = 0  # the compactions answered

    @property
    def responses(self) -> CompactionClient:
        return self

    def refusal(
        self, chain: list[Item] | None, given: list[Item], previous: Any
    ) -> ApiError | None:
        """The API's answer to a request it refuses; None when it compacts."""
        if self.compact_rules == LENIENT:
            return None
        if chain is None:
            return rules.previous_not_found(str(previous))
        return rules.check_compaction(chain, given, self.compact_rules)

    async def compact(self, **kwargs: Any) -> SimpleNamespace:
        given = to_items(kwargs.get("input"))
        if self.capture:
            self.requests.append(given)
        previous = kwargs.get("previous_response_id")
        chain = [] if previous is None else self.chains(str(previous))
        error = self.refusal(chain, given, previous)
        if error is not None:
            raise status_error(error, COMPACT)
        self.calls += 1
        summary = {
            "type": "compaction",
            "id": f"compaction-{self.calls}",
            "encrypted_content": f"synthetic-summary-{self.calls}",
        }
        return SimpleNamespace(
            output=compacted_output([*(chain or []), *given], summary), usage=None
        )


MODEL = "gpt-4.1"  # an OpenAI model name, as OpenAIResponsesCompactionSession requires


@dataclass
class Wiring:
    """One conversation's model and compaction client, what the model answers next (``plan``,
    given each step's reply), and the live request logs."""

    name: Model
    model: Any
    compaction_client: Any
    plan: Callable[[Sequence[Item]], None]
    model_inputs: list[list[Item]] = field(default_factory=list)
    compaction_inputs: list[list[Item]] = field(default_factory=list)
    http_requests: list[Item] = field(default_factory=list)
    close: Callable[[], Awaitable[None]] | None = None
    compact_rules: CompactRules = "faithful"


Backend = Callable[[bool], Wiring]  # told whether to capture payloads


def scripted_backend(capture: bool, compact_rules: CompactRules = "faithful") -> Wiring:
    """The scripted model and the recording compaction stand-in, which reads the model's
    responses for a ``previous_response_id``."""
    model = ScriptedModel(capture=capture)
    client = CompactionClient(capture, compact_rules, model.chain)
    wiring = Wiring("scripted", model, client, model.plan, model.requests, client.requests)
    return replace(wiring, compact_rules=compact_rules)


def unavailable(model: Model) -> str:
    """Why this environment cannot run the model's wiring ("" when it can): the ``responses``
    one needs the wire's dependencies (the ``openai`` client's HTTP library, starlette)."""
    if model == "scripted":
        return ""
    try:
        from ..wire import app  # noqa: F401
    except ImportError as exc:
        return f"the responses model needs {exc.name or exc}"
    return ""


class RecordingResponsesModel(OpenAIResponsesModel):
    """The SDK's Responses model, keeping the input the runner hands it before it converts it."""

    def __init__(self, openai_client: Any, requests: list[list[Item]] | None) -> None:
        super().__init__(model=MODEL, openai_client=openai_client)
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


def responses_backend(capture: bool, compact_rules: CompactRules = "faithful") -> Wiring:
    """The SDK's Responses model on the stand-in over an in-process ASGI transport."""
    from ..wire.app import build_app  # starlette: the [notebooks] extra

    script: list[list[Item]] = []
    standin = StandIn(script=script, compact_rules=compact_rules)

    def plan(reply: Sequence[Item]) -> None:  # the stand-in answers its n-th response with
        del script[standin.served :]  # script[n]: the next one answers with ``reply``
        script.extend([[]] * (standin.served - len(script)))
        script.extend([list(reply)] if reply else [])

    wiring = Wiring("responses", None, None, plan, compact_rules=compact_rules)

    def on_request(exchange: Exchange) -> None:
        if not capture:
            return
        seen = {"path": exchange.path, "status": exchange.status, "body": exchange.body}
        wiring.http_requests.append(seen | ({"error": exchange.error} if exchange.error else {}))
        if exchange.path == COMPACT and isinstance(exchange.body, dict):
            wiring.compaction_inputs.append(to_items(exchange.body.get("input")))

    client = openai_client(build_app(standin, on_request))
    wiring.model = RecordingResponsesModel(client, wiring.model_inputs if capture else None)
    wiring.compaction_client, wiring.close = client, client.close
    return wiring


def remote_backend(base_url: str) -> Backend:
    """Wire conversations to a stand-in already serving at ``base_url`` (``serve``), over a
    socket. The stand-in answers by its policy; the request bodies stay in the server's log."""

    def backend(capture: bool) -> Wiring:
        from openai import AsyncOpenAI

        client = AsyncOpenAI(base_url=base_url, api_key=API_KEY)
        wiring = Wiring("responses", None, client, lambda reply: None, close=client.close)
        wiring.model = RecordingResponsesModel(client, wiring.model_inputs if capture else None)
        return wiring

    return backend


BACKENDS: dict[Model, Backend] = {"scripted": scripted_backend, "responses": responses_backend}
_RULED: dict[Model, Callable[[bool, CompactRules], Wiring]] = {
    "scripted": scripted_backend,
    "responses": responses_backend,
}


def backend_for(model: Model, compact_rules: CompactRules = "faithful") -> Backend:
    """The model's wiring, answering the compaction endpoint ``faithful``ly or ``lenient``ly."""
    if compact_rules == "faithful":
        return BACKENDS[model]
    wire = _RULED[model]

    def backend(capture: bool) -> Wiring:
        return wire(capture, compact_rules)

    return backend


def lenient_backend(capture: bool) -> Wiring:
    """The scripted wiring whose compaction accepts anything: the original report's world."""
    return scripted_backend(capture, "lenient")
