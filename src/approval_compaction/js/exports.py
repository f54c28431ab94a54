"""Exports: the sessions the JS SDK's real runner stores, for every approval kind, as a team
exports them (``getItems()``): the doctor's test data (``lab.affected.exports`` writes them with
the Python SDK's, ``doctor exports``).

Each conversation is one plan of the one JS driver (``harness``): a kind, a decision and a
compaction setting, run on the pinned ``@openai/agents`` and the newest release the project
knows (``packages``; the same release today). The session's items after the last turn are the
export; beside it, every model request the runner handed the SDK's model class and what its
converter sent over HTTP.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..lab.affected.exports import (
    CHOICES,
    COMPACTIONS,
    MODE,
    Choice,
    ExportRecord,
    exchanges,
    last_request,
)
from ..study.scenario import Case
from ..study.words import TOOL_KINDS, Decision, ToolKind
from .harness import Plan, run_lines


def js_plans() -> list[tuple[ToolKind, Choice, str, Plan]]:
    """Every JS conversation: each kind, decision and compaction, as the driver's plans."""
    plans = []
    for kind in TOOL_KINDS:
        for choice in CHOICES:
            for compaction in COMPACTIONS:
                decision: Decision = "reject" if choice == "reject" else "approve"
                case = Case("run", decision, "on" if compaction == "on" else "off", "json")
                plan = Plan(MODE, tool=kind, abandon=choice == "abandon", cases=(case,))
                plans.append((kind, choice, compaction, plan))
    return plans


def js_records(package: Path, release: str | None = None) -> Iterator[tuple[ExportRecord, Any]]:
    """Each JS conversation on the ``@openai/agents`` in ``package``, and its export (the
    items the session holds after its last turn)."""
    plans = js_plans()
    lines = run_lines([plan for *_, plan in plans], package)
    for (kind, choice, compaction, _), (line,) in zip(plans, lines, strict=True):
        stages = line["stages"]
        version = release or str(line["sdk_version"])
        base = ExportRecord("js", version, kind, choice, compaction)
        if line.get("error") or line.get("not_applicable"):
            reason = line.get("not_applicable") or line["error"]
            yield dataclasses.replace(base, not_applicable=str(reason)), None
            continue
        items = stages[-1]["stored"]
        last = last_request(stages)
        done = dataclasses.replace(
            base, items=len(items), last_request=last, exchanges=exchanges(stages)
        )
        yield done, items


def records() -> list[tuple[ExportRecord, Any]]:
    """Every JS conversation on the pinned release and the newest one (each once), and its
    export."""
    from .packages import package_folder, pinned, releases

    found: list[tuple[ExportRecord, Any]] = []
    for release in sorted({pinned(), releases()[-1]}):
        found += list(js_records(package_folder(release)))
    return found
