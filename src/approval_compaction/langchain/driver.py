"""The LangChain driver: the study's scenario on one installed ``langchain``, written as it was
seen.

It runs inside the release's own environment (``langchain``, ``langchain-openai``,
``langgraph-checkpoint-sqlite`` and the standard library; nothing of this project), the way
``adk/driver.py`` runs inside google-adk's; ``langchain/harness.py`` copies it into a scratch
folder and starts it there. It reads its plan on standard input and writes one JSON line per
case or situation. It judges nothing: what it writes is LangChain's messages as plain JSON
(``message_json``), which ``langchain/items.py`` maps to the wire's shapes in one place.

The scenario: ``create_agent`` with one tool, ``HumanInTheLoopMiddleware`` gating it (approve,
edit, reject through a LangGraph interrupt, answered with ``Command(resume=...)``), and the
plan's compaction step before each model call: ``SummarizationMiddleware`` keeping one or two
messages (its summariser a scripted chat model passed in), or the ``trim_messages`` step of
LangChain's short-term memory page (a ``before_model`` middleware keeping the first message and
the last three or four). The agent's model is ``ChatOpenAI`` on the stand-in the harness serves
on 127.0.0.1 (the plan's ``base_url``), by Chat Completions or, with ``use_responses_api``, by
the Responses API: every model request goes over HTTP and is answered, or refused, there. The
driver only picks, by one rule, whether the model calls the tool (the stand-in's
``x-stand-in-reply`` header) and records the messages each request was made from. A case
pauses, crosses the state boundary (``memory``: the same ``InMemorySaver``; ``json``: a
``SqliteSaver`` on a file that a second process opens to resume), resumes with the decision,
and asks the next question. No key is read: the client's is a placeholder.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import json
import logging
import os
import sqlite3
import subprocess
import sys
import warnings
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import (
    AgentMiddleware,
    HumanInTheLoopMiddleware,
    SummarizationMiddleware,
)
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, RemoveMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.types import Command

TOOL = "protected_lookup"
PAUSING_QUESTION = "Please look up the protected record."
LATER = "Anything else to add? ({n})"
BETWEEN = 3  # the questions asked while a paused decision waits
SUMMARY_PREFIX = "Here is a summary of the conversation to date:"  # the middleware's own words
REPLY_HEADER = "x-stand-in-reply"  # wire.standin's: what the stand-in's model answers with
CONVERSATION_HEADER = "x-stand-in-conversation"  # wire.standin's: one numbering per case

# What the current stage saw: filled by the model, the compaction step and the tool.
SEEN: dict[str, Any] = {"model_inputs": [], "compaction_inputs": [], "dispatches": 0}


@tool  # type: ignore[untyped-decorator]  # langchain is not installed beside the lab
def lookup(record: str) -> str:
    """Look up a record (no review: the search's plain tool; not a dispatch the decision rule
    counts, which are the reviewed tool's)."""
    return json.dumps({"record": record, "status": "read"})


@tool  # type: ignore[untyped-decorator]  # langchain is not installed beside the lab
def protected_lookup(record: str) -> str:
    """Look up a protected record (it runs only once a human approves it)."""
    SEEN["dispatches"] += 1
    return json.dumps({"record": record, "status": "found"})


def text_of(content: Any) -> str:
    """A message's content as text: a string, or the text of its content blocks."""
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else []
    return "".join(
        str(p.get("text", "")) if isinstance(p, dict) else str(p)
        for p in parts
        if not isinstance(p, dict) or p.get("type") in ("text", "output_text", None)
    )


def is_summary(message: BaseMessage) -> bool:
    """The message ``SummarizationMiddleware`` puts in place of what it summarised (marked
    ``lc_source: summarization`` from 1.1, its text's prefix always)."""
    marked = message.additional_kwargs.get("lc_source") == "summarization"
    return marked or (
        message.type == "human" and text_of(message.content).startswith(SUMMARY_PREFIX)
    )


def message_json(message: BaseMessage) -> dict[str, Any]:
    """One message as the driver records it: its type and text, an AI message's tool calls, a
    tool message's call id and status, and whether it is a summary (no message id: they vary)."""
    out: dict[str, Any] = {"type": message.type, "content": text_of(message.content)}
    if isinstance(message, AIMessage) and message.tool_calls:
        out["tool_calls"] = [
            {"id": c.get("id"), "name": c.get("name"), "args": c.get("args") or {}}
            for c in message.tool_calls
        ]
    if isinstance(message, ToolMessage):
        out["tool_call_id"] = message.tool_call_id
        out["status"] = getattr(message, "status", "success")
    if is_summary(message):
        out["summary"] = True
    return out


def messages_json(messages: list[BaseMessage]) -> list[dict[str, Any]]:
    return [message_json(m) for m in messages]


# ---------------------------------------------------------------- the model and the summariser


# The search's replies (``--steps``): each model request takes the next (``calls:NAME@ID``: a
# call with the id the search names, its kind first, or
# ``message``); empty, the rule below answers.
SCRIPT: list[str] = []


def reply_for(messages: list[BaseMessage]) -> str:
    """What the stand-in's model answers with: the search's next scripted reply, else a call to
    the tool while the last message asks the pausing question, else a message."""
    if SCRIPT:
        return SCRIPT.pop(0)
    last = messages[-1] if messages else None
    asks = last is not None and last.type == "human" and PAUSING_QUESTION in text_of(last.content)
    return f"call:{TOOL}" if asks else "message"


class StandInModel(ChatOpenAI):
    """``ChatOpenAI`` on the stand-in, recording the messages each request is made from and
    telling the stand-in, by header, what to answer (nothing else of the client changes)."""

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        SEEN["model_inputs"].append(messages_json(messages))
        kwargs["extra_headers"] = {REPLY_HEADER: reply_for(messages)}
        return super()._generate(messages, *args, **kwargs)

    def _stream(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        SEEN["model_inputs"].append(messages_json(messages))
        kwargs["extra_headers"] = {REPLY_HEADER: reply_for(messages)}
        yield from super()._stream(messages, *args, **kwargs)


def agent_model(plan: dict[str, Any], conversation: str) -> StandInModel:
    """``ChatOpenAI`` on the stand-in, with the client's own retries (a connection the server
    closed while idle is retried, as it is for any user; a refusal, a 400, never is)."""
    responses = plan["api"] == "responses"
    settings: dict[str, Any] = {"use_responses_api": True} if responses else {}
    return StandInModel(
        model="gpt-4o",
        base_url=plan["base_url"],
        api_key="stand-in",
        default_headers={CONVERSATION_HEADER: conversation},
        **settings,
    )


class ScriptedSummariser(BaseChatModel):
    """The summariser: a chat model that answers every prompt with the same summary."""

    @property
    def _llm_type(self) -> str:
        return "scripted-summariser"

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content="Summary."))])


