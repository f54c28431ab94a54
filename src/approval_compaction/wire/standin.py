"""Stand-in: the parts of the Responses API that the SDK calls here, answered like the API.

``StandIn.handle(method, path, body)`` is framework-free: it parses the body, applies the rules
(``rules``), stores each response it serves (so ``previous_response_id`` works; one asked for with
``store: false`` is not kept, so naming it is not found), logs every request, and returns a
``Reply``: a JSON body, or for ``stream: true`` the server-sent events that the ``openai`` client
parses. Nothing it is sent can make it raise: an unexpected failure
is answered with HTTP 500 in the API's error shape.

What it keeps is bounded, so a long-running ``serve`` stays small whatever it is sent: the
stored responses (at most ``max_responses``, and ``max_stored_bytes`` of the request bodies that
made them; the oldest are forgotten first, and a ``previous_response_id`` naming one is then
not found, as for an expired response), the log (the newest ``max_log`` exchanges; a body over
``LOG_BODY_BYTES`` is logged without its content), and the parser's depth (a body nested deeper
than ``MAX_DEPTH`` is a 400, as a body that is not JSON is).

Replies follow a script (a list of output-item lists, one per response) when one is given,
else a policy: call the request's first function tool while the conversation has no tool
output and no compaction item yet, otherwise answer with a message. Ids and timestamps are
numbered, not random, so a run gives the same bytes each time.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import printable
from . import rules
from .rules import (
    CHAT,
    COMPACT,
    FAITHFUL,
    KEEPS_USERS,
    RESPONSES,
    ApiError,
    CompactRules,
    CompactShape,
)

Item = dict[str, Any]
MAX_DEPTH = 100  # JSON nesting the stand-in parses (the SDK's items nest a few levels)
LOG_BODY_BYTES = 64 * 1024  # a larger body is logged without its content
CREATED_AT = 1_750_000_000  # a fixed timestamp: replies are reproducible byte for byte
USAGE: Item = {
    "input_tokens": 0,
    "input_tokens_details": {"cached_tokens": 0},
    "output_tokens": 0,
    "output_tokens_details": {"reasoning_tokens": 0},
    "total_tokens": 0,
}
CHARS_PER_TOKEN = 4  # the usage estimate's rate: the API counts with the model's tokenizer


def usage(given: Sequence[Item], output: Sequence[Item]) -> Item:
    """A response's ``usage``: the API counts tokens with the model's tokenizer, which is not
    modelled; the stand-in estimates one token per four characters of the JSON of the items
    it was given and of those it answers with, so a client that compacts by the reported
    count (a token threshold) sees it grow with the history as it would."""
    size_in = len(json.dumps(list(given), sort_keys=True))
    size_out = len(json.dumps(list(output), sort_keys=True))
    tokens_in, tokens_out = -(-size_in // CHARS_PER_TOKEN), -(-size_out // CHARS_PER_TOKEN)
    return {
        **USAGE,
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
        "total_tokens": tokens_in + tokens_out,
    }


@dataclass(frozen=True)
class Reply:
    """What the stand-in answers: a status and a JSON body, or a list of stream events."""

    status: int
    body: Item | None = None
    events: list[Item] | None = None

    @property
    def media_type(self) -> str:
        return "text/event-stream" if self.events is not None else "application/json"

    def content(self) -> bytes:
        """The body's bytes: JSON, or the events as ``event:``/``data:`` blocks (Chat
        Completions' chunks as ``data:`` lines alone, then ``data: [DONE]``)."""
        if self.events is None:
            return json.dumps(self.body).encode()
        blocks = [
            f"data: {json.dumps({k: v for k, v in e.items() if k != 'type'})}\n\n"
            if e["type"] == CHUNK
            else f"event: {e['type']}\ndata: {json.dumps(e)}\n\n"
            for e in self.events
        ]
        done = ["data: [DONE]\n\n"] if any(e["type"] == CHUNK for e in self.events) else []
        return "".join(blocks + done).encode()


