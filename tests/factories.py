"""Records built by hand for tests: every field has a neutral default, so a test names only
what it is about."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from approval_compaction.analysis.matrix import MatrixRecord
from approval_compaction.lab.releases.crosscheck import CrossRecord
from approval_compaction.lab.releases.sweep import ReleaseRecord
from approval_compaction.study.capture import CaseRun, Stage
from approval_compaction.study.scenario import Case

CASE = {"runner": "run", "decision": "approve", "compaction": "on", "state_boundary": "json"}
MATRIX_DEFAULTS: dict[str, Any] = {
    "sdk_version": "0.0.0",
    **CASE,
    "model": "scripted",
    "invariant": "next_turn_input_paired",
    "holds": True,
    "detail": "",
    "dispatches": 0,
    "compaction_requests": 0,
    "status": "holds",
}


def matrix_record(**fields: Any) -> MatrixRecord:
    return MatrixRecord(**{**MATRIX_DEFAULTS, **fields})


def release_record(**fields: Any) -> ReleaseRecord:
    return ReleaseRecord(**{**MATRIX_DEFAULTS, "openai": "", "pydantic": "", **fields})


def cross_record(**fields: Any) -> CrossRecord:
    defaults = {"sdk_version": "0.0.0", **CASE, "sweep": "holds", "unfixed": "passed"}
    defaults.pop("compaction"), defaults.pop("state_boundary")
    return CrossRecord(**{**defaults, "workaround": "passed", "agrees": True, **fields})


Item = dict[str, Any]
Q1 = {"role": "user", "content": "first"}
CALL = {"type": "function_call", "call_id": "c1", "name": "tool", "arguments": "{}"}
SUMMARY = {"type": "compaction", "id": "compaction-1", "encrypted_content": "s"}


def output(text: str = "done") -> Item:
    return {"type": "function_call_output", "call_id": "c1", "output": text}


def make_run(case: Case, *, result: str = "done", **changes: Any) -> CaseRun:
    """A run of ``case``: with compaction on, the pending call is compacted away at the pause and
    its output is stored and sent alone; with compaction off every stage stays paired."""
    if case.compaction == "on":
        paused, resumed = [SUMMARY], [SUMMARY, output(result)]
        pause_compaction = [[Q1, CALL]]
    else:
        paused, resumed = [Q1, CALL], [Q1, CALL, output(result)]
        pause_compaction = []
    stages = {
        "pause": Stage("pause", stored=paused, compaction_inputs=pause_compaction),
        "round_trip": Stage("round_trip", stored=paused),
        "resume": Stage("resume", stored=resumed, model_inputs=[resumed], dispatches=1),
        "next_turn": Stage("next_turn", stored=resumed, model_inputs=[resumed]),
    }
    for name, fields in changes.items():
        stages[name] = replace(stages[name], **fields)
    return CaseRun(case, "0.0.0", list(stages.values()), approvals=1, dispatches=1)


def patched_blocks(diff: str, path: str) -> list[str]:
    """Each hunk of ``path`` in a unified diff as the patched file has it (its context and
    added lines): where a mutant of the patch must find the text it edits."""
    section = re.search(rf"^\+\+\+ b/{re.escape(path)}\n(.*?)(?=^diff --git|\Z)", diff, re.M | re.S)
    if section is None:
        raise AssertionError(f"the diff does not change {path}")
    hunks = re.split(r"^@@[^\n]*\n", section.group(1), flags=re.M)[1:]
    return ["".join(f"{line[1:]}\n" for line in h.splitlines() if line[:1] in " +") for h in hunks]
