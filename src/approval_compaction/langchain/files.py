"""Files: the LangChain study's result files under ``data/``, each named once (the SDK's part of
``lab.paths``, which names the shared ones), and where one lies in a data folder."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from ..lab import paths

Name = Literal[
    "settings",  # the pinned release's cases in each setting (compaction step and endpoint)
    "liveness",  # the liveness situations in each setting on the pinned release
    "sweep",  # every release's settings
    "sweep_liveness",  # the liveness situations in every setting on every release, judged
    "boundaries",  # where each setting's result changes between releases, and what moved it
    "patched",  # the liveness situations on the patched package (langchain/fix/)
    "sdk_test",  # the regression test for langchain, on the pinned and the patched package
    "release_dates",  # each release and its upload time, from the package index
    "report",  # the issue for langchain
]
FILES: dict[Name, str] = {
    "settings": "langchain-settings.json",
    "liveness": "langchain-liveness.json",
    "sweep": "langchain-sweep.json",
    "sweep_liveness": "langchain-sweep-liveness.json",
    "boundaries": "langchain-boundaries.json",
    "patched": "langchain-patched.json",
    "sdk_test": "langchain-sdk-test.json",
    "release_dates": "langchain-release-dates.json",
    "report": "report-langchain.md",
}
MATRIX = "langchain-matrix"  # the pinned release's 16 cases, keep-1 over Chat Completions


def data_file(name: Name, folder: Path = paths.DATA) -> Path:
    """The file ``name`` in the data folder ``folder``."""
    return paths.data(folder).file(FILES[name])
