# Copyright 2026 Google LLC
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""A late answer must reach the summarizer with its call.

A confirmation answered after later turns, or a long-running tool's result that arrives
after them, follows a call that an earlier compaction already summarized (the dead-call
pass of `_longest_self_contained_prefix` lets the window pass it). The summary that covers
the answer must be given the call too, as prompt assembly restores it
(`_recover_compacted_function_calls`); otherwise the summarizer receives a function
response without its function call. Extends #7236 / #7237.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator

import pytest
from google.adk.agents.llm_agent import LlmAgent
from google.adk.apps.app import App, EventsCompactionConfig
from google.adk.apps.base_events_summarizer import BaseEventsSummarizer
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions, EventCompaction
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.tools.function_tool import FunctionTool
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def _lookup(record: str) -> dict[str, str]:
    return {"record": record, "status": "found"}


def _export(table: str) -> dict[str, str]:
    return {"table": table, "status": "pending"}


class _Model(BaseLlm):
    """Calls a tool when asked to, else answers with text."""

    model: str = "fake"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1]
        text = "".join(p.text or "" for p in last.parts or [])
        tool = {"lookup": "_lookup", "export": "_export"}.get(text)
        if tool and not any(p.function_response for p in last.parts or []):
            call = types.FunctionCall(
                id=f"call-{text}", name=tool, args={"record" if tool == "_lookup" else "table": "r"}
            )
            yield LlmResponse(
                content=types.Content(role="model", parts=[types.Part(function_call=call)])
            )
            return
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="ok")]))


class _Summarizer(BaseEventsSummarizer):
    """Records every window it is given."""

    def __init__(self):
        self.windows: list[list[Event]] = []

    async def maybe_summarize_events(self, *, events: list[Event]) -> Event | None:
        self.windows.append(list(events))
        return Event(
            author="user",
            invocation_id=Event.new_id(),
            actions=EventActions(
                compaction=EventCompaction(
                    start_timestamp=events[0].timestamp,
                    end_timestamp=events[-1].timestamp,
                    compacted_content=types.Content(
                        role="model", parts=[types.Part(text="summary")]
                    ),
                )
            ),
        )


def _unpaired_responses(window: list[Event]) -> list[str]:
    seen: set[str] = set()
    orphans = []
    for event in window:
        for call in event.get_function_calls():
            seen.add(call.id)
        for response in event.get_function_responses():
            if response.id not in seen:
                orphans.append(response.id)
    return orphans


async def _run(runner: Runner, message: types.Content) -> list[Event]:
    return [
        event async for event in runner.run_async(user_id="u", session_id="s", new_message=message)
    ]


def _text(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=text)])


def _answer(call: types.FunctionCall, response: dict) -> types.Content:
    part = types.Part(
        function_response=types.FunctionResponse(id=call.id, name=call.name, response=response)
    )
    return types.Content(role="user", parts=[part])


@pytest.mark.parametrize("overlap_size", [0, 1], ids=["overlap0", "overlap1"])
@pytest.mark.parametrize("late", ["confirmation", "long_running"])
@pytest.mark.asyncio
async def test_late_answer_reaches_the_summarizer_with_its_call(late: str, overlap_size: int):
    summarizer = _Summarizer()
    agent = LlmAgent(
        name="agent",
        model=_Model(),
        tools=[
            FunctionTool(_lookup, require_confirmation=True),
            LongRunningFunctionTool(_export),
        ],
    )
    app = App(
        name="app",
        root_agent=agent,
        events_compaction_config=EventsCompactionConfig(
            summarizer=summarizer,
            compaction_interval=1,
            overlap_size=overlap_size,
        ),
    )
    service = InMemorySessionService()
    await service.create_session(app_name="app", user_id="u", session_id="s")
    runner = Runner(app=app, session_service=service)

    asked = "lookup" if late == "confirmation" else "export"
    events = await _run(runner, _text(asked))
    waiting = [
        call
        for event in events
        for call in event.get_function_calls()
        if call.id in (event.long_running_tool_ids or set())
    ]
    assert waiting
    for _ in range(3):  # later turns: the window passes the waiting call as dead
        await _run(runner, _text("meanwhile"))
    if late == "confirmation":
        await _run(runner, _answer(waiting[-1], {"confirmed": True}))
    else:
        await _run(runner, _answer(waiting[-1], {"table": "r", "status": "done"}))

    for window in summarizer.windows:
        assert _unpaired_responses(window) == []
