"""Story: one run's story in words, the answer lines notebooks 01 and 02 print.

``walkthrough_answer`` says where one case's pending call went and what its next turn sent;
``diff_answer`` where the first output without its call reaches the model, in a violating case
and its control. Both read a ``CaseRun`` and the pairing rule, nothing of the lab.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..formats.markdown import code
from ..study.capture import CaseRun, pending_ids
from .pairing import item_key, open_calls, orphan_outputs


def counted(n: int, noun: str) -> str:
    """``1 item``, ``2 items``: a count with its noun in the right number."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def listing(ids: Iterable[str]) -> str:
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
    pause, resume, nxt = run.stage("pause"), run.stage("resume"), run.stage("next_turn")
    assert pause is not None and nxt is not None
    if resume is None:  # the pause raised: no state to decide or resume
        seen = pause.outcome
        sent = sorted({k for items in nxt.model_inputs for k in orphan_outputs(items)})
        then = (
            f"sends the model the output of {listing(sent)} without its call"
            if sent
            else "is answered"
            if nxt.outcome.ok
            else f"raises {code(nxt.outcome.exception)} too"
        )
        return (
            f"{head} At the pause, `Runner.run` raised {code(seen.exception)} (HTTP "
            f"{seen.http_status} from {code(seen.endpoint)}: {code(seen.api_message)}), so no "
            "`RunState` came back: there is nothing to approve or reject and nothing to resume. "
            f"The store keeps {counted(len(pause.stored), 'item')}, the call "
            f"{listing(open_calls(pause.stored)) or 'none'} without its output; the user can "
            f"only ask again, and the next question {then}."
        )
    pending = sorted(pending_ids(run))
    kept = [i for i in pending if i in {item_key(item) for item in pause.stored}]
    lost = [i for i in pending if i not in kept]
    parts = [head]
    if lost:
        cause = (
            f"{counted(len(pause.compaction_inputs), 'compaction request')} left "
            f"{counted(len(pause.stored), 'stored item')} and"
            if pause.compaction_inputs
            else "without any compaction request,"
        )
        parts.append(f"At the pause, {cause} the pending call {listing(lost)} is no longer stored.")
    else:
        parts.append(f"At the pause, the pending call {listing(kept)} stays in the stored history.")
    stored_orphans = orphan_outputs(resume.stored)
    sent_orphans = sorted({k for items in nxt.model_inputs for k in orphan_outputs(items)})
    if stored_orphans:
        parts.append(
            f"After the resume, the output of {listing(stored_orphans)} is stored without its call."
        )
    else:
        parts.append("After the resume, every stored output has its call.")
    if sent_orphans:
        parts.append(
            f"The next turn sends the model the output of {listing(sent_orphans)} without its call."
        )
    else:
        parts.append("The next turn sends no output without its call.")
    parts.append(
        f"The protected tool ran {counted(run.dispatches, 'time')} for "
        f"{counted(run.approvals, 'approval')}."
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
            f"first sends an output without its call ({listing(first[1])}) at stage `{first[0]}`"
            if first
            else "never sends an output without its call"
        )
        parts.append(f"`{run.case.label}` {where}")
    return "; ".join(parts) + "."
