"""Model: a scripted stand-in for an LLM that implements the SDK's ``Model`` interface.

A reply is a list of output items in their plain JSON form (``items``), as a conversation
carries them, also across a process. The model answers each call with the next planned reply,
and past its plan with a plain numbered message (``answer 3``), as the API stand-in answers by
its policy once its script runs out. It records the exact input the runner sent: that input is
a payload that would leave the process with a real model. Like the API, it keeps each response
it gave under its id (``resp-3``), input and output, so that a compaction client can read the
chain a ``previous_response_id`` names (one asked for with ``ModelSettings(store=False)`` is not
kept, as the API keeps none created with ``store: false``: naming it is not found). It is written
against the abstract interface only, so it runs on SDK releases that predate ``agents.testing``;
keyword arguments the interface gained over time are accepted and ignored.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseFunctionToolCall,
    ResponseOutputItem,
    ResponseOutputMessage,
    ResponseOutputText,
)
from pydantic import TypeAdapter

from ..study.items import Item, to_item, to_items

_OUTPUT_ITEM: TypeAdapter[Any] = TypeAdapter(ResponseOutputItem)


def function_call(name: str, arguments: dict[str, Any], *, call_id: str) -> Item:
    """A completed function call output item, as a model would emit it."""
    return to_item(
        ResponseFunctionToolCall(
            type="function_call",
            id=f"fc-{call_id}",
            call_id=call_id,
            name=name,
            arguments=json.dumps(arguments, sort_keys=True),
            status="completed",
        )
    )


def assistant_message(text: str, *, item_id: str) -> Item:
    """A completed assistant message output item."""
    return to_item(
        ResponseOutputMessage(
            type="message",
            id=item_id,
            role="assistant",
            status="completed",
            content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
        )
    )


@dataclass
class ScriptedModel(Model):
    """Answer each model call with the next planned reply, then with plain answers."""

    steps: list[Sequence[Item]] = field(default_factory=list)
    capture: bool = True
    calls: int = 0

    def __post_init__(self) -> None:
        # The logs grow with every call, so they are attributes, not fields: the SDK normalises
        # an agent's model at every run when it is a dataclass (0.23.1's agent identity
        # signature, ``dataclasses.asdict``), which would cost every turn the whole log so far.
        self.requests: list[list[Item]] = []
        self.responses: dict[str, tuple[Any, Sequence[Item]]] = {}

    def chain(self, response_id: str) -> list[Item] | None:
        """The input and output of the response of that id, as plain items (None: unknown)."""
        found = self.responses.get(response_id)
        return None if found is None else [*to_items(found[0]), *found[1]]

    def plan(self, reply: Sequence[Item]) -> None:
        """The reply to the next call (none: plain answers), in place of what was planned."""
        self.steps = [reply] if reply else []

    def _next_output(self, input: str | list[Any], settings: Any = None) -> list[Any]:
        if self.capture:
            self.requests.append(to_items(input))
        self.calls += 1
        if self.steps:
            reply = self.steps.pop(0)
        else:
            reply = [assistant_message(f"answer {self.calls}", item_id=f"msg-{self.calls}")]
        if getattr(settings, "store", None) is not False:  # store=False: the API keeps none
            self.responses[self._response_id()] = (
                list(input) if isinstance(input, list) else input,
                reply,
            )
        return [_OUTPUT_ITEM.validate_python(item) for item in reply]

    def _response_id(self) -> str:
        return f"resp-{self.calls}"

    async def get_response(
        self, system_instructions: str | None, input: str | list[Any], *args: Any, **kwargs: Any
    ) -> ModelResponse:
        output = self._next_output(input, _settings(args, kwargs))
        return ModelResponse(output=output, usage=Usage(), response_id=self._response_id())

    async def stream_response(
        self, system_instructions: str | None, input: str | list[Any], *args: Any, **kwargs: Any
    ) -> AsyncIterator[Any]:
        output = self._next_output(input, _settings(args, kwargs))
        response = Response.model_construct(
            id=self._response_id(),
            object="response",
            created_at=0,
            model="scripted",
            output=output,
            tools=[],
            tool_choice="auto",
            parallel_tool_calls=False,
            usage=None,
        )
        yield ResponseCompletedEvent.model_construct(
            type="response.completed", response=response, sequence_number=0
        )


def _settings(args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
    """The call's ``model_settings``, by keyword or as the first argument after the input."""
    return kwargs.get("model_settings", args[0] if args else None)
