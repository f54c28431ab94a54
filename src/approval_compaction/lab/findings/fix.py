"""Fix: the release that fixes the bug, and the regression test on every swept release.

The fixing release is read from the data: the first release from which the regression test
passes and the sweep finds every invariant holding, with every tested or swept release after it
fixed too (a regression that comes back later does not count as a fix). ``Crosscheck`` is the test
unpatched in each release's own environment, against the sweep's verdicts, and with the
workaround.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..releases.crosscheck import CrossRecord
from ..releases.sweep import ReleaseRecord
from ..releases.versions import sort_versions, version_key


def fix_release(tests: Sequence[CrossRecord], sweep: Sequence[ReleaseRecord]) -> str | None:
    """The first release from which the test passes and no invariant is violated, if any."""
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


@dataclass(frozen=True)
class Crosscheck:
    """The unfixed test across releases: where it fails and passes (releases in order), in how
    many of the release/runner/decision cases the sweep judged its outcome matches the sweep's
    verdict, and where it passes with the workaround."""

    failing: tuple[str, ...]
    passing: tuple[str, ...]
    agreed: int
    judged: int
    wrapped: tuple[str, ...]
    # Per release, what pytest's last line says of the unfixed cases (``4 failed``).
    summaries: tuple[tuple[str, str], ...] = ()

    def summary(self, version: str) -> str | None:
        """pytest's count of the unfixed test's outcomes on ``version`` (``4 failed``)."""
        return dict(self.summaries).get(version)


def pytest_summary(outcomes: Sequence[str]) -> str:
    """Outcomes counted as pytest's last line counts them: ``3 failed, 1 passed``."""
    order = ("failed", "passed", "skipped", "error")
    counts = {word: sum(o == word for o in outcomes) for word in order}
    others = sorted(set(outcomes) - set(order))
    counts.update({word: sum(o == word for o in outcomes) for word in others})
    return ", ".join(f"{n} {word}" for word, n in counts.items() if n)


def crosscheck_finding(records: Sequence[CrossRecord]) -> Crosscheck:
    """The crosscheck's records as one finding."""
    failing = {r.sdk_version for r in records if r.unfixed != "passed"}
    passing = {r.sdk_version for r in records} - failing
    judged = [r for r in records if r.agrees is not None]
    wrapped = {r.sdk_version for r in records if r.workaround == "passed"}
    wrapped -= {r.sdk_version for r in records if r.workaround != "passed"}
    return Crosscheck(
        failing=tuple(sort_versions(failing)),
        passing=tuple(sort_versions(passing)),
        agreed=sum(bool(r.agrees) for r in judged),
        judged=len(judged),
        wrapped=tuple(sort_versions(wrapped)),
        summaries=tuple(
            (version, pytest_summary([r.unfixed for r in records if r.sdk_version == version]))
            for version in sort_versions({r.sdk_version for r in records})
        ),
    )
