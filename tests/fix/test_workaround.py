"""The workaround: it defers compaction only while a group is open, and compaction goes on."""

from __future__ import annotations

import importlib.util
import json
import re
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import pytest
from agents.memory import (
    OpenAIResponsesCompactionSession,
    is_openai_responses_compaction_aware_session,
)
from agents.memory.session import SessionABC
from openai.types.responses import ResponseFunctionToolCall

from approval_compaction import paths
from approval_compaction.analysis.invariants import INVARIANTS
from approval_compaction.cli import main
from approval_compaction.fix.workaround import (
    ALL_ITEMS,
    KEPT_DEFERRALS,
    LEGACY_WINDOW,
    RESTORE_ATTEMPTS,
    DeferCompactionWhilePending,
    automatic_window,
    defer_compaction_while_pending,
    open_groups,
)
from approval_compaction.study.loop import run_sync

ROOT = paths.ROOT
USER = {"role": "user", "content": "q"}
CALL = {"type": "function_call", "call_id": "c1", "name": "t", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "x"}
MCP_REQUEST = {
    "type": "mcp_approval_request",
    "id": "r1",
    "name": "t",
    "arguments": "{}",
    "server_label": "s",
}
MCP_RESPONSE = {"type": "mcp_approval_response", "approval_request_id": "r1", "approve": True}


class CountingStore(SessionABC):
    """A list-backed store that records the limit of every read."""

    def __init__(self, items: list[Any]) -> None:
        self.session_id = "counting"
        self.items = list(items)
        self.reads: list[int | None] = []

    async def get_items(self, limit: int | None = None) -> list[Any]:
        self.reads.append(limit)
        return list(self.items if limit is None else self.items[-limit:] if limit else [])

    async def add_items(self, items: list[Any]) -> None:
        self.items.extend(items)

    async def pop_item(self) -> Any:
        return self.items.pop() if self.items else None

    async def clear_session(self) -> None:
        self.items.clear()


def compaction_client() -> MagicMock:
    client = MagicMock()
    summary = {"type": "compaction", "id": "cmp-1", "encrypted_content": "summary"}
    client.responses.compact = AsyncMock(return_value=SimpleNamespace(output=[summary], usage=None))
    return client


def session_over(items: list[Any], **options: Any) -> tuple[Any, CountingStore, MagicMock]:
    store, client = CountingStore(items), compaction_client()
    session = OpenAIResponsesCompactionSession(
        "s", store, client=client, compaction_mode="input", **options
    )
    return defer_compaction_while_pending(session), store, client


def automatic(exchange_items: int) -> SimpleNamespace:
    """What the runner's context wrapper carries into an automatic compaction."""
    digests = tuple(f"d{n}" for n in range(exchange_items))
    return SimpleNamespace(
        _session_compaction_is_automatic=True,
        _session_compaction_model_exchange=(digests, None),
    )


def history(size: int, *tail: dict[str, Any]) -> list[dict[str, Any]]:
    """``size`` items: paired calls and answers, then ``tail``."""
    items: list[dict[str, Any]] = []
    for n in range(size - len(tail)):
        items.append({"role": "user", "content": f"q{n}"} if n % 2 == 0 else OUTPUT)
    return [*items, *tail]


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([USER, CALL], ["function_call:c1"]),
        ([USER, CALL, OUTPUT], []),
        ([USER, MCP_REQUEST], ["mcp_approval_request:r1"]),
        ([USER, MCP_REQUEST, MCP_RESPONSE], []),
        ([USER, OUTPUT], []),
        ([], []),
    ],
    ids=["open-call", "paired-call", "open-mcp", "answered-mcp", "orphan-output-only", "empty"],
)
def test_open_groups_lists_calls_and_requests_still_waiting(
    items: list[dict[str, Any]], expected: list[str]
) -> None:
    assert open_groups(items) == expected


def test_open_groups_accepts_sdk_models() -> None:
    call = ResponseFunctionToolCall(
        type="function_call", call_id="c9", name="t", arguments="{}", status="completed"
    )
    assert open_groups([USER, call]) == ["function_call:c9"]


