"""Views: one executed case seen stage by stage, ready to show in a notebook or a report."""

from __future__ import annotations

import pandas as pd

from .capture import STAGES, CaseRun, StageName
from .frames import diff_frame, items_frame
from .items import Item
from .pairing import open_calls, orphan_outputs


def pending_ids(run: CaseRun) -> set[str]:
    """Call ids that were waiting for approval when the first turn paused."""
    pause = run.stage("pause")
    return {str(i.get("call_id")) for i in (pause.interruptions if pause else []) if "call_id" in i}


def stage_table(run: CaseRun, name: StageName) -> pd.DataFrame:
    """The stored history when the stage ended, one row per item with its status."""
    stage = run.stage(name)
    return items_frame(stage.stored if stage else [], pending_ids(run))


def sent_table(run: CaseRun, name: StageName, request: int = -1) -> pd.DataFrame:
    """One model request made during the stage (the last one by default)."""
    stage = run.stage(name)
    inputs = stage.model_inputs if stage else []
    return items_frame(inputs[request] if inputs else [], pending_ids(run))


def stored_before(run: CaseRun, name: StageName) -> list[Item]:
    """The stored history the stage started from (empty for the first stage)."""
    index = STAGES.index(name)
    previous = run.stage(STAGES[index - 1]) if index else None
    return previous.stored if previous else []


def stage_diff(run: CaseRun, name: StageName) -> pd.DataFrame:
    """The stored history a stage started from against the last model input it sent."""
    stage = run.stage(name)
    sent = stage.model_inputs[-1] if stage and stage.model_inputs else []
    return diff_frame(stored_before(run, name), sent, pending_ids(run))


def stage_summary(run: CaseRun) -> pd.DataFrame:
    """Per stage: stored items, requests that left the process, dispatches, and pairing faults."""
    rows = []
    for stage in run.stages:
        sent = [i for items in stage.model_inputs + stage.compaction_inputs for i in items]
        rows.append(
            {
                "stage": stage.name,
                "stored_items": len(stage.stored),
                "model_requests": len(stage.model_inputs),
                "compaction_requests": len(stage.compaction_inputs),
                "tool_dispatches": stage.dispatches,
                "orphan_outputs_stored": ", ".join(orphan_outputs(stage.stored)),
                "open_calls_stored": ", ".join(open_calls(stage.stored)),
                "orphan_outputs_sent": ", ".join(orphan_outputs(sent)),
            }
        )
    return pd.DataFrame(rows).set_index("stage")
