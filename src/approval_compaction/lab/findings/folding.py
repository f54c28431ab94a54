"""Folding: which case choices change nothing, so that identical variants are shown once.

Two runs are compared part by part: their verdicts, and per stage what was stored, what was
sent to the model and to compaction, how often the tool ran, and what the user saw (``ok`` or
an HTTP status). A choice (runner, decision, compaction, state boundary) that leaves every part
identical in every pair of runs that differ only in it can be folded away; runs whose verdicts
are identical fold into one verdict pattern. The items a ``json`` state carries inside its
serialised ``RunState`` are not compared: a ``memory`` boundary has none, by construction.

``block_order`` sorts a cases-by-invariants table so that its violations form one block.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ...analysis import vocabulary
from ...analysis.invariants import JudgedRun, judge
from ...errors import InvestigationError
from ...study.capture import CaseRun
from ...study.scenario import CHOICES, FIELD_NAMES

Run = CaseRun | JudgedRun

STAGE_PARTS: dict[str, Callable[[Any], object]] = {
    "stored": lambda stage: stage.stored,
    "model_inputs": lambda stage: stage.model_inputs,
    "compaction_inputs": lambda stage: stage.compaction_inputs,
    "dispatches": lambda stage: stage.dispatches,
    "outcome": lambda stage: stage.outcome,
}
PARTS: tuple[str, ...] = ("verdicts", *STAGE_PARTS)
PART_WORDS: dict[str, str] = {
    "verdicts": "verdicts",
    "stored": "stored histories",
    "model_inputs": "model inputs",
    "compaction_inputs": "compaction inputs",
    "dispatches": "tool dispatches",
    "outcome": "outcomes",
}


class UnknownCaseError(InvestigationError, LookupError):
    """A case label that none of the runs has."""


class UnknownPartError(InvestigationError, ValueError):
    """A part name that is not one of PARTS."""


def _parts(parts: Sequence[str]) -> tuple[str, ...]:
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise UnknownPartError(f"unknown part {unknown[0]!r}: expected one of {', '.join(PARTS)}")
    return tuple(parts)


def difference(first: Run, second: Run, part: str) -> str:
    """Where two runs differ in one part: the invariants or stages, comma separated; else ``""``.

    A stage one run reached and the other did not counts as a difference at that stage.
    """
    a, b = judge(first), judge(second)
    if part == "verdicts":
        pairs = zip(a.verdicts, b.verdicts, strict=True)
        return ", ".join(
            x.invariant for x, y in pairs if (x.holds, x.detail) != (y.holds, y.detail)
        )
    read = STAGE_PARTS[_parts([part])[0]]
    names = list(dict.fromkeys([s.name for s in a.run.stages] + [s.name for s in b.run.stages]))
    where = []
    for name in names:
        left, right = a.run.stage(name), b.run.stage(name)
        if left is None or right is None or read(left) != read(right):
            where.append(name)
    return ", ".join(where)


def differences(first: Run, second: Run, parts: Sequence[str] = PARTS) -> dict[str, str]:
    """Each part and where the two runs differ in it (``""``: identical)."""
    return {part: difference(first, second, part) for part in _parts(parts)}


@dataclass(frozen=True)
class Fold:
    """Runs identical in the compared parts: the first one stands for all of them."""

    cases: tuple[str, ...]
    shared: dict[str, str]

    @property
    def representative(self) -> str:
        return self.cases[0]

    @property
    def choices(self) -> str:
        """The choices every folded case shares, e.g. ``compaction=on``."""
        return ", ".join(f"{k}={v}" for k, v in self.shared.items()) or "no single choice"


def fold(runs: Iterable[Run], parts: Sequence[str] = ("verdicts",)) -> list[Fold]:
    """Group the runs that are identical in ``parts``, in the order they first appear."""
    chosen = _parts(parts)
    groups: list[list[JudgedRun]] = []
    judged = [judge(run) for run in runs]
    for run in judged:
        for group in groups:
            if not any(differences(group[0], run, chosen).values()):
                group.append(run)
                break
        else:
            groups.append([run])
    return [_fold(group) for group in groups]


def _fold(group: list[JudgedRun]) -> Fold:
    cases = [run.run.case.as_dict() for run in group]
    shared = {f: cases[0][f] for f in FIELD_NAMES if len({c[f] for c in cases}) == 1}
    return Fold(tuple(run.run.case.label for run in group), shared)


def fold_frame(runs: Iterable[Run], parts: Sequence[str] = ("verdicts",)) -> pd.DataFrame:
    """One row per fold: the case that stands for it, how many cases it folds, what they share."""
    rows = [
        {
            "representative": f.representative,
            "cases": len(f.cases),
            "shared choices": f.choices,
            "folded": ", ".join(f.cases[1:]),
        }
        for f in fold(runs, parts)
    ]
    return pd.DataFrame(rows, columns=["representative", "cases", "shared choices", "folded"])


def _pairs(runs: Sequence[JudgedRun], field: str) -> list[tuple[JudgedRun, JudgedRun]]:
    """Runs that differ only in ``field`` (same model), paired in the field's choice order."""
    by_rest: dict[tuple[str, ...], dict[str, JudgedRun]] = {}
    for run in runs:
        case = run.run.case.as_dict()
        rest = (run.run.model, *(case[f] for f in FIELD_NAMES if f != field))
        by_rest.setdefault(rest, {})[case[field]] = run
    values = CHOICES[field]
    return [
        (group[a], group[b])
        for group in by_rest.values()
        for i, a in enumerate(values)
        for b in values[i + 1 :]
        if a in group and b in group
    ]


