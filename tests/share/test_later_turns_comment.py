"""Upstream liveness: the comment on compaction liveness, built from the committed results."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from approval_compaction.errors import InvestigationError
from approval_compaction.formats.markdown import GITHUB_LIMIT, github_length
from approval_compaction.formats.records import read_json, read_records, write_json, write_records
from approval_compaction.lab import paths
from approval_compaction.lab.mutation import MutantRecord
from approval_compaction.lab.releases.later_turns_patch import INTENDED
from approval_compaction.lab.releases.upstream.changes import NOT_REPRODUCED
from approval_compaction.lab.share import later_turns_comment
from approval_compaction.lab.share.later_turns_comment import (
    build,
    failed_by_situation,
    matrix_line,
    mutant_lines,
    one_line,
    patch_changes,
    suite_lines,
    tally_lines,
)

LOAD = f"{NOT_REPRODUCED}: re-run alone, passed without and passed with the patch"
COMMITTED = [
    paths.DATA_FILES.liveness,
    paths.DATA_FILES.liveness_patch_test,
    paths.DATA_FILES.liveness_patch_suite,
    paths.DATA_FILES.liveness_patch_matrix,
    paths.DATA_FILES.liveness_patch_runs,
    paths.DATA_FILES.liveness_patch_http,
]


def test_comment_fits_one_comment_and_carries_the_test_and_patch() -> None:
    text = build()
    assert github_length(text) <= GITHUB_LIMIT
    assert paths.LIVENESS_PATCH.read_text().rstrip("\n") in text
    assert "approval-compaction only" not in text  # the project's block is dropped
    assert "def test_compaction_keeps_history_bounded_after_unpaired_item" in text
    assert one_line("0.24.0") in text
    frame = later_turns_comment.failure_frame(
        read_json(paths.DATA_FILES.liveness, dict),
        read_json(paths.DATA_FILES.liveness_patch_test, dict)["outcomes"],
    )
    assert list(frame.index) == list(later_turns_comment.SITUATIONS)
    assert "`keeps_users` answers" in text.split("| situation |", 1)[0]  # defined before use


def test_comment_says_what_the_patch_leaves_alone_and_why() -> None:
    """previous_response_id mode is the SDK's documented contract: the comment names the
    docstring's sentence and the test that pins it, the consequence and the advice."""
    from approval_compaction.lab.releases.later_turns_patch import DOCUMENTED_LIMIT, DOCUMENTED_TEST

    text = build()
    assert f'"{DOCUMENTED_LIMIT}"' in text and f"`{DOCUMENTED_TEST}`" in text
    suite = read_json(paths.DATA_FILES.liveness_patch_suite, dict)
    runs = read_json(paths.DATA_FILES.liveness_patch_runs, dict)
    line = " ".join(later_turns_comment.limit_lines(suite, runs))
    for sdk in ("released", "patched"):
        cases = len(suite["documented"][sdk]["tests"])
        assert f"{sdk}: the docstring says so, {cases} of {cases} of the test's cases" in line
    assert "abandoned, lost, poisoned, mcp_abandoned grow for ever" in line
    assert "use `auto`" in line


def test_liveness_lines_tally_the_patched_modes_apart() -> None:
    """The runs in the modes the patch is for all keep compacting; the others are tallied
    apart, with the situations stuck there."""
    patch_runs = read_json(paths.DATA_FILES.liveness_patch_runs, dict)
    lines = later_turns_comment.liveness_lines(patch_runs)
    covered, other = lines[-2:]
    kept, total = covered.split(": ")[1].split(" runs")[0].split(" of ")
    assert covered.startswith("- in `auto`, `input`:") and kept == total
    assert other.startswith("- in `previous_response_id`:")
    assert other.endswith("stuck: abandoned, lost, poisoned, mcp_abandoned")


def test_comment_is_the_committed_file() -> None:
    assert paths.DATA_FILES.upstream_liveness.read_text() == build()


