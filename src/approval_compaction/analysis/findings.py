"""Findings: sentences and summary tables written from matrix data, never typed by hand.

``seed_table`` lays the json-boundary cases out the way the original report did (decision by
compaction hook, runner modes folded into one cell). ``finding`` names, for each violated
invariant, the case choices that all its violations share and whether they explain it fully.
"""

from __future__ import annotations

import pandas as pd

from ..study.capture import CaseRun, pending_ids
from ..study.scenario import FIELD_NAMES
from .invariants import INVARIANTS
from .pairing import item_key, orphan_outputs

HOOK = {"on": "always true", "off": "always false"}


def _runner_phrase(present: pd.Series) -> str:
    """Fold a per-runner yes/no into words: present/absent in both, or which one."""
    if present.all():
        return "present in both runner modes"
    if not present.any():
        return "absent in both runner modes"
    return "present in " + ", ".join(present[present].index) + " only"


def seed_table(frame: pd.DataFrame, invariant: str = "next_turn_input_paired") -> pd.DataFrame:
    """The report's eight-case table: json boundary, decision by hook, runners folded."""
    rows = frame[(frame["state_boundary"] == "json") & (frame["invariant"] == invariant)]
    out = []
    for (decision, compaction), group in rows.groupby(["decision", "compaction"], sort=False):
        dispatches = sorted(set(group["dispatches"]))
        broken = group.set_index("runner")["holds"].eq(False)
        out.append(
            {
                "decision": decision,
                "compaction hook": HOOK[str(compaction)],
                "tool dispatches": ", ".join(map(str, dispatches)),
                "unpaired output in next-turn input": _runner_phrase(broken),
                "offending call ids": ", ".join(sorted(set(filter(None, group["detail"])))),
            }
        )
    return pd.DataFrame(out)


def shared_choices(cases: pd.DataFrame) -> dict[str, str]:
    """The case fields on which every row agrees."""
    return {f: str(cases[f].iloc[0]) for f in FIELD_NAMES if cases[f].nunique() == 1}


def finding(frame: pd.DataFrame) -> str:
    """A short paragraph: per invariant, how many cases break it and what they share."""
    version = ", ".join(sorted(set(frame["sdk_version"])))
    cases = frame.drop_duplicates(list(FIELD_NAMES))
    lines = [f"openai-agents {version}, {len(cases)} cases:"]
    for invariant in INVARIANTS:
        rows = frame[frame["invariant"] == invariant]
        broken = rows[rows["holds"].eq(False)]
        unknown = rows[rows["holds"].isna()]
        if broken.empty:
            extra = f" ({len(unknown)} could not be judged)" if len(unknown) else ""
            lines.append(f"- `{invariant}` holds in every judged case{extra}.")
            continue
        shared = shared_choices(broken)
        mask = pd.Series(True, index=rows.index)
        for field, value in shared.items():
            mask &= rows[field] == value
        exact = bool(mask.sum() == len(broken))
        where = ", ".join(f"{k}={v}" for k, v in shared.items()) or "no single choice"
        verdict = "exactly the cases with" if exact else "cases sharing"
        lines.append(
            f"- `{invariant}` is violated in {len(broken)} of {len(rows)} cases: {verdict} {where}."
        )
    return "\n".join(lines)


def _listing(ids: list[str]) -> str:
    return ", ".join(f"`{i}`" for i in ids)


def walkthrough_answer(run: CaseRun) -> str:
    """One paragraph on one case: where the pending call went and what the next turn sent."""
    case = run.case
    head = (
        f"`{case.label}` on openai-agents {run.sdk_version}: "
        f"runner `{case.runner}`, decision `{case.decision}`, compaction `{case.compaction}`, "
        f"state boundary `{case.state_boundary}`."
    )
    if run.error is not None:
        return f"{head} The case failed: {run.error}"
    pending = sorted(pending_ids(run))
    pause, resume, nxt = run.stage("pause"), run.stage("resume"), run.stage("next_turn")
    assert pause is not None and resume is not None and nxt is not None
    kept = [i for i in pending if i in {item_key(item) for item in pause.stored}]
    lost = [i for i in pending if i not in kept]
    parts = [head]
    if lost:
        cause = (
            f"{len(pause.compaction_inputs)} compaction request(s) left {len(pause.stored)} "
            "stored item(s) and"
            if pause.compaction_inputs
            else "without any compaction request,"
        )
        parts.append(
            f"At the pause, {cause} the pending call {_listing(lost)} is no longer stored."
        )
    else:
        parts.append(
            f"At the pause, the pending call {_listing(kept)} stays in the stored history."
        )
    stored_orphans = orphan_outputs(resume.stored)
    sent_orphans = sorted({k for items in nxt.model_inputs for k in orphan_outputs(items)})
    if stored_orphans:
        parts.append(
            f"After the resume, the output of {_listing(stored_orphans)} is stored "
            "without its call."
        )
    else:
        parts.append("After the resume, every stored output has its call.")
    if sent_orphans:
        parts.append(
            f"The next turn sends the model the output of {_listing(sent_orphans)} "
            "without its call."
        )
    else:
        parts.append("The next turn sends no output without its call.")
    parts.append(
        f"The protected tool ran {run.dispatches} time(s) for {run.approvals} approval(s)."
    )
    return " ".join(parts)


def diff_answer(violating: CaseRun, control: CaseRun) -> str:
    """Where the first orphan output reaches the model, in the violating case and its control."""
    parts = []
    for run in (violating, control):
        first = next(
            (
                (stage.name, keys)
                for stage in run.stages
                for keys in [sorted({k for i in stage.model_inputs for k in orphan_outputs(i)})]
                if keys
            ),
            None,
        )
        where = (
            f"first sends an output without its call ({_listing(first[1])}) at stage `{first[0]}`"
            if first
            else "never sends an output without its call"
        )
        parts.append(f"`{run.case.label}` {where}")
    return "; ".join(parts) + "."
