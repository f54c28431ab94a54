"""The traced run puts the catalogued functions at the stages the notebook says."""

from __future__ import annotations

import re

import pytest

from approval_compaction.lab.mechanism.catalogue import NEWEST, PINNED
from approval_compaction.lab.mechanism.record import recorded_release
from approval_compaction.lab.mechanism.trace import Trace
from approval_compaction.openai_agents.trace import trace_case

LOCKED = "OpenAIResponsesCompactionSession._run_compaction_locked"


@pytest.fixture(scope="module")
def trace() -> Trace:
    return trace_case()


def test_trace_finds_the_persisting_function_at_the_pause_and_the_input_at_the_next_turn(
    trace: Trace,
) -> None:
    assert "pause" in trace.calls["save_result_to_session"]
    assert "pause" in trace.calls["_apply_post_write_compaction"]
    assert "next_turn" in trace.calls["prepare_input_with_session"]
    assert "resume" not in trace.calls["prepare_input_with_session"]


def test_trace_compacts_at_the_pause_without_the_pairing_check(trace: Trace) -> None:
    """The bug in 0.23.1: compaction at the pause never calls drop_orphan_function_calls."""
    assert trace.calls[LOCKED] == ("pause",)
    assert trace.stages[0].compaction_requests == 1
    assert LOCKED not in trace.callers["drop_orphan_function_calls"]["pause"]
    assert "function_call(pending-c1)" not in trace.stages[0].stored


def test_trace_equals_the_committed_record(trace: Trace) -> None:
    assert trace == recorded_release(PINNED).trace, "run `make mechanism`"


def test_trace_newest_release_runs_the_check_in_compaction() -> None:
    newest = recorded_release(NEWEST).trace
    assert LOCKED in newest.callers["drop_orphan_function_calls"]["pause"]
    assert newest.stages[0].compaction_requests == 0


def test_trace_scripted_model_reaches_the_same_stages() -> None:
    scripted = trace_case(model="scripted")
    assert scripted.model == "scripted"
    assert [s.name for s in scripted.stages] == [
        "pause",
        "round_trip",
        "resume",
        "next_turn",
    ]
    assert "next_turn" in scripted.calls["prepare_input_with_session"]


GATE_READ = re.compile(r"append: run read at (\w+), session at (\d+)")


def _resume_read(trace: Trace) -> tuple[str, str]:
    """The first append at the resume: the generation the run read at, the session's."""
    found = GATE_READ.match(trace.generations["resume"][0])
    assert found is not None
    return found.group(1), found.group(2)


def _compacting_stages(trace: Trace) -> list[str]:
    return [s.name for s in trace.stages if s.compaction_requests]


def test_trace_pinned_release_skips_the_resume_on_both_boundaries_for_different_reasons() -> None:
    """Notebook 03's account: across JSON the restored run never read the history (None); in
    memory ``to_state()`` kept the pause's generation, which the pause's compaction made stale."""
    record = recorded_release(PINNED)
    assert record.memory is not None
    for trace in record.traces.values():
        assert _compacting_stages(trace) == ["pause"]
        resume = next(s for s in trace.stages if s.name == "resume")
        assert any("Skipped compaction because Session history" in w for w in resume.warnings)
    assert _resume_read(record.trace)[0] == "None"
    read, session = _resume_read(record.memory)
    assert read != "None" and int(read) < int(session)


def test_trace_newest_release_compacts_at_the_next_turn_json_and_at_the_resume_in_memory() -> None:
    record = recorded_release(NEWEST)
    assert record.memory is not None
    assert _compacting_stages(record.trace) == ["next_turn"]
    assert _compacting_stages(record.memory) == ["resume", "next_turn"]
    read, session = _resume_read(record.memory)
    assert read == session  # nothing compacted at the pause: the kept generation is current