@dataclass(frozen=True)
class Exchange:
    """One request in the log: what was asked, the parsed body, and how it was answered."""

    method: str
    path: str
    body: Any
    status: int
    error: str = ""

    def line(self) -> str:
        """The request as one log line: ``POST /v1/responses 400 No tool call found ...``."""
        stream = " stream" if isinstance(self.body, dict) and self.body.get("stream") else ""
        line = f"{self.method} {self.path}{stream} {self.status} {self.error or 'ok'}".rstrip()
        return printable(line)  # a path or call id a client sent cannot forge or clear a line


@dataclass(frozen=True)
class Parsed:
    """A request as ``parse`` read it: its body parsed (or, for a body that is not a JSON
    object, the start of its text, to log), or the error it is answered with."""

    method: str
    path: str
    size: int
    body: Any = None
    error: ApiError | None = None


def parse(method: str, path: str, body: bytes) -> Parsed:
    """Route and parse one request, touching no state (safe in any thread); never raises."""
    size = len(body)
    try:
        if method != "POST" or path.rstrip("/") not in (RESPONSES, COMPACT, CHAT):
            return Parsed(method, path, size, error=rules.invalid_url(method, path))
        try:
            parsed = json.loads(body or b"null")
        except RecursionError:
            return Parsed(method, path, size, error=rules.too_deep(MAX_DEPTH))
        except ValueError:
            parsed = None
        if not isinstance(parsed, dict):
            raw = body[:2000].decode("utf-8", "replace")
            return Parsed(method, path, size, raw, rules.malformed_json())
        if nested_deeper(parsed, MAX_DEPTH):
            return Parsed(method, path, size, error=rules.too_deep(MAX_DEPTH))
        return Parsed(method, path, size, parsed)
    except Exception as exc:  # the server answers every request, whatever it was sent
        error = ApiError(500, f"The stand-in failed: {type(exc).__name__}", "server_error")
        return Parsed(method, path, size, error=error)


