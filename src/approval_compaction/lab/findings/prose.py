"""Prose: the sentences the notebooks print under their live runs, rendered from records.

What the project publishes from ``data/`` (the README, the docs pages, the report, the snippets,
each notebook's first cell) is tables (``tables``) and answer lines (``headlines``); what is
left here words one notebook's own runs: what the cases met over HTTP (``seen_sentence``).
Nothing here computes a finding.
"""

from __future__ import annotations

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
