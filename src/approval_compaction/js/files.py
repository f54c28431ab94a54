"""Files: the JS study's result files under ``data/``, each named once (the SDK's part of
``lab.paths``, which names the shared ones), and where one lies in a data folder."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from ..lab import paths

Name = Literal[
    "modes",  # each plan (mode, store, session) of the 16 cases on the pinned release
    "exposure",  # the pinned release under its default trigger at each pause position
    "sweep",  # every release's plans
    "release_dates",  # each release of @openai/agents and its siblings, and its upload time
    "workaround_sweep",  # every release's plans with the session wrapped by js/workaround.mjs
    "workaround",  # the pinned release's plans with the workaround
    "patched",  # the pinned release's plans on the patched package (js/fix/)
    "liveness",  # the liveness situations on the pinned release: bare, workaround, patched
    "sdk_test",  # the regression test for openai-agents-js, on the pinned and patched package
    "typecheck",  # the fixes and the tests in TypeScript, checked with the repository's tools
    "mutants",  # each plausible simplification of the fixes, and the test that kills it
    "upstream",  # a snapshot of openai-agents-js (``js-upstream --checkout``) and its suite
    "report",  # the issue for openai-agents-js
    "stall_sweep",  # the plain conversation (the stall) on every release, each plan judged
    "stall",  # the stall on the pinned release with the workaround and each patch
    "stall_sdk_test",  # the stall's regression test around the boundary, pinned and patched
    "stall_fakes",  # the answer shape of each fake ``responses.compact`` in the SDK's tests
    "stall_report",  # the issue of the stall for openai-agents-js
    "stall_figure",  # its figure
]
FILES: dict[Name, str] = {
    "modes": "js-modes.json",
    "exposure": "js-exposure.json",
    "sweep": "js-sweep.json",
    "release_dates": "js-release-dates.json",
    "workaround_sweep": "js-workaround-sweep.json",
    "workaround": "js-workaround.json",
    "patched": "js-patched.json",
    "liveness": "js-liveness.json",
    "sdk_test": "js-sdk-test.json",
    "typecheck": "js-typecheck.json",
    "mutants": "js-mutants.json",
    "upstream": "js-upstream.json",
    "report": "report-js.md",
    "stall_sweep": "js-stall-sweep.json",
    "stall": "js-stall.json",
    "stall_sdk_test": "js-stall-sdk-test.json",
    "stall_fakes": "js-stall-fakes.json",
    "stall_report": "report-js-stall.md",
    "stall_figure": "report-js-stall.png",
}
MATRIX = "js-matrix"  # the pinned release's 16 cases, input mode (a matrix file set's stem)


def data_file(name: Name, folder: Path = paths.DATA) -> Path:
    """The file ``name`` in the data folder ``folder``."""
    return paths.data(folder).file(FILES[name])
