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

"""A long-running call nobody answers must not stop compaction for good, nor
be sent to the model without its result.

`_provably_dead_call_ids` protects a non-HITL long-running call in every
invocation, so the dead-call pass of `_longest_self_contained_prefix` stops
before one that has no response at all: the worker died once the call was
stored, or the tool returned nothing and its result never arrives. From then
on every window ends before that call and every later invocation leaves the
session uncompacted. A call an earlier invocation left without any response
can be compacted past: should its result still arrive, prompt assembly
restores the call (`_recover_compacted_function_calls`). Extends #7236 / #7237.

`drop_orphaned_function_calls` keeps such a call in every later request, and
a pending one in the request its own invocation sends after a parallel call's
result, where a model that pairs calls with their results by id (OpenAI,
Anthropic) rejects it with HTTP 400. A model that takes it is sent it only
while the invocation that opened it runs, as the compactor does.
"""

from __future__ import annotations

from typing import AsyncGenerator
from typing import Optional

from google.adk.agents.llm_agent import LlmAgent
from google.adk.apps.app import App
from google.adk.apps.app import EventsCompactionConfig
from google.adk.apps.base_events_summarizer import BaseEventsSummarizer
from google.adk.apps.compaction import _provably_dead_call_ids
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.events.event_actions import EventCompaction
from google.adk.flows.llm_flows.context import _contents
from google.adk.flows.llm_flows.tools import _rearranger
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types
import pytest


def _lookup(record: str) -> dict[str, str]:
  return {'record': record, 'status': 'found'}


def _start_export(table: str) -> dict[str, str]:
  return {'table': table, 'status': 'pending'}


def _queue_export(table: str) -> None:
  del table  # Unused.
  return None  # the result arrives later, sent by the application


class _Model(BaseLlm):
  """Calls the tool named by the question, else answers with text; keeps
  every request it is given."""

  model: str = 'fake'
  requests: list[list[types.Content]] = []

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del stream  # Unused.
    self.requests.append(list(llm_request.contents))
    last = llm_request.contents[-1]
    text = ''.join(p.text or '' for p in last.parts or []).rsplit(
        ': ', maxsplit=1
    )[-1]
    if text in ('_start_export', '_queue_export'):
      call = types.FunctionCall(id='call-1', name=text, args={'table': 't'})
      part = types.Part(function_call=call)
      yield LlmResponse(content=types.Content(role='model', parts=[part]))
      return
    if text == 'parallel':
      parts = [
          types.Part(
              function_call=types.FunctionCall(
                  id='call-1', name='_lookup', args={'record': 'r'}
              )
          ),
          types.Part(
              function_call=types.FunctionCall(
                  id='call-2', name='_queue_export', args={'table': 't'}
              )
          ),
      ]
      yield LlmResponse(content=types.Content(role='model', parts=parts))
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
    compaction_range = EventCompaction(
        start_timestamp=events[0].timestamp,
        end_timestamp=events[-1].timestamp,
        compacted_content=summary,
    )
    return Event(
        author='user',
        invocation_id=Event.new_id(),
        actions=EventActions(compaction=compaction_range),
    )


def _call_ids(sent: list[types.Content]) -> set[str]:
  return {
      p.function_call.id for c in sent for p in c.parts or [] if p.function_call
  }


def _response_ids(sent: list[types.Content]) -> set[str]:
  return {
      p.function_response.id
      for c in sent
      for p in c.parts or []
      if p.function_response
  }


def _text(text: str) -> types.Content:
  return types.Content(role='user', parts=[types.Part(text=text)])


async def _run(runner: Runner, message: types.Content) -> list[Event]:
  return [
      event
      async for event in runner.run_async(
          user_id='u', session_id='s', new_message=message
      )
  ]


async def _run_until_the_call(runner: Runner, message: types.Content):
  """The worker dies as soon as the model's call is stored."""
  run = runner.run_async(user_id='u', session_id='s', new_message=message)
  async for event in run:
    if event.get_function_calls():
      break
  await run.aclose()


TRIGGERS = {
    'window_overlap0': {'compaction_interval': 1, 'overlap_size': 0},
    'window_overlap1': {'compaction_interval': 1, 'overlap_size': 1},
    'tokens_retention0': {'token_threshold': 1, 'event_retention_size': 0},
    'tokens_retention2': {'token_threshold': 1, 'event_retention_size': 2},
}
UNANSWERED = {
    # The worker dies once the call is stored: no answer from the tool at all.
    'worker_died': '_start_export',
    # The tool answers nothing; its result never arrives.
    'result_never_arrives': '_queue_export',
}


def _app(summarizer: _Summarizer, trigger: str) -> tuple[App, _Model]:
  model = _Model(requests=[])
  agent = LlmAgent(
      name='agent',
      model=model,
      tools=[
          _lookup,
          LongRunningFunctionTool(_start_export),
          LongRunningFunctionTool(_queue_export),
      ],
  )
  config = EventsCompactionConfig(summarizer=summarizer, **TRIGGERS[trigger])
  return (
      App(name='app', root_agent=agent, events_compaction_config=config),
      model,
  )


async def _runner(app: App) -> Runner:
  service = InMemorySessionService()
  await service.create_session(app_name='app', user_id='u', session_id='s')
  return Runner(app=app, session_service=service)


