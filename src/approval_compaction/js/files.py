"""Files: the JS study's result files under ``data/``, each by its one name.

``JsData`` is ``lab.paths.Data`` with the JS study's files added (the same layout over a folder:
``data/`` itself or a scratch folder), so a JS module asks one layout for the shared files and its
own, and a reader sees each named the same way (``Data.shown``). ``FILES`` lists the names for
the plugin (``SdkPlugin.files``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..lab import paths

JS_MATRIX = "js-matrix"  # the JS SDK's 16 cases on its pinned release, input mode


@dataclass(frozen=True)
class JsData(paths.Data):
    """The result files under one folder, the JS study's among them, each by its one name."""

    @property
    def js_matrix(self) -> Path:
        return self.results(JS_MATRIX)

    @property
    def js_modes(self) -> Path:
        """Each plan (mode, store, session) of the 16 cases on the pinned JS release."""
        return self.file("js-modes.json")

    @property
    def js_exposure(self) -> Path:
        """The pinned JS release under its default trigger at each pause position."""
        return self.file("js-exposure.json")

    @property
    def js_sweep(self) -> Path:
        return self.file("js-sweep.json")

    @property
    def js_release_dates(self) -> Path:
        return self.file("js-release-dates.json")

    @property
    def js_workaround_sweep(self) -> Path:
        """Every JS release's plans with the session wrapped by js/workaround.mjs."""
        return self.file("js-workaround-sweep.json")

    @property
    def js_workaround(self) -> Path:
        return self.file("js-workaround.json")

    @property
    def js_patched(self) -> Path:
        """The pinned JS release's plans on the patched package (js/fix/)."""
        return self.file("js-patched.json")

    @property
    def js_liveness(self) -> Path:
        """The JS liveness situations on the pinned release: bare, with the workaround, patched."""
        return self.file("js-liveness.json")

    @property
    def js_sdk_test(self) -> Path:
        """The regression test for openai-agents-js, on the pinned and the patched package."""
        return self.file("js-sdk-test.json")

    @property
    def js_typecheck(self) -> Path:
        """The TypeScript forms of the JS fixes and the regression tests, checked with the
        repository's tsc, prettier and eslint settings."""
        return self.file("js-typecheck.json")

    @property
    def js_mutants(self) -> Path:
        """Each plausible simplification of the JS fixes, and the regression test that kills it."""
        return self.file("js-mutants.json")

    @property
    def js_upstream(self) -> Path:
        """A snapshot of openai-agents-js (recorded by hand: ``js-upstream --checkout``): what
        it holds, and its agents-openai suite on the release and on each patched package."""
        return self.file("js-upstream.json")

    @property
    def js_report(self) -> Path:
        """The paste-ready report for openai-agents-js."""
        return self.file("report-js.md")

    @property
    def js_stall_sweep(self) -> Path:
        """The plain conversation (the stall) on every JS release, each plan judged."""
        return self.file("js-stall-sweep.json")

    @property
    def js_stall(self) -> Path:
        """The plain conversation on the pinned JS release with the workaround and each patch,
        and on the Python SDK's newest release."""
        return self.file("js-stall.json")

    @property
    def js_stall_sdk_test(self) -> Path:
        """The stall's regression test (and the guard's) on the releases around the boundary,
        the pinned one and the patched packages."""
        return self.file("js-stall-sdk-test.json")

    @property
    def js_stall_fakes(self) -> Path:
        """The answer shape of each fake ``responses.compact`` in the SDK's own tests."""
        return self.file("js-stall-fakes.json")

    @property
    def js_stall_report(self) -> Path:
        """The paste-ready report of the stall for openai-agents-js, and its figure."""
        return self.file("report-js-stall.md")

    @property
    def js_stall_figure(self) -> Path:
        return self.file("report-js-stall.png")

    # google-adk: the pinned release's kinds, every release, the liveness situations, the fix.


def data(folder: Path | str = paths.DATA) -> JsData:
    """The layout over ``folder`` (``data/`` by default)."""
    return JsData(Path(folder))


DATA_FILES = data()
# Every JS result file's name under data/ (the matrix set by its JSON).
FILES: tuple[str, ...] = (
    f"{JS_MATRIX}.json",
    "js-modes.json",
    "js-exposure.json",
    "js-sweep.json",
    "js-release-dates.json",
    "js-workaround-sweep.json",
    "js-workaround.json",
    "js-patched.json",
    "js-liveness.json",
    "js-sdk-test.json",
    "js-typecheck.json",
    "js-mutants.json",
    "js-upstream.json",
    "report-js.md",
    "js-stall-sweep.json",
    "js-stall.json",
    "js-stall-sdk-test.json",
    "js-stall-fakes.json",
    "report-js-stall.md",
    "report-js-stall.png",
)