def test_suite_lines_name_an_unexplained_change() -> None:
    suite = {
        "runs": [],
        "same_outcome": 3,
        "changes": [
            {"test": "tests/a.py::t", "baseline": "passed", "fixed": "failed", "reason": ""},
            {"test": "tests/m.py::u", "baseline": "failed", "fixed": "passed", "reason": INTENDED},
            {"test": "tests/m.py::v", "baseline": "passed", "fixed": "failed", "reason": LOAD},
        ],
    }
    changed, load = suite_lines(suite)
    assert "1 change as intended" in changed
    assert "1 other tests change: `tests/a.py::t` passed -> failed" in changed
    assert load.startswith("- 1 changed in the full run but not when re-run alone")
    assert "`tests/m.py::v` passed -> failed" in load


def test_matrix_line_counts_a_broken_case() -> None:
    def record(runner: str, holds: bool, invariant: str = "a") -> dict[str, object]:
        return {
            "runner": runner,
            "decision": "approve",
            "compaction": "on",
            "state_boundary": "json",
            "invariant": invariant,
            "holds": holds,
        }

    records = [record("run", True), record("run", True, "b"), record("run_streamed", False)]
    assert matrix_line({"records": records}).startswith("1 of 2 cases hold all 2 invariants")


def test_test_lines_tally_each_sdk_and_split_its_failures_by_kind() -> None:
    """A situation failing under both compaction answers is a bug; one failing only under the
    summary-only answer no public source shows is counted apart."""

    def outcome(sdk: str, case: str, result: str) -> dict[str, str]:
        return {"sdk": sdk, "test": f"test_x[{case}-run]", "outcome": result}

    outcomes = [
        outcome("released", "poisoned-keeps_users", "failed"),
        outcome("released", "poisoned-summary_only", "failed"),
        outcome("released", "lost-keeps_users", "passed"),
        outcome("released", "lost-summary_only", "failed"),
        outcome("patched", "poisoned-keeps_users", "passed"),
        outcome("patched", "lost-summary_only", "passed"),
    ]
    assert tally_lines(outcomes) == [
        "released: 3 failed (2 bugs, 1 that fails only under a compaction answer no public "
        "source shows), 1 passed",
        "patched: 2 passed",
    ]


def test_write_refuses_a_comment_over_the_limit(tmp_path: Path) -> None:
    for source in COMMITTED:
        shutil.copy(source, tmp_path / source.name)
    suite = read_json(tmp_path / paths.DATA_FILES.liveness_patch_suite.name, dict)
    suite["same_outcome"] = "x" * GITHUB_LIMIT
    write_json(tmp_path / paths.DATA_FILES.liveness_patch_suite.name, suite)
    target = paths.data(tmp_path).upstream_liveness
    with pytest.raises(InvestigationError, match="over one comment"):
        later_turns_comment.write(target)
    assert not target.exists()


def test_http_frame_gives_each_situation_on_both_sdks() -> None:
    http = read_json(paths.DATA_FILES.liveness_patch_http, dict)
    frame = later_turns_comment.http_frame(http)
    assert list(frame.index) == [*later_turns_comment.SITUATIONS, "clean"]
    # mcp_abandoned too: the patch lab runs it over HTTP
    assert list(frame.columns) == ["released", "patched"]
    first = frame.loc["clean", "released"].split(" (")[0].split()
    assert len(first) == len(http["runs"]["released"][0]["turns"])


def test_other_mode_frame_names_the_newest_releases_stuck_situations_outside_input() -> None:
    """Computed from runs: a situation broken on the newest release in another mode is named
    with its broken invariants and lengths; input-mode breaks, older releases and the
    workaround's runs are left to the lines above."""
    from approval_compaction.analysis.liveness import liveness_run
    from approval_compaction.lab.share.later_turns_comment import other_mode_frame
    from approval_compaction.study.capture import Stage

    def run(version: str, mode: str, workaround: bool, grows: bool) -> dict[str, Any]:
        """A situation whose stored summaries grow by one a turn (or stay at one)."""
        turns = []
        for n in range(3):
            stored = [{"role": "user", "content": "q"}] * (n + 1)
            calls = [{"type": "function_call", "call_id": "pending-c1", "name": "t"}]
            kept = calls + [{"type": "compaction", "id": f"s{k}"} for k in range(n if grows else 1)]
            turns.append((Stage("next_turn", stored=stored + kept), "answered"))
        return liveness_run("abandoned", version, mode, workaround, turns).to_json()

    liveness = {
        "newest": "0.24.0",
        "runs": [
            run("0.24.0", "previous_response_id", False, True),
            run("0.24.0", "input", False, True),
            run("0.24.0", "previous_response_id", True, True),
            run("0.23.1", "previous_response_id", False, True),
        ],
    }
    frame = other_mode_frame(liveness)
    assert list(frame.index) == ["previous_response_id"]
    assert frame.iloc[0]["situation"] == "abandoned"
    assert "history_bounded" in frame.iloc[0]["broken"]
    assert frame.iloc[0]["kind"] == "documented contract"  # stuck in previous_response_id mode


