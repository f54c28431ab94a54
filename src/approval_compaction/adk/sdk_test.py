"""SDK test: the regression test written for adk-python, run here with pytest.

``adk/sdk-test/tests/unittests/`` holds the files a maintainer drops into adk-python's
``tests/unittests/`` as they are (the late answer's, and the long-running call's that stops
compaction): pytest with pytest-asyncio, a fake ``BaseLlm`` and a recording
``BaseEventsSummarizer``, no network, in that project's style. Here it runs with the
interpreter of a release's environment (or a patched one, ``patched``), with this project's
pins of pytest and pytest-asyncio in a tools folder beside it, so the environment stays as the
sweep made it; ``adk/sdk-test/pytest.ini`` stands in for adk-python's pytest settings.
"""

from __future__ import annotations

from pathlib import Path

from ..lab import paths
from ..lab.releases import driven
from ..lab.releases.driven import SdkTestRun as SdkTestRun
from .packages import RELEASES

SDK_TEST = paths.ROOT / "adk" / "sdk-test"
ADK_REGRESSION_TEST = SDK_TEST / "tests" / "unittests" / "apps" / "test_compaction_late_answer.py"
# The long-running call nobody answers, which stops compaction for good (the search found it).
LONG_RUNNING_TEST = ADK_REGRESSION_TEST.with_name("test_compaction_long_running.py")
TOOLS = ("pytest", "pytest-asyncio")
TIMEOUT = 600.0


def run_sdk_test(
    python: Path, test: Path = ADK_REGRESSION_TEST, overlay: Path | None = None
) -> SdkTestRun:
    """Run a regression test (the late answer's by default) with ``python`` (a release's, or
    a patched one's); ``overlay``: a folder whose ``google/adk`` is imported instead of the
    environment's (a mutant's)."""
    label = "the adk-python regression test"
    cases = driven.run_sdk_test(RELEASES, python, test, SDK_TEST, TOOLS, label, overlay, TIMEOUT)
    return SdkTestRun.of(cases)
