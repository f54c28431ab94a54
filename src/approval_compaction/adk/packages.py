"""Packages: ``google-adk`` releases, each in its own cached environment, made by uv.

The shared ``UvPackage`` (``lab.releases.driven``) with ADK's names: one virtual environment per
release under the user's cache (``approval-compaction/py3.X/adk/<version>``), its dependencies
resolved as of the release's upload (the dates in ``data/adk-release-dates.json``). Beside the
release it holds what ``DatabaseSessionService`` needs for a SQLite file (``sqlalchemy`` with
its asyncio extra, ``aiosqlite``), as ``adk/requirements.txt`` names them. The pinned release
is the one that file pins. Here besides: the release with the ``openai`` client its
``OpenAIResponsesLlm`` calls (``responses_environment``).
"""

from __future__ import annotations

from ..errors import InvestigationError
from ..lab import paths
from ..lab.releases.driven import UvPackage
from ..lab.releases.environments import Environment, install, uv_binary
from .files import data_file

PACKAGE = "google-adk"
# The first release with events compaction (``apps/compaction.py``, ``BaseEventsSummarizer``);
# tool confirmation (``FunctionTool(require_confirmation=...)``) came in 1.14.0.
FIRST = "1.16.0"
REQUIREMENTS = paths.ROOT / "adk" / "requirements.txt"
DATES = data_file("release_dates")  # each release and its upload time (``fetch_release_dates``)


class AdkEnvironmentError(InvestigationError):
    """A release's environment that cannot be made, in one line."""


RELEASES = UvPackage(
    PACKAGE, FIRST, REQUIREMENTS, DATES, "adk", AdkEnvironmentError,
    "a release with both features", "adk-sweep --dates",
)  # fmt: skip
requirements = RELEASES.requirement_lines
pinned = RELEASES.pinned
release_dates = RELEASES.release_dates
fetch_release_dates = RELEASES.fetch_release_dates
releases = RELEASES.releases  # the releases with confirmation and compaction, oldest first
cache_folder = RELEASES.cache_folder
environment = RELEASES.environment
release_environment = RELEASES.release_environment


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
