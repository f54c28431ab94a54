"""Paths: where the package, the repository and its ``data/`` folder are, and where throwaway
stores go (``scratch``).

These are the locations the core and the doctor use. The lab's names (each result file under
``data/`` by its one name, the notebooks, the README, the regression tests) are in
``lab/paths.py``; asked for here (``paths.DATA_FILES``), they are handed on from there.
"""

from __future__ import annotations

import functools
import importlib
import os
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent
SOURCE = PACKAGE.parent  # the folder that holds the package: what a release's probe imports from
ROOT = SOURCE.parent
DATA = ROOT / "data"

# Throwaway session stores (each case's SQLite history, the explorer's and the workers') need no
# durability, so they go where the system keeps files in memory, when it has such a folder:
# SQLite's commits there cost no fsync. On a busy disk that made the 16-case matrix three times
# faster in process; the stores, and so every result, are the same files.
MEMORY_FOLDER = Path("/dev/shm")


@functools.cache
def scratch() -> str | None:
    """The folder for throwaway stores: ``MEMORY_FOLDER`` where it is a writable folder, else
    None (``tempfile``'s own choice), as ``tempfile``'s ``dir=`` takes it."""
    usable = MEMORY_FOLDER.is_dir() and os.access(MEMORY_FOLDER, os.W_OK | os.X_OK)
    return str(MEMORY_FOLDER) if usable else None


def __getattr__(name: str) -> Any:
    """A name of the lab's (``DATA_FILES``, ``Data``, ``NOTEBOOKS``, ...), from ``lab/paths.py``."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__package__}.lab.paths"), name)
