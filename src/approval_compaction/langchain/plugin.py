"""Plugin: LangChain's entry in the lab's registry (``lab.plugins.REGISTRY``): its commands,
the README blocks it writes from ``data/`` (the verdict per release, the changes that moved
each boundary), and notebook 14's answer line. The shared code reads nothing else of it.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InvestigationError
from ..formats.markdown import markdown_table
from ..lab import paths
from ..lab.findings.verdict import AFFECTED, of
from ..lab.plugins import SdkPlugin
from ..lab.releases.bisect import marked_ranges
from .commands import register
from .finding import CASES, LangchainFinding, changes_frame, load, verdict_frame
from .sweep import FILES


class MissingLangchainData(InvestigationError):
    """A LangChain result file a block or an answer needs is missing under ``data/``."""


def _found(folder: Path) -> LangchainFinding:
    found = load(folder)
    if found is None or not found.verdicts:
        raise MissingLangchainData(f"the LangChain tables need data/{FILES['sweep']} in {folder}")
    return found


def verdict_block(folder: Path = paths.DATA) -> str:
    """langchain's verdict per release: every 1.x release swept, each compaction step's cases
    and the liveness situations in every setting, from the one verdict record."""
    found = _found(folder)
    return "\n".join(
        [
            "**langchain** ([docs/langchain.md](docs/langchain.md), notebook 14):",
            "",
            markdown_table(verdict_frame(found.verdicts, CASES, contract=False)),
        ]
    )


def changes_block(folder: Path = paths.DATA) -> str:
    """Each release where a setting's result changes, and the change that moved it (a line
    saying so when no swept release reads differently from the one before it)."""
    found = _found(folder)
    frame = changes_frame(found)
    if frame.empty:
        return (
            f"No setting reads differently between two of the {len(found.releases)} releases swept."
        )
    return markdown_table(frame)


def answer(folder: Path = paths.DATA) -> str:
    """Notebook 14's answer: the releases affected (a case breaks an invariant), and the pinned
    release's verdict with its liveness bugs, from the committed data."""
    found = _found(folder)
    order = [v.release for v in found.verdicts]
    hit = marked_ranges(order, {v.release: v.word == AFFECTED for v in found.verdicts})
    pinned = of(found.verdicts, found.version)
    cases = (
        f"`langchain` {', '.join(hit)} lose or orphan a call in the 16 cases"
        if hit
        else "No `langchain` 1.x release loses the call waiting for a decision in the 16 cases"
    )
    bugs = sorted({v.situation for v in pinned.liveness if v.kind == "bug"})
    left = f"; liveness bugs left in {', '.join(bugs)}" if bugs else ""
    return f"**Answer.** {cases}. On {found.version}, the pinned release: {pinned.word}{left}."


PLUGIN = SdkPlugin(
    name="langchain",
    notebook="14",
    register=register,
    blocks={"langchain": verdict_block, "langchain-changes": changes_block},
    answer=answer,
)
