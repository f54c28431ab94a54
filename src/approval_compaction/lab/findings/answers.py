"""Answers: the notebooks' answer lines, each a record of the notebook's own runs, in words.

A notebook that runs cases live answers its question from those runs: the record is built here
from them (``matrix_finding``, ``seen``, ...) and rendered here, as the README renders the
committed data. One run's story (``walkthrough_answer``, ``diff_answer``) is the core's:
``analysis.story``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ...analysis.matrix import records
from ...doctor.check import CheckRow, Config
from ...formats.markdown import code
from ...study.capture import CaseRun
from ..releases.meeting import all_meetings
from .folding import Run
from .matrix import MatrixFinding, Seen, matrix_finding, seen
from .releases import mode_stories

CheckFound = tuple[str, Config, Sequence[CheckRow]]
Variants = Mapping[str, Sequence[CaseRun]]


def seen_sentence(found: Seen) -> str:
    """Which cases end with which error over HTTP, and whether the prediction agrees."""
    if not found.failing:
        text = f"All {found.cases} cases are answered at every turn."
    else:
        said = "; ".join(
            f"{f.exception} (HTTP {f.http_status}) at the {f.stage} stage: {f.message}"
            for f in found.failures
        )
        where = " (exactly the cases with compaction=on)" if found.compaction_on_only else ""
        text = f"{found.failing} of {found.cases} cases end with {said}{where}."
    if found.agreeing is not None:
        text += (
            f" The scripted model's prediction agrees in {found.agreeing} of {found.cases} cases."
        )
    return text


def outcome_answer(observed: Sequence[Run], predicted: Sequence[Run] = ()) -> str:
    """Which cases end with which error over HTTP, and whether the prediction agrees."""
    return seen_sentence(seen(observed, predicted))


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
    """Per variant (its name says the release): invariant results (one per case and invariant)
    holding and breaking, compaction requests made, and the cases with compaction on that never
    compacted (r18: "on cases" was undefined shorthand),
    each column in the plain words 06's table shows (r15: raw snake_case headers)."""
    rows = {
        name: {
            "results holding": found.holding,
            "results breaking": found.violated,
            "compaction requests": found.compaction_requests,
            "cases with compaction on never compacting": found.compaction_on - found.compacting,
        }
        for name, found in variants(runs).items()
    }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("variant")
