"""Trace: the record of a traced run, at which stage each catalogued function was called.

The run is the report's case (``REPORT_CASE``; ``MEMORY_CASE`` across the memory boundary) on
the SDK's driver, traced by its folder (openai-agents' ``trace``: ``trace_case``), which the
probe runs in any release. Beside the calls, each stage keeps what the run itself recorded
there: compaction requests, warnings, what the user saw, and the stored history as one label per
item; at each stage, what the ownership gate saw (``generations``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ...study.scenario import Case


@dataclass(frozen=True)
class StageRecord:
    """What one stage of the traced run did, beside the calls."""

    name: str
    compaction_requests: int
    warnings: tuple[str, ...]
    outcome: str
    stored: tuple[str, ...]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StageRecord:
        return cls(**{**data, "warnings": tuple(data["warnings"]), "stored": tuple(data["stored"])})


@dataclass(frozen=True)
class Trace:
    """The traced run: the model it ran on; for each function the stages it was called at,
    and at each stage who called it; each stage's record; and at each stage what the
    ownership gate saw, call by call (``generations``)."""

    model: str
    calls: dict[str, tuple[str, ...]]
    callers: dict[str, dict[str, tuple[str, ...]]]
    stages: tuple[StageRecord, ...]
    generations: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Trace:
        return cls(
            model=str(data["model"]),
            calls=as_tuples(data["calls"]),
            callers={name: as_tuples(by_stage) for name, by_stage in data["callers"].items()},
            stages=tuple(StageRecord.from_json(stage) for stage in data["stages"]),
            generations=as_tuples(data.get("generations", {})),
        )


def as_tuples(lists: dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    """Each list of a JSON mapping as a tuple, as the record keeps them."""
    return {key: tuple(values) for key, values in lists.items()}


REPORT_CASE = Case("run", "approve", "on", "json")  # the report's violating case
MEMORY_CASE = replace(REPORT_CASE, state_boundary="memory")  # the same across the memory boundary
BOUNDARY_CASES = {"json": REPORT_CASE, "memory": MEMORY_CASE}