class RecordedSummarization(SummarizationMiddleware):
    """``SummarizationMiddleware`` as shipped, recording the messages it summarises (the
    compaction step's input) before its own ``_create_summary`` runs."""

    def _create_summary(self, messages_to_summarize: list[BaseMessage]) -> str:
        SEEN["compaction_inputs"].append(messages_json(messages_to_summarize))
        return str(super()._create_summary(messages_to_summarize))


def summarisation(keep: int) -> AgentMiddleware:
    """The middleware summarising before every model call with two messages or more, keeping
    the last ``keep``: ``trigger``/``keep`` from 1.1, ``max_tokens_before_summary``/
    ``messages_to_keep`` before (a one-token threshold: every call)."""
    given = inspect.signature(SummarizationMiddleware.__init__).parameters
    if "trigger" in given:
        return RecordedSummarization(
            model=ScriptedSummariser(), trigger=("messages", 2), keep=("messages", keep)
        )
    return RecordedSummarization(
        model=ScriptedSummariser(), max_tokens_before_summary=1, messages_to_keep=keep
    )


class DocsTrim(AgentMiddleware):
    """The ``trim_messages`` step of LangChain's short-term memory page: before each model
    call, the first message and the last three (an even count) or four, the rest removed. What
    it removes is recorded as the compaction step's input (nothing, when it keeps all)."""

    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        messages = state["messages"]
        if len(messages) <= 3:
            SEEN["compaction_inputs"].append([])
            return None
        first = messages[0]
        recent = messages[-3:] if len(messages) % 2 == 0 else messages[-4:]
        SEEN["compaction_inputs"].append(messages_json(messages[1 : len(messages) - len(recent)]))
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), first, *recent]}