def test_workaround_is_the_sdk_session_upgraded_in_place() -> None:
    plain = OpenAIResponsesCompactionSession("s", CountingStore([]), client=compaction_client())
    session = defer_compaction_while_pending(plain)
    assert session is plain
    assert isinstance(session, DeferCompactionWhilePending)
    assert isinstance(session, OpenAIResponsesCompactionSession)
    assert is_openai_responses_compaction_aware_session(session)
    assert defer_compaction_while_pending(session) is session


def test_workaround_keeps_a_users_subclass_and_its_methods() -> None:
    class Named(OpenAIResponsesCompactionSession):
        def label(self) -> str:
            return "named"

    session = defer_compaction_while_pending(Named("s", CountingStore([])))
    assert isinstance(session, Named) and isinstance(session, DeferCompactionWhilePending)
    assert session.label() == "named"


async def test_workaround_defers_automatic_compaction_while_a_call_is_open() -> None:
    session, _, client = session_over([USER, CALL], should_trigger_compaction=lambda _: True)
    await session._run_compaction({"response_id": "resp-1"}, wrapper=automatic(2))
    client.responses.compact.assert_not_awaited()
    assert [d.open_items for d in session.deferrals] == [("function_call:c1",)]


async def test_workaround_defers_while_an_mcp_request_is_open() -> None:
    session, _, client = session_over([USER, MCP_REQUEST], should_trigger_compaction=lambda _: True)
    await session._run_compaction({"response_id": "resp-1"}, wrapper=automatic(2))
    client.responses.compact.assert_not_awaited()
    assert [d.open_items for d in session.deferrals] == [("mcp_approval_request:r1",)]


@pytest.mark.parametrize("force", [True, False], ids=["forced", "hook"])
async def test_workaround_honours_a_manual_compaction_with_a_call_open(force: bool) -> None:
    """As in 0.24.0: only the runner's automatic compaction waits; the application decides."""
    session, _, client = session_over([USER, CALL], should_trigger_compaction=lambda _: True)
    await session.run_compaction({"force": force})
    client.responses.compact.assert_awaited_once()
    assert list(session.deferrals) == []


async def test_workaround_reads_attribute_writes_on_the_session() -> None:
    session, _, client = session_over([USER, CALL, OUTPUT])

    def never(context: dict[str, Any]) -> bool:
        return False

    session.should_trigger_compaction = never
    assert session.should_trigger_compaction is never
    await session.run_compaction()
    client.responses.compact.assert_not_awaited()
    session.should_trigger_compaction = lambda _: True
    await session.run_compaction()
    client.responses.compact.assert_awaited_once()


def test_workaround_keeps_the_hook_of_a_session_upgraded_in_place() -> None:
    def hook(context: dict[str, Any]) -> bool:
        return True

    plain = OpenAIResponsesCompactionSession("s", CountingStore([]), should_trigger_compaction=hook)
    assert defer_compaction_while_pending(plain).should_trigger_compaction is hook


@pytest.mark.parametrize("size", [10, 1_000, 10_000])
async def test_workaround_decision_reads_nothing_beyond_the_sdks_own_view(size: int) -> None:
    wrapped, store, client = session_over(
        history(size, USER, CALL), should_trigger_compaction=lambda _: True
    )
    await wrapped._run_compaction({"response_id": "resp-1"}, wrapper=automatic(2))
    assert store.reads == [None]  # the SDK's own candidate view, read with or without us
    assert wrapped.items_read == 0 and wrapped.deferrals[-1].items_read == 0
    client.responses.compact.assert_not_awaited()


@pytest.mark.parametrize("size", [10, 1_000, 10_000])
async def test_workaround_forced_automatic_compaction_reads_only_the_exchange(size: int) -> None:
    """A forced automatic compaction skips the hook: the workaround reads the exchange, bounded."""
    session, store, client = session_over(history(size, USER, CALL))
    await session._run_compaction({"response_id": "r", "force": True}, wrapper=automatic(2))
    assert store.reads == [3]  # the exchange and one more, never the whole history
    assert session.deferrals[-1].items_read == 3
    client.responses.compact.assert_not_awaited()


async def test_workaround_reads_nothing_when_the_hook_declines() -> None:
    session, store, _ = session_over([USER, CALL], should_trigger_compaction=lambda _: False)
    await session._run_compaction({"response_id": "resp-1"}, wrapper=automatic(2))
    assert store.reads == [None] and session.items_read == 0
    assert list(session.deferrals) == []


