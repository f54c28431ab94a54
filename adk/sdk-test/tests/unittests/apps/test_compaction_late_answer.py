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

A confirmation answered after later turns, or a long-running tool's result that
arrives after them, follows a call that an earlier compaction already summarized
(the dead-call pass of `_longest_self_contained_prefix` lets the window pass
it). The summary that covers the answer must be given the call too, as prompt
assembly restores it (`_recover_compacted_function_calls`); otherwise the
summarizer receives a function response without its function call. Extends
#7236 / #7237.
"""

from __future__ import annotations

from typing import AsyncGenerator
from typing import Optional

from google.adk.agents.llm_agent import LlmAgent
from google.adk.apps.app import App
from google.adk.apps.app import EventsCompactionConfig
from google.adk.apps.base_events_summarizer import BaseEventsSummarizer
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.events.event_actions import EventCompaction
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.tools.function_tool import FunctionTool
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types
import pytest


def _lookup(record: str) -> dict[str, str]:
  return {'record': record, 'status': 'found'}


def _export(table: str) -> dict[str, str]:
  return {'table': table, 'status': 'pending'}


class _Model(BaseLlm):
  """Calls a tool when asked to, else answers with text."""

  model: str = 'fake'

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del stream  # answers the same either way
    last = llm_request.contents[-1]
    # A summary keeps the request it ends on: a threshold of one token
    # compacts the question before the model reads it.
    text = ''.join(p.text or '' for p in last.parts or [])
    text = text.rsplit(': ', maxsplit=1)[-1]
    tools = {'lookup': ('_lookup', 'record'), 'export': ('_export', 'table')}
    if text in tools:
      name, arg = tools[text]
      call = types.FunctionCall(id=f'call-{text}', name=name, args={arg: 'r'})
      part = types.Part(function_call=call)
      yield LlmResponse(content=types.Content(role='model', parts=[part]))
      return
    part = types.Part(text='ok')
    yield LlmResponse(content=types.Content(role='model', parts=[part]))


class _Summarizer(BaseEventsSummarizer):
  """Records every window it is given."""

  def __init__(self):
    self.windows: list[list[Event]] = []

  async def maybe_summarize_events(
      self, *, events: list[Event]
  ) -> Optional[Event]:
    self.windows.append(list(events))
    last = events[-1]
    asked = [
        p.text for p in (last.content.parts if last.content else []) if p.text
    ]
    text = (
        f'summary: {asked[-1]}'
        if last.author == 'user' and asked
        else 'summary'
    )
    summary = types.Content(role='model', parts=[types.Part(text=text)])
    compaction = EventCompaction(
        start_timestamp=events[0].timestamp,
        end_timestamp=events[-1].timestamp,
        compacted_content=summary,
    )
    return Event(
        author='user',
        invocation_id=Event.new_id(),
        actions=EventActions(compaction=compaction),
    )


def _responses(window: list[Event]) -> list[str]:
  """Ids of the function responses in the window."""
  return [r.id for event in window for r in event.get_function_responses()]


def _unpaired_responses(window: list[Event]) -> list[str]:
  """Ids of the function responses whose call is not earlier in the window."""
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
      event
      async for event in runner.run_async(
          user_id='u', session_id='s', new_message=message
      )
  ]


def _text(text: str) -> types.Content:
  return types.Content(role='user', parts=[types.Part(text=text)])


def _answer(call: types.FunctionCall, response: dict[str, object]):
  part = types.Part(
      function_response=types.FunctionResponse(
          id=call.id, name=call.name, response=response
      )
  )
  return types.Content(role='user', parts=[part])


TRIGGERS = {
    'window_overlap0': {'compaction_interval': 1, 'overlap_size': 0},
    'window_overlap1': {'compaction_interval': 1, 'overlap_size': 1},
    'tokens_retention0': {'token_threshold': 1, 'event_retention_size': 0},
    'tokens_retention2': {'token_threshold': 1, 'event_retention_size': 2},
}
LATE_ANSWERS = {
    'confirmation': ('lookup', {'confirmed': True}),
    'long_running': ('export', {'table': 'r', 'status': 'done'}),
}


@pytest.mark.parametrize('trigger', TRIGGERS)
@pytest.mark.parametrize('late', LATE_ANSWERS)
@pytest.mark.asyncio
async def test_late_answer_reaches_the_summarizer_with_its_call(
    late: str, trigger: str
):
  summarizer = _Summarizer()
  agent = LlmAgent(
      name='agent',
      model=_Model(),
      tools=[
          FunctionTool(_lookup, require_confirmation=True),
          LongRunningFunctionTool(_export),
      ],
  )
  app = App(
      name='app',
      root_agent=agent,
      events_compaction_config=EventsCompactionConfig(
          summarizer=summarizer, **TRIGGERS[trigger]
      ),
  )
  service = InMemorySessionService()
  await service.create_session(app_name='app', user_id='u', session_id='s')
  runner = Runner(app=app, session_service=service)

  asked, answer = LATE_ANSWERS[late]
  events = await _run(runner, _text(asked))
  waiting = [
      call
      for event in events
      for call in event.get_function_calls()
      if call.id in (event.long_running_tool_ids or set())
  ]
  assert waiting
  for _ in range(3):  # later turns: the call waits while the session compacts
    await _run(runner, _text('meanwhile'))
  await _run(runner, _answer(waiting[-1], answer))
  await _run(runner, _text('and then'))

  for window in summarizer.windows:
    assert not _unpaired_responses(window)
  # The answer itself is summarized: a summary covers it, so the model reads
  # it only there.
  assert any(waiting[-1].id in _responses(w) for w in summarizer.windows)
