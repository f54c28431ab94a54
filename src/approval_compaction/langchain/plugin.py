"""Plugin: LangChain's entry in the lab's registry (``lab.plugins.REGISTRY``): its commands,
the README blocks it writes from ``data/`` (the verdict per release, the changes that moved
each boundary), and notebook 14's answer line. The shared code reads nothing else of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InvestigationError
from ..formats.arguments import AddCommand, Lazy
from ..lab import paths
from ..lab.plugins import SdkPlugin
from .words import DATES, FILES, MATRIX, REPORT

if TYPE_CHECKING:
    from .finding import LangchainFinding


class MissingLangchainData(InvestigationError):
    """A LangChain result file a block or an answer needs is missing under ``data/``."""


def register(add: AddCommand, lazy: Lazy) -> None:
    """The folder's commands (``commands.register``, which declares them loading nothing
    heavy)."""
    from .commands import register as declare

    declare(add, lazy)


def _found(folder: Path) -> LangchainFinding:
    from .finding import load

    found = load(folder)
    if found is None or not found.verdicts:
        raise MissingLangchainData(f"the LangChain tables need data/{FILES['sweep']} in {folder}")
    return found


def verdict_block(folder: Path = paths.DATA) -> str:
    """langchain's verdict per release: every 1.x release swept, each compaction step's cases
    and the liveness situations in every setting, from the one verdict record."""
    from ..formats.markdown import markdown_table
    from .finding import CASES, verdict_frame

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
    from ..formats.markdown import markdown_table
    from .finding import changes_frame

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
    from ..lab.findings.verdict import AFFECTED, of
    from ..lab.releases.bisect import marked_ranges

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
    files=(*FILES.values(), f"{MATRIX}.json", DATES, REPORT),
)