@pytest.mark.parametrize('trigger', TRIGGERS)
@pytest.mark.parametrize('unanswered', UNANSWERED)
@pytest.mark.asyncio
async def test_unanswered_long_running_call_does_not_stop_compaction(
    unanswered: str, trigger: str
):
  summarizer = _Summarizer()
  app, _ = _app(summarizer, trigger)
  runner = await _runner(app)

  if unanswered == 'worker_died':
    await _run_until_the_call(runner, _text(UNANSWERED[unanswered]))
  else:
    await _run(runner, _text(UNANSWERED[unanswered]))
  await _run(runner, _text('first'))  # a retained window may hold it back once
  for turn in range(3):
    before = len(summarizer.windows)
    await _run(runner, _text(f'later {turn}'))
    assert len(summarizer.windows) > before, f'no compaction after turn {turn}'


@pytest.mark.parametrize('trigger', TRIGGERS)
@pytest.mark.asyncio
async def test_late_result_of_a_compacted_long_running_call_is_sent_with_it(
    trigger: str,
):
  summarizer = _Summarizer()
  app, model = _app(summarizer, trigger)
  runner = await _runner(app)

  events = await _run(runner, _text('_queue_export'))
  (call,) = [c for e in events for c in e.get_function_calls()]
  for turn in range(3):
    await _run(runner, _text(f'later {turn}'))
  result = types.FunctionResponse(
      id=call.id, name=call.name, response={'table': 't', 'status': 'done'}
  )
  await _run(
      runner,
      types.Content(role='user', parts=[types.Part(function_response=result)]),
  )

  for sent in model.requests:
    assert _response_ids(sent) <= _call_ids(sent)


@pytest.mark.parametrize('trigger', TRIGGERS)
@pytest.mark.parametrize('unanswered', UNANSWERED)
@pytest.mark.asyncio
async def test_unanswered_long_running_call_is_not_sent_without_its_result(
    unanswered: str, trigger: str
):
  summarizer = _Summarizer()
  app, model = _app(summarizer, trigger)
  runner = await _runner(app)

  if unanswered == 'worker_died':
    await _run_until_the_call(runner, _text(UNANSWERED[unanswered]))
  else:
    await _run(runner, _text(UNANSWERED[unanswered]))
  asked = len(model.requests)
  for turn in range(2):
    await _run(runner, _text(f'later {turn}'))

  later = model.requests[asked:]
  assert len(later) == 2
  for sent in later:
    assert _call_ids(sent) <= _response_ids(sent)


def _event(invocation_id: str, *, call: bool, long_running: bool) -> Event:
  if call:
    part = types.Part(
        function_call=types.FunctionCall(id='c', name='_queue_export')
    )
  else:
    part = types.Part(text='hi')
  return Event(
      author='agent' if call else 'user',
      invocation_id=invocation_id,
      content=types.Content(role='model' if call else 'user', parts=[part]),
      long_running_tool_ids={'c'} if long_running else None,
  )


@pytest.mark.parametrize('invocation_id', ['', 'inv-1'])
def test_long_running_call_in_flight_stays_protected(invocation_id: str):
  """A call of the newest invocation, or of an event without one, may still be
  answered: it is never dead."""
  events = [_event(invocation_id, call=True, long_running=True)]
  if invocation_id:
    events.append(_event(invocation_id, call=False, long_running=False))

  dead = _provably_dead_call_ids(
      events, all_events=events, newest_invocation_id='inv-1'
  )

  assert dead == set()


def test_unanswered_long_running_call_of_an_earlier_invocation_is_dead():
  events = [
      _event('inv-1', call=True, long_running=True),
      _event('inv-2', call=False, long_running=False),
  ]

  dead = _provably_dead_call_ids(
      events, all_events=events, newest_invocation_id='inv-2'
  )

  assert dead == {'c'}


@pytest.mark.parametrize('pairs_by_id', [True, False])
@pytest.mark.asyncio
async def test_pending_long_running_call_is_sent_only_to_a_model_that_takes_it(
    monkeypatch: pytest.MonkeyPatch, pairs_by_id: bool
):
  """The lookup answers at once and the model is asked again within the same
  invocation, while the queued export still waits for its result."""
  monkeypatch.setattr(
      _contents, '_is_id_pairing_model', lambda model: pairs_by_id
  )
  app, model = _app(_Summarizer(), 'window_overlap0')
  runner = await _runner(app)

  await _run(runner, _text('parallel'))

  assert len(model.requests) == 2
  sent = model.requests[-1]
  assert 'call-1' in _response_ids(sent)
  if pairs_by_id:
    assert _call_ids(sent) <= _response_ids(sent)
  else:
    assert 'call-2' in _call_ids(sent)


@pytest.mark.parametrize(
    ('opened_by', 'newest'),
    [('', ''), ('', 'inv-2'), ('inv-2', 'inv-2')],
)
def test_pending_long_running_call_of_the_newest_invocation_is_sent(
    opened_by: str, newest: str
):
  """A call its own invocation (or an event without one) may still answer is
  left in the request, as before."""
  events = [
      _event(opened_by, call=True, long_running=True),
      _event(newest, call=False, long_running=False),
  ]

  assert _rearranger.drop_orphaned_function_calls(events) == events


def test_unanswered_long_running_call_of_an_earlier_invocation_is_dropped():
  later = _event('inv-2', call=False, long_running=False)
  events = [_event('inv-1', call=True, long_running=True), later]

  assert _rearranger.drop_orphaned_function_calls(events) == [later]


def test_a_model_that_pairs_by_id_is_sent_no_pending_long_running_call():
  events = [
      _event('inv-2', call=True, long_running=True),
      _event('inv-2', call=False, long_running=False),
  ]

  kept = _rearranger.drop_orphaned_function_calls(events, pairs_by_id=True)

  assert kept == events[1:]