@dataclass
class StandIn:
    """The stand-in's state: its script, how it answers compaction (``faithful``: by the
    rules; ``lenient``: anything is compacted) and with what (``keeps_users``: the user
    messages, then the compaction item, as documented; ``summary_only``: the item alone), the
    responses it served, and the request log."""

    script: Sequence[Sequence[Item]] | None = None
    compact_rules: CompactRules = FAITHFUL
    compact_shape: CompactShape = KEEPS_USERS
    responses: dict[str, list[Item]] = field(default_factory=dict)
    log: list[Exchange] = field(default_factory=list)
    served: int = 0
    compactions: int = 0
    max_responses: int = 1000
    max_stored_bytes: int = 64 * 1024 * 1024
    max_log: int = 10_000
    _sizes: dict[str, int] = field(default_factory=dict, repr=False)
    _size: int = field(default=0, repr=False)  # the body being answered, in bytes

    def handle(self, method: str, path: str, body: bytes) -> Reply:
        """Answer one request; never raises."""
        return self.answer(parse(method, path, body))

    def answer(self, request: Parsed, reply: str = "") -> Reply:
        """Answer a request ``parse`` read (the app parses a large body off the event loop, so
        only this part, which reads and writes the stand-in's state, holds it); never raises.
        ``reply``: what the client asked the model to answer with (``REPLY_HEADER``)."""
        self._size = request.size
        method, path = request.method, request.path
        try:
            if request.error is not None:
                return self._answer(method, path, request.body, error=request.error)
            if path.rstrip("/") == COMPACT:
                return self._compact(request.body)
            if path.rstrip("/") == CHAT:
                return self._chat(request.body, reply)
            return self._respond(request.body, reply)
        except Exception as exc:  # the server answers every request, whatever it was sent
            error = ApiError(500, f"The stand-in failed: {type(exc).__name__}", "server_error")
            return self._answer(method, path, request.body, error=error)

    def _answer(
        self, method: str, path: str, body: Any, reply: Reply | None = None, error: Any = None
    ) -> Reply:
        if error is not None:
            reply = Reply(error.status, error.body())
        assert reply is not None
        if self._size > LOG_BODY_BYTES:  # kept small: the stream flag is all a log line reads
            body = {"stream": True} if isinstance(body, dict) and body.get("stream") else None
        self.log.append(Exchange(method, path, body, reply.status, error.message if error else ""))
        if len(self.log) > self.max_log + self.max_log // 10:
            del self.log[: len(self.log) - self.max_log]
        return reply

    def _store(self, response_id: str, items: list[Item]) -> None:
        """Keep a response for ``previous_response_id``, forgetting the oldest past the caps."""
        self.responses[response_id] = items
        self._sizes[response_id] = self._size
        stored = sum(self._sizes.values())
        while self.responses and (
            len(self.responses) > self.max_responses or stored > self.max_stored_bytes
        ):
            oldest = next(iter(self.responses))
            del self.responses[oldest]
            stored -= self._sizes.pop(oldest, 0)

    def _chain(self, body: Item) -> tuple[list[Item], ApiError | None]:
        """The stored chain ``previous_response_id`` names (its input and output), if any."""
        previous = body.get("previous_response_id")
        if previous is None:
            return [], None
        if str(previous) not in self.responses:
            return [], rules.previous_not_found(str(previous))
        return list(self.responses[str(previous)]), None

    def _respond(self, body: Item, asked: str = "") -> Reply:
        chain, error = self._chain(body)
        items = chain + _as_items(body.get("input"))
        error = error or rules.check_pairing(items)
        if error is not None:
            return self._answer("POST", RESPONSES, body, error=error)
        self.served += 1
        response_id = f"resp_standin_{self.served:04d}"
        output = self._output(body, items, asked)
        if body.get("store") is not False:  # a response created with store: false is not kept
            self._store(response_id, items + output)
        response = _response(response_id, body, output, usage(items, output))
        reply = Reply(200, events=_events(response)) if body.get("stream") else Reply(200, response)
        return self._answer("POST", RESPONSES, body, reply)

    def _chat(self, body: Item, asked: str = "") -> Reply:
        """A Chat Completions request: its ``messages`` checked by the endpoint's pairing rule,
        answered with one choice (a call of the tool ``asked`` names, else a message), as JSON
        or, for ``stream: true``, as chunks ending in ``[DONE]``. Nothing is stored."""
        messages = _objects(body.get("messages"))
        error = rules.check_chat_pairing(messages)
        if error is not None:
            return self._answer("POST", CHAT, body, error=error)
        self.served += 1
        tools = [
            {**t.get("function", {}), "type": "function"}
            for t in _objects(body.get("tools"))
            if t.get("type") == "function" and isinstance(t.get("function"), dict)
        ]
        called = asked if asked.startswith(CALL_REPLY) else MESSAGE_REPLY
        (item,) = self._output({"tools": tools}, [], called)
        message: Item = {"role": "assistant", "content": None}
        if item["type"] == "function_call":
            function = {"name": item["name"], "arguments": item["arguments"]}
            message["tool_calls"] = [{"id": item["call_id"], "type": "function",
                                      "function": function}]  # fmt: skip
        else:
            message["content"] = item["content"][0]["text"]
        finish = "tool_calls" if "tool_calls" in message else "stop"
        completion = {
            "id": f"chatcmpl-standin-{self.served}",
            "object": "chat.completion",
            "created": CREATED_AT,
            "model": body.get("model") or "stand-in",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": _chat_usage(usage(messages, [message])),
        }
        if body.get("stream"):
            return self._answer("POST", CHAT, body, Reply(200, events=_chunks(completion, body)))
        return self._answer("POST", CHAT, body, Reply(200, completion))

    def _output(self, body: Item, items: list[Item], asked: str = "") -> list[Item]:
        index = self.served - 1
        if self.script is not None and index < len(self.script):
            return [dict(item) for item in self.script[index]]
        if asked == MCP_REPLY:
            return [self._mcp_request(body)]
        if asked.startswith(CALLS_REPLY + ":"):
            return self._scripted_calls(body, asked.removeprefix(CALLS_REPLY + ":"))
        if asked in TOOL_CALLS:
            return [TOOL_CALLS[asked](self.served)]
        functions = [t for t in _objects(body.get("tools")) if t.get("type") == "function"]
        named = asked.removeprefix(CALL_REPLY + ":") if asked.startswith(CALL_REPLY + ":") else ""
        if named:
            functions = [t for t in functions if t.get("name") == named]
        tool = next(iter(functions), None)
        if asked == MESSAGE_REPLY:
            tool = None
        fresh = (
            asked == CALL_REPLY
            or bool(named)
            or not any(i.get("type") in ("function_call_output", "compaction") for i in items)
        )
        if tool is not None and fresh:
            arguments = json.dumps(_arguments(tool.get("parameters")), sort_keys=True)
            call_id = f"call_standin_{self.served}"
            return [
                {
                    "type": "function_call",
                    "id": f"fc_standin_{self.served}",
                    "call_id": call_id,
                    "name": str(tool.get("name", "")),
                    "arguments": arguments,
                    "status": "completed",
                }
            ]
        return [_message(f"stand-in answer {self.served}", f"msg_standin_{self.served}")]

    def _scripted_calls(self, body: Item, listed: str) -> list[Item]:
        """The calls a ``calls:NAME@ID,...`` reply lists, in order, each with the id the client
        chose: a call of the request's function tool ``NAME``, or (``mcp@ID``) an approval
        request of its hosted MCP server. A name the request has no tool for is skipped."""
        tools = {
            str(t.get("name")): t
            for t in _objects(body.get("tools"))
            if t.get("type") == "function"
        }
        out: list[Item] = []
        for entry in filter(None, listed.split(",")):
            name, _, key = entry.partition("@")
            if name == MCP_REPLY:
                out.append({**self._mcp_request(body), "id": key})
            elif name in tools:
                arguments = json.dumps(_arguments(tools[name].get("parameters")), sort_keys=True)
                out.append(
                    {
                        "type": "function_call",
                        "id": f"fc_{key}",
                        "call_id": key,
                        "name": name,
                        "arguments": arguments,
                        "status": "completed",
                    }
                )
        return out or [_message(f"stand-in answer {self.served}", f"msg_standin_{self.served}")]

    def _mcp_request(self, body: Item) -> Item:
        """An approval request of the request's first hosted MCP server (``type: mcp``), as the
        API answers when the server requires approval: an ``mcp_approval_request`` item."""
        server = next((t for t in _objects(body.get("tools")) if t.get("type") == "mcp"), {})
        return {
            "type": "mcp_approval_request",
            "id": f"mcpr_standin_{self.served}",
            "name": "lookup",
            "arguments": "{}",
            "server_label": str(server.get("server_label", "")),
        }

    def _compact(self, body: Item) -> Reply:
        chain, error = self._chain(body)
        given = _as_items(body.get("input"))
        error = error or rules.check_compaction(chain, given, self.compact_rules)
        items = chain + given
        if error is not None:
            return self._answer("POST", COMPACT, body, error=error)
        self.compactions += 1
        summary = {
            "type": "compaction",
            "id": f"cmp_standin_{self.compactions}",
            "encrypted_content": f"stand-in-summary-{self.compactions}",
        }
        compacted = {
            "id": f"resp_compact_{self.compactions:04d}",
            "object": "response.compaction",
            "created_at": CREATED_AT,
            "output": compacted_output(items, summary, self.compact_shape),
            "usage": USAGE,
        }
        return self._answer("POST", COMPACT, body, Reply(200, compacted))


