"""Files: the ADK study's result files under ``data/``, each named once (the SDK's part of
``lab.paths``, which names the shared ones), and where one lies in a data folder."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from ..lab import paths

Name = Literal[
    "kinds",  # the pinned release's 16 cases in each compaction kind, one record per kind
    "responses",  # the same with ADK's OpenAIResponsesLlm, each model request sent over HTTP
    "responses_liveness",  # the liveness situations in each kind with it over HTTP
    "sweep",  # every release's kinds
    "sweep_liveness",  # the liveness situations in every kind on every release, judged
    "sweep_responses",  # each release with OpenAIResponsesLlm: its cases in each kind over HTTP
    "boundaries",  # where each kind's result changes between releases, and what moved it
    "release_dates",  # each release and its upload time, from the package index
    "liveness",  # the liveness situations on the pinned release and patched
    "patched",  # the pinned release's kinds on the patched package (adk/fix/)
    "sdk_test",  # the regression test for adk-python, on the pinned and the patched package
    "long_running_sdk_test",  # the long-running call's test: pinned, its fix, both fixes
    "late",  # the late answers, pinned and patched, split by what the fix changes
    "lint",  # the fixes and their tests, checked with adk-python's formatters and linters
    "mutants",  # each plausible simplification of the fixes, and the test case killing it
    "upstream",  # adk-python's own tests of the touched module (``adk-upstream --tests``)
    "report",  # the issue for adk-python
]
FILES: dict[Name, str] = {
    "kinds": "adk-kinds.json",
    "responses": "adk-responses.json",
    "responses_liveness": "adk-responses-liveness.json",
    "sweep": "adk-sweep.json",
    "sweep_liveness": "adk-sweep-liveness.json",
    "sweep_responses": "adk-sweep-responses.json",
    "boundaries": "adk-boundaries.json",
    "release_dates": "adk-release-dates.json",
    "liveness": "adk-liveness.json",
    "patched": "adk-patched.json",
    "sdk_test": "adk-sdk-test.json",
    "long_running_sdk_test": "adk-sdk-test-long-running.json",
    "late": "adk-late.json",
    "lint": "adk-lint.json",
    "mutants": "adk-mutants.json",
    "upstream": "adk-upstream.json",
    "report": "report-adk.md",
}
MATRIX = "adk-matrix"  # the pinned release's 16 cases, window-0 (a matrix file set's stem)


def data_file(name: Name, folder: Path = paths.DATA) -> Path:
    """The file ``name`` in the data folder ``folder``."""
    return paths.data(folder).file(FILES[name])
