"""Packages: ``langchain`` 1.x releases, each in its own cached environment, made by uv.

As the Python and ADK sweeps make theirs (``lab.releases.environments``): one virtual
environment per release under the user's cache (``approval-compaction/py3.X/langchain/<version>``),
its dependencies resolved as of the release's upload (uv's ``--exclude-newer``, the dates in
``data/langchain-release-dates.json``), reused while its marker records the same install. Beside
the release it holds what the driver needs, as ``langchain/requirements.txt`` names them:
``langchain-openai`` (``ChatOpenAI``) and ``langgraph-checkpoint-sqlite`` (``SqliteSaver``). The
pinned release is the one that file pins. Every 1.x release has both middlewares the study
needs (``HumanInTheLoopMiddleware`` and ``SummarizationMiddleware``, in 1.0.0's
``langchain/agents/middleware/``).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import InvestigationError
from ..lab import paths
from ..lab.releases.environments import Environment, default_envs, install, uv_binary
from ..lab.releases.versions import fetch_releases, load_releases, save_releases, sort_versions
from .words import DATES as DATES

PACKAGE = "langchain"
FIRST = "1.0.0"  # create_agent and its middleware: both middlewares ship from the first 1.x
REQUIREMENTS = paths.ROOT / "langchain" / "requirements.txt"


class LangchainEnvironmentError(InvestigationError):
    """A release's environment that cannot be made, in one line."""


def requirements(path: Path = REQUIREMENTS) -> list[str]:
    """The pin file's requirement lines (comments and blanks left out)."""
    lines = (line.split("#")[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line]


def pinned(path: Path = REQUIREMENTS) -> str:
    """The release the pin file pins."""
    for line in requirements(path):
        found = re.fullmatch(rf"{PACKAGE}==(\S+)", line)
        if found:
            return found.group(1)
    raise LangchainEnvironmentError(f"{path.name} pins no {PACKAGE} release")


def dates_file(folder: Path = paths.DATA) -> Path:
    return paths.data(folder).file(DATES)


def release_dates(path: Path | None = None) -> dict[str, str]:
    """Each release from ``FIRST`` on and its cutoff (committed once fetched)."""
    found = load_releases(path or dates_file())
    if not found:
        raise LangchainEnvironmentError(
            f"no {DATES}: run `python -m approval_compaction langchain-sweep --dates`"
        )
    return found


def fetch_release_dates(path: Path | None = None) -> Path:
    """Ask the package index for the releases and their upload times, and write them."""
    target = path or dates_file()
    save_releases(target, fetch_releases(package=PACKAGE, first=FIRST))
    return target


def releases(dates: dict[str, str] | None = None) -> list[str]:
    """The 1.x releases, oldest first."""
    return sort_versions(dates if dates is not None else release_dates())


def cache_folder() -> Path:
    return default_envs() / "langchain"


def environment(version: str, dates: dict[str, str] | None = None) -> Environment:
    """The release's environment (not made: ``ready()`` tells)."""
    cutoffs = dates if dates is not None else release_dates()
    if version not in cutoffs:
        raise LangchainEnvironmentError(f"{PACKAGE} {version} is not a 1.x release")
    extras = [line for line in requirements() if not line.startswith(f"{PACKAGE}==")]
    wanted = (f"{PACKAGE}=={version}", *extras)
    return Environment(cache_folder() / version, version, cutoffs[version], wanted)


def release_environment(version: str, dates: dict[str, str] | None = None) -> Environment:
    """The release's environment, made with uv on first use."""
    env = environment(version, dates)
    error = install(env, uv_binary())
    if error is not None:
        raise LangchainEnvironmentError(f"{PACKAGE} {version}: {error}")
    return env
