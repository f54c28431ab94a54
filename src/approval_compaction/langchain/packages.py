"""Packages: ``langchain`` 1.x releases, each in its own cached environment, made by uv.

The shared ``UvPackage`` (``lab.releases.driven``) with LangChain's names: one virtual
environment per release under the user's cache (``approval-compaction/py3.X/langchain/<version>``),
its dependencies resolved as of the release's upload (the dates in
``data/langchain-release-dates.json``). Beside the release it holds what the driver needs, as
``langchain/requirements.txt`` names them: ``langchain-openai`` (``ChatOpenAI``) and
``langgraph-checkpoint-sqlite`` (``SqliteSaver``). The pinned release is the one that file pins.
Every 1.x release has both middlewares the study needs (``HumanInTheLoopMiddleware`` and
``SummarizationMiddleware``, in 1.0.0's ``langchain/agents/middleware/``).
"""

from __future__ import annotations

from ..errors import InvestigationError
from ..lab import paths
from ..lab.releases.driven import UvPackage
from .files import data_file

PACKAGE = "langchain"
FIRST = "1.0.0"  # create_agent and its middleware: both middlewares ship from the first 1.x
REQUIREMENTS = paths.ROOT / "langchain" / "requirements.txt"
DATES = data_file("release_dates")  # each release and its upload time (``fetch_release_dates``)


class LangchainEnvironmentError(InvestigationError):
    """A release's environment that cannot be made, in one line."""


RELEASES = UvPackage(
    PACKAGE, FIRST, REQUIREMENTS, DATES, "langchain",
    LangchainEnvironmentError, "a 1.x release", "langchain-sweep --dates",
)  # fmt: skip
requirements = RELEASES.requirement_lines
pinned = RELEASES.pinned
release_dates = RELEASES.release_dates
fetch_release_dates = RELEASES.fetch_release_dates
releases = RELEASES.releases  # the 1.x releases, oldest first
cache_folder = RELEASES.cache_folder
environment = RELEASES.environment
release_environment = RELEASES.release_environment
