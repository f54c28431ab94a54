"""The lab's paths: each result file under ``data/`` by its one name, and the notebooks, the
README, the docs and the regression tests.

``Data`` is a layout over a folder (``data/`` itself, or a scratch folder a test or a command
writes to instead), so that every module asks it for a file instead of spelling the name:
``paths.data(folder).matrix``, ``paths.DATA_FILES.sweep``. A name shown to a reader
(``data/sweep.json`` in the README) comes from the same place (``Data.shown``). The core's
locations (``ROOT``, ``DATA``, ``scratch``) are handed on from the core's ``paths``, so a lab
module imports this one module for every path.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..paths import DATA as DATA
from ..paths import MEMORY_FOLDER as MEMORY_FOLDER
from ..paths import PACKAGE as PACKAGE
from ..paths import ROOT as ROOT
from ..paths import SOURCE as SOURCE
from ..paths import scratch as scratch

NOTEBOOKS = ROOT / "notebooks"
README = ROOT / "README.md"
DOCS = ROOT / "docs"  # the reference pages the README links
# The regression test in its upstream form (what the README and the snippet name), and the
# module that runs its cases with this project's variants and marks.
REGRESSION_TEST = ROOT / "tests" / "sdk_regression" / "test_compaction_pending_approval.py"
REGRESSION_VARIANTS = ROOT / "tests" / "sdk_regression" / "test_pending_approval_variants.py"
LIVENESS_TEST = ROOT / "tests" / "sdk_regression" / "test_compaction_liveness.py"
# The liveness bug a fresh session meets on the newest release, as one short self-contained test.
LIVENESS_MCP_TEST = ROOT / "tests" / "sdk_regression" / "test_compaction_mcp_request.py"
LIVENESS_PATCH = ROOT / "tests" / "sdk_regression" / "patches" / "0.24.0-compaction-liveness.patch"
# Sessions each SDK's runner stored for every approval kind, and their manifest: the doctor's
# test data (``lab.affected.exports``, ``make doctor-exports``).
DOCTOR_EXPORTS = ROOT / "tests" / "doctor" / "exports"

# Stems of the matrix file sets (``<stem>.json``, ``.csv``, ``.md``, ``-runs.json``,
# ``-heatmap.png``): the pinned release, with the workaround, the newest release, and ``auto``
# with ModelSettings(store=False) over HTTP.
MATRIX = "matrix"
FIX_MATRIX = "fix-matrix"
NEWEST_MATRIX = "fix-newest-matrix"
STORE_FALSE_MATRIX = "matrix-store-false"


@dataclass(frozen=True)
class Data:
    """The result files under one folder, each by its one name."""

    folder: Path = DATA

    def file(self, name: str) -> Path:
        return self.folder / name

    def shown(self, path: Path) -> str:
        """A data file as a reader sees it named: ``data/sweep.json``."""
        return f"data/{path.relative_to(self.folder).as_posix()}"

    # The matrix file sets.
    def results(self, stem: str = MATRIX) -> Path:
        return self.file(f"{stem}.json")

    def runs(self, stem: str = MATRIX) -> Path:
        return self.file(f"{stem}-runs.json")

    def heatmap(self, stem: str = MATRIX) -> Path:
        return self.file(f"{stem}-heatmap.png")

    @property
    def matrix(self) -> Path:
        return self.results(MATRIX)

    @property
    def fix_matrix(self) -> Path:
        return self.results(FIX_MATRIX)

    @property
    def newest_matrix(self) -> Path:
        return self.results(NEWEST_MATRIX)

    @property
    def store_false_matrix(self) -> Path:
        """``auto`` with ModelSettings(store=False) on the pinned release, over HTTP."""
        return self.results(STORE_FALSE_MATRIX)

    @property
    def meetings(self) -> Path:
        """What the user meets on the pinned release, each case over HTTP in every mode."""
        return self.file("meetings.json")

    # Releases.
    @property
    def sweep(self) -> Path:
        return self.file("sweep.json")

    @property
    def sweep_meetings(self) -> Path:
        """What the user meets at each stage, per release, model, mode and case."""
        return self.file("sweep-meetings.json")

    @property
    def sweep_liveness(self) -> Path:
        """Each liveness situation continued on every release, per mode (the sweep's)."""
        return self.file("sweep-liveness.json")

    @property
    def release_dates(self) -> Path:
        return self.file("release-dates.json")

    @property
    def fix_releases(self) -> Path:
        return self.file("fix-releases.json")

    def upstream_suite(self, version: str, part: str = "") -> Path:
        """``upstream-suite-<version>.json`` and its ``-runs``, ``-checks`` and ``-failures``
        parts."""
        return self.file(f"upstream-suite-{version}{'-' + part if part else ''}.json")

    def upstream_suite_versions(self) -> list[str]:
        """The releases whose upstream-suite results are written here."""
        runs = self.folder.glob("upstream-suite-*-runs.json")
        return [p.name.removeprefix("upstream-suite-").removesuffix("-runs.json") for p in runs]

    @property
    def mechanism(self) -> Path:
        return self.file("mechanism.json")

    @property
    def fix_anatomy(self) -> Path:
        """Which hunks of the fixing release's diff are the fix (``make fix-anatomy``)."""
        return self.file("fix-anatomy.json")

    # The doctor's experiments.
    @property
    def doctor_check_pinned(self) -> Path:
        return self.file("doctor-check-pinned.json")

    @property
    def doctor_check_newest(self) -> Path:
        return self.file("doctor-check-newest.json")

    @property
    def doctor_check_modes(self) -> Path:
        """The doctor's check with the SDK's default trigger in each compaction mode, on the
        pinned and the newest release: how often a team meets the bug."""
        return self.file("doctor-check-modes.json")

    @property
    def doctor_upgrade(self) -> Path:
        return self.file("doctor-upgrade.json")

    @property
    def doctor_worker(self) -> Path:
        return self.file("doctor-worker.json")

    @property
    def doctor_heal(self) -> Path:
        return self.file("doctor-heal.json")

    @property
    def liveness(self) -> Path:
        return self.file("liveness.json")

    # The liveness patch's proofs (``make liveness-patch``) and the comment built from them.
    @property
    def liveness_mutants(self) -> Path:
        """Each plausible simplification of the liveness patch, and the case killing it."""
        return self.file("liveness-mutants.json")

    @property
    def liveness_patch_test(self) -> Path:
        """The liveness regression test on the newest release and on the patched SDK."""
        return self.file("liveness-patch-test.json")

    @property
    def liveness_patch_mcp(self) -> Path:
        """The short MCP-request regression test on the newest release and on the patched SDK."""
        return self.file("liveness-patch-mcp.json")

    @property
    def liveness_patch_suite(self) -> Path:
        """The SDK's own tests on the newest release and on the patched SDK."""
        return self.file("liveness-patch-suite.json")

    @property
    def liveness_patch_matrix(self) -> Path:
        """The sixteen cases on the patched SDK."""
        return self.file("liveness-patch-matrix.json")

    @property
    def liveness_patch_runs(self) -> Path:
        """Every liveness situation and case continued on the patched SDK."""
        return self.file("liveness-patch-runs.json")

    @property
    def liveness_patch_http(self) -> Path:
        """Each situation over HTTP to the stand-in, on the newest release and patched."""
        return self.file("liveness-patch-http.json")

    @property
    def upstream_liveness(self) -> Path:
        return self.file("upstream-liveness.md")

    # Exploration.
    def explore(self, version: str, fix: bool = False, sdk: str = "") -> Path:
        """One search's summary: ``explore-0.24.0.json``, a driver's
        ``explore-<sdk>-<release>.json``."""
        return self.file(f"explore-{sdk + '-' if sdk else ''}{version}{'-fix' if fix else ''}.json")

    def explore_results(self, sdk: str = "") -> list[Path]:
        """The summaries of one SDK's searches (``sdk``: a driver's short name; "": the Python
        SDK's, whose names start with the release)."""
        pattern = f"explore-{sdk}-[0-9]*.json" if sdk else "explore-[0-9]*.json"
        return sorted(self.folder.glob(pattern))

    @property
    def counterexamples(self) -> Path:
        return self.file("counterexamples")

    def counterexample(self, name: str) -> Path:
        return self.counterexamples / f"{name}.json"

    # What leaves the project for people.
    @property
    def report(self) -> Path:
        return self.file("report.md")

    @property
    def snippet(self) -> Path:
        return self.file("upstream-snippet.md")

    @property
    def notebooks(self) -> Path:
        """Which notebooks run the SDK live, and what data they read (provenance)."""
        return self.file("notebooks.json")

    @property
    def rendered(self) -> Path:
        return self.file("rendered")

    @property
    def lab_screenshot(self) -> Path:
        return self.file("lab-stepper.png")


def data(folder: Path | str = DATA) -> Data:
    """The layout of the result files under ``folder``."""
    return Data(Path(folder))


DATA_FILES = Data()