def shell_call(number: int) -> Item:
    """A ``shell_call`` output item, as the Responses API returns one for the shell tool
    (``ResponseFunctionShellToolCall`` in the ``openai`` client's types)."""
    return {
        "type": "shell_call",
        "id": f"sh_standin_{number}",
        "call_id": f"call_standin_{number}",
        "action": {"commands": ["echo stand-in"], "timeout_ms": None, "max_output_length": None},
        "status": "completed",
    }


def apply_patch_call(number: int) -> Item:
    """An ``apply_patch_call`` output item (``ResponseApplyPatchToolCall``)."""
    return {
        "type": "apply_patch_call",
        "id": f"ap_standin_{number}",
        "call_id": f"call_standin_{number}",
        "operation": {"type": "create_file", "path": "stand-in.txt", "diff": "+stand-in\n"},
        "status": "completed",
    }


def computer_call(number: int) -> Item:
    """A ``computer_call`` output item asking for a screenshot (``ResponseComputerToolCall``)."""
    return {
        "type": "computer_call",
        "id": f"cu_standin_{number}",
        "call_id": f"call_standin_{number}",
        "action": {"type": "screenshot"},
        "pending_safety_checks": [],
        "status": "completed",
    }


CONVERSATION_HEADER = "x-stand-in-conversation"
# A client over HTTP scripts the model's next answer with this header, as the in-process
# wiring does with ``script``: ``message`` answers with a message, ``call`` calls the request's
# first function tool (``call:NAME`` the one named so), ``mcp`` asks to approve a call of its
# hosted MCP server, ``shell``, ``apply_patch`` and ``computer`` call those built-in tools,
# whatever the policy would do; ``calls:NAME@ID,...`` makes those calls in one reply, each with
# the id given (``mcp@ID``: an MCP approval request), as a search scripts a reply's calls. The
# API ignores a header it does not know.
REPLY_HEADER = "x-stand-in-reply"
MESSAGE_REPLY = "message"
CALL_REPLY = "call"
CALLS_REPLY = "calls"
MCP_REPLY = "mcp"  # an approval request of the request's hosted MCP server
TOOL_CALLS = {"shell": shell_call, "apply_patch": apply_patch_call, "computer": computer_call}


