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
    from ..study.moves import Driven, StepDriver
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
    """Notebook 14's answer: the releases affected (a case breaks an invariant), the pinned
    release's verdict with its liveness bugs in plain words, and what the maintainer's patch
    leaves, from the committed data."""
    from ..lab.findings.liveness import REFUSED, SITUATION_WORDS
    from ..lab.findings.verdict import AFFECTED, BUG, UNPAIRED, of
    from ..lab.releases.bisect import marked_ranges

    found = _found(folder)
    order = [v.release for v in found.verdicts]
    hit = marked_ranges(order, {v.release: v.word == AFFECTED for v in found.verdicts})
    pinned = of(found.verdicts, found.version)
    swept = f"{order[0]}..{order[-1]}, {len(order)} releases"
    cases = (
        f"`langchain` {', '.join(hit)} lose or orphan a call in the 16 cases ({swept} swept)"
        if hit
        else f"No `langchain` 1.x release ({swept}) loses the call waiting for a decision in "
        "the 16 cases"
    )
    bugs = pinned.of_kind(BUG)
    said = []
    refused = [v for v in bugs if v.state == REFUSED]
    if refused:
        names = " and ".join(f"*{v.situation}* ({SITUATION_WORDS[v.situation]})" for v in refused)
        modes = ", ".join(dict.fromkeys(m for v in refused for m in v.modes))
        said.append(
            f"In {names}, the call stays in the history with nothing answering it, and the API "
            f"refuses some of the later questions (HTTP 400; how many depends on where the "
            f"compaction step cuts) in {modes}."
        )
    late = [v for v in bugs if v.state == UNPAIRED]
    if late:
        names = ", ".join(f"*{v.situation}* ({SITUATION_WORDS[v.situation]})" for v in late)
        modes = ", ".join(dict.fromkeys(m for v in late for m in v.modes))
        said.append(
            f"In {names}, the late answer is stored or summarised without its call in {modes}, "
            "though the API answers the later questions."
        )
    left = "\n\n".join(said) or "No situation fails by a bug."
    patched = [r for r in found.patched if r.invariant == "compaction_runs"]
    healed = bool(patched) and all(r.session_usable for r in patched if "none" not in r.mode)
    healed = healed and all(r.resume_paired is not False for r in patched)
    fix = (
        "With `langchain/fix/langchain-1.5.2.diff`, which answers each such call with a tool "
        "message saying it did not run, every situation is usable in every compaction setting "
        "and every late answer keeps its call."
        if healed
        else "The patch in `langchain/fix/` does not yet heal every situation."
    )
    return (
        f"**Answer.** {cases}. On {found.version}, the pinned `langchain` release, the verdict is "
        f"*{pinned.word}*.\n\n{left}\n\n**What to do.** LangChain maintainers: when a new run "
        "starts over an interrupt nobody resumed, answer its open call in "
        f"`HumanInTheLoopMiddleware` before the model sees it. {fix} `data/report-langchain.md` "
        "is the issue, with its test and patch."
    )


def _steps(version: str) -> StepDriver:
    from .harness import Steps
    from .packages import release_environment

    return Steps(release_environment(version).python)


def _newest() -> str:
    from .packages import releases

    return releases()[-1]


def _patched(patch: Path) -> StepDriver:
    from .harness import Steps
    from .patched import label, patched_environment

    driver = Steps(patched_environment(patch).python)
    driver.version = label(patch)
    return driver


def driven() -> Driven:
    """The search's line for the driver (``explore --driver langchain``): its moves, its steps
    in a release's environment (made with uv on first use), its pinned and newest releases."""
    from ..study.moves import Driven
    from .moves import MOVES
    from .packages import pinned

    return Driven(MOVES, _steps, pinned, _newest, _patched)


PLUGIN = SdkPlugin(
    name="langchain",
    notebook="14",
    register=register,
    blocks={"langchain": verdict_block, "langchain-changes": changes_block},
    answer=answer,
    files=(*FILES.values(), f"{MATRIX}.json", DATES, REPORT),
    driven=driven,
)
