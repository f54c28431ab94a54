"""Model: a scripted stand-in for an LLM that implements the SDK's ``Model`` interface.

Each call pops the next scripted step (a list of output items) and records the exact input
the runner sent: that input is a payload that would leave the process with a real model.
It is written against the abstract interface only, so it runs on SDK releases that predate
``agents.testing``; keyword arguments the interface gained over time are accepted and ignored.
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

from .items import Item, to_items


class ScriptExhaustedError(RuntimeError):
    """The runner asked the scripted model for more responses than were scripted."""


def function_call(name: str, arguments: dict[str, Any], *, call_id: str) -> ResponseOutputItem:
    """A completed function call output item, as a model would emit it."""
    return ResponseFunctionToolCall(
        type="function_call",
        id=f"fc-{call_id}",
        call_id=call_id,
        name=name,
        arguments=json.dumps(arguments, sort_keys=True),
        status="completed",
    )


def assistant_message(text: str, *, item_id: str) -> ResponseOutputItem:
    """A completed assistant message output item."""
    return ResponseOutputMessage(
        type="message",
        id=item_id,
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


@dataclass
class ScriptedModel(Model):
    """Answer each model call with the next scripted list of output items."""

    steps: Sequence[Sequence[ResponseOutputItem]]
    capture: bool = True
    requests: list[list[Item]] = field(default_factory=list)
    calls: int = 0

    def _next_output(self, input: str | list[Any]) -> list[ResponseOutputItem]:
        if self.calls >= len(self.steps):
            raise ScriptExhaustedError(
                f"scripted model has {len(self.steps)} steps but was called again"
            )
        if self.capture:
            self.requests.append(to_items(input))
        output = list(self.steps[self.calls])
        self.calls += 1
        return output

    def _response_id(self) -> str:
        return f"resp-{self.calls}"

    async def get_response(
        self, system_instructions: str | None, input: str | list[Any], *args: Any, **kwargs: Any
    ) -> ModelResponse:
        output = self._next_output(input)
        return ModelResponse(output=output, usage=Usage(), response_id=self._response_id())

    async def stream_response(
        self, system_instructions: str | None, input: str | list[Any], *args: Any, **kwargs: Any
    ) -> AsyncIterator[Any]:
        output = self._next_output(input)
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