def test_failure_frame_counts_the_later_turns_the_api_refuses() -> None:
    """The poisoned store's later turns on the newest release, refused by the API's rules, are
    counted from the committed runs; the abandoned call's are all answered."""
    from approval_compaction.analysis.liveness import session_usable

    liveness = read_json(paths.DATA_FILES.liveness, dict)
    outcomes = read_json(paths.DATA_FILES.liveness_patch_test, dict)["outcomes"]
    frame = later_turns_comment.failure_frame(liveness, outcomes)
    runs = later_turns_comment.released_runs(liveness)
    key = ("poisoned", liveness["newest"], "input", False)
    (poisoned,) = [r for r in runs if (r.scenario, r.sdk_version, r.mode, r.workaround) == key]
    refused = frame.loc["poisoned", "later turns the API refuses"]
    assert refused == len(session_usable(poisoned).raised) == len(poisoned.turns)
    assert frame.loc["abandoned", "later turns the API refuses"] == 0


def test_mutant_lines_say_why_each_survivor_survives(tmp_path: Path) -> None:
    killed = MutantRecord("p", "orphans-sent", "still sent", 28, 4, "t[poisoned]", True, "t", "")
    other = MutantRecord("p", "new-one", "a new mutant", 28, 0, "", False, "", "")
    assert mutant_lines(tmp_path) == []  # nothing recorded, nothing said
    write_records(paths.data(tmp_path).liveness_mutants, [killed], MutantRecord)
    assert not any("What survives" in line for line in mutant_lines(tmp_path))
    write_records(paths.data(tmp_path).liveness_mutants, [killed, other], MutantRecord)
    (said,) = [line for line in mutant_lines(tmp_path) if "What survives" in line]
    assert said == (
        "What survives leaves every case of the test passing: the test does not show what that "
        "part is for."
    )


def test_the_committed_mutants_all_die_so_the_report_explains_no_survivor() -> None:
    """Every mutant of the liveness patch is killed in the committed run (issue 59), so the
    report has no survivor to explain and ``WHY_IT_SURVIVES`` names none."""
    rows = read_records(paths.DATA_FILES.liveness_mutants, MutantRecord)
    assert [r.mutant for r in rows if not r.killer_failed] == []
    assert later_turns_comment.WHY_IT_SURVIVES == {}
    assert not any("What survives" in line for line in mutant_lines(paths.DATA))


def test_patch_changes_keeps_the_changed_rows_and_names_the_others_by_mode() -> None:
    """Issue 61 (r9): notebook 10 repeated 06's released rows; it shows only the rows the patch
    changes and names the others, every situation among them (r9: five of seven shown)."""
    index = pd.MultiIndex.from_tuples(
        [
            ("mcp_abandoned", "input, auto"),
            ("mcp_abandoned", "previous_response_id"),
            ("clean", "input, auto, previous_response_id"),
            ("resumed", "input"),
            ("resumed", "auto, previous_response_id"),
        ],
        names=["situation", "modes"],
    )
    frame = pd.DataFrame(
        {
            "0.24.0": ["stuck", "stuck", "ok", "ok", "ok"],
            "patched": ["ok", "stuck", "ok", "ok", "ok"],
        },
        index=index,
    )
    changed, same = patch_changes(frame)
    assert list(changed.index) == [("mcp_abandoned", "input, auto")]
    assert same == "mcp_abandoned (previous_response_id); clean, resumed (every mode)"


