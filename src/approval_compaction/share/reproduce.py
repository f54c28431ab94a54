"""Reproduce: the one line a maintainer runs without cloning, the error it ends in, the fix.

The upstream snippet carries the regression test in full. Saved under its own name, it runs with
``uv run --no-project --with openai-agents==X --with pytest==Y --with pytest-asyncio==Z pytest
FILE``: uv builds a throwaway environment with only those pins, and the test needs no
configuration file because it marks its coroutine ``@pytest.mark.asyncio`` itself (pytest-asyncio's
default strict mode runs exactly the marked tests). The tool pins are the ones installed here
(``requirements.txt`` pins them), the ``openai-agents`` pin is the release the data was recorded on.

The API's error text is not typed: it is what the stand-in's rules answer to a case's next-turn
input. The release that fixes the bug is read from the data: the first release from which
the regression test passes and the sweep finds every invariant holding.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from pathlib import Path

from .. import paths
from ..formats.markdown import code
from ..formats.records import read_records
from ..releases.crosscheck import CrossRecord, tool_requirements
from ..releases.sweep import ReleaseRecord
from ..releases.versions import PACKAGE, version_key
from ..study.capture import CaseRun
from ..wire.rules import ApiError, check_pairing

TEST_NAME = paths.REGRESSION_TEST.name


def one_line(sdk_version: str, tools: Sequence[str] | None = None) -> str:
    """The command that runs the saved test on ``sdk_version`` in a throwaway environment."""
    pins = [f"{PACKAGE}=={sdk_version}", *(tool_requirements() if tools is None else tools)]
    words = ["uv", "run", "--no-project"]
    for pin in pins:
        words += ["--with", pin]
    return shlex.join([*words, "pytest", TEST_NAME])


def api_errors(runs: Iterable[CaseRun]) -> list[ApiError]:
    """The API's answers to the runs' next-turn inputs, as its rules word them, each once."""
    found: list[ApiError] = []
    for run in runs:
        stage = run.stage("next_turn")
        if stage is None or not stage.model_inputs:
            continue
        error = check_pairing(stage.model_inputs[-1])
        if error is not None and error not in found:
            found.append(error)
    return found


def error_sentence(errors: Sequence[ApiError]) -> str:
    """The errors in one sentence, each message in a code span so a search finds it verbatim."""
    if not errors:
        return "The Responses API accepts every next-turn request."
    said = "; ".join(f"HTTP {e.status} {code(e.message)}" for e in errors)
    return f"The Responses API rejects the next turn's request with {said}"


def fixed_sentence(fix: str | None, test: str = "the regression test") -> str:
    """Which release fixes the bug, as the report and the snippet say it; "" while none does."""
    if fix is None:
        return ""
    return (
        f" **Fixed in `{PACKAGE}` {fix}**: from this release on, {test} passes and the release "
        "sweep finds every invariant holding."
    )


def fix_release(tests: Sequence[CrossRecord], sweep: Sequence[ReleaseRecord]) -> str | None:
    """The first release from which the test passes and no invariant is violated, if any.

    Every swept or tested release after it must be fixed too, so a regression that comes back
    later does not count as a fix.
    """
    broken = {r.sdk_version for r in tests if r.unfixed != "passed"}
    broken |= {r.sdk_version for r in sweep if r.holds is False}
    tested = {r.sdk_version for r in tests}
    fixed: str | None = None
    for version in sorted(tested | {r.sdk_version for r in sweep}, key=version_key):
        if version in broken or version not in tested:
            fixed = None
        elif fixed is None:
            fixed = version
    return fixed


def committed_fix_release(folder: Path = paths.DATA) -> str | None:
    """``fix_release`` on the committed test results and sweep; None while either is missing."""
    tests, sweep = folder / paths.DATA_FILES.fix_releases.name, folder / paths.DATA_FILES.sweep.name
    if not (tests.exists() and sweep.exists()):
        return None
    return fix_release(read_records(tests, CrossRecord), read_records(sweep, ReleaseRecord))
