"""Bench worker: lines read from a descriptor without a hidden buffer, so a wait can poll."""

from __future__ import annotations

import os

from approval_compaction.openai_agents.bench_worker import Lines


def test_bench_worker_lines_come_whole_and_ready_waits_for_a_whole_one() -> None:
    reader, writer = os.pipe()
    lines = Lines(reader)
    os.write(writer, b'{"run": 1}\n{"st')
    assert lines.ready(1.0) and lines.next() == '{"run": 1}\n'
    assert not lines.ready(0.01)  # half a line is not a line
    os.write(writer, b'op": 1}\n')
    assert lines.next() == '{"stop": 1}\n'
    os.close(writer)
    assert lines.ready(1.0) and lines.next() == ""  # the end
    os.close(reader)
