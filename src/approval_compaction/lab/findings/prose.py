"""Prose: the sentences the notebooks print under their live runs, rendered from records.

What the project publishes from ``data/`` (the README, the docs pages, the report, the snippets,
each notebook's first cell) is tables (``tables``) and answer lines (``headlines``); what is
left here words one notebook's own runs: what the cases met over HTTP (``seen_sentence``) and
the doctor's four answers. Nothing here computes a finding.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..affected.check import check_answer
from ..affected.heal import HealSummary
from .doctor import Check, Upgrade, Worker
from .matrix import Seen


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


STAGE_WORDS = {"pause": "at the pause", "resume": "at the resume", "next_turn": "at the next turn"}


DEFAULT = "auto"  # the SDK's default compaction_mode
NOTES = {DEFAULT: " (the SDK's default)", "input": " (the original report's)"}


def _span(versions: Sequence[str]) -> str:
    if not versions:
        return "no release"
    if len(versions) == 1:
        return versions[0]
    return f"{len(versions)} releases ({versions[0]} to {versions[-1]})"


def affected_sentence(pinned: Check, newest: Check) -> str:
    """Am I affected with the SDK's defaults, and when; and on the newest release."""
    first = check_answer(pinned.config, pinned.rows, pinned.release)
    return f"{first} On {check_answer(newest.config, newest.rows, newest.release)}"


def upgrade_sentence(found: Upgrade) -> str:
    """Does the newest release heal a stored poisoned session?"""
    sick, healed, pinned, newest = found.poisoned, found.repaired, found.pinned, found.newest
    compacts = (
        f"compaction still runs ({sick.compaction_requests} request)"
        if sick.compaction_requests
        else "compaction does not run on it"
    )
    answered = sick.api_answer.rstrip(".")
    judged = f"by the {sick.judged_by}" + (f", {answered}" if answered else "")
    return (
        f"Upgrading from {pinned} to {newest} {'heals' if found.heals else 'does not heal'} a "
        f"session {pinned} poisoned: {newest}'s next turn on it is {sick.next_turn} ({judged}; "
        f"it sends the output {sick.orphan_outputs or 'nothing'} without its call), {compacts}, "
        f"and the stored history stays {sick.stored_after}. After `doctor repair` the next turn "
        f"on {newest} is {healed.next_turn}, with {healed.compaction_requests} compaction request."
        + _refused_sentence(found)
    )


def _refused_sentence(found: Upgrade) -> str:
    left = found.refused
    if left is None:
        return ""
    return (
        f' A session left by a pause the API refused ({found.pinned}, `compaction_mode="auto"`: '
        f"the call stored without its output) is {left.next_turn} on {found.newest}'s next turn "
        f"({left.api_answer.rstrip('.') or 'nothing sent'}), and stays {left.stored_after}."
    )


def worker_sentence(found: Worker) -> str:
    """A fresh worker given only the RunState JSON and the store."""
    parts = [
        f"compaction {r.compaction}: stored {r.stored_after_resume}, next turn "
        + (
            f"sends {' '.join(r.next_turn_orphans_worker)} without its call"
            if r.next_turn_orphans_worker
            else "paired"
        )
        for r in found.rows
    ]
    verb = "behaves exactly like" if found.same else "differs from"
    return (
        f"A fresh worker given only the RunState JSON and the store {verb} the in-process "
        f"resume: same stored history and same next-turn input ({'; '.join(parts)})."
    )


def heal_sentence(found: HealSummary) -> str:
    """Which sessions are poisoned, and the repair without loss."""
    before, after = found.before, found.after
    return (
        f"`doctor scan` found {before['poisoned']} poisoned of {found.sessions} sessions "
        f"({before['pending']} pending, {before['healthy']} healthy); `doctor repair --apply` "
        f"backed them up and repaired {found.repaired}, rewriting {found.items_rewritten} items "
        f"in place (after: {after['poisoned']} poisoned). Item by item, the backup holds "
        f"{found.items_backed_up} items of the poisoned sessions as they were "
        f"({found.items_backed_up_differently} differ), and after `doctor restore` "
        f"{found.items_restored_same} of {found.items_compared} items equal the original store."
    )
