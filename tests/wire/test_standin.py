"""The stand-in answers like the API: replies, stored responses, streams and bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest

from approval_compaction.wire.rules import COMPACT
from approval_compaction.wire.standin import StandIn, parse

TOOL = {"type": "function", "name": "lookup", "parameters": {"properties": {"value": {}}}}


def post(standin: StandIn, path: str, body: Any) -> tuple[int, Any]:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    reply = standin.handle("POST", path, raw)
    text = reply.content().decode()
    return reply.status, json.loads(text) if reply.events is None else text


def test_standin_calls_the_tool_then_answers_with_a_message() -> None:
    standin = StandIn()
    status, first = post(standin, "/v1/responses", {"input": "q", "tools": [TOOL]})
    assert status == 200 and first["output"][0]["type"] == "function_call"
    call = first["output"][0]
    follow = [{"type": "function_call_output", "call_id": call["call_id"], "output": "x"}]
    body = {"input": follow, "previous_response_id": first["id"], "tools": [TOOL]}
    status, second = post(standin, "/v1/responses", body)
    assert status == 200 and second["output"][0]["type"] == "message"


def test_standin_previous_response_id_joins_the_stored_conversation() -> None:
    """The orphan rule reads the chain: an output is paired with a call from a stored response."""
    standin = StandIn()
    _, first = post(standin, "/v1/responses", {"input": "q", "tools": [TOOL]})
    lone = [
        {"type": "function_call_output", "call_id": first["output"][0]["call_id"], "output": ""}
    ]
    assert post(standin, "/v1/responses", {"input": lone})[0] == 400
    chained = {"input": lone, "previous_response_id": first["id"]}
    assert post(standin, "/v1/responses", chained)[0] == 200


def test_standin_previous_response_without_the_output_is_an_open_call() -> None:
    standin = StandIn()
    _, first = post(standin, "/v1/responses", {"input": "q", "tools": [TOOL]})
    status, body = post(
        standin, "/v1/responses", {"input": "again", "previous_response_id": first["id"]}
    )
    assert status == 400
    assert body["error"]["message"].startswith("No tool output found for function call")


def test_standin_unknown_previous_response_id() -> None:
    status, body = post(standin := StandIn(), "/v1/responses", {"previous_response_id": "resp_x"})
    assert (status, body["error"]) == (
        400,
        {
            "message": "Previous response with id 'resp_x' not found.",
            "type": "invalid_request_error",
            "param": "previous_response_id",
            "code": "previous_response_not_found",
        },
    )
    assert standin.log[-1].status == 400


@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b"", b"\xff\xfe"], ids=repr)
def test_standin_malformed_json_is_a_400_not_a_crash(raw: bytes) -> None:
    status, body = post(StandIn(), "/v1/responses", raw)
    assert status == 400 and body["error"]["message"].startswith("We could not parse the JSON")


@pytest.mark.parametrize(
    ("method", "path"), [("POST", "/v1/chat"), ("GET", "/v1/responses"), ("DELETE", "/")]
)
def test_standin_unknown_endpoint_is_a_404_invalid_url(method: str, path: str) -> None:
    reply = StandIn().handle(method, path, b"{}")
    assert reply.status == 404
    assert json.loads(reply.content())["error"]["message"] == f"Invalid URL ({method} {path})"


def test_standin_compact_keeps_user_messages_then_one_compaction_item() -> None:
    call = {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}
    status, body = post(
        StandIn(), "/v1/responses/compact", {"input": [{"role": "user", "content": "q"}, call]}
    )
    assert status == 200 and body["object"] == "response.compaction"
    assert [item["type"] for item in body["output"]] == ["message", "compaction"]


def test_standin_stream_is_server_sent_events_ending_with_completed() -> None:
    _, text = post(StandIn(), "/v1/responses", {"input": "q", "stream": True})
    blocks = [b for b in text.split("\n\n") if b]
    kinds = [b.splitlines()[0].removeprefix("event: ") for b in blocks]
    assert kinds[0] == "response.created" and kinds[-1] == "response.completed"
    numbers = [
        json.loads(b.splitlines()[1].removeprefix("data: "))["sequence_number"] for b in blocks
    ]
    assert numbers == list(range(len(blocks)))


def test_standin_replies_are_reproducible() -> None:
    def run() -> bytes:
        return StandIn().handle("POST", "/v1/responses", b'{"input": "q"}').content()

    assert run() == run()


def test_standin_script_overrides_the_policy() -> None:
    scripted = [[{"type": "message", "id": "m", "role": "assistant", "content": []}]]
    _, body = post(StandIn(script=scripted), "/v1/responses", {"input": "q", "tools": [TOOL]})
    assert body["output"] == scripted[0]


CALL = {"type": "function_call", "call_id": "c1", "name": "lookup", "arguments": "{}"}


def first_call(standin: StandIn) -> dict[str, Any]:
    scripted = standin.script = [[CALL]]
    assert scripted
    _, body = post(standin, "/v1/responses", {"input": "q", "tools": [TOOL]})
    return dict(body)


def test_standin_compact_refuses_a_chain_with_an_open_call() -> None:
    """openai/openai-agents-python#2317: the compaction endpoint answers a previous_response_id
    whose response holds a call without its output with the API's 400."""
    standin = StandIn()
    first = first_call(standin)
    status, body = post(standin, "/v1/responses/compact", {"previous_response_id": first["id"]})
    assert (status, body) == (
        400,
        {
            "error": {
                "message": "No tool output found for function call c1.",
                "type": "invalid_request_error",
                "param": "input",
                "code": None,
            }
        },
    )
    assert standin.compactions == 0 and standin.log[-1].path == "/v1/responses/compact"