# The compaction kinds: what runs before each model call when a case turns compaction on
# (``none``: nothing, the control a situation is set beside).
KINDS = ("keep-1", "keep-2", "trim", "none")


def compaction(kind: str) -> AgentMiddleware | None:
    if kind == "none":
        return None
    if kind == "trim":
        return DocsTrim()
    return summarisation(int(kind.removeprefix("keep-")))


def make_agent(plan: dict[str, Any], compact: bool, saver: Any, conversation: str) -> Any:
    middleware: list[Any] = [HumanInTheLoopMiddleware(interrupt_on={TOOL: True})]
    step = compaction(plan["kind"]) if compact else None
    if step is not None:
        middleware.insert(0, step)
    return create_agent(
        model=agent_model(plan, conversation),
        tools=[protected_lookup, lookup] if plan.get("steps") else [protected_lookup],
        system_prompt="Help.",
        middleware=middleware,
        checkpointer=saver,
    )


# ---------------------------------------------------------------- one conversation


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


def failed(error: BaseException) -> str:
    return f"{type(error).__name__}: {' '.join(str(error).split())[:300]}"


def waiting_calls(snapshot: Any) -> list[dict[str, Any]]:
    """The tool calls a paused run waits on: the last AI message's calls of the gated tool,
    when the checkpoint holds an interrupt."""
    interrupts = getattr(snapshot, "interrupts", None)
    if interrupts is None:  # older langgraph: the interrupts of its pending tasks
        interrupts = [i for task in snapshot.tasks for i in task.interrupts]
    if not interrupts:
        return []
    messages = snapshot.values.get("messages", [])
    last = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
    calls = last.tool_calls if last is not None else []
    return [
        {"id": c["id"], "name": c["name"], "args": c["args"]} for c in calls if c["name"] == TOOL
    ]