@dataclass
class Conversations:
    """One stand-in per conversation, named by the ``x-stand-in-conversation`` request header
    (a client that sends none shares ``default``): a harness running many conversations through
    one server gets each its own numbering (``call_standin_1``...) and its own stored
    responses, as separate API sessions would. The API ignores a header it does not know, so a
    client sending it is still the real one. At most ``max_conversations`` are kept; the
    oldest is forgotten first."""

    compact_rules: CompactRules = FAITHFUL
    compact_shape: CompactShape = KEEPS_USERS
    default: StandIn | None = None
    max_conversations: int = 4096
    kept: dict[str, StandIn] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.default is None:
            self.default = self._fresh()

    def _fresh(self) -> StandIn:
        return StandIn(compact_rules=self.compact_rules, compact_shape=self.compact_shape)

    def named(self, name: str | None) -> StandIn:
        """The conversation's stand-in (made on first use); no name: the shared one."""
        if not name:
            assert self.default is not None
            return self.default
        if name not in self.kept:
            self.kept[name] = self._fresh()
            while len(self.kept) > self.max_conversations:
                del self.kept[next(iter(self.kept))]
        return self.kept[name]


def nested_deeper(value: Any, limit: int) -> bool:
    """Whether a parsed JSON value nests lists and objects deeper than ``limit`` (iterative:
    a deep value cannot exhaust the stack)."""
    if not isinstance(value, (dict, list)):
        return False
    stack: list[tuple[Any, int]] = [(value, 1)]  # only containers: scalars are skipped
    while stack:
        current, depth = stack.pop()
        if depth > limit:
            return True
        for child in current.values() if isinstance(current, dict) else current:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
    return False


def compacted_output(
    items: Sequence[Item], summary: Item, shape: CompactShape = KEEPS_USERS
) -> list[Item]:
    """What ``/v1/responses/compact`` answers a chain and input with: "a list of all user
    messages, followed by a single compaction item" (the ``openai`` client's
    ``CompactedResponse.output``, generated from the API's OpenAPI spec; ``rules.COMPACTION_OUTPUT``
    cites it); with ``summary_only``, the labelled variant, the compaction item alone.
    openai/openai-agents-js#760 shows a real answer of that shape: each user message as an output
    item (an ``id``, typed ``message``, ``status: completed``, its text as ``input_text``
    parts), then one encrypted item.
    The one shape both compaction stand-ins answer with (this one over HTTP, and the scripted
    model's compaction client), and the one the doctor's and the workaround's dead-item rule
    reads (``analysis.pairing``). Not modelled: the SDK's
    ``_strip_orphaned_assistant_ids`` says some models (gpt-5.4) also keep assistant messages."""
    if shape != KEEPS_USERS:
        return [summary]
    return [*kept_messages(items, str(summary.get("id", ""))), summary]