def test_standin_compact_lenient_compacts_the_same_chain() -> None:
    """The seed's behaviour, kept by name: ``lenient`` compacts whatever it is sent."""
    standin = StandIn(compact_rules="lenient")
    first = first_call(standin)
    status, body = post(standin, "/v1/responses/compact", {"previous_response_id": first["id"]})
    assert status == 200 and body["output"][-1]["type"] == "compaction"


def test_standin_compact_accepts_the_chain_once_the_output_follows() -> None:
    standin = StandIn()
    first = first_call(standin)
    standin.script = None
    follow = {"type": "function_call_output", "call_id": "c1", "output": "x"}
    _, second = post(
        standin, "/v1/responses", {"input": [follow], "previous_response_id": first["id"]}
    )
    status, _ = post(standin, "/v1/responses/compact", {"previous_response_id": second["id"]})
    assert status == 200


@pytest.mark.parametrize("depth", [150, 1000, 100_000], ids=["past-limit", "1k", "100k"])
def test_standin_json_nested_too_deep_is_a_400_not_a_500(depth: int) -> None:
    """Regression for issue 33: JSON nested 1,000 deep answered 500."""
    raw = b'{"input": ' + b"[" * depth + b"]" * depth + b"}"
    status, body = post(standin := StandIn(), "/v1/responses", raw)
    assert status == 400 and "nested deeper" in body["error"]["message"]
    assert standin.log[-1].status == 400


def test_standin_forgets_the_oldest_responses_past_its_caps() -> None:
    """Regression for issue 33: every request body was kept for good (eight 39 MB requests
    took ``serve`` from 321 MB to 1,823 MB)."""
    standin = StandIn(max_responses=3, max_stored_bytes=10**9)
    ids = [post(standin, "/v1/responses", {"input": f"q{i}"})[1]["id"] for i in range(5)]
    assert list(standin.responses) == ids[2:]
    status, body = post(standin, "/v1/responses", {"input": "q", "previous_response_id": ids[0]})
    assert status == 400 and body["error"]["code"] == "previous_response_not_found"
    by_bytes = StandIn(max_stored_bytes=100_000)
    for _ in range(4):
        post(by_bytes, "/v1/responses", {"input": "x" * 40_000})
    assert len(by_bytes.responses) == 2


def test_standin_log_is_bounded_and_keeps_no_large_body() -> None:
    standin = StandIn(max_log=10)
    for _ in range(30):
        post(standin, "/v1/responses", {"input": "q"})
    assert 10 <= len(standin.log) <= 11
    post(standin, "/v1/responses", {"input": "x" * 100_000, "stream": True})
    assert standin.log[-1].body == {"stream": True}
    assert standin.log[-1].line() == "POST /v1/responses stream 200 ok"


def test_standin_log_line_escapes_control_characters() -> None:
    """Regression for issue 33: a ``%1b`` in a path reached the log as a raw escape."""
    standin = StandIn()
    standin.handle("GET", "/v1/a\x1b[2Jb\r\nPOST /v1/forged 200 ok", b"")
    line = standin.log[-1].line()
    assert line.isprintable() and "\\x1b[2J" in line and "\\r\\n" in line


def test_the_compaction_shape_is_what_the_installed_openai_client_documents() -> None:
    """The shape both stand-ins answer with is cited to the ``openai`` client's
    ``CompactedResponse.output`` (generated from the API's spec): the citation must stay true of
    the installed client."""
    import inspect

    from openai.types.responses import compacted_response

    said = " ".join(inspect.getsource(compacted_response).split())
    assert "This is a list of all user messages, followed by a single compaction item." in said


