"""Views: one executed case seen stage by stage, ready to show in a notebook or a report, and
the scope a table of it names in its title (``scope``): the SDK and release, the compaction mode,
the hook, and the model (scripted, or the SDK's own over HTTP)."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from ..analysis.pairing import open_calls, orphan_outputs
from ..sdks import Words, words
from ..study.capture import STAGES, CaseRun, StageName, pending_ids
from ..study.items import Item, unwrap
from .frames import diff_frame, items_frame

# How a run names its hook and model in a title where its folder's words do not (``sdks.words``):
# openai-agents' words, the scripted model or the SDK's own over HTTP.
MODEL_WORDS = {"scripted": "scripted model", "responses": "OpenAIResponsesModel over HTTP"}
HOOK_WORDS = {"on": "hook always says yes", "off": "hook never says yes"}


def sdk_name(sdk: str) -> str:
    """The package a run's ``sdk`` names (its folder's ``words.WORDS``: ``openai-agents`` for
    ``python``); an SDK no folder holds keeps its own name."""
    found = words(sdk)
    return found.package if found else sdk


def scope(run: CaseRun, *controls: CaseRun) -> str:
    """What one run ran under, for a table's title: ``openai-agents 0.23.1, input mode, hook
    always says yes, scripted model`` (with ``store=False`` when the agent set it). With
    controls (the same case, the hook's answer changed), every run's hook is named: ``hook
    always says yes and hook never says yes``. Another SDK's run reads in its folder's words."""
    store = "" if run.response_store is None else f", store={run.response_store}"
    own = words(run.sdk) or Words(sdk_name(run.sdk))
    mode = own.mode.format(mode=run.mode)
    answers = dict.fromkeys(r.case.compaction for r in (run, *controls))
    hook = " and ".join((own.hooks or HOOK_WORDS)[answer] for answer in answers)
    model = (own.models or MODEL_WORDS).get(run.model, run.model)
    return f"{sdk_name(run.sdk)} {run.sdk_version}, {mode}{store}, {hook}, {model}"


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
    """The stored history the stage started from: the last stage before it that ran (a refused
    pause skips the round trip and the resume); empty for the first stage, or one not reached."""
    if run.stage(name) is None:
        return []
    earlier = (run.stage(s) for s in reversed(STAGES[: STAGES.index(name)]))
    previous = next((stage for stage in earlier if stage is not None), None)
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
        rows.append(
            {
                "stage": stage.name,
                "stored_items": len(stage.stored),
                "model_requests": len(stage.model_inputs),
                "compaction_requests": len(stage.compaction_inputs),
                "tool_dispatches": stage.dispatches,
                "stored: orphan outputs": _ids([stage.stored], orphan_outputs),
                "stored: open calls": _ids([stage.stored], open_calls),
                "to model: orphan outputs": _ids(stage.model_inputs, orphan_outputs),
                "to model: open calls": _ids(stage.model_inputs, open_calls),
                "to compaction: open calls": _ids(stage.compaction_inputs, open_calls),
                "to compaction: orphan outputs": _ids(stage.compaction_inputs, orphan_outputs),
            }
        )
    return pd.DataFrame(rows).set_index("stage")


def _ids(lists: list[list[Item]], find: Callable[[list[Item]], list[str]]) -> str:
    return ", ".join(sorted({key for items in lists for key in find(items)}))


def compaction_table(run: CaseRun, name: StageName, request: int = 0) -> pd.DataFrame:
    """One compaction request made during the stage (the first by default); empty if none."""
    stage = run.stage(name)
    inputs = stage.compaction_inputs if stage else []
    return items_frame(inputs[request] if inputs else [], pending_ids(run))


def state_items_table(run: CaseRun) -> pd.DataFrame:
    """The item lists inside the serialised RunState, one block per list (json boundary only)."""
    stage = run.stage("round_trip")
    frames = {}
    for key, entries in (stage.state_items if stage else {}).items():
        kinds, items = zip(*map(unwrap, entries), strict=True) if entries else ((), ())
        frames[key] = items_frame(list(items), pending_ids(run)).assign(run_item=list(kinds))
    if not frames:
        return items_frame([]).assign(run_item=[])
    return pd.concat(frames, names=["list", "position"])


def side_by_side(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Frames next to each other under one header each; shorter ones padded with blanks.

    Frames with the same index (stages, say) keep it; others are aligned row by row."""
    indexes = [frame.index for frame in frames.values()]
    if all(index.equals(indexes[0]) for index in indexes):
        return pd.concat(frames, axis=1).fillna("")
    aligned = {label: frame.reset_index(drop=True) for label, frame in frames.items()}
    return pd.concat(aligned, axis=1).fillna("")


def diff_summary(run: CaseRun) -> pd.DataFrame:
    """Per stage with a model request: items only stored, only sent, and what the last request
    sent unpaired both ways (orphan outputs, open calls)."""
    rows = []
    for stage in run.stages:
        if not stage.model_inputs:
            continue
        diff = stage_diff(run, stage.name)
        rows.append(
            {
                "stage": stage.name,
                "in_both": int((diff["side"] == "both").sum()),
                "only_stored": int((diff["side"] == "only stored").sum()),
                "only_sent": int((diff["side"] == "only sent").sum()),
                "orphan_outputs_sent": ", ".join(orphan_outputs(stage.model_inputs[-1])),
                "open_calls_sent": ", ".join(open_calls(stage.model_inputs[-1])),
            }
        )
    return pd.DataFrame(rows).set_index("stage")


def invariants_frame() -> pd.DataFrame:
    """Every invariant by its name, with its meaning in a sentence (``analysis.properties``)."""
    from ..analysis.properties import DEFINITIONS, LIVENESS

    rows = [{"invariant": i.name, "holds when": i.meaning} for i in (*DEFINITIONS, *LIVENESS)]
    return pd.DataFrame(rows).set_index("invariant")
