"""Answers: the notebooks' answer lines, each a record of the notebook's own runs, in words.

A notebook that runs cases live answers its question from those runs: the record is built here
from them (``matrix_finding``, ``seen``, ...) and rendered by ``prose``, as the README renders
the committed data. ``walkthrough_answer`` and ``diff_answer`` tell one run's story;
``fold_answer`` says how the runs fold (``analysis.folding``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pandas as pd

from ...analysis.folding import Run
from ...analysis.matrix import records
from ...analysis.meeting import all_meetings
from ...analysis.pairing import item_key, open_calls, orphan_outputs
from ...doctor.check import CheckRow, Config
from ...formats.markdown import code
from ...study.capture import CaseRun, pending_ids
from . import prose
from .matrix import MatrixFinding, matrix_finding, seen
from .releases import mode_stories

CheckFound = tuple[str, Config, Sequence[CheckRow]]
Variants = Mapping[str, Sequence[CaseRun]]


def outcome_answer(observed: Sequence[Run], predicted: Sequence[Run] = ()) -> str:
    """Which cases end with which error over HTTP, and whether the prediction agrees."""
    return prose.seen_sentence(seen(observed, predicted))


def rules_answer(faithful: Sequence[CaseRun], lenient: Sequence[CaseRun]) -> str:
    """What the compaction endpoint's rules change for the user, mode by mode (modes that read
    the same together): the severity in each world, from the same cases run against each."""
    pairs: dict[tuple[str, str], list[str]] = {}
    kept = mode_stories(all_meetings(lenient), "lenient")
    for s, t in zip(mode_stories(all_meetings(faithful), "faithful"), kept, strict=True):
        pairs.setdefault((s.severity, t.severity), []).append(code(s.mode))
    said = [
        f"with {' and '.join(modes)}, {rules} where the endpoint answers by its rules and "
        f"{anything} where it accepts anything"
        if rules != anything
        else f"with {' and '.join(modes)} the two agree: {rules}"
        for (rules, anything), modes in pairs.items()
    ]
    text = "; ".join(said)
    return text[0].upper() + text[1:] + "."


def variants(runs: Variants) -> dict[str, MatrixFinding]:
    """Each variant's runs (unfixed, with the workaround, another release) as its finding."""
    return {name: matrix_finding(records(found)) for name, found in runs.items()}


def variant_summary(runs: Variants) -> pd.DataFrame:
    """Per variant: release, verdicts holding and violated, and compactions made."""
    rows = {
        name: {
            "sdk_version": ", ".join(found.releases),
            "verdicts_holding": found.holding,
            "verdicts_violated": found.violated,
            "compaction_requests": found.compaction_requests,
            "compaction_on_cases_without_any": found.compaction_on - found.compacting,
        }
        for name, found in variants(runs).items()
    }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("variant")


def _count(n: int, noun: str) -> str:
    """``1 item``, ``2 items``: a count with its noun in the right number."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _listing(ids: Iterable[str]) -> str:
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
            f"sends the model the output of {_listing(sent)} without its call"
            if sent
            else "is answered"
            if nxt.outcome.ok
            else f"raises {code(nxt.outcome.exception)} too"
        )
        return (
            f"{head} At the pause, `Runner.run` raised {code(seen.exception)} (HTTP "
            f"{seen.http_status} from {code(seen.endpoint)}: {code(seen.api_message)}), so no "
            "`RunState` came back: there is nothing to approve or reject and nothing to resume. "
            f"The store keeps {_count(len(pause.stored), 'item')}, the call "
            f"{_listing(open_calls(pause.stored)) or 'none'} without its output; the user can "
            f"only ask again, and the next question {then}."
        )
    pending = sorted(pending_ids(run))
    kept = [i for i in pending if i in {item_key(item) for item in pause.stored}]
    lost = [i for i in pending if i not in kept]
    parts = [head]
    if lost:
        cause = (
            f"{_count(len(pause.compaction_inputs), 'compaction request')} left "
            f"{_count(len(pause.stored), 'stored item')} and"
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
        f"The protected tool ran {_count(run.dispatches, 'time')} for "
        f"{_count(run.approvals, 'approval')}."
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
