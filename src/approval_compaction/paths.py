"""Paths: every location the project reads or writes, built in one place."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
SOURCE = PACKAGE.parent  # the folder that holds the package: what a release's probe imports from
ROOT = SOURCE.parent
DATA = ROOT / "data"
NOTEBOOKS = ROOT / "notebooks"
RENDERED = DATA / "rendered"
PROVENANCE = DATA / "notebooks.json"  # which notebooks run the SDK live, what data they read
SWEEP = DATA / "sweep.json"
RELEASE_DATES = DATA / "release-dates.json"
FIX_RELEASES = DATA / "fix-releases.json"
SNIPPET = DATA / "upstream-snippet.md"
README = ROOT / "README.md"
REGRESSION_TEST = ROOT / "tests" / "sdk_regression" / "test_compaction_pending_approval.py"