def test_a_compacted_history_after_a_dead_call_is_stuck_with_or_without_its_users() -> None:
    """The endpoint's answer keeps the user message the replaced suffix starts at; an answer
    without it (the summary alone) leaves the compaction item as the only later turn. The
    doctor calls both stuck: a compaction item is a later turn (``analysis.pairing``)."""
    from approval_compaction.doctor.verdict import judge
    from approval_compaction.wire.standin import compacted_output

    call = {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}
    first, later = {"role": "user", "content": "q"}, {"role": "user", "content": "other"}
    suffix = [later, {"type": "message", "role": "assistant", "content": "a"}]
    summary = {"type": "compaction", "id": "cmp", "encrypted_content": "s"}
    kept = compacted_output(suffix, summary)
    parts = [{"type": "input_text", "text": "other"}]
    user = {"id": "msg_cmp_1", "type": "message", "status": "completed", "role": "user"}
    assert kept == [{**user, "content": parts}, summary]
    assert judge("s", [first, call, *kept]).verdict == "stuck"
    assert judge("s", [first, call, summary]).verdict == "stuck"


def test_compacted_user_messages_have_the_shape_the_api_answers_with() -> None:
    """openai/openai-agents-js#760 shows the endpoint's answer: each user message with an id,
    typed ``message``, completed, its text as ``input_text`` parts. The JS SDK maps over that
    ``content`` (``normalizeCompactionInputMessage``), so a string there would crash it: the
    stand-in must answer as the API does, a list of parts kept as it came."""
    from approval_compaction.wire.standin import compacted_output

    image = [{"type": "input_image", "image_url": "https://example.test/a.png"}]
    items = [
        {"role": "user", "content": "q"},
        {"type": "message", "role": "user", "content": image},
    ]
    kept = compacted_output(items, {"type": "compaction", "id": "cmp_7"})
    assert [k["id"] for k in kept[:2]] == ["msg_cmp_7_1", "msg_cmp_7_2"]
    assert kept[0]["content"] == [{"type": "input_text", "text": "q"}]
    assert kept[1]["content"] == image
    assert all(k["status"] == "completed" and k["type"] == "message" for k in kept[:2])


def test_each_conversation_named_by_the_header_gets_its_own_stand_in() -> None:
    """A harness running many conversations through one server gets the same ids in each."""
    from approval_compaction.wire.standin import Conversations

    body = json.dumps({"model": "gpt-4.1", "input": "hi"}).encode()
    conversations = Conversations()
    first = conversations.named("a").handle("POST", "/v1/responses", body)
    again = conversations.named("b").handle("POST", "/v1/responses", body)
    shared = conversations.named(None).handle("POST", "/v1/responses", body)
    assert first.body is not None and again.body is not None and shared.body is not None
    assert first.body["id"] == again.body["id"] == shared.body["id"] == "resp_standin_0001"
    assert conversations.named("a").served == 1 and conversations.named(None).served == 1


def test_conversations_forget_the_oldest_past_their_cap() -> None:
    from approval_compaction.wire.standin import Conversations

    conversations = Conversations(max_conversations=2)
    for name in ("a", "b", "c"):
        conversations.named(name)
    assert list(conversations.kept) == ["b", "c"]