def kept_messages(items: Sequence[Item], prefix: str = "") -> list[Item]:
    """The items the compaction endpoint answers with before its summary: the user messages of
    the chain and the input, in order, as the API returns them (openai/openai-agents-js#760):
    numbered ids after ``prefix``, typed ``message``, completed, a text given as a string turned
    into one ``input_text`` part. The SDK's own output handling expects them
    (``_normalize_compaction_output_items`` normalises user messages in a compact response, and
    the JS SDK's maps over their ``content``), and its candidate count leaves them out because
    compaction keeps them."""
    users = (i for i in items if i.get("role") == "user" and i.get("type", "message") == "message")
    return [
        {
            "id": f"msg_{prefix}_{number}",
            "type": "message",
            "status": "completed",
            "role": "user",
            "content": _input_parts(item.get("content")),
        }
        for number, item in enumerate(users, 1)
    ]


def _input_parts(content: Any) -> Any:
    """A user message's content as input parts: a string is one ``input_text`` part."""
    return [{"type": "input_text", "text": content}] if isinstance(content, str) else content


def _objects(value: Any) -> list[Item]:
    """The JSON objects of a list (anything else is no list of objects)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _as_items(value: Any) -> list[Item]:
    if value is None:
        return []
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, dict)]
    return []


def _arguments(schema: Any) -> Item:
    """Placeholder arguments for a function tool's JSON schema: one value per property (a
    schema that is not one has none)."""
    samples = {"string": "v", "integer": 0, "number": 0, "boolean": False, "array": []}
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return {}
    return {
        str(name): samples.get(str(spec.get("type") if isinstance(spec, dict) else None))
        for name, spec in properties.items()
    }


def _message(text: str, item_id: str) -> Item:
    return {
        "type": "message",
        "id": item_id,
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def _response(
    response_id: str, body: Item, output: list[Item], used: Item, status: str = "completed"
) -> Item:
    return {
        "id": response_id,
        "object": "response",
        "created_at": CREATED_AT,
        "status": status,
        "error": None,
        "incomplete_details": None,
        "instructions": body.get("instructions"),
        "model": body.get("model") or "stand-in",
        "output": output,
        "parallel_tool_calls": bool(body.get("parallel_tool_calls", True)),
        "previous_response_id": body.get("previous_response_id"),
        "tool_choice": body.get("tool_choice") or "auto",
        "tools": body.get("tools") or [],
        "usage": used,
    }


def _chat_usage(used: Item) -> Item:
    """A Responses ``usage`` in Chat Completions' words."""
    return {
        "prompt_tokens": used["input_tokens"],
        "completion_tokens": used["output_tokens"],
        "total_tokens": used["total_tokens"],
    }


def _chunks(completion: Item, body: Item) -> list[Item]:
    """A chat completion as the stream's chunks: the message's delta, the finish reason, and
    the usage when ``stream_options.include_usage`` asks for it (then ``[DONE]``)."""
    head = {k: completion[k] for k in ("id", "created", "model")}
    head["object"] = "chat.completion.chunk"
    (choice,) = completion["choices"]
    delta = {k: v for k, v in choice["message"].items() if v is not None}
    for number, call in enumerate(delta.get("tool_calls", [])):
        delta["tool_calls"][number] = {"index": number, **call}
    chunks = [
        {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]},
    ]
    options = body.get("stream_options")
    if isinstance(options, dict) and options.get("include_usage"):
        chunks.append({**head, "choices": [], "usage": completion["usage"]})
    return [{**chunk, "type": CHUNK} for chunk in chunks]


CHUNK = "chat.completion.chunk"  # a chunk's event name: the stream has only data lines


def _events(response: Item) -> list[Item]:
    """The stream of one response: created, in progress, each item added and done, completed."""
    start = {**response, "status": "in_progress", "output": [], "usage": None}
    events: list[Item] = [
        {"type": "response.created", "response": start},
        {"type": "response.in_progress", "response": start},
    ]
    for index, item in enumerate(response["output"]):
        added = {**item, "status": "in_progress"} if "status" in item else item
        events.append({"type": "response.output_item.added", "output_index": index, "item": added})
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    events.append({"type": "response.completed", "response": response})
    return [{**event, "sequence_number": number} for number, event in enumerate(events)]
