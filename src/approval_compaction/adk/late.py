"""Late answers (ADK): what each liveness situation gave the summariser, sent the model and
stored unpaired, split by what the adk-python fix changes.

The liveness record's ``resume_unpaired`` lists the keys of everything unpaired in one phrase,
so a call summarised while it waits (``adk-1``, ``call-1``: #7237 lets the window pass a call
that waits once a newer invocation exists) and the same call's late answer summarised without
it read alike. ``LateAnswer`` keeps them apart, from the driver's stages:

- ``waiting``: calls given to the summariser without their answer (it had not come yet);
- ``late``: answers given to the summariser without their call (the fix restores the call);
- ``to_model``: answers sent to the model without their call (prompt assembly restores it);
- ``read_back``: answers the session reads back after the summary that covers their call,
  from the late resume on (the event log is append-only: the fix does not rewrite it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..analysis.pairing import find_unpaired, open_calls, orphan_outputs
from ..study.capture import Stage
from .harness import _run_driver
from .items import _stage, renumbered
from .sweep import liveness_plans

LATE_SITUATIONS = ("resumed", "long_running")  # the situations with a late answer


@dataclass(frozen=True)
class LateAnswer:
    """One situation in one kind on one package, split by what the fix changes."""

    package: str
    situation: str
    kind: str
    waiting: str  # call keys given to the summariser before their answer, space-separated
    late: str  # answer keys given to the summariser without their call
    to_model: str  # answer keys sent to the model without their call
    read_back: str  # answer keys stored after the summary covering their call


def _keys(found: Iterable[str]) -> str:
    return " ".join(sorted(set(found)))


def late_answer(line: dict[str, Any], package: str) -> LateAnswer:
    """A situation the driver ran, split."""
    data = renumbered(line)
    own: list[Stage] = [_stage(s) for s in data.get("stages", [])]
    later: list[Stage] = [_stage(t["stage"]) for t in data.get("later", [])]
    stages = own + later
    summarised = [items for stage in stages for items in stage.compaction_inputs]
    sent = [items for stage in stages for items in stage.model_inputs]
    after = ([own[-1]] if own and data.get("resumed") else []) + later
    stored = [
        u.key or "?"
        for stage in after
        for u in find_unpaired(stage.stored)
        if u.problem == "orphan output"
    ]
    return LateAnswer(
        package=package,
        situation=str(data["scenario"]),
        kind=str(data["kind"]),
        waiting=_keys(k for items in summarised for k in open_calls(items)),
        late=_keys(k for items in summarised for k in orphan_outputs(items)),
        to_model=_keys(k for items in sent for k in orphan_outputs(items)),
        read_back=_keys(stored),
    )


def run_late(packages: Sequence[tuple[str, Path]]) -> list[LateAnswer]:
    """The late situations in every kind, on each ``(label, interpreter)``."""
    rows = []
    for label, python in packages:
        for lines in _run_driver(liveness_plans(), python):
            rows += [
                late_answer(line, label) for line in lines if line["scenario"] in LATE_SITUATIONS
            ]
    return rows