def user(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def decision(waiting: list[dict[str, Any]], word: str) -> Command:
    """The human's answer to each waiting call: ``approve``, ``reject`` (with a reason), or
    ``edit`` (the same tool, another record), as the middleware's docs show them."""
    one: dict[str, Any]
    if word == "reject":
        one = {"type": "reject", "message": "Not now."}
    elif word == "edit":
        one = {"type": "edit", "edited_action": {"name": TOOL, "args": {"record": "r-2"}}}
    else:
        one = {"type": "approve"}
    return Command(resume={"decisions": [one for _ in waiting]})


def called(part: Any) -> bool:
    """Whether a streamed ``updates`` part holds an AI message that calls a tool."""
    mode, update = part if isinstance(part, tuple) else ("updates", part)
    if mode != "updates" or not isinstance(update, dict):
        return False
    values = [v for v in update.values() if isinstance(v, dict)]
    return any(
        isinstance(m, AIMessage) and m.tool_calls for v in values for m in v.get("messages", [])
    )


class Conversation:
    """One thread of one agent: each turn a stage as the study records it."""

    def __init__(self, plan: dict[str, Any], case: dict[str, str], saver: Any, thread: str):
        name = f"{plan['label']}-{plan['kind']}-{plan['api']}-{thread}"
        self.agent = make_agent(plan, case["compaction"] == "on", saver, name)
        self.config = {"configurable": {"thread_id": thread}}
        self.streamed = case["runner"] == "run_streamed"

    def state(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]], Any]:
        snapshot = self.agent.get_state(self.config)
        messages = messages_json(list(snapshot.values.get("messages", [])))
        return messages, waiting_calls(snapshot), snapshot

    def turn(
        self, name: str, given: Any, die_after_call: bool = False
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Run one turn (``invoke``, or ``stream`` consumed whole); its stage and the calls it
        ended waiting on. ``die_after_call``: the worker stops as soon as the model's call is
        stored, before the decision is asked (the ``lost`` situation)."""
        SEEN.update(model_inputs=[], compaction_inputs=[], dispatches=0)
        outcome, http = "ok", {}
        try:
            if self.streamed or die_after_call:
                modes = ["updates", "messages"] if self.streamed else ["updates"]
                for part in self.agent.stream(given, self.config, stream_mode=modes):
                    if die_after_call and called(part):
                        break
            else:
                self.agent.invoke(given, self.config)
        except Exception as error:  # what the user's code meets
            outcome = f"{type(error).__module__.split('.')[0]}.{type(error).__name__}: {error}"
            outcome = " ".join(outcome.split())[:500]
            http = http_outcome(error)
        stored, waiting, snapshot = self.state()
        stage = {
            "name": name,
            "stored": stored,
            "model_inputs": SEEN["model_inputs"],
            "compaction_inputs": SEEN["compaction_inputs"],
            "dispatches": SEEN["dispatches"],
            "interruptions": waiting,
            "state_items": {"checkpoint": stored},
            "outcome": outcome,
            **http,
        }
        return stage, waiting

    def round_trip(self) -> dict[str, Any]:
        stored, _, _ = self.state()
        return {"name": "round_trip", "stored": stored, "state_items": {"checkpoint": stored}}


# ---------------------------------------------------------------- the cases


def version() -> str:
    return importlib.metadata.version("langchain")


def record(plan: dict[str, Any], case: dict[str, str]) -> dict[str, Any]:
    """A case's record before it runs."""
    return {
        "case": case,
        "kind": plan["kind"],
        "api": plan["api"],
        "sdk_version": version(),
        "stages": [],
        "approvals": 0,
        "dispatches": 0,
        "later": [],
    }


def after_pause(
    conversation: Conversation, case: dict[str, str], waiting: list[dict[str, Any]], later: int
) -> dict[str, Any]:
    """The round trip's reading, the resume, the next turn and the later turns."""
    stages = [conversation.round_trip()]
    approvals = 0
    if waiting:
        approvals = len(waiting) if case["decision"] == "approve" else 0
        stage, _ = conversation.turn("resume", decision(waiting, case["decision"]))
        stages.append(stage)
    stage, _ = conversation.turn("next_turn", user("And the next question?"))
    stages.append(stage)
    later_turns = []
    for n in range(1, later + 1):
        stage, paused = conversation.turn("next_turn", user(LATER.format(n=n)))
        later_turns.append({"stage": stage, "outcome": "paused" if paused else "answered"})
    dispatches = sum(s.get("dispatches", 0) for s in stages)
    return {
        "stages": stages,
        "approvals": approvals,
        "dispatches": dispatches,
        "later": later_turns,
    }


def merge(out: dict[str, Any], rest: dict[str, Any]) -> None:
    """The stages after the pause, added to the case's record."""
    out["stages"] += rest["stages"]
    out["approvals"] = rest["approvals"]
    out["dispatches"] += rest["dispatches"]
    out["later"] = rest["later"]
    if rest.get("error"):
        out["error"] = rest["error"]


def broken(error: str) -> dict[str, Any]:
    return {"stages": [], "approvals": 0, "dispatches": 0, "later": [], "error": error}


def database_path(plan: dict[str, Any]) -> str:
    return os.path.join(plan["scratch"], f"{plan['label']}.sqlite")


def sqlite_saver(path: str) -> Any:
    """LangGraph's ``SqliteSaver`` on a file (its own connection)."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    return SqliteSaver(sqlite3.connect(path, check_same_thread=False))


def pause_case(
    plan: dict[str, Any], case: dict[str, str], number: int, saver: Any
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A case up to its pause on ``saver`` (its own thread): the record so far, and (for a
    ``json`` boundary) what the second process needs to go on; a ``memory`` case runs to its
    end here."""
    out = record(plan, case)
    rest: dict[str, Any] | None = None
    try:
        conversation = Conversation(plan, case, saver, f"t-{number}")
        pause, waiting = conversation.turn("pause", user(PAUSING_QUESTION))
        out["stages"], out["dispatches"] = [pause], pause["dispatches"]
        if case["state_boundary"] == "memory":
            merge(out, after_pause(conversation, case, waiting, plan.get("later", 0)))
        else:
            rest = {"plan": plan, "case": case, "thread": f"t-{number}", "waiting": waiting}
    except Exception as error:  # the driver failed: recorded, the next case still runs
        out["error"] = failed(error)
    return out, rest


def second(spec: dict[str, Any], saver: Any) -> dict[str, Any]:
    """One ``json`` case after its pause, in the second process: the thread read back from
    the SQLite file by a new agent."""
    try:
        conversation = Conversation(spec["plan"], spec["case"], saver, spec["thread"])
        return after_pause(
            conversation, spec["case"], spec["waiting"], spec["plan"].get("later", 0)
        )
    except Exception as error:
        return broken(failed(error))


class SecondProcess:
    """A second process, a new interpreter running this file, that opens each plan's SQLite
    file, reads each ``json`` case's thread and goes on from its pause, while this one pauses
    the next case: ``send`` hands it a paused case, ``collect`` waits for the continuations of
    those sent since the last ``collect``, in order. Nothing of this process crosses (a fork
    would share its HTTP client's open connections)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--second"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.waiting = 0

    def send(self, spec: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(spec) + "\n")
        self.proc.stdin.flush()
        self.waiting += 1

    def collect(self) -> list[dict[str, Any]]:
        assert self.proc.stdout is not None
        lines = [self.proc.stdout.readline() for _ in range(self.waiting)]
        self.waiting = 0
        gone = "the second process ended before every case was resumed"
        return [json.loads(line) if line.strip() else broken(gone) for line in lines]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def resume_each() -> None:
    """In the second process: each paused case as it arrives on standard input, on one saver
    per plan's file (opened when its first case arrives), its continuation one line out."""
    savers: dict[str, Any] = {}
    for line in sys.stdin:
        spec = json.loads(line)
        path = database_path(spec["plan"])
        saver = savers.setdefault(path, sqlite_saver(path))
        print(json.dumps(second(spec, saver)), flush=True)


# ---------------------------------------------------------------- liveness situations

CONTROL = {"runner": "run", "decision": "approve", "compaction": "on", "state_boundary": "memory"}


def run_situation(plan: dict[str, Any], name: str) -> dict[str, Any]:
    """One liveness situation on an ``InMemorySaver``, then ``later`` plain questions
    (compaction on throughout): ``abandoned`` (the decision is never given: the user asks
    something else), ``lost`` (the worker stops once the model's call is stored; a new agent
    goes on over the same checkpointer), ``resumed`` (``BETWEEN`` questions, then the approval,
    late), ``edited`` (the human edits the call's arguments, at once), ``clean`` (nothing
    pending, the control)."""
    out: dict[str, Any] = {
        "scenario": name,
        "kind": plan["kind"],
        "api": plan["api"],
        "sdk_version": version(),
        "stages": [],
        "later": [],
        "wanted": plan.get("later", 0),
    }
    saver = InMemorySaver()
    try:
        conversation = Conversation(plan, CONTROL, saver, name)
        stages, resumed = [], False
        if name == "clean":
            stage, waiting = conversation.turn("next_turn", user("Hello?"))
        else:
            lost = name == "lost"
            stage, waiting = conversation.turn("pause", user(PAUSING_QUESTION), die_after_call=lost)
        stages.append(stage)
        if name == "lost":  # a new worker (agent, model) over the same checkpointer
            conversation = Conversation(plan, CONTROL, saver, name)
        if name == "resumed":
            for n in range(1, BETWEEN + 1):
                stage, _ = conversation.turn("next_turn", user(f"Meanwhile ({n})?"))
                stages.append(stage)
        if name in ("resumed", "edited"):
            word = "edit" if name == "edited" else "approve"
            stage, _ = conversation.turn("resume", decision(waiting, word))
            stages.append(stage)
            resumed = name == "resumed"
        later = []
        for n in range(1, plan.get("later", 0) + 1):
            stage, paused = conversation.turn("next_turn", user(LATER.format(n=n)))
            later.append({"stage": stage, "outcome": "paused" if paused else "answered"})
        out.update(stages=stages, later=later, resumed=resumed)
    except Exception as error:  # the driver failed: recorded, the next situation still runs
        out["error"] = failed(error)
    return out


# ---------------------------------------------------------------- the plan


def pause_cases(
    plan: dict[str, Any],
    numbered: list[tuple[int, dict[str, str]]],
    saver: Any,
    second_process: SecondProcess | None = None,
) -> list[tuple[int, dict[str, Any], dict[str, Any] | None]]:
    ran = []
    for n, case in numbered:
        out, rest = pause_case(plan, case, n, saver)
        if rest is not None and second_process is not None:
            second_process.send(rest)
        ran.append((n, out, rest))
    return ran


def main() -> None:
    """Each plan read on standard input, in order (one process imports LangChain once; one
    second process resumes every plan's ``json`` cases)."""
    plans = json.loads(sys.stdin.read())
    stored = any(c["state_boundary"] != "memory" for p in plans for c in p.get("cases", []))
    second_process = SecondProcess() if stored else None
    try:
        for plan in plans:
            for line in run_plan(plan, second_process):
                print(json.dumps({"plan": plan["label"], **line}), flush=True)
    finally:
        if second_process is not None:
            second_process.close()


def run_plan(plan: dict[str, Any], second_process: SecondProcess | None) -> list[dict[str, Any]]:
    """The plan's cases: the ``memory`` ones, then the ``json`` ones, each resumed by a second
    process as soon as it is paused; each case's line in the plan's order; then the
    situations."""
    numbered = list(enumerate(plan.get("cases", [])))
    memory = [(n, c) for n, c in numbered if c["state_boundary"] == "memory"]
    stored = [(n, c) for n, c in numbered if c["state_boundary"] != "memory"]
    ran = pause_cases(plan, memory, InMemorySaver()) if memory else []
    paused = []
    if stored:
        assert second_process is not None
        paused = pause_cases(plan, stored, sqlite_saver(database_path(plan)), second_process)
        continued = iter(second_process.collect())
        for _, out, rest in paused:
            if rest is not None:
                merge(out, next(continued))
    lines = [out for _, out, _ in sorted(ran + paused, key=lambda found: found[0])]
    return lines + [run_situation(plan, name) for name in plan.get("situations", [])]


# ---------------------------------------------------------------- the search, one step at a time

STEP_TOOLS = {"approval": TOOL, "function": "lookup"}  # a call's kind, and the tool it calls
CONTINUE_TURNS = 3  # the plain questions of one ``continue`` (the search's)


class Stepper:
    """A searched conversation taken one step at a time (``--steps``): its settings (``mode``:
    the compaction kind, ``api``, ``store``: ``memory`` or ``sqlite``), its checkpointer and
    thread, and the decisions it waits for (the calls each paused ``ask`` left, in order)."""

    def __init__(self, settings: dict[str, Any], scratch: str) -> None:
        self.settings = settings
        self.plan = {**settings, "kind": settings["mode"], "steps": True}
        self.path = os.path.join(scratch, f"{settings['label']}.sqlite")
        self.waiting: list[list[dict[str, Any]]] = []
        self.saver: Any = None

    def open(self, runner: str = "run", fresh: bool = False) -> Conversation:
        """The conversation on the thread (``fresh``: a new worker, with its own connection to
        the SQLite file, as a second process would have)."""
        if self.saver is None or fresh:
            memory = self.settings.get("store", "memory") == "memory"
            self.saver = InMemorySaver() if memory else sqlite_saver(self.path)
        case = {**CONTROL, "runner": runner}
        return Conversation(self.plan, case, self.saver, "t")

    def start(self) -> dict[str, Any]:
        if os.path.exists(self.path):
            os.remove(self.path)
        if self.settings["mode"] not in KINDS:
            return {"not_applicable": f"no compaction kind {self.settings['mode']!r}"}
        self.open()
        return {"sdk_version": version()}

    def take(self, index: int, step: dict[str, Any]) -> dict[str, Any]:
        action, runner = step["action"], step.get("runner", "run")
        stages, approvals, outcome = [], 0, "answered"
        if action == "ask":
            if step.get("parallel"):
                return {"not_applicable": "the stand-in's model makes one call a reply"}
            drawn = enumerate(step.get("calls", []))
            SCRIPT[:] = [f"calls:{STEP_TOOLS[kind]}@{kind}-{index}-{n}" for n, kind in drawn]
            die = step.get("ending") == "die" and bool(SCRIPT)
            try:
                stage, waiting = self.open(runner).turn(
                    "next_turn", user(f"Question {index}."), die_after_call=die
                )
            finally:
                SCRIPT.clear()
            stages.append(stage)
            outcome = "died" if die else "paused" if waiting else outcome
            if waiting:
                self.waiting.append(waiting)
        elif action == "decide":
            calls = self.waiting.pop(0)
            word = {"mixed": "reject"}.get(step.get("decision", "approve"), step["decision"])
            fresh = step.get("boundary") == "process"
            if fresh and self.settings.get("store", "memory") == "memory":
                return {"not_applicable": "a new worker cannot read a memory checkpointer"}
            stage, _ = self.open(runner, fresh).turn("resume", decision(calls, word))
            stages.append(stage)
            approvals = len(calls) if word == "approve" else 0
        else:  # continue
            for n in range(1, CONTINUE_TURNS + 1):
                stage, _ = self.open(runner).turn(
                    "next_turn", user(f"Anything else? ({index}.{n})")
                )
                stages.append(stage)
        if any(s.get("outcome", "ok") != "ok" for s in stages):
            outcome = "raised"
        return {
            "stages": stages,
            "outcome": outcome,
            "approvals": approvals,
            "confirmations": [[c["id"] for c in group] for group in self.waiting],
            "long_running": [],
        }


def steps(lines: Any, out: Any) -> None:
    """The search's conversations, one request a line on ``lines`` (``version``; ``start`` with
    the settings and a scratch folder; ``step`` with its index and step; ``stop``), one answer
    a line on ``out``."""
    stepper: Stepper | None = None
    for line in lines:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            if request["op"] == "version":
                answer: dict[str, Any] = {"sdk_version": version()}
            elif request["op"] == "start":
                stepper = Stepper(request["settings"], request["scratch"])
                answer = stepper.start()
            elif request["op"] == "step":
                assert stepper is not None
                answer = stepper.take(int(request["index"]), request["step"])
            else:
                stepper, answer = None, {}
        except Exception as error:  # the driver failed: said, and the next request still runs
            answer = {"error": failed(error)}
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    logging.disable(logging.WARNING)
    warnings.simplefilter("ignore")
    if sys.argv[1:] == ["--steps"]:
        steps(sys.stdin, sys.stdout)
    elif sys.argv[1:] == ["--second"]:
        resume_each()
    else:
        main()