def test_failed_by_situation_names_the_summary_only_failures_apart() -> None:
    """Issue 61 (r9): "12 failed (8 bugs, 4 ...)" could not be mapped onto the situations; the
    count is given per situation, those failing only under the summary-only answer apart."""

    def outcome(sdk: str, case: str, result: str) -> dict[str, str]:
        return {"sdk": sdk, "test": f"test_x[{case}-run]", "outcome": result}

    outcomes = [
        outcome("released", "poisoned-keeps_users", "failed"),
        outcome("released", "poisoned-summary_only", "failed"),
        outcome("released", "lost-keeps_users", "passed"),
        outcome("released", "lost-summary_only", "failed"),
        outcome("patched", "poisoned-keeps_users", "passed"),
    ]
    assert failed_by_situation(outcomes, "released") == (
        "3 of 4 failed: poisoned 2; lost 1 only when the compaction endpoint answers with the "
        "summary alone, an answer no public source shows"
    )
    assert failed_by_situation(outcomes, "patched") == "1 of 1 passed"


def test_after_setup_shows_the_saved_test_from_its_scenario_on(tmp_path: Path) -> None:
    """Notebook 10 shows the saved test without its setup (r15: the string surgery was on view)."""
    from approval_compaction.lab.share.later_turns_comment import after_setup

    body = after_setup(paths.LIVENESS_MCP_TEST)
    assert body.startswith("    lengths: list[int] = []")
    assert "async def scenario()" in body and "class ScriptedModel" not in body
    other = tmp_path / "test_other.py"
    other.write_text("def test_x() -> None:\n    pass\n")
    with pytest.raises(InvestigationError, match="no line starting"):
        after_setup(other)


def test_file_diff_shows_one_file_of_the_liveness_patch() -> None:
    """Notebook 10 shows the patch's file it tests (r15: the other file's change was off its
    question); a file the patch does not change is an error, not an empty diff."""
    from approval_compaction.lab.share.later_turns_comment import file_diff

    name = "openai_responses_compaction_session.py"
    shown = file_diff(paths.LIVENESS_PATCH, name)
    assert shown.startswith("diff --git a/src/agents/memory/" + name)
    assert "_after_unanswered_mcp_request" in shown and "session_persistence.py" not in shown
    with pytest.raises(InvestigationError, match="changes no file named"):
        file_diff(paths.LIVENESS_PATCH, "run.py")


def test_test_outcomes_prints_the_command_then_each_sdk_s_outcome_without_where_lines() -> None:
    """Issue 61 (r16): notebook 10's cell parsed pytest's message itself; the lab does, and
    keeps the assert line while leaving pytest's ``where`` lines out."""
    ran = {
        "base": "0.24.0",
        "outcomes": [
            {"sdk": "released", "outcome": "failed", "message": "E: x assert 0 >= 6 + where 0 = y"},
            {"sdk": "patched", "outcome": "passed", "message": ""},
        ],
    }
    lines = later_turns_comment.test_outcomes(ran).splitlines()
    assert lines[0] == later_turns_comment.one_line("0.24.0", paths.LIVENESS_MCP_TEST.name)
    assert lines[1:] == ["0.24.0: failed", "  E: x", "  assert 0 >= 6", "patched: passed"]


def test_missed_compaction_keeps_the_rows_where_a_column_missed_a_turn() -> None:
    every = "2→2 items, 10 of 10 compacted"
    frame = pd.DataFrame(
        {
            "0.24.0": [every, "2→11 items, 0 of 10 compacted", "refused 3 of 10"],
            "patched": [every, every, "refused 3 of 10"],
        },
        index=["clean", "mcp_abandoned", "refused"],
    )
    assert list(later_turns_comment.missed_compaction(frame).index) == ["mcp_abandoned", "refused"]


def test_diff_without_leaves_out_only_the_hunks_holding_the_text() -> None:
    """Notebook 10 shows the patch's first file without its docstring hunk (r25: the filter was
    a visible cell): the other hunks stay, the left-out one is gone."""
    from approval_compaction.lab.share.later_turns_comment import diff_without, file_diff

    name = "openai_responses_compaction_session.py"
    whole = file_diff(paths.LIVENESS_PATCH, name)
    shown = diff_without(paths.LIVENESS_PATCH, name, "complete coverage")
    assert "complete coverage" in whole and "complete coverage" not in shown
    assert "_after_unanswered_mcp_request" in shown and shown.count("\n@@") == 2
    assert whole.count("\n@@") == 3