async def test_workaround_forced_decision_reads_the_store_not_the_sessions_copy() -> None:
    """Two session objects on one store (two workers): the first holds the history in memory
    after its compaction; the second stores a call awaiting approval. The first one's forced
    automatic compaction reads the store's latest exchange, so it waits for that call (its
    in-memory copy, which misses it, said nothing was open)."""
    session, store, client = session_over([USER, CALL, OUTPUT])
    await session.run_compaction({"force": True})  # the SDK caches what it compacted
    other = defer_compaction_while_pending(
        OpenAIResponsesCompactionSession("s", store, client=client, compaction_mode="input")
    )
    await other.add_items([USER, CALL])
    reads = len(store.reads)
    await session._run_compaction({"response_id": "r", "force": True}, wrapper=automatic(2))
    assert store.reads[reads:] == [3]  # the exchange and one more
    assert [d.open_items for d in session.deferrals] == [("function_call:c1",)]
    assert client.responses.compact.await_count == 1  # the first, manual one only


async def test_workaround_rejects_an_oversized_manual_compaction_before_reading() -> None:
    session, store, client = session_over(history(20), max_rollback_items=5)
    with pytest.raises(ValueError, match="max_rollback_items"):
        await session.run_compaction({"force": True})
    assert store.reads == [6]  # the SDK's own budget read, and nothing before it
    client.responses.compact.assert_not_awaited()


@pytest.mark.parametrize("order", ["encrypted-outside", "workaround-outside"])
async def test_workaround_defers_with_an_encrypted_session_in_either_order(order: str) -> None:
    from agents.extensions.memory.encrypt_session import EncryptedSession

    store, client = CountingStore([]), compaction_client()
    compaction = OpenAIResponsesCompactionSession(
        "s", store, client=client, compaction_mode="input", should_trigger_compaction=lambda _: True
    )
    key = "a-synthetic-test-key-with-enough-entropy-0123456789"
    if order == "encrypted-outside":
        outer = EncryptedSession("s", defer_compaction_while_pending(compaction), key)
    else:
        outer = defer_compaction_while_pending(EncryptedSession("s", compaction, key))
    assert isinstance(compaction, DeferCompactionWhilePending)
    await outer.add_items([USER, CALL])
    await outer.run_compaction({"response_id": "resp-1"}, wrapper=automatic(2))
    client.responses.compact.assert_not_awaited()
    assert [d.open_items for d in compaction.deferrals] == [("function_call:c1",)]


def test_workaround_keeps_only_the_latest_deferrals() -> None:
    session, _, _ = session_over([USER, CALL], should_trigger_compaction=lambda _: True)
    for n in range(KEPT_DEFERRALS + 5):
        run_sync(session._run_compaction({"response_id": f"resp-{n}"}, wrapper=automatic(2)))
    assert len(session.deferrals) == KEPT_DEFERRALS
    assert session.deferrals[-1].args == {"response_id": f"resp-{KEPT_DEFERRALS + 4}"}


def test_workaround_refuses_a_session_that_cannot_compact() -> None:
    with pytest.raises(TypeError, match="nothing to defer"):
        defer_compaction_while_pending(CountingStore([]))


