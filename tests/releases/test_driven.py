"""What every driver's sweep shares: a plan's record from its runs, or from a failed install."""

from dataclasses import dataclass
from pathlib import Path

import pytest

from approval_compaction.analysis.invariants import judge_all
from approval_compaction.errors import InvestigationError
from approval_compaction.formats.records import write_json
from approval_compaction.lab.releases.driven import (
    NEVER_COMPACTED,
    PatchError,
    SdkTestRun,
    UvPackage,
    apply_patch,
    never_compacted,
    patch_key,
    record,
    unavailable,
    uv_driven,
)
from approval_compaction.lab.releases.environments import Environment, JUnitCase
from approval_compaction.openai_agents.harness import run_matrix
from approval_compaction.study.scenario import Case


@dataclass(frozen=True)
class _Plan:
    label: str = "input"
    mode: str = "input"
    response_store: bool | None = None
    trigger: str | int = "case"
    session: str = "memory"
    process: bool = False


def test_unavailable_keeps_the_reason_and_counts_no_case() -> None:
    row = unavailable("0.3.0", _Plan(process=True), "npm install failed")
    assert (row.sdk_version, row.cases, row.violating) == ("0.3.0", 0, 0)
    assert row.not_applicable == "npm install failed" and row.session == "process"


def test_record_counts_the_cases_that_break_an_invariant_and_where_the_user_met_it() -> None:
    cases = [Case("run", "approve", "on", "json"), Case("run", "approve", "off", "json")]
    row = record(_Plan(), judge_all(run_matrix(cases)))
    assert (row.cases, row.violating) == (2, 1)
    assert "stored_history_paired" in row.invariants.split()
    assert row.raised_at == ""  # the scripted model answers every request: nothing raised
    assert row.not_applicable == ""


def test_never_compacted_only_when_cases_turn_compaction_on_and_none_ran() -> None:
    ran = run_matrix([Case("run", "approve", "on", "json")])
    assert never_compacted(ran) == ""
    assert never_compacted(run_matrix([Case("run", "approve", "off", "json")])) == ""
    idle = [r.__class__(**{**r.__dict__, "stages": ()}) for r in ran]
    assert never_compacted(idle) == NEVER_COMPACTED


def _package(tmp_path: Path) -> UvPackage:
    (tmp_path / "requirements.txt").write_text("# the pin\nsdk==1.2.0  # pinned\nextra>=2\n")
    write_json(tmp_path / "dates.json", {"1.0.0": "2025-01-01T00:00:00Z", "1.2.0": "2025-02-01"})
    return UvPackage(
        "sdk", "1.0.0", tmp_path / "requirements.txt", tmp_path / "dates.json", "sdk",
        _PackageError, "a release with the feature", "sdk-sweep --dates",
    )  # fmt: skip


class _PackageError(InvestigationError):
    pass


def test_uv_package_pins_the_pin_files_release_and_installs_the_rest_beside_it(
    tmp_path: Path,
) -> None:
    package = _package(tmp_path)
    assert package.pinned() == "1.2.0" and package.releases() == ["1.0.0", "1.2.0"]
    env = package.environment("1.0.0")
    assert list(env.wanted) == ["sdk==1.0.0", "extra>=2"] and env.exclude_newer.startswith(
        "2025-01-01"
    )
    assert env.folder == package.cache_folder() / "1.0.0"


def test_uv_package_errors_are_one_line_of_the_sdks_error(tmp_path: Path) -> None:
    package = _package(tmp_path)
    with pytest.raises(_PackageError, match="^sdk 0.9.0 is not a release with the feature$"):
        package.environment("0.9.0")
    (tmp_path / "none.txt").write_text("extra>=2\n")
    with pytest.raises(_PackageError, match="^none.txt pins no sdk release$"):
        package.pinned(tmp_path / "none.txt")
    with pytest.raises(_PackageError, match="^no missing.json: run .*sdk-sweep --dates`$"):
        package.release_dates(tmp_path / "missing.json")
    with pytest.raises(PatchError, match="^no patch at "):
        package.patched(tmp_path / "missing.diff")


def test_patch_key_follows_the_release_and_the_patchs_content(tmp_path: Path) -> None:
    one, two = tmp_path / "one.diff", tmp_path / "two.diff"
    one.write_text("--- a/x\n+++ b/x\n")
    two.write_text("--- a/y\n+++ b/y\n")
    assert patch_key(one, "1.0") == patch_key(one, "1.0") != patch_key(one, "1.1")
    assert patch_key(one, "1.0") != patch_key(two, "1.0")


def test_apply_patch_changes_the_folder_or_says_why_not_in_one_line(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "pkg").mkdir(parents=True)
    (site / "pkg" / "m.py").write_text("a = 1\n")
    fix = tmp_path / "fix.diff"
    fix.write_text("--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n")
    assert apply_patch(fix, site, strip=1) is None
    assert (site / "pkg" / "m.py").read_text() == "a = 2\n"
    said = apply_patch(fix, site, strip=1)  # applied already: --forward refuses it
    assert said is not None and said.startswith("fix.diff does not apply: ")
    assert "\n" not in said


def test_uv_driven_opens_the_driver_in_the_patched_environment_named_release_plus_file(
    tmp_path: Path,
) -> None:
    from tests.explore.driver_fake import MOVES, FakeDriver

    package = _package(tmp_path)
    opened: list[Path] = []

    def steps(python: Path) -> FakeDriver:
        opened.append(python)
        return FakeDriver()

    def patched(patch: Path) -> Environment:
        return Environment(tmp_path / "_patched" / patch.name, "1.2.0", "", ())

    line = uv_driven(MOVES, package, steps, patched)
    assert (line.pinned(), line.newest(), line.release("newest")) == ("1.2.0", "1.2.0", "1.2.0")
    driver = line.patched(tmp_path / "fix.diff")
    assert driver.version == "1.2.0+fix.diff"
    assert opened == [Environment(tmp_path / "_patched" / "fix.diff", "1.2.0", "").python]


def test_sdk_test_run_counts_pytests_cases_and_names_the_failing_ones_as_asked() -> None:
    cases = [
        JUnitCase("t", "test_late[chat]", "passed", ""),
        JUnitCase("t", "test_late[responses]", "failed", "assert"),
        JUnitCase("t", "test_lost", "error", "boom"),
    ]
    assert SdkTestRun.of(cases) == SdkTestRun(3, 1, 2, ("test_late[responses]", "test_lost"))
    ids = SdkTestRun.of(cases, lambda name: name.partition("[")[2].rstrip("]"))
    assert ids.failing == ("responses", "")
