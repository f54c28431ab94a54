"""The scripted model: answers reply by reply, records each input, then answers plainly."""

from __future__ import annotations

import json
from typing import Any

import pytest
from agents import Agent, RunConfig, Runner
from openai.types.responses import ResponseCompletedEvent

from approval_compaction.openai_agents.model import ScriptedModel, assistant_message, function_call
from approval_compaction.study.items import to_item, to_items

CALL = function_call("protected_lookup", {"value": "v", "a": 1}, call_id="pending-c1")
FIRST, SECOND = assistant_message("one", item_id="m1"), assistant_message("two", item_id="m2")
USER = [{"role": "user", "content": "q"}]


def two_steps(capture: bool = True) -> ScriptedModel:
    return ScriptedModel(steps=[[CALL, FIRST], [SECOND]], capture=capture)


def plain(items: list[object]) -> list[dict[str, object]]:
    return [to_item(item) for item in items]


async def test_model_answers_each_call_with_the_next_step_as_sdk_items() -> None:
    model = two_steps()
    first = await model.get_response(None, "q")
    second = await model.get_response("sys", USER, None, [], None, [], None)
    assert plain(first.output) == [CALL, FIRST] and plain(second.output) == [SECOND]
    assert type(first.output[0]).__name__ == "ResponseFunctionToolCall"
    assert (first.response_id, second.response_id) == ("resp-1", "resp-2")
    assert model.calls == 2


async def test_model_records_every_input_as_plain_items() -> None:
    model = two_steps()
    await model.get_response(None, "q")
    await model.get_response(None, [*USER, CALL])
    assert model.requests == [to_items("q"), to_items([*USER, CALL])]
    assert all(type(item) is dict for request in model.requests for item in request)


async def test_model_without_capture_records_nothing_but_still_answers() -> None:
    model = two_steps(capture=False)
    assert plain((await model.get_response(None, "q")).output) == [CALL, FIRST]
    assert model.requests == [] and model.calls == 1


async def test_model_accepts_keyword_arguments_newer_interfaces_add() -> None:
    model = two_steps()
    response = await model.get_response(
        None, "q", model_settings=None, tools=[], previous_response_id=None, prompt=None
    )
    assert plain(response.output) == [CALL, FIRST]


@pytest.mark.parametrize("streamed", [False, True], ids=["get_response", "stream_response"])
async def test_model_past_its_plan_answers_plainly_numbered_by_call(streamed: bool) -> None:
    model = ScriptedModel(steps=[[FIRST]])
    await model.get_response(None, "q")
    if streamed:
        (event,) = [event async for event in model.stream_response(None, "again")]
        output = event.response.output
    else:
        output = (await model.get_response(None, "again")).output
    assert plain(output) == [assistant_message("answer 2", item_id="msg-2")]
    assert model.requests == [to_items("q"), to_items("again")] and model.calls == 2


async def test_model_plan_replaces_what_was_planned() -> None:
    model = two_steps()
    model.plan([SECOND])
    assert plain((await model.get_response(None, "q")).output) == [SECOND]
    model.plan([])
    assert plain((await model.get_response(None, "q")).output) == [
        assistant_message("answer 2", item_id="msg-2")
    ]


async def test_model_streams_one_completed_event_carrying_the_step() -> None:
    model = two_steps()
    events = [event async for event in model.stream_response(None, "q")]
    assert len(events) == 1
    (event,) = events
    assert isinstance(event, ResponseCompletedEvent) and event.type == "response.completed"
    assert plain(event.response.output) == [CALL, FIRST]
    assert event.response.id == "resp-1"
    assert model.requests == [to_items("q")]


def test_model_function_call_is_a_completed_call_with_sorted_json_arguments() -> None:
    assert (CALL["type"], CALL["call_id"], CALL["id"], CALL["status"]) == (
        "function_call",
        "pending-c1",
        "fc-pending-c1",
        "completed",
    )
    assert json.loads(CALL["arguments"]) == {"value": "v", "a": 1}
    assert list(json.loads(CALL["arguments"])) == ["a", "value"]  # sorted: stable payloads


def test_model_assistant_message_carries_its_text_and_id() -> None:
    assert (FIRST["type"], FIRST["id"], FIRST["role"], FIRST["status"]) == (
        "message",
        "m1",
        "assistant",
        "completed",
    )
    assert [part["text"] for part in FIRST["content"]] == ["one"]


@pytest.mark.parametrize("runner", ["run", "run_streamed"])
async def test_model_drives_the_sdk_runner_in_both_modes(runner: str) -> None:
    """The model is passed in to a real ``Agent``; the runner sees a plain final answer."""
    model = ScriptedModel(steps=[[assistant_message("hello", item_id="m1")]])
    agent: Agent[Any] = Agent(name="scripted", model=model)
    config = RunConfig(tracing_disabled=True)
    if runner == "run":
        result: Any = await Runner.run(agent, "hi", run_config=config)
    else:
        result = Runner.run_streamed(agent, "hi", run_config=config)
        async for _ in result.stream_events():
            pass
    assert result.final_output == "hello"
    assert model.requests == [to_items("hi")]