@pytest.fixture(scope="module")
def fixed_matrix(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    path = tmp_path_factory.mktemp("fix") / "fix.json"
    assert main(["matrix", "--fix", "--format", "json", "--output", str(path)]) == 0
    rows: list[dict[str, Any]] = json.loads(path.read_text())
    return rows


def test_matrix_fix_holds_every_invariant_in_every_case(fixed_matrix: list[dict[str, Any]]) -> None:
    assert len(fixed_matrix) == 16 * len(INVARIANTS)
    assert [r for r in fixed_matrix if r["holds"] is not True] == []


def test_matrix_fix_still_compacts_when_compaction_is_on(
    fixed_matrix: list[dict[str, Any]],
) -> None:
    requests = {
        (r["runner"], r["decision"], r["state_boundary"], r["compaction"]): r["compaction_requests"]
        for r in fixed_matrix
    }
    assert all(n >= 1 for case, n in requests.items() if case[-1] == "on")
    assert all(n == 0 for case, n in requests.items() if case[-1] == "off")


def test_sdk_regression_runs_the_workaround_here() -> None:
    """The SDK-style test's cases run with the workaround in this project, not only on the
    unfixed SDK (the upstream form itself has the SDK's session only)."""
    path = ROOT / "tests" / "sdk_regression" / "test_pending_approval_variants.py"
    spec = importlib.util.spec_from_file_location("sdk_regression_module", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert [p.id for p in module.variants()] == ["workaround", "unfixed"]
    assert [p.id for p in module.upstream.SESSION_VARIANTS] == ["sdk"]


@pytest.mark.parametrize(
    ("args", "wrapper", "marked", "expected"),
    [
        ({"response_id": "r"}, automatic(2), True, 3),
        ({"response_id": "r"}, None, True, 0),
        ({"response_id": "r"}, SimpleNamespace(_session_compaction_is_automatic=False), True, 0),
        ({"response_id": "r"}, None, False, LEGACY_WINDOW),
        ({"force": True}, None, False, 0),
    ],
    ids=["runner-marked", "manual", "marked-manual", "older-runner", "older-manual"],
)
def test_automatic_window_tells_the_runner_from_the_application(
    args: dict[str, Any], wrapper: Any, marked: bool, expected: int
) -> None:
    """Releases before 0.23 do not mark automatic calls: the runner's response id tells them."""
    assert automatic_window(args, wrapper, marked) == expected


def test_split_open_tells_a_dead_call_from_one_still_waited_for() -> None:
    from approval_compaction.fix.workaround import split_open

    answer = {"type": "message", "role": "assistant", "content": "a"}
    assert split_open([USER, CALL]) == (["function_call:c1"], [])  # at the end: waited for
    assert split_open([USER, CALL, USER, answer]) == ([], ["function_call:c1"])  # moved on
    assert split_open([USER, CALL, OUTPUT, USER]) == ([], [])  # answered
    assert split_open([USER, MCP_REQUEST]) == (["mcp_approval_request:r1"], [])
    assert split_open([USER, MCP_REQUEST, USER]) == ([], ["mcp_approval_request:r1"])
    assert split_open([USER, MCP_REQUEST, MCP_RESPONSE, USER]) == ([], [])


def test_workaround_retires_a_dead_call_then_compacts() -> None:
    from approval_compaction.fix.workaround import Retirement

    answer = {"type": "message", "role": "assistant", "content": "a"}
    store = CountingStore([USER, CALL, USER, answer])
    session = defer_compaction_while_pending(
        OpenAIResponsesCompactionSession("s", store, client=MagicMock(), compaction_mode="input")
    )
    run_sync(session._retire())
    assert store.items == [USER, USER, answer]
    assert list(session.retirements) == [Retirement(("function_call:c1",), 4)]


def test_workaround_retires_every_dead_item_of_the_history_not_only_the_exchanges() -> None:
    """A dead call older than the latest exchange, and an abandoned MCP approval request, go
    with the one the exchange showed, so no compaction is left to a later turn."""
    from approval_compaction.fix.workaround import Retirement

    answer = {"type": "message", "role": "assistant", "content": "a"}
    older = {**CALL, "call_id": "c0"}
    store = CountingStore([USER, older, CALL, MCP_REQUEST, USER, answer])
    session = defer_compaction_while_pending(
        OpenAIResponsesCompactionSession("s", store, client=MagicMock(), compaction_mode="input")
    )
    run_sync(session._retire())
    assert store.items == [USER, USER, answer]
    removed = ("function_call:c0", "function_call:c1", "mcp_approval_request:r1")
    assert list(session.retirements) == [Retirement(removed, 6)]


def test_workaround_retires_a_dead_call_by_its_place_not_by_its_id() -> None:
    """A call id used twice, the first paired and the second dead: only the dead one goes, so
    the first output keeps its call (removing by ``type:key`` took both and left the output
    alone); an anonymous tool search call no output answers is dead too, and retired."""
    answer = {"type": "message", "role": "assistant", "content": "a"}
    search = {"type": "tool_search_call", "arguments": {}}
    store = CountingStore([USER, CALL, OUTPUT, CALL, search, USER, answer])
    session = defer_compaction_while_pending(
        OpenAIResponsesCompactionSession("s", store, client=MagicMock(), compaction_mode="input")
    )
    run_sync(session._retire())
    assert store.items == [USER, CALL, OUTPUT, USER, answer]
    assert session.retirements[-1].removed == ("function_call:c1", "tool_search_call:?")


def late_session(items: list[Any]) -> tuple[Any, CountingStore]:
    store = CountingStore(items)
    session = OpenAIResponsesCompactionSession(
        "s", store, client=MagicMock(), compaction_mode="input"
    )
    return defer_compaction_while_pending(session), store


@pytest.mark.parametrize("output", [OUTPUT, MCP_RESPONSE], ids=["function", "mcp"])
def test_workaround_stores_a_late_output_whose_call_is_gone_as_text(output: dict[str, Any]) -> None:
    """The call (request) was retired; the output (response) the late resume appends becomes
    the doctor's healed message with the workaround's prefix, and the batch's other items stay."""
    from approval_compaction.analysis.healing import healed_message
    from approval_compaction.analysis.pairing import find_unpaired
    from approval_compaction.fix.workaround import LATE_PREFIX, LateOutput

    answer = {"type": "message", "role": "assistant", "content": "done"}
    session, store = late_session([USER, USER])
    run_sync(session.add_items([output, answer]))
    assert store.items == [USER, USER, healed_message(output, LATE_PREFIX), answer]
    assert store.items[2]["content"].startswith("[workaround] The tool call ")
    assert find_unpaired(store.items) == []
    kind = output["type"]
    assert list(session.late_outputs) == [LateOutput((f"{kind}:{output.get('call_id', 'r1')}",), 2)]


def test_workaround_stores_an_output_whose_call_is_stored_as_it_is() -> None:
    """A prompt approval: the call is stored, the output pairs with it and is left alone."""
    session, store = late_session([USER, CALL])
    run_sync(session.add_items([OUTPUT]))
    assert store.items == [USER, CALL, OUTPUT] and list(session.late_outputs) == []
    assert store.reads == [ALL_ITEMS]  # one read of every item told the call is there


def test_workaround_reads_nothing_for_a_batch_whose_outputs_follow_their_calls() -> None:
    session, store = late_session([USER])
    run_sync(session.add_items([CALL, OUTPUT, MCP_REQUEST, MCP_RESPONSE]))
    assert store.reads == [] and store.items == [USER, CALL, OUTPUT, MCP_REQUEST, MCP_RESPONSE]


def test_workaround_dumps_an_sdk_model_before_storing_it_as_text() -> None:
    from openai.types.responses.response_input_item_param import FunctionCallOutput

    from approval_compaction.fix.workaround import _plain

    model = ResponseFunctionToolCall(type="function_call", call_id="c1", name="t", arguments="{}")
    assert _plain(model) == {
        "type": "function_call",
        "call_id": "c1",
        "name": "t",
        "arguments": "{}",
    }
    plain: FunctionCallOutput = {"type": "function_call_output", "call_id": "c1", "output": "x"}
    assert _plain(plain) == OUTPUT


@pytest.mark.parametrize("mode", ["input", "auto", "previous_response_id"])
def test_workaround_keeps_a_late_resume_paired_through_the_sdk(mode: str) -> None:
    """Through the SDK: the approval abandoned, compaction retires its call, the application
    resumes the kept state late; the stored history and every later input hold nothing
    unpaired, the tool runs once and its result is stored as text (on the pinned release alone,
    in ``input`` mode, the late output is stored without its call)."""
    from approval_compaction.analysis.pairing import find_unpaired
    from approval_compaction.openai_agents.driver import (
        Ask,
        Continue,
        Decide,
        Keep,
        Recall,
        Resume,
        Setup,
        converse,
    )
    from approval_compaction.openai_agents.harness import FINISHED, PENDING_CALL, QUESTIONS

    pause = Ask(QUESTIONS[0], (PENDING_CALL,), stage="pause")
    steps = [pause, Keep(), Continue(2), Recall(), Decide(), Resume((FINISHED,)), Continue(2)]
    runs = {
        wrap: converse(Setup(mode, "always", wrap=wrap, go_on=True), steps)  # type: ignore[arg-type]
        for wrap in (None, defer_compaction_while_pending)
    }
    fixed, bare = runs[defer_compaction_while_pending], runs[None]
    assert fixed.dispatches == 1
    stages = [t.stage for t in fixed.turns if t.stage is not None]
    for stage in stages:
        sent = [*stage.model_inputs, *stage.compaction_inputs]
        assert find_unpaired(stage.stored) == [] or stage.name == "pause"
        assert all(u.problem != "orphan output" for items in sent for u in find_unpaired(items))
    resumed = fixed.stage("resume").stored
    assert any(str(i.get("content", "")).startswith("[workaround] ") for i in resumed)
    if mode == "input":
        bare_found = find_unpaired(bare.stage("resume").stored)
        assert [u.problem for u in bare_found] == ["orphan output"]


def _session_get_items(items: list[Any]) -> Any:
    """A reader named as the runner's new-turn reader is (``workaround.NEW_TURN_READER``)."""

    async def read_items() -> list[Any]:
        return list(items)

    return read_items


ANSWERED_ELSEWHERE = {**MCP_REQUEST, "id": "r0"}
ANSWER_ELSEWHERE = {**MCP_RESPONSE, "approval_request_id": "r0"}


async def test_a_new_turn_never_reads_an_unanswered_mcp_request() -> None:
    """The workaround sent an abandoned hosted MCP approval request to the model at the first
    later turn before a compaction retired it; what the API answers to that no source shows.
    The runner's new-turn read now leaves it out (an answered one, and everything else, stays),
    and says so in ``withheld``."""
    from approval_compaction.fix.workaround import NEW_TURN_READER

    stored = [USER, ANSWERED_ELSEWHERE, ANSWER_ELSEWHERE, USER, MCP_REQUEST]
    session, store, _ = session_over(stored)
    reader = _session_get_items(store.items)
    assert reader.__qualname__ == NEW_TURN_READER
    items, _ = await session._get_items_with_generation(reader)
    assert items == stored[:-1] and store.items == stored  # left out of the read, still stored
    assert [w.left_out for w in session.withheld] == [("mcp_approval_request:r1",)]


async def test_any_other_read_through_the_generation_hook_is_the_sdks() -> None:
    """The SDK's other caller (settling a resumed run's pending write) compares what it reads
    with what it wrote: it gets the history as stored."""
    stored = [USER, MCP_REQUEST]
    session, store, _ = session_over(stored)
    items, _ = await session._get_items_with_generation(lambda: store.get_items())
    assert items == stored and not session.withheld


def test_the_sdk_reads_a_new_turn_with_the_reader_the_workaround_knows() -> None:
    """The new-turn read is told apart by its reader's name: the installed SDK's runner must
    still define it so, and pass the generation hook a lambda everywhere else."""
    import inspect

    from agents.run_internal import session_persistence

    from approval_compaction.fix.workaround import NEW_TURN_READER

    source = inspect.getsource(session_persistence)
    reader = NEW_TURN_READER.split(".<locals>.")
    assert f"def {reader[0]}(" in source and f"async def {reader[1]}(" in source
    callers = re.findall(r"get_with_generation,\s*(\w+)", source)
    assert callers.count("read_items") == 1 and set(callers) == {"read_items", "lambda"}


@pytest.mark.parametrize("mode", ["input", "auto", "previous_response_id"])
def test_an_abandoned_mcp_request_is_never_sent_to_the_model_with_the_workaround(mode: str) -> None:
    """The liveness situation ``mcp_abandoned`` on the installed release: the workaround waited
    at the pause, then sent the unanswered request to the model at the first later turn before
    its compaction retired it (``[True, False, False]``); now no later turn sends it. (Without
    the workaround this release compacts the request away at the pause; 0.24.0 sends it at every
    later turn: the next test.)"""
    assert mcp_request_sent(mode, defer_compaction_while_pending) == [False, False, False]


def mcp_request_sent(mode: str, wrap: Any, worker: Any = None) -> list[bool]:
    """Whether each of three later turns of ``mcp_abandoned`` sent the request to the model."""
    from approval_compaction.openai_agents.driver import converse
    from approval_compaction.openai_agents.situations import (
        MCP_REQUEST_ID,
        later,
        situation_setup,
        situation_steps,
    )

    steps = [*situation_steps("mcp_abandoned"), *later(3)]
    transcript = converse(situation_setup("mcp_abandoned", mode, wrap=wrap), steps, worker=worker)
    later_turns = [t.stage for t in transcript.turns[1:] if t.stage is not None]
    assert len(later_turns) == 3
    return [
        any(item.get("id") == MCP_REQUEST_ID for request in s.model_inputs for item in request)
        for s in later_turns
    ]


@pytest.mark.releases
@pytest.mark.parametrize("mode", ["input", "auto", "previous_response_id"])
def test_on_the_newest_release_the_workaround_never_sends_the_abandoned_mcp_request(
    mode: str,
) -> None:
    """0.24.0 sends the unanswered request in every later model input; with the workaround (run
    in the release's own environment), in none."""
    plain, worked = in_release("0.24.0", mode)
    assert plain == [True, True, True]
    assert worked == [False, False, False]


@pytest.mark.releases
@pytest.mark.parametrize(
    ("version", "sent"),
    [("0.22.1", [False, False, False]), ("0.22.0", [True, False, False])],
    ids=["0.22.1-reads-through-the-session", "0.22.0-reads-directly"],
)
def test_before_0_22_1_the_workaround_sends_an_abandoned_mcp_request_once(
    version: str, sent: list[bool]
) -> None:
    """What README and docs/workaround.md say of older releases: from 0.22.1 the runner reads a
    new turn's history through the session's ``_get_items_with_generation``, which leaves the
    request out; 0.22.0 reads it directly, so the first later turn sends it, and the compaction
    after that turn retires it."""
    _, worked = in_release(version, "input")
    assert worked == sent


def in_release(version: str, mode: str) -> tuple[list[bool], list[bool]]:
    """``mcp_request_sent`` in a release's own environment, without and with the workaround."""
    import needs

    from approval_compaction.lab.releases import environments
    from approval_compaction.openai_agents.worker import Worker

    env = needs.release(version)
    with Worker(str(env.python), environments.isolated_environ()) as worker:
        plain = mcp_request_sent(mode, None, worker)
        worked = mcp_request_sent(mode, defer_compaction_while_pending, worker)
    return plain, worked


class FailingStore(CountingStore):
    """A store whose clear empties it and then fails; with ``adds_fail``, every add fails too
    (the SDK's put-back then fails as well)."""

    def __init__(self, items: list[Any], adds_fail: bool = False) -> None:
        super().__init__(items)
        self.adds_fail = adds_fail
        self.clears = 0

    async def add_items(self, items: list[Any]) -> None:
        if self.adds_fail:
            raise RuntimeError("add failed")
        await super().add_items(items)

    async def clear_session(self) -> None:
        self.clears += 1
        await super().clear_session()
        raise RuntimeError("clear failed")


def failed_replacement(wrap: bool, adds_fail: bool) -> FailingStore:
    """A forced compaction whose replacement of the history fails; the store, afterwards."""
    history = [{"role": "user", "content": "old"}, {"role": "assistant", "content": "new"}]
    store = FailingStore(history, adds_fail)
    session = OpenAIResponsesCompactionSession(
        "s", store, client=compaction_client(), max_rollback_items=2
    )
    if wrap:
        defer_compaction_while_pending(session)
    with pytest.raises(RuntimeError, match="clear failed"):
        run_sync(session.run_compaction({"force": True}))
    return store


@pytest.mark.parametrize("adds_fail", [False, True], ids=["put-back-works", "put-back-fails"])
def test_after_a_failed_replacement_the_workaround_reads_once_more_and_retries_its_put_back(
    adds_fail: bool,
) -> None:
    """Issue 61 (r4): the costs notebook 06 and the keep-the-workaround sentence name, the cause
    of the SDK's own ``test_rollback_budget_bounds_failed_clear_inspection`` and
    ``test_run_compaction_reraises_replacement_error_when_restore_fails`` failing with it: after
    a failed replacement, one read of the whole history (past ``max_rollback_items``), and where
    the store holds neither history, ``RESTORE_ATTEMPTS`` more put-backs before the same error."""
    bare, wrapped = (failed_replacement(wrap, adds_fail) for wrap in (False, True))
    assert ALL_ITEMS not in bare.reads
    assert wrapped.reads[: len(bare.reads)] == bare.reads
    assert wrapped.reads[len(bare.reads) :] == [ALL_ITEMS]  # the one read the workaround adds
    assert wrapped.clears - bare.clears == (RESTORE_ATTEMPTS if adds_fail else 0)