@pytest.mark.parametrize(
    ("reply", "first_type"),
    [("", "function_call"), ("message", "message"), ("call", "function_call")],
    ids=["policy", "message", "call"],
)
def test_the_reply_a_client_asks_for_is_what_the_stand_in_answers(
    reply: str, first_type: str
) -> None:
    """A client over HTTP scripts the next answer (``x-stand-in-reply``), as the in-process
    wiring scripts it: ``call`` calls the tool even after a compaction, ``message`` never."""
    tool = {"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}}
    compacted = [{"type": "compaction", "id": "cmp", "encrypted_content": "s"}]
    fresh = json.dumps({"model": "gpt-4.1", "input": "q", "tools": [tool]}).encode()
    history = [*compacted, {"role": "user", "content": "q"}]
    later = json.dumps({"model": "gpt-4.1", "input": history, "tools": [tool]}).encode()
    standin = StandIn()
    first = standin.answer(parse("POST", "/v1/responses", fresh), reply)
    assert first.body is not None and first.body["output"][0]["type"] == first_type
    second = standin.answer(parse("POST", "/v1/responses", later), reply)
    expected = "function_call" if reply == "call" else "message"
    assert second.body is not None and second.body["output"][0]["type"] == expected


def test_standin_compact_answers_the_summary_alone_only_when_asked_by_name() -> None:
    from approval_compaction.wire.rules import KEEPS_USERS, SUMMARY_ONLY
    from approval_compaction.wire.standin import Conversations

    body = {"input": [{"role": "user", "content": "q"}]}
    kinds = {
        shape: [
            item["type"] for item in post(StandIn(compact_shape=shape), COMPACT, body)[1]["output"]
        ]
        for shape in (KEEPS_USERS, SUMMARY_ONLY)
    }
    assert kinds == {KEEPS_USERS: ["message", "compaction"], SUMMARY_ONLY: ["compaction"]}
    assert StandIn().compact_shape == KEEPS_USERS
    assert Conversations(compact_shape=SUMMARY_ONLY).named("a").compact_shape == SUMMARY_ONLY


def test_the_compaction_answer_quotes_both_openai_clients_type_documentation() -> None:
    """``rules.COMPACTION_OUTPUT`` quotes ``CompactedResponse.output``'s documentation: the quote
    must be what the installed Python client and the JS harness's ``openai`` package say."""
    import importlib.metadata
    import inspect

    from openai.types.responses import compacted_response

    from approval_compaction.lab import paths
    from approval_compaction.wire.rules import COMPACTED_OUTPUT_DOC, COMPACTION_OUTPUT

    python = " ".join(inspect.getsource(compacted_response).split())
    assert COMPACTED_OUTPUT_DOC.removeprefix("The compacted list of output items. ") in python
    types = paths.ROOT / "node_modules" / "openai" / "resources" / "responses" / "responses.d.ts"
    if types.is_file():  # make setup installs it; the quote names its version
        node = " ".join(types.read_text().replace("*", " ").split())
        assert COMPACTED_OUTPUT_DOC in node
        node_version = json.loads((types.parents[2] / "package.json").read_text())["version"]
        assert f"/v{node_version}/" in COMPACTION_OUTPUT.sources[0].url
    assert COMPACTED_OUTPUT_DOC in COMPACTION_OUTPUT.sources[0].shows
    assert f"/v{importlib.metadata.version('openai')}/" in COMPACTION_OUTPUT.sources[1].url


def test_a_named_call_reply_calls_that_tool_not_the_first() -> None:
    """``call:NAME`` (a driver with several tools picks one, google-adk's) calls the tool of
    that name; a name the request has no tool for answers with a message."""

    def tool(name: str) -> dict[str, object]:
        properties = {"table": {"type": "string"}}
        return {"type": "function", "name": name, "parameters": {"properties": properties}}

    body = json.dumps({"model": "m", "input": "q", "tools": [tool("a"), tool("b")]}).encode()
    standin = StandIn()
    named = standin.answer(parse("POST", "/v1/responses", body), "call:b")
    assert named.body is not None
    assert [(i["type"], i.get("name")) for i in named.body["output"]] == [("function_call", "b")]
    missing = standin.answer(parse("POST", "/v1/responses", body), "call:c")
    assert missing.body is not None and missing.body["output"][0]["type"] == "message"


def test_a_calls_reply_makes_each_listed_call_with_the_id_given() -> None:
    """``calls:NAME@ID,...`` (a search scripting one reply's calls) answers with those calls in
    order, an MCP approval request for ``mcp``; a name with no tool is left out, and nothing
    left is a message."""
    parameters = {"properties": {"value": {"type": "string"}}}
    tools = [
        {"type": "function", "name": "a", "parameters": parameters},
        {"type": "mcp", "server_label": "srv", "server_url": "https://mcp.invalid/"},
    ]
    body = json.dumps({"model": "m", "input": "q", "tools": tools}).encode()
    standin = StandIn()
    reply = standin.answer(parse("POST", "/v1/responses", body), "calls:a@a-1-0,mcp@m-1-1,z@z-1")
    assert reply.body is not None
    output = reply.body["output"]
    assert [(i["type"], i.get("call_id") or i["id"]) for i in output] == [
        ("function_call", "a-1-0"),
        ("mcp_approval_request", "m-1-1"),
    ]
    assert output[1]["server_label"] == "srv"
    nothing = standin.answer(parse("POST", "/v1/responses", body), "calls:z@z-1")
    assert nothing.body is not None and nothing.body["output"][0]["type"] == "message"


def test_the_usage_a_response_reports_grows_with_what_the_model_is_given() -> None:
    """The API counts tokens with the model's tokenizer (not modelled): the stand-in reports
    one per four characters of the items given and answered, so a longer history reports more,
    and a client that compacts by the count (google-adk's token threshold) sees it."""
    standin = StandIn()
    short = json.dumps({"model": "m", "input": "q"}).encode()
    long = json.dumps({"model": "m", "input": "q" * 400}).encode()
    one = standin.answer(parse("POST", "/v1/responses", short)).body
    two = standin.answer(parse("POST", "/v1/responses", long)).body
    assert one is not None and two is not None
    given = len(json.dumps([{"role": "user", "content": "q" * 400}], sort_keys=True))
    assert two["usage"]["input_tokens"] == -(-given // 4) > one["usage"]["input_tokens"] > 0
    usage = two["usage"]
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]
