"""Packages: ``google-adk`` releases, each in its own cached environment, made by uv.

As the Python release sweep makes its environments (``releases.environments``): one virtual
environment per release under the user's cache (``approval-compaction/py3.X/adk/<version>``),
its dependencies resolved as of the release's upload (uv's ``--exclude-newer``, the dates in
``data/adk-release-dates.json``), reused while its marker records the same install. Beside the
release it holds what ``DatabaseSessionService`` needs for a SQLite file (``sqlalchemy`` with
its asyncio extra, ``aiosqlite``), as ``adk/requirements.txt`` names them. The pinned release
is the one that file pins.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import InvestigationError
from ..lab import paths
from ..lab.releases.environments import Environment, default_envs, install, uv_binary
from ..lab.releases.versions import fetch_releases, load_releases, save_releases, sort_versions
from .files import data_file

PACKAGE = "google-adk"
# The first release with events compaction (``apps/compaction.py``, ``BaseEventsSummarizer``);
# tool confirmation (``FunctionTool(require_confirmation=...)``) came in 1.14.0.
FIRST = "1.16.0"
REQUIREMENTS = paths.ROOT / "adk" / "requirements.txt"
DATES = data_file("release_dates")  # each release and its upload time (``fetch_release_dates``)


class AdkEnvironmentError(InvestigationError):
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
    raise AdkEnvironmentError(f"{path.name} pins no {PACKAGE} release")


def release_dates(path: Path = DATES) -> dict[str, str]:
    """Each release from ``FIRST`` on and its cutoff (committed once fetched)."""
    found = load_releases(path)
    if not found:
        raise AdkEnvironmentError(
            f"no {path.name}: run `python -m approval_compaction adk-sweep --dates`"
        )
    return found


def fetch_release_dates(path: Path = DATES) -> Path:
    """Ask the package index for the releases and their upload times, and write them."""
    save_releases(path, fetch_releases(package=PACKAGE, first=FIRST))
    return path


def releases(dates: dict[str, str] | None = None) -> list[str]:
    """The releases with confirmation and compaction, oldest first."""
    return sort_versions(dates if dates is not None else release_dates())


def cache_folder() -> Path:
    return default_envs() / "adk"


def environment(version: str, dates: dict[str, str] | None = None) -> Environment:
    """The release's environment (not made: ``ready()`` tells)."""
    cutoffs = dates if dates is not None else release_dates()
    if version not in cutoffs:
        raise AdkEnvironmentError(f"{PACKAGE} {version} is not a release with both features")
    extras = [line for line in requirements() if not line.startswith(f"{PACKAGE}==")]
    wanted = (f"{PACKAGE}=={version}", *extras)
    return Environment(cache_folder() / version, version, cutoffs[version], wanted)


# The first release that ships ADK's OpenAI Responses integration (``OpenAIResponsesLlm``, in
# ``labs/openai`` from 2.4.0, ``integrations/openai`` from 2.10.0), read in the releases' wheels.
FIRST_RESPONSES = "2.4.0"
# The ``openai`` client that integration calls: the range google-adk's own metadata asks for
# (its ``extensions`` extra from 2.4.0, its ``openai`` extra later).
OPENAI_CLIENT = "openai>=2.20,<3"


def responses_environment(version: str, dates: dict[str, str] | None = None) -> Environment:
    """The release with the ``openai`` client its ``OpenAIResponsesLlm`` calls, in a folder of
    its own beside the release's, made with uv on first use."""
    from ..lab.releases.versions import version_key

    if version_key(version) < version_key(FIRST_RESPONSES):
        raise AdkEnvironmentError(
            f"{PACKAGE} {version} has no OpenAIResponsesLlm (it came in {FIRST_RESPONSES})"
        )
    plain = environment(version, dates)
    wanted = (*plain.requirements, OPENAI_CLIENT)
    env = Environment(cache_folder() / f"{version}+openai", version, plain.exclude_newer, wanted)
    error = install(env, uv_binary())
    if error is not None:
        raise AdkEnvironmentError(f"{PACKAGE} {version} with {OPENAI_CLIENT}: {error}")
    return env


def release_environment(version: str, dates: dict[str, str] | None = None) -> Environment:
    """The release's environment, made with uv on first use."""
    env = environment(version, dates)
    error = install(env, uv_binary())
    if error is not None:
        raise AdkEnvironmentError(f"{PACKAGE} {version}: {error}")
    return env
