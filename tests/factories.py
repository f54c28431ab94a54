"""Records built by hand for tests: every field has a neutral default, so a test names only
what it is about."""

from __future__ import annotations

from typing import Any

from approval_compaction.analysis.matrix import MatrixRecord
from approval_compaction.releases.crosscheck import CrossRecord
from approval_compaction.releases.sweep import ReleaseRecord

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