def choice_effects(runs: Iterable[Run], parts: Sequence[str] = PARTS) -> pd.DataFrame:
    """Per case choice: in how many pairs of runs differing only in it each part differs, and
    at which invariants or stages (``identical`` when it never does)."""
    chosen, judged = _parts(parts), [judge(run) for run in runs]
    rows = []
    for field in FIELD_NAMES:
        pairs = _pairs(judged, field)
        row: dict[str, object] = {"choice": field, "compared": " vs ".join(CHOICES[field])}
        row["pairs"] = len(pairs)
        for part in chosen:
            found = [d for d in (difference(a, b, part) for a, b in pairs) if d]
            where = ", ".join(dict.fromkeys(x for d in found for x in d.split(", ")))
            row[part] = f"differs in {len(found)} (at {where})" if found else "identical"
        rows.append(row)
    return pd.DataFrame(rows).set_index("choice")


def compare_to(runs: Iterable[Run], label: str, parts: Sequence[str] = PARTS) -> pd.DataFrame:
    """Every other run against the one labelled ``label``: ``same`` per part, or where it
    differs; ``identical`` says whether every part is the same."""
    judged = [judge(run) for run in runs]
    base = next((run for run in judged if run.run.case.label == label), None)
    if base is None:
        raise UnknownCaseError(f"no run of case {label!r} to compare with")
    rows = []
    for run in judged:
        if run is base:
            continue
        found = differences(base, run, parts)
        row: dict[str, object] = {"case": run.run.case.label}
        row.update({part: f"differs at {d}" if d else "same" for part, d in found.items()})
        row["identical"] = not any(found.values())
        rows.append(row)
    return pd.DataFrame(rows, columns=["case", *_parts(parts), "identical"]).set_index("case")


def violating_runs(runs: Iterable[Run]) -> list[JudgedRun]:
    """The runs that violate at least one invariant, in order."""
    return [run for run in map(judge, runs) if run.violations]


def block_order(table: pd.DataFrame) -> pd.DataFrame:
    """A cases-by-invariants table of verdict words, rows and columns reordered so that the
    violations form one block: the most violated invariants first, then the cases violating
    them first (ties keep their order)."""
    violated = vocabulary.VIOLATED.word
    cells = {c: [str(v) == violated for v in table[c].tolist()] for c in table.columns}
    columns = sorted(table.columns, key=lambda c: -sum(cells[c]))
    rows = sorted(range(len(table)), key=lambda r: [not cells[c][r] for c in columns])
    return table.iloc[rows][columns]
