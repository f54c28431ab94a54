"""Findings: the four answers, in words, from the doctor's runs and data files.

``answers`` writes each answer from the records it is given (``doctor data``, in
``affected.command``, stores the records under ``data/doctor-*.json``) and ``block`` writes the
README's doctor findings from those files.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import paths
from ..affected.check import CheckRow, Config, check_answer, from_json
from ..affected.upgrade import REJECTED, UpgradeRecord, load_upgrade
from ..affected.worker import WorkerComparison

CHECK_PINNED = "doctor-check-pinned.json"
CHECK_NEWEST = "doctor-check-newest.json"
UPGRADE = "doctor-upgrade.json"
WORKER = "doctor-worker.json"
HEAL = "doctor-heal.json"
Check = tuple[str, Config, Sequence[CheckRow]]


def defaults_answer(pinned: Check, newest: Check) -> str:
    """Q1: affected with the SDK's defaults, and when; and on the newest release."""
    first = check_answer(pinned[1], pinned[2], pinned[0])
    return f"{first} On {check_answer(newest[1], newest[2], newest[0])}"


def upgrade_answer(records: Sequence[UpgradeRecord]) -> str:
    """Q2: does the newest release heal a stored poisoned session?"""
    by = {(r.store, r.release): r for r in records}
    releases = sorted({r.release for r in records}, key=lambda v: [int(p) for p in v.split(".")])
    pinned, newest = releases[0], releases[-1]
    sick, healed = by[("poisoned", newest)], by[("repaired", newest)]
    heals = "heals" if sick.next_turn != REJECTED else "does not heal"
    compacts = (
        f"compaction still runs ({sick.compaction_requests} request)"
        if sick.compaction_requests
        else "compaction does not run on it"
    )
    answered = sick.api_answer.rstrip(".")
    judged = f"by the {sick.judged_by}" + (f", {answered}" if answered else "")
    return (
        f"Upgrading from {pinned} to {newest} {heals} a session {pinned} poisoned: "
        f"{newest}'s next turn on it is {sick.next_turn} ({judged}; it sends the output "
        f"{sick.orphan_outputs or 'nothing'} without its call), {compacts}, and the stored "
        f"history stays {sick.stored_after}. After `doctor repair` the next turn on {newest} "
        f"is {healed.next_turn}, with {healed.compaction_requests} compaction request."
    )


def worker_answer(rows: Sequence[WorkerComparison]) -> str:
    """Q3: a fresh worker given only the RunState JSON and the store."""
    same = all(r.same_stored_after_resume and r.same_next_turn_input for r in rows)
    parts = [
        f"compaction {r.compaction}: stored {r.stored_after_resume}, next turn "
        + (
            "sends " + " ".join(r.next_turn_orphans_worker) + " without its call"
            if r.next_turn_orphans_worker
            else "paired"
        )  # fmt: skip
        for r in rows
    ]
    verb = "behaves exactly like" if same else "differs from"
    return (
        f"A fresh worker given only the RunState JSON and the store {verb} the in-process "
        f"resume: same stored history and same next-turn input ({'; '.join(parts)})."
    )


def heal_answer(summary: dict[str, Any]) -> str:
    """Q4: which sessions are poisoned, and the repair without loss."""
    before, after = summary["before"], summary["after"]
    return (
        f"`doctor scan` found {before['poisoned']} poisoned of {summary['sessions']} sessions "
        f"({before['pending']} pending, {before['healthy']} healthy); `doctor repair --apply` "
        f"backed them up and repaired {summary['repaired']}, rewriting "
        f"{summary['items_rewritten']} items in place (after: {after['poisoned']} poisoned). "
        f"Item by item, the backup holds {summary['items_backed_up']} items of the poisoned "
        f"sessions as they were ({summary['items_backed_up_differently']} differ), and after "
        f"`doctor restore` {summary['items_restored_same']} of {summary['items_compared']} "
        "items equal the original store."
    )


def doctor_answers(
    pinned: Check,
    newest: Check,
    upgrade: Sequence[UpgradeRecord],
    workers: Sequence[WorkerComparison],
    healed: dict[str, Any],
) -> str:
    """The four answers as a markdown list."""
    answers = (
        defaults_answer(pinned, newest),
        upgrade_answer(upgrade),
        worker_answer(workers),
        heal_answer(healed),
    )
    return "\n".join(f"{n}. {text}" for n, text in enumerate(answers, start=1))


def _read(folder: Path, name: str) -> Any:
    return json.loads((folder / name).read_text())


def block(folder: Path = paths.DATA) -> str:
    """The README's doctor findings, from the data files ``doctor data`` wrote."""
    pinned, newest = from_json(_read(folder, CHECK_PINNED)), from_json(_read(folder, CHECK_NEWEST))
    workers = [WorkerComparison(**{**r, **_tuples(r)}) for r in _read(folder, WORKER)]
    lines = [
        f"**Am I affected with the SDK's defaults?** (`data/{CHECK_PINNED}`) "
        + defaults_answer(pinned, newest),
        "",
        f"**Does upgrading heal stored sessions?** (`data/{UPGRADE}`) "
        + upgrade_answer(load_upgrade(folder / UPGRADE)),
        "",
        f"**A resume by another worker?** (`data/{WORKER}`) " + worker_answer(workers),
        "",
        f"**Which sessions are poisoned, and the repair?** (`data/{HEAL}`) "
        + heal_answer(_read(folder, HEAL)),
    ]
    return "\n".join(lines)


def _tuples(row: dict[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) for k, v in row.items() if isinstance(v, list)}
