"""The ADK driver: the study's scenario on one installed ``google-adk``, written as it was seen.

It runs inside the release's own environment (``google-adk`` and the standard library only,
nothing of this project), the way ``js/driver.mjs`` runs inside Node; ``adk/harness.py`` copies
it into a scratch folder and starts it there. It reads its settings and cases on standard input
and writes one JSON line per case or situation. It judges nothing: what it writes is ADK's own
objects as JSON (``Content``, ``Event``), which ``adk/items.py`` maps to the capture format in
one place.

The scenario: an ``LlmAgent`` with one ``FunctionTool(require_confirmation=True)``, a scripted
model (a ``BaseLlm`` subclass that records every ``LlmRequest.contents``) and a scripted
summariser (a ``BaseEventsSummarizer`` that records the events it is given), in an ``App``
with ``EventsCompactionConfig`` of the plan's kind. A case asks a question that pauses on
ADK's ``adk_request_confirmation`` call, crosses the state boundary (``memory``: the same
``InMemorySessionService``; ``json``: a ``DatabaseSessionService`` on a SQLite file, read back
by a second process that resumes), answers the confirmation, resumes, asks the next question,
then ``later`` plain questions. Nothing leaves the process: no network, no key.

With the plan's ``model`` set to ``responses``, the model is ADK's own OpenAI Responses
integration (``OpenAIResponsesLlm``, from 2.4.0) on an ``openai`` client whose base URL is the
plan's: the stand-in the harness serves on 127.0.0.1. Each request is the integration's, sent
over HTTP and answered (or refused) by the stand-in; the driver only picks, by the same script,
whether the model calls a tool (the stand-in's ``x-stand-in-reply`` header) and records the
contents it was handed. A key is never read: the client's is a placeholder.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import importlib
import importlib.metadata
import json
import logging
import os
import subprocess
import sys
import types as types_module
from typing import Any

from google.adk.agents import LlmAgent
from google.adk.agents.run_config import RunConfig, StreamingMode
from google.adk.events import Event
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.tools import FunctionTool
from google.genai import types

APP = "study"
USER = "user"
TOOL = "protected_lookup"
CONFIRMATION = "adk_request_confirmation"
PAUSING_QUESTION = "Please look up the protected record."
LONG_QUESTION = "Please start the long export."
LONG_TOOL = "long_export"
LATER = "Anything else to add? ({n})"
BETWEEN = 3  # the questions asked while a paused confirmation (or a long-running call) waits

# What the current stage saw: filled by the model, the summariser and the tool.
SEEN: dict[str, Any] = {"model_inputs": [], "compaction_inputs": [], "dispatches": 0}


# ---------------------------------------------------------------- the clock

EPOCH = 1_767_225_600.0  # 2026-01-01T00:00:00Z: each case's clock starts here
TICK = 1 / 64  # seconds between two readings: a float and a microsecond count both hold it exactly


class Clock:
    """ADK's clock inside the driver: each reading one ``TICK`` after the last.

    ADK stamps every event with the time and compacts by time ranges (an ``EventCompaction``
    keeps its first and last event's timestamps as floats). ``DatabaseSessionService`` keeps an
    event's timestamp to the microsecond, so on the wall clock a timestamp read back can fall a
    fraction of a microsecond before the range that covered it, and whether an event counts as
    compacted changed from run to run. On this clock every timestamp is a whole number of ticks,
    which the database keeps exactly: a run reads the same each time, as the in-memory service
    does on any clock.
    """

    def __init__(self) -> None:
        self.now = EPOCH

    def __call__(self) -> float:
        self.now += TICK
        return self.now


CLOCK = Clock()


class _ClockDatetime(datetime.datetime):
    """``datetime.datetime`` whose ``now()`` reads ``CLOCK`` (releases before ADK's own time
    provider stamp events with ``datetime.now()``)."""

    @classmethod
    def now(cls, tz: datetime.tzinfo | None = None) -> Any:
        return datetime.datetime.fromtimestamp(CLOCK(), tz)


def install_clock() -> None:
    """Point every clock ADK stamps events with at ``CLOCK``: its time provider from 1.28
    (``platform.time``), and before it ``datetime.now()`` in the event's default and the flow
    that re-stamps the model's response."""
    with contextlib.suppress(ImportError):
        from google.adk.platform import time as platform_time

        platform_time.set_time_provider(CLOCK)
    from google.adk.events import event as event_module
    from google.adk.flows.llm_flows import base_llm_flow

    if getattr(event_module, "datetime", None) is datetime.datetime:
        event_module.datetime = _ClockDatetime
    if getattr(base_llm_flow, "datetime", None) is datetime:
        base_llm_flow.datetime = types_module.SimpleNamespace(
            **{**vars(datetime), "datetime": _ClockDatetime}
        )


def dump(value: Any) -> Any:
    """An ADK or genai object as JSON-ready data (its own serialiser, camelCase off)."""
    return value.model_dump(mode="json", exclude_none=True)


# ---------------------------------------------------------------- the scripted parts


def protected_lookup(record: str) -> dict[str, str]:
    """Look up a protected record (it runs only once a human confirms it)."""
    SEEN["dispatches"] += 1
    return {"record": record, "status": "found"}


def long_export(table: str) -> dict[str, str]:
    """Start a long export; its result arrives later (a long-running tool)."""
    SEEN["dispatches"] += 1
    return {"table": table, "status": "pending"}


def _answers_tool(contents: list[types.Content]) -> bool:
    last = contents[-1] if contents else None
    return bool(last and any(p.function_response for p in last.parts or []))


def _asked(contents: list[types.Content]) -> str:
    """The question that makes the model call a tool, when the last content asks it."""
    last = contents[-1] if contents else None
    for question in (PAUSING_QUESTION, LONG_QUESTION):
        if last and any(p.text and question in p.text for p in last.parts or []):
            return question
    return ""


class ScriptedModel(BaseLlm):
    """Answers each request by its last content: the pausing question with a call to the
    protected tool (ids ``call-1``, ``call-2``... as the plan numbers them), anything else with
    text. Every request's contents are recorded; its usage reports a prompt of one token per
    four characters of contents (ADK's own estimate), so token thresholds see a count."""

    model: str = "scripted"
    calls: int = 0

    async def generate_content_async(self, llm_request: Any, stream: bool = False) -> Any:
        contents = list(llm_request.contents or [])
        SEEN["model_inputs"].append([dump(c) for c in contents])
        size = sum(len(json.dumps(dump(c))) for c in contents)
        usage = types.GenerateContentResponseUsageMetadata(
            prompt_token_count=max(1, size // 4),
            candidates_token_count=5,
            total_token_count=max(1, size // 4) + 5,
        )
        asked = _asked(contents)
        if asked and not _answers_tool(contents):
            self.calls += 1
            name, args = (
                (TOOL, {"record": "r-1"})
                if asked == PAUSING_QUESTION
                else (LONG_TOOL, {"table": "t-1"})
            )
            call = types.FunctionCall(id=f"call-{self.calls}", name=name, args=args)
            parts = [types.Part(function_call=call)]
            yield LlmResponse(
                content=types.Content(role="model", parts=parts), usage_metadata=usage
            )
            return
        text = "Done." if _answers_tool(contents) else "Noted."
        if stream:
            part = types.Part(text=text[:2])
            yield LlmResponse(content=types.Content(role="model", parts=[part]), partial=True)
        final = types.Content(role="model", parts=[types.Part(text=text)])
        yield LlmResponse(content=final, usage_metadata=usage)


REPLY_HEADER = "x-stand-in-reply"  # wire.standin's: what the stand-in's model answers with
CONVERSATION_HEADER = "x-stand-in-conversation"  # wire.standin's: one numbering per case


def reply_for(contents: list[types.Content]) -> str:
    """What the stand-in's model answers with, by the scripted model's rule: a call to the
    tool the last content asks for, else a message."""
    asked = _asked(contents)
    if asked and not _answers_tool(contents):
        return f"call:{TOOL if asked == PAUSING_QUESTION else LONG_TOOL}"
    return "message"


def responses_model(plan: dict[str, Any], conversation: str) -> Any:
    """ADK's ``OpenAIResponsesLlm`` on the stand-in (``plan["base_url"]``), recording each
    request's contents; ``conversation`` names the case to the stand-in."""
    try:
        from google.adk.integrations.openai import OpenAIResponsesLlm
    except ImportError:  # 2.4.0 to 2.9.x ship it among the labs
        from google.adk.labs.openai import OpenAIResponsesLlm
    from openai import AsyncOpenAI

    class StandInModel(OpenAIResponsesLlm):
        async def generate_content_async(self, llm_request: Any, stream: bool = False) -> Any:
            contents = list(llm_request.contents or [])
            SEEN["model_inputs"].append([dump(c) for c in contents])
            self.extra_request_args = {"extra_headers": {REPLY_HEADER: reply_for(contents)}}
            async for response in super().generate_content_async(llm_request, stream):
                yield response

    client = AsyncOpenAI(
        base_url=plan["base_url"],
        api_key="stand-in",
        max_retries=0,
        default_headers={CONVERSATION_HEADER: conversation},
    )
    return StandInModel(model="gpt-5", client=client)


def http_outcome(error: BaseException) -> dict[str, Any]:
    """The HTTP status, refused path and the API's message of an ``openai`` status error
    (nothing for any other error)."""
    status = getattr(error, "status_code", None)
    if not isinstance(status, int):
        return {}
    request = getattr(getattr(error, "response", None), "request", None)
    body = getattr(error, "body", None)
    said = body.get("message") if isinstance(body, dict) else None
    return {
        "http_status": status,
        "endpoint": str(getattr(getattr(request, "url", None), "path", "") or ""),
        "api_message": " ".join(said.split()) if isinstance(said, str) else "",
    }


def summary_text(events: list[Event]) -> str:
    """The scripted summary: a fixed text, and the question the window ends on when nothing
    answered it yet (a real summary keeps the user's open request, so a model reading it acts
    on it: a token threshold can compact the question before the model sees it)."""
    last = next((e for e in reversed(events) if e.content and e.content.parts), None)
    texts = [p.text for p in (last.content.parts if last and last.content else []) if p.text]
    if last is not None and last.author == "user" and texts:
        return f"Summary. The user asks: {' '.join(texts)}"
    return "Summary."


def summariser_class() -> Any:
    """The scripted summariser, a ``BaseEventsSummarizer`` (made once the release is known to
    have one): it records the events it is given and summarises them as ADK's own
    ``LlmEventSummarizer`` shapes its event (author ``user``, an ``EventCompaction`` from the
    first event's timestamp to the last's), with a fixed text."""
    from google.adk.apps.base_events_summarizer import BaseEventsSummarizer
    from google.adk.events.event_actions import EventActions, EventCompaction

    class ScriptedSummariser(BaseEventsSummarizer):
        async def maybe_summarize_events(self, *, events: list[Event]) -> Event | None:
            SEEN["compaction_inputs"].append([event_json(e) for e in events])
            if not events:
                return None
            summary = types.Content(role="model", parts=[types.Part(text=summary_text(events))])
            compaction = EventCompaction(
                start_timestamp=events[0].timestamp,
                end_timestamp=events[-1].timestamp,
                compacted_content=summary,
            )
            return Event(
                author="user",
                actions=EventActions(compaction=compaction),
                invocation_id=Event.new_id(),
            )

    return ScriptedSummariser


# ---------------------------------------------------------------- the app

# The compaction kinds: EventsCompactionConfig's two triggers, each at two settings.
KINDS: dict[str, dict[str, int]] = {
    "window-0": {"compaction_interval": 1, "overlap_size": 0},
    "window-1": {"compaction_interval": 1, "overlap_size": 1},
    "tokens-0": {"token_threshold": 1, "event_retention_size": 0},
    "tokens-2": {"token_threshold": 1, "event_retention_size": 2},
}


# What a release that requires a field the kind does not set is given, so that it runs the
# kind as near as it can: the token threshold's releases 1.25.0 to 2.5.0 require the sliding
# window's fields beside it; a window of a million invocations is one no run reaches, so the
# threshold alone compacts, as it does on the releases that let it stand alone.
REQUIRED_BESIDE: dict[str, int] = {"compaction_interval": 1_000_000, "overlap_size": 0}


class NotApplicable(Exception):
    """The release cannot express the plan (a setting it does not have)."""


def kind_settings(kind: str) -> dict[str, int]:
    """``window-N``: a window of one invocation with an overlap of N; ``tokens-N``: a threshold
    of one token keeping N raw events (``KINDS`` names the study's four; the search draws N)."""
    trigger, _, size = kind.rpartition("-")
    if trigger == "window" and size.isdigit():
        return {"compaction_interval": 1, "overlap_size": int(size)}
    if trigger == "tokens" and size.isdigit():
        return {"token_threshold": 1, "event_retention_size": int(size)}
    raise NotApplicable(f"no compaction kind {kind!r}")


def compaction_config(kind: str) -> tuple[Any, str]:
    """``EventsCompactionConfig`` of the kind with the scripted summariser, as the release
    accepts it, and what was added to it ("" when nothing): a field the release requires that
    the kind does not set is given its ``REQUIRED_BESIDE`` value; a setting the release does
    not have (or any other rejection) makes the kind not applicable, field by field."""
    from google.adk.apps.app import EventsCompactionConfig

    settings = kind_settings(kind)
    try:
        return EventsCompactionConfig(summarizer=summariser_class()(), **settings), ""
    except Exception as error:  # pydantic's ValidationError: what the release rejects
        missing = required(error)
        if not missing or not set(missing) <= set(REQUIRED_BESIDE):
            raise NotApplicable(
                f"EventsCompactionConfig rejects {kind}: {rejected(error)}"
            ) from None
    added = {name: REQUIRED_BESIDE[name] for name in missing}
    try:
        config = EventsCompactionConfig(summarizer=summariser_class()(), **settings, **added)
    except Exception as error:
        raise NotApplicable(f"EventsCompactionConfig rejects {kind}: {rejected(error)}") from None
    return config, ", ".join(f"{name}={value}" for name, value in added.items())


def required(error: Exception) -> list[str]:
    """The fields a validation error says are required, when that is all it says (else [])."""
    errors = getattr(error, "errors", None)
    found = errors() if callable(errors) else []
    if not found or any(e.get("type") != "missing" for e in found):
        return []
    return [".".join(map(str, e["loc"])) for e in found]


def make_app(plan: dict[str, Any], compaction: bool, calls: int, conversation: str) -> Any:
    from google.adk.apps import App
    from google.adk.tools.long_running_tool import LongRunningFunctionTool

    if plan.get("model") == "responses":
        model = responses_model(plan, conversation)
    else:
        model = ScriptedModel(calls=calls)
    tools = [
        FunctionTool(protected_lookup, require_confirmation=True),
        LongRunningFunctionTool(long_export),
    ]
    agent = LlmAgent(name="assistant", model=model, instruction="Help.", tools=tools)
    config, added = compaction_config(plan["kind"]) if compaction else (None, "")
    return App(name=APP, root_agent=agent, events_compaction_config=config), model, added


def rejected(error: Exception) -> str:
    """What a validation error rejects, field by field (``token_threshold: Extra inputs are
    not permitted``), or its type when it names none."""
    errors = getattr(error, "errors", None)
    found = errors() if callable(errors) else []
    named = [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in found if e.get("loc")]
    return "; ".join(named) or type(error).__name__


def database_url(path: str) -> str:
    """The SQLite file's URL as the release's DatabaseSessionService takes it (async from
    the release whose service is async)."""
    from google.adk.sessions import database_session_service as module

    source = open(module.__file__).read()
    return f"sqlite+aiosqlite:///{path}" if "create_async_engine" in source else f"sqlite:///{path}"


def session_service(boundary: str, path: str) -> Any:
    if boundary == "memory":
        return InMemorySessionService()
    from google.adk.sessions import DatabaseSessionService

    return DatabaseSessionService(db_url=database_url(path))


def effective(events: list[Event]) -> tuple[list[Event], str]:
    """The session's events as the release reads them back for the model: each compaction
    event in place of the events it covers (the release's own function), or as stored when
    the release has none; and what that function raised on them ("" when nothing: a
    release whose database hands compactions back as plain dicts raises here, as its own
    prompt assembly does)."""
    for name in (
        "google.adk.flows.llm_flows.context._compaction",
        "google.adk.flows.llm_flows.contents",
    ):
        with contextlib.suppress(ImportError):
            module = importlib.import_module(name)
            process = getattr(module, "_process_compaction_events", None)
            if process is not None:
                try:
                    return list(process(events)), ""
                except Exception as error:  # the release's own reading fails on its store
                    return list(events), f"{type(error).__name__}: {error}"
    return list(events), ""


def event_json(event: Event) -> dict[str, Any]:
    """One event as the driver records it: its content, its compaction, the confirmations it
    requested and its long-running ids (no id, invocation id or timestamp: they vary)."""
    out: dict[str, Any] = {"author": event.author}
    if event.content is not None:
        out["content"] = dump(event.content)
    actions = event.actions
    compaction = actions.compaction if actions is not None else None
    if isinstance(compaction, dict):  # a release whose database hands it back as a dict
        content = compaction.get("compacted_content") or compaction.get("compactedContent")
        out["compaction"] = content if isinstance(content, dict) else {}
    elif compaction is not None:
        out["compaction"] = dump(compaction.compacted_content)
    confirmations = getattr(actions, "requested_tool_confirmations", None) if actions else None
    if confirmations:
        out["requested_tool_confirmations"] = sorted(confirmations)
    if event.long_running_tool_ids:
        out["long_running_tool_ids"] = sorted(event.long_running_tool_ids)
    if event.partial:
        out["partial"] = True
    return out


# ---------------------------------------------------------------- one conversation


class Conversation:
    """One session on one app: each turn a stage as the study records it."""

    def __init__(
        self,
        plan: dict[str, Any],
        case: dict[str, str],
        service: Any,
        session_id: str = "s-1",
        calls: int = 0,
        topic: str = "",
    ):
        self.case = case
        conversation = f"{plan['label']}-{plan['kind']}-{topic or session_id}"
        made = make_app(plan, case["compaction"] == "on", calls, conversation)
        self.app, self.model, self.configured = made
        self.service = service
        self.runner = Runner(app=self.app, session_service=self.service)
        streamed = case["runner"] == "run_streamed"
        self.config = RunConfig(streaming_mode=StreamingMode.SSE) if streamed else None
        self.session_id = session_id
        self.warning = ""  # what the release's reading of the stored history raised

    async def create(self) -> None:
        await self.service.create_session(app_name=APP, user_id=USER, session_id=self.session_id)

    async def stored(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        session = await self.service.get_session(
            app_name=APP, user_id=USER, session_id=self.session_id
        )
        events = list(session.events) if session else []
        read, self.warning = effective(events)
        return [event_json(e) for e in read], [event_json(e) for e in events]

    async def turn(
        self, name: str, message: types.Content, die_after_call: bool | int = False
    ) -> tuple[dict[str, Any], list[Any]]:
        """Run one turn; its stage and the calls it ended waiting on (confirmation requests,
        and long-running calls). ``die_after_call``: the worker dies as soon as the model's
        call is stored, before any tool runs (the ``lost`` situation); a number N: as soon as
        the model's Nth reply with calls is stored (the tools of the earlier ones ran)."""
        SEEN.update(model_inputs=[], compaction_inputs=[], dispatches=0)
        waiting: list[Any] = []
        outcome = "ok"
        http: dict[str, Any] = {}
        replies = 0  # the model's replies with calls so far
        try:
            kwargs: dict[str, Any] = {}
            if self.config is not None:
                kwargs["run_config"] = self.config
            run = self.runner.run_async(
                user_id=USER, session_id=self.session_id, new_message=message, **kwargs
            )
            async for event in run:
                calls = [] if event.partial else event.get_function_calls()
                replies += 1 if any(c.name != CONFIRMATION for c in calls) else 0
                if die_after_call and calls and replies >= int(die_after_call):
                    await run.aclose()
                    break
                long_ids = event.long_running_tool_ids or set()
                waiting += [
                    c
                    for c in calls
                    if c.name == CONFIRMATION or (c.name == LONG_TOOL and c.id in long_ids)
                ]
        except Exception as error:  # what the user's code meets
            outcome = f"{type(error).__module__.split('.')[0]}.{type(error).__name__}: {error}"
            outcome = " ".join(outcome.split())[:500]
            http = http_outcome(error)
        await settled()
        stored, events = await self.stored()
        stage = {
            "name": name,
            "stored": stored,
            "model_inputs": SEEN["model_inputs"],
            "compaction_inputs": SEEN["compaction_inputs"],
            "dispatches": SEEN["dispatches"],
            "interruptions": [dump(c) for c in waiting],
            "state_items": {"events": events},
            "outcome": outcome,
            **http,
            "warnings": [self.warning] if self.warning else [],
        }
        return stage, waiting

    async def round_trip(self) -> dict[str, Any]:
        stored, events = await self.stored()
        warnings = [self.warning] if self.warning else []
        return {
            "name": "round_trip",
            "stored": stored,
            "state_items": {"events": events},
            "warnings": warnings,
        }

    async def close(self) -> None:
        close = getattr(self.runner, "close", None)
        if close is not None:
            with contextlib.suppress(Exception):
                await close()


async def dispose(service: Any) -> None:
    """Close a database service's engine (its connections, and their threads)."""
    engine = getattr(service, "db_engine", None)
    close = getattr(engine, "dispose", None)
    if close is not None:
        result = close()
        if asyncio.iscoroutine(result):
            await result


async def settled(timeout: float = 60.0) -> None:
    """Wait for the tasks a turn left running: releases that compact in a task of its own
    (``asyncio.create_task`` after the invocation, as 1.16 does) finish it here, so what the
    turn triggered is the turn's, as a user's next turn would find it done."""
    current = asyncio.current_task()
    pending = [t for t in asyncio.all_tasks() if t is not current and not t.done()]
    if pending:
        await asyncio.wait(pending, timeout=timeout)


def user_text(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=text)])


def decision(calls: list[Any], approve: bool) -> types.Content:
    """The user's answer to each confirmation call, as ADK's docs show it."""
    parts = [
        types.Part(
            function_response=types.FunctionResponse(
                id=call.id, name=CONFIRMATION, response={"confirmed": approve}
            )
        )
        for call in calls
    ]
    return types.Content(role="user", parts=parts)


async def after_pause(
    conversation: Conversation, case: dict[str, str], waiting: list[Any], later: int
) -> dict[str, Any]:
    """The round trip's reading, the resume, the next turn and the later turns."""
    stages = [await conversation.round_trip()]
    approvals = 0
    if waiting:
        approve = case["decision"] == "approve"
        approvals = len(waiting) if approve else 0
        stage, _ = await conversation.turn("resume", decision(waiting, approve))
        stages.append(stage)
    stage, _ = await conversation.turn("next_turn", user_text("And the next question?"))
    stages.append(stage)
    later_turns = []
    for n in range(1, later + 1):
        stage, paused = await conversation.turn("next_turn", user_text(LATER.format(n=n)))
        later_turns.append({"stage": stage, "outcome": "paused" if paused else "answered"})
    dispatches = sum(s.get("dispatches", 0) for s in stages)
    return {
        "stages": stages,
        "approvals": approvals,
        "dispatches": dispatches,
        "later": later_turns,
    }


def record(plan: dict[str, Any], case: dict[str, str]) -> dict[str, Any]:
    """A case's record before it runs."""
    return {
        "case": case,
        "kind": plan["kind"],
        "model": plan.get("model", "scripted"),
        "sdk_version": version(),
        "stages": [],
        "approvals": 0,
        "dispatches": 0,
        "later": [],
    }


def failed(error: BaseException) -> str:
    return f"{type(error).__name__}: {' '.join(str(error).split())[:300]}"


async def pause_case(
    plan: dict[str, Any], case: dict[str, str], number: int, service: Any
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A case up to its pause, on ``service`` (its own session), its clock from ``EPOCH``:
    the record so far, and (for a ``json`` boundary) what the second process needs to go on;
    a ``memory`` case runs to its end here."""
    CLOCK.now = EPOCH
    out = record(plan, case)
    try:
        conversation = Conversation(plan, case, service, f"s-{number}")
    except NotApplicable as why:
        return {**out, "not_applicable": str(why)}, None
    if conversation.configured:  # what the release required beside the kind's settings
        out["configured"] = conversation.configured
    rest: dict[str, Any] | None = None
    try:
        await conversation.create()
        pause, waiting = await conversation.turn("pause", user_text(PAUSING_QUESTION))
        out["stages"], out["dispatches"] = [pause], pause["dispatches"]
        if case["state_boundary"] == "memory":
            merge(out, await after_pause(conversation, case, waiting, plan.get("later", 0)))
        else:
            rest = {
                "plan": plan,
                "case": case,
                "session_id": conversation.session_id,
                "calls": getattr(conversation.model, "calls", 0),
                "waiting": [dump(c) for c in waiting],
                "clock": CLOCK.now,
            }
    except Exception as error:  # the driver failed: recorded, the next case still runs
        out["error"] = failed(error)
    finally:
        await conversation.close()
    return out, rest


def merge(out: dict[str, Any], rest: dict[str, Any]) -> None:
    """The stages after the pause, added to the case's record."""
    out["stages"] += rest["stages"]
    out["approvals"] = rest["approvals"]
    out["dispatches"] += rest["dispatches"]
    out["later"] = rest["later"]
    if rest.get("error"):
        out["error"] = rest["error"]


async def pause_cases(
    plan: dict[str, Any],
    numbered: list[tuple[int, dict[str, str]]],
    boundary: str,
    second: SecondProcess | None = None,
) -> list[tuple[int, dict[str, Any], dict[str, Any] | None]]:
    """The cases of one state boundary, each to its pause (``memory`` ones to their end):
    ``json`` ones on one ``DatabaseSessionService`` over the plan's SQLite file, each case in
    a session of its own, each handed to ``second`` once paused."""
    service = session_service(boundary, database_path(plan))
    ran = []
    try:
        for n, case in numbered:
            out, rest = await pause_case(plan, case, n, service)
            if rest is not None and second is not None:
                second.send(rest)
            ran.append((n, out, rest))
    finally:
        await dispose(service)
    return ran


def database_path(plan: dict[str, Any]) -> str:
    return os.path.join(plan["scratch"], f"{plan['label']}.db")


def broken(specs: list[dict[str, Any]], error: str) -> list[dict[str, Any]]:
    return [
        {"stages": [], "approvals": 0, "dispatches": 0, "later": [], "error": error} for _ in specs
    ]


class SecondProcess:
    """A second process that opens the plan's database, reads each ``json`` case's session and
    goes on from its pause, while this one pauses the next case: ``send`` hands it a paused
    case, ``collect`` waits for it and gives each case's continuation, in order.

    It is a fork of this one, made before this one opens the database (so no connection or
    thread of this one's crosses): it starts with what this one imported and shares no object
    with it; its service, engine and connections are its own. Where ``os.fork`` is missing, a
    new interpreter resumes every case at ``collect``.
    """

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.pid = 0
        if not hasattr(os, "fork"):
            return
        sys.stdout.flush()
        specs_read, specs_write = os.pipe()
        lines_read, lines_write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the second process
            os.close(specs_write)
            os.close(lines_read)
            try:
                with os.fdopen(specs_read) as specs, os.fdopen(lines_write, "w") as lines:
                    asyncio.run(resume_each(specs, lines))
            finally:
                os._exit(0)
        os.close(specs_read)
        os.close(lines_write)
        self.specs = os.fdopen(specs_write, "w")
        self.lines = os.fdopen(lines_read)

    def send(self, spec: dict[str, Any]) -> None:
        self.sent.append(spec)
        if self.pid:
            self.specs.write(json.dumps(spec) + "\n")
            self.specs.flush()

    def collect(self) -> list[dict[str, Any]]:
        if not self.pid:
            return interpreter(self.sent) if self.sent else []
        self.specs.close()
        with self.lines:
            lines = [json.loads(line) for line in self.lines if line.strip()]
        os.waitpid(self.pid, 0)
        if len(lines) != len(self.sent):
            return broken(self.sent, "the second process ended before every case was resumed")
        return lines


async def resume_each(specs: Any, lines: Any) -> None:
    """In the second process: each paused case as it arrives, on one service over the plan's
    database (opened when the first arrives), its continuation written as one line."""
    service = None
    try:
        for line in specs:
            spec = json.loads(line)
            if service is None:
                service = session_service("json", database_path(spec["plan"]))
            lines.write(json.dumps(await second(spec, service)) + "\n")
            lines.flush()
    finally:
        if service is not None:
            await dispose(service)


def interpreter(specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The second process as a new interpreter running this file."""
    done = subprocess.run(
        [sys.executable, __file__, "--second"],
        input=json.dumps(specs),
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return broken(specs, f"the second process exited with {done.returncode}: {last}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


# ---------------------------------------------------------------- liveness situations

CONTROL = {"runner": "run", "decision": "approve", "compaction": "on", "state_boundary": "memory"}


def answer(calls: list[Any]) -> types.Content:
    """What the application sends when the calls it waited on are answered: the confirmation
    (approved), or the long-running tool's final result."""
    parts = []
    for call in calls:
        response: dict[str, Any]
        if call.name == CONFIRMATION:
            response = {"confirmed": True}
        else:
            response = {"table": "t-1", "status": "done"}
        parts.append(
            types.Part(
                function_response=types.FunctionResponse(
                    id=call.id, name=call.name, response=response
                )
            )
        )
    return types.Content(role="user", parts=parts)


async def run_situation(plan: dict[str, Any], name: str) -> dict[str, Any]:
    """One liveness situation, then ``later`` plain questions (compaction on throughout):
    ``abandoned`` (the confirmation is never answered), ``lost`` (the worker dies once the
    model's call is stored; a new runner goes on over the same session service), ``resumed``
    (answered late, after ``BETWEEN`` questions), ``long_running`` (a long-running tool's result
    arrives late, after ``BETWEEN`` questions), ``clean`` (nothing pending, the control)."""
    CLOCK.now = EPOCH
    service = InMemorySessionService()
    out: dict[str, Any] = {
        "scenario": name,
        "kind": plan["kind"],
        "model": plan.get("model", "scripted"),
        "sdk_version": version(),
        "stages": [],
        "later": [],
        "wanted": plan.get("later", 0),
    }
    try:
        conversation = Conversation(plan, CONTROL, service, topic=name)
    except NotApplicable as why:
        return {**out, "not_applicable": str(why)}
    if conversation.configured:
        out["configured"] = conversation.configured
    try:
        await conversation.create()
        stages, resumed = [], False
        if name in ("abandoned", "resumed"):
            stage, waiting = await conversation.turn("pause", user_text(PAUSING_QUESTION))
            stages.append(stage)
        elif name == "long_running":
            stage, waiting = await conversation.turn("pause", user_text(LONG_QUESTION))
            stages.append(stage)
        elif name == "clean":  # a question answered, nothing pending
            stage, waiting = await conversation.turn("next_turn", user_text("Hello?"))
            stages.append(stage)
        elif name == "lost":
            stage, waiting = await conversation.turn(
                "pause", user_text(PAUSING_QUESTION), die_after_call=True
            )
            stages.append(stage)
            # a new worker (app, model, runner) over the same store
            calls = getattr(conversation.model, "calls", 0)
            conversation = Conversation(plan, CONTROL, service, calls=calls, topic=name)
        if name in ("resumed", "long_running"):
            for n in range(1, BETWEEN + 1):
                stage, _ = await conversation.turn("next_turn", user_text(f"Meanwhile ({n})?"))
                stages.append(stage)
            stage, _ = await conversation.turn("resume", answer(waiting))
            stages.append(stage)
            resumed = True
        later = []
        for n in range(1, plan.get("later", 0) + 1):
            stage, paused = await conversation.turn("next_turn", user_text(LATER.format(n=n)))
            later.append({"stage": stage, "outcome": "paused" if paused else "answered"})
        out.update(stages=stages, later=later, resumed=resumed)
    except Exception as error:  # the driver failed: recorded, the next situation still runs
        out["error"] = f"{type(error).__name__}: {' '.join(str(error).split())[:300]}"
    finally:
        await conversation.close()
    return out


async def second(spec: dict[str, Any], service: Any) -> dict[str, Any]:
    """One ``json`` case after its pause, in the second process: the session read back from
    the database, the clock going on from where the pause left it."""
    CLOCK.now = spec["clock"]
    try:
        conversation = Conversation(
            spec["plan"], spec["case"], service, spec["session_id"], spec["calls"]
        )
    except Exception as error:
        return broken([spec], failed(error))[0]
    try:
        waiting = [types.FunctionCall(**c) for c in spec["waiting"]]
        return await after_pause(conversation, spec["case"], waiting, spec["plan"].get("later", 0))
    except Exception as error:
        return broken([spec], failed(error))[0]
    finally:
        await conversation.close()


async def seconds(specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every ``json`` case after its pause, on one service over the plan's database (the
    second process as a new interpreter)."""
    service = session_service("json", database_path(specs[0]["plan"]))
    try:
        return [await second(spec, service) for spec in specs]
    finally:
        await dispose(service)


async def situations(plan: dict[str, Any]) -> list[dict[str, Any]]:
    return [await run_situation(plan, name) for name in plan.get("situations", [])]


# ---------------------------------------------------------------- the search's steps

# The tools a searched conversation's agent carries, by the kind of call the model makes to each:
# a plain function, the confirmed one (the study's), a long-running tool that answers at once
# with its pending status, and one that returns nothing (ADK stores no answer: the result comes
# only when the application sends it).
STEP_TOOLS = {
    "function": "lookup",
    "confirm": TOOL,
    "long_running": "start_export",
    "long_running_deferred": "queue_export",
}
CONTINUE_TURNS = 3  # the plain questions of one ``continue`` step (the Python search's)
SCRIPT: list[list[dict[str, Any]]] = []  # the model's replies with calls still to come this turn


def lookup(record: str) -> dict[str, str]:
    """Look up a record (no confirmation)."""
    return {"record": record, "status": "found"}


def start_export(table: str) -> dict[str, str]:
    """Start a long export; it answers at once with its status, the result comes later."""
    return {"table": table, "status": "pending"}


def queue_export(table: str) -> None:
    """Queue a long export; nothing comes back until the result arrives."""
    return None


def step_call(call: dict[str, Any]) -> types.FunctionCall:
    """The model's call of one kind, its id the search's (``<kind>-<step>-<position>``)."""
    field = "table" if call["kind"].startswith("long_running") else "record"
    return types.FunctionCall(
        id=call["id"], name=STEP_TOOLS[call["kind"]], args={field: call["id"]}
    )


class StepModel(BaseLlm):
    """The search's scripted model: the step's replies with calls in order (each a list of
    ``{"id", "kind"}``), then text; every request's contents recorded, its usage reported as
    ``ScriptedModel`` reports it."""

    model: str = "scripted"

    async def generate_content_async(self, llm_request: Any, stream: bool = False) -> Any:
        contents = list(llm_request.contents or [])
        SEEN["model_inputs"].append([dump(c) for c in contents])
        size = sum(len(json.dumps(dump(c))) for c in contents)
        usage = types.GenerateContentResponseUsageMetadata(
            prompt_token_count=max(1, size // 4),
            candidates_token_count=5,
            total_token_count=max(1, size // 4) + 5,
        )
        if SCRIPT:
            parts = [types.Part(function_call=step_call(call)) for call in SCRIPT.pop(0)]
            yield LlmResponse(
                content=types.Content(role="model", parts=parts), usage_metadata=usage
            )
            return
        text = "Done." if _answers_tool(contents) else "Noted."
        if stream:
            part = types.Part(text=text[:2])
            yield LlmResponse(content=types.Content(role="model", parts=[part]), partial=True)
        final = types.Content(role="model", parts=[types.Part(text=text)])
        yield LlmResponse(content=final, usage_metadata=usage)


def step_app(settings: dict[str, Any]) -> Any:
    """The searched conversation's app: the four tools, ``StepModel``, the compaction of its
    ``mode`` (a kind, as ``compaction_config`` gives it; none for ``off``), resumable when the
    settings say so."""
    from google.adk.apps import App
    from google.adk.tools.long_running_tool import LongRunningFunctionTool

    tools = [
        FunctionTool(lookup),
        FunctionTool(protected_lookup, require_confirmation=True),
        LongRunningFunctionTool(start_export),
        LongRunningFunctionTool(queue_export),
    ]
    agent = LlmAgent(name="assistant", model=StepModel(), instruction="Help.", tools=tools)
    extra: dict[str, Any] = {}
    if settings["mode"] != "off":
        extra["events_compaction_config"], _added = compaction_config(settings["mode"])
    if settings.get("resumable"):
        try:
            from google.adk.apps import ResumabilityConfig
        except ImportError:
            raise NotApplicable("no ResumabilityConfig in this release") from None
        extra["resumability_config"] = ResumabilityConfig(is_resumable=True)
    return App(name=APP, root_agent=agent, **extra)


class StepConversation(Conversation):
    """One searched conversation: ``Conversation``'s turns on the search's app."""

    def __init__(self, settings: dict[str, Any], service: Any, runner: str = "run") -> None:
        self.case = {"runner": runner}
        self.app = step_app(settings)
        self.model = self.app.root_agent.model
        self.service = service
        self.runner = Runner(app=self.app, session_service=service)
        streamed = runner == "run_streamed"
        self.config = RunConfig(streaming_mode=StreamingMode.SSE) if streamed else None
        self.session_id = "s-1"
        self.warning = ""


def answers(calls: list[Any], decision: str) -> types.Content:
    """The application's answers, in one message: a confirmation's (``approve``, ``reject``,
    or ``mixed``: the first approved, the rest rejected), a long-running call's final result."""
    parts = []
    for n, call in enumerate(calls):
        if call.name == CONFIRMATION:
            confirmed = decision == "approve" or (decision == "mixed" and n == 0)
            response: dict[str, Any] = {"confirmed": confirmed}
        else:
            response = {"table": call.id, "status": "done"}
        reply = types.FunctionResponse(id=call.id, name=call.name, response=response)
        parts.append(types.Part(function_response=reply))
    return types.Content(role="user", parts=parts)


class Stepper:
    """A searched conversation taken one step at a time (``steps``): the session, what waits
    for the application (the confirmations each ``ask`` paused on, in order), and the
    long-running calls it answered."""

    def __init__(self, settings: dict[str, Any], scratch: str) -> None:
        self.settings = settings
        self.path = os.path.join(scratch, f"{settings['label']}.db")
        self.confirmations: list[list[Any]] = []
        self.finished: set[str] = set()
        self.service: Any = None

    def open(self, runner: str = "run") -> StepConversation:
        if self.service is None:
            self.service = session_service(self.settings["store"], self.path)
        return StepConversation(self.settings, self.service, runner)

    async def start(self) -> dict[str, Any]:
        CLOCK.now = EPOCH
        if os.path.exists(self.path):
            os.remove(self.path)
        try:
            await self.open().create()
        except NotApplicable as why:
            return {"not_applicable": str(why)}
        return {"sdk_version": version()}

    async def long_running(self) -> list[Any]:
        """Every long-running call the session holds whose final result was not sent yet."""
        session = await self.service.get_session(app_name=APP, user_id=USER, session_id="s-1")
        found = []
        for event in session.events if session else []:
            ids = event.long_running_tool_ids or set()
            found += [c for c in event.get_function_calls() if c.id in ids]
        return [c for c in found if c.id not in self.finished and c.name != CONFIRMATION]

    async def take(self, index: int, step: dict[str, Any]) -> dict[str, Any]:
        action, runner = step["action"], step.get("runner", "run")
        conversation = self.open(runner)
        stages, approvals, outcome = [], 0, "answered"
        try:
            if action == "ask":
                stage, paused = await self.ask(conversation, index, step)
                stages.append(stage)
                outcome = "died" if step.get("ending") == "die" else outcome
                outcome = "paused" if paused else outcome
            elif action == "decide":
                if step.get("boundary") == "process" and self.settings["store"] == "memory":
                    return {"not_applicable": "a second process cannot read a memory session"}
                if not self.confirmations:
                    return {"not_applicable": "no confirmation waits"}
                calls = self.confirmations.pop(0)
                decision = step.get("decision", "approve")
                approvals = sum(
                    1
                    for n, _ in enumerate(calls)
                    if decision == "approve" or (decision == "mixed" and n == 0)
                )
                if step.get("boundary") == "process":
                    stage = await self.elsewhere(runner, calls, decision)
                    conversation = self.open(runner)
                else:
                    stage, _ = await conversation.turn("resume", answers(calls, decision))
                stages.append(stage)
            elif action == "finish":
                calls = await self.long_running()
                if not calls:
                    return {"not_applicable": "no long-running call waits"}
                self.finished |= {c.id for c in calls}
                stage, _ = await conversation.turn("resume", answers(calls, "approve"))
                stages.append(stage)
            else:  # continue
                for n in range(1, CONTINUE_TURNS + 1):
                    stage, _ = await conversation.turn(
                        "next_turn", user_text(f"Anything else? ({index}.{n})")
                    )
                    stages.append(stage)
        finally:
            await conversation.close()
        if any(s.get("outcome", "ok") != "ok" for s in stages):
            outcome = "raised"
        return {
            "stages": stages,
            "outcome": outcome,
            "approvals": approvals,
            "confirmations": [[c.id for c in group] for group in self.confirmations],
            "long_running": [c.id for c in await self.long_running()],
        }

    async def ask(
        self, conversation: StepConversation, index: int, step: dict[str, Any]
    ) -> tuple[dict[str, Any], bool]:
        """A new question; the model's replies call the step's kinds (all in one reply when
        ``parallel``, else one reply each); with ``die`` the worker dies once the last is
        stored. Whether it paused on a confirmation."""
        calls = [
            {"id": f"{kind}-{index}-{n}", "kind": kind} for n, kind in enumerate(step["calls"])
        ]
        SCRIPT[:] = [calls] if step.get("parallel") else [[c] for c in calls]
        die = len(SCRIPT) if step.get("ending") == "die" and calls else False
        try:
            stage, waiting = await conversation.turn(
                "next_turn", user_text(f"Question {index}."), die_after_call=die
            )
        finally:
            SCRIPT.clear()
        asked = [c for c in waiting if c.name == CONFIRMATION]
        if asked:
            self.confirmations.append(asked)
        return stage, bool(asked)

    async def elsewhere(self, runner: str, calls: list[Any], decision: str) -> dict[str, Any]:
        """The answer sent by a second process over the session's database: this process lets
        its connections go, a fork opens its own and resumes, and its stage comes back."""
        await dispose(self.service)
        self.service = None
        sys.stdout.flush()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the second process: a loop, a service and connections of its own
            os.close(read)
            try:
                asyncio.set_event_loop(asyncio.new_event_loop())
                stage = asyncio.get_event_loop().run_until_complete(
                    self.resumed(runner, calls, decision)
                )
                with os.fdopen(write, "w") as out:
                    out.write(json.dumps({"stage": stage, "clock": CLOCK.now}))
            finally:
                os._exit(0)
        os.close(write)
        with os.fdopen(read) as given:
            text = given.read()
        os.waitpid(pid, 0)
        if not text:
            raise RuntimeError("the second process ended without an answer")
        done = json.loads(text)
        CLOCK.now = done["clock"]
        return dict(done["stage"])

    async def resumed(self, runner: str, calls: list[Any], decision: str) -> dict[str, Any]:
        conversation = self.open(runner)
        try:
            stage, _ = await conversation.turn("resume", answers(calls, decision))
        finally:
            await conversation.close()
            await dispose(self.service)
        return stage

    async def stop(self) -> None:
        if self.service is not None:
            await dispose(self.service)
            self.service = None


def steps(lines: Any, out: Any) -> None:
    """The search's conversations, one request a line on ``lines`` (``start`` with the
    settings, ``step`` with its index and step, ``stop``), one answer a line on ``out``."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    stepper: Stepper | None = None
    for line in lines:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            if request["op"] == "version":
                answer = {"sdk_version": version()}
            elif request["op"] == "start":
                if stepper is not None:
                    loop.run_until_complete(stepper.stop())
                stepper = Stepper(request["settings"], request["scratch"])
                answer = loop.run_until_complete(stepper.start())
            elif request["op"] == "step":
                assert stepper is not None
                answer = loop.run_until_complete(stepper.take(request["index"], request["step"]))
            else:
                if stepper is not None:
                    loop.run_until_complete(stepper.stop())
                stepper, answer = None, {}
        except Exception as error:  # the driver failed: said, and the next request still runs
            answer = {"error": failed(error)}
        out.write(json.dumps(answer) + "\n")
        out.flush()


def version() -> str:
    return importlib.metadata.version("google-adk")


def import_database() -> None:
    """Import what ``DatabaseSessionService`` runs on (importing starts no thread), so a second
    process forked after it starts with it, as it starts with ADK."""
    for name in ("google.adk.sessions.database_session_service", "aiosqlite"):
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def main() -> None:
    """The plan's cases: the ``memory`` ones, then the ``json`` ones, each resumed by a second
    process as soon as it is paused; each case's line in the plan's order; then the
    situations."""
    plan = json.loads(sys.stdin.read())
    numbered = list(enumerate(plan.get("cases", [])))
    memory = [(n, c) for n, c in numbered if c["state_boundary"] == "memory"]
    stored = [(n, c) for n, c in numbered if c["state_boundary"] != "memory"]
    ran = asyncio.run(pause_cases(plan, memory, "memory")) if memory else []
    paused = []
    if stored:
        import_database()
        second = SecondProcess()
        paused = asyncio.run(pause_cases(plan, stored, "json", second))
        continued = iter(second.collect())
        for _, out, rest in paused:
            if rest is not None:
                merge(out, next(continued))
    for _, out, _ in sorted(ran + paused, key=lambda found: found[0]):
        print(json.dumps(out), flush=True)
    for line in asyncio.run(situations(plan)):
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    logging.disable(logging.WARNING)
    install_clock()
    if sys.argv[1:] == ["--steps"]:
        steps(sys.stdin, sys.stdout)
    elif sys.argv[1:] == ["--second"]:
        for line in asyncio.run(seconds(json.loads(sys.stdin.read()))):
            print(json.dumps(line), flush=True)
    else:
        main()
