"""Text: the notebook's sentence and the README block, from the written results."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from approval_compaction.lab import paths
from approval_compaction.lab.releases.upstream import readme_block, results, text
from approval_compaction.lab.releases.upstream.changes import reason_for
from approval_compaction.lab.releases.upstream.checkout import (
    UPSTREAM_TEST_FOLDER,
    UPSTREAM_TEST_NAME,
)
from approval_compaction.lab.releases.upstream.command import upstream_suite

OURS = f"{UPSTREAM_TEST_FOLDER}/{UPSTREAM_TEST_NAME}"
START, END = "<!-- upstream-suite:start -->", "<!-- upstream-suite:end -->"


def test_suite_answer_counts_tests_sessions_and_changes(
    tmp_path: Path, root: Path, fake: Callable[..., Any]
) -> None:
    runner = fake(
        {"tests/test_approvals.py::t": None, f"{OURS}::test_x": "assert orphan"},
        {"tests/test_approvals.py::t": "assert deferred", f"{OURS}::test_x": None},
    )
    results.write(upstream_suite("9.9.9", root=root, run=runner, report=print), "9.9.9", tmp_path)
    # the files: the fake checkout's selected one and our two upstream-form tests, always installed
    assert text.suite_answer(["9.9.9"], tmp_path) == (
        "openai-agents 9.9.9: 2 tests in 4 files, 3 compaction sessions made deferring; "
        "2 outcomes change with the workaround (1 explained, 1 not)."
    )


def test_readme_block_groups_a_tests_parametrisations(
    tmp_path: Path, root: Path, fake: Callable[..., Any]
) -> None:
    runner = fake(
        {
            f"{OURS}::test_x[a]": "orphan",
            f"{OURS}::test_x[b]": "orphan",
            "tests/test_x.py::t": None,
        },
        {f"{OURS}::test_x[a]": None, f"{OURS}::test_x[b]": None, "tests/test_x.py::t": "no"},
    )
    (root / "9.9.9" / "openai_agents-9.9.9" / "tests" / "test_x.py").write_text(
        "session=s\n.approve("
    )
    result = upstream_suite(
        "9.9.9", root=root, run=runner, report=lambda _: None, pattern="approve"
    )
    results.write(result, "9.9.9", tmp_path)
    assert readme_block(tmp_path).splitlines()[1:] == [
        f"  - `{OURS}::test_x` (a, b): failed → passed; {reason_for(OURS + '::')}",
        "  - `tests/test_x.py::t`: passed → failed; NOT EXPLAINED",
    ]


def test_committed_readme_block_matches_the_committed_results() -> None:
    if not text.written_versions():
        pytest.skip("no upstream-suite results under data/: run `make upstream`")
    block = (paths.DOCS / "workaround.md").read_text().split(START, 1)[1].split(END, 1)[0]
    assert block.strip() == readme_block()


def test_readme_block_names_a_strict_xfail_that_passed_as_such(tmp_path: Path) -> None:
    """On an affected release our liveness test is a strict xfail: when the workaround makes it
    pass, pytest reports a failure, and the block and the markdown table beside the records
    both name the outcomes as pytest's summary does: ``xfailed`` → ``failed [XPASS(strict)]``."""
    from approval_compaction.lab.releases.upstream.changes import changes
    from approval_compaction.lab.releases.upstream.checkout import LIVENESS_TEST_NAME
    from approval_compaction.lab.releases.upstream.suite import CaseOutcome, summarize

    test = f"{UPSTREAM_TEST_FOLDER}/{LIVENESS_TEST_NAME}::test_compaction_keeps_history_bounded"
    before = [CaseOutcome(f"{test}_after_unpaired_item[lost]", "skipped", "orphans")]
    after = [CaseOutcome(before[0].test, "failed", "[XPASS(strict)] orphans")]
    runs = [summarize("9.9.9", "baseline", 1, before, 0), summarize("9.9.9", "fix", 1, after, 1)]
    results.write(results.SuiteResult(runs, changes("9.9.9", before, after), []), "9.9.9", tmp_path)
    (line,) = readme_block(tmp_path).splitlines()[1:]
    assert "(lost): xfailed → failed [XPASS(strict)]; the project's upstream-form liveness" in line
    table = paths.data(tmp_path).upstream_suite("9.9.9").with_suffix(".md").read_text()
    assert "| xfailed | failed \\[XPASS(strict)\\] |" in table and "skipped" not in table


def test_committed_change_tables_match_their_records() -> None:
    """The markdown beside each release's change records is what the records say."""
    for version in text.written_versions():
        table = paths.DATA_FILES.upstream_suite(version).with_suffix(".md").read_text()
        assert table == results.changes_markdown(results.load(version).changes)
