"""The release sweep: feature checks, records, the results file, and three real releases."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from approval_compaction.analysis.invariants import INVARIANTS
from approval_compaction.analysis.liveness import LIVENESS_NAMES
from approval_compaction.lab import paths
from approval_compaction.lab.releases.bisect import bisect, judge_rows
from approval_compaction.lab.releases.later_turns import LIVENESS_MODES
from approval_compaction.lab.releases.meeting import Meeting
from approval_compaction.lab.releases.sweep import (
    COLUMNS,
    UNAVAILABLE,
    completed,
    judged,
    liveness_path,
    load_liveness,
    load_meetings,
    load_results,
    meetings_path,
    merge,
    merge_liveness,
    merge_meetings,
    release_liveness,
    run_release,
    sweep,
    unavailable_records,
    uv_binary,
    write_results,
)
from approval_compaction.lab.releases.versions import load_releases
from approval_compaction.openai_agents.situations import SITUATIONS
from approval_compaction.study.capture import sdk_version
from approval_compaction.study.scenario import all_cases

# The pinned release, and one release on each side of the boundaries the full sweep found:
# 0.22.0 is the last release whose next turn stays paired, 0.24.0 the first that holds all six.
BEFORE, PINNED, AFTER = "0.22.0", "0.23.1", "0.24.0"


def test_merge_replaces_one_release_and_keeps_release_order(tmp_path: Path) -> None:
    rows = merge([], "0.10.0", unavailable_records("0.10.0", "old", all_cases()))
    rows = merge(rows, "0.9.0", unavailable_records("0.9.0", "x", all_cases()))
    rows = merge(rows, "0.10.0", unavailable_records("0.10.0", "new", all_cases()))
    assert [r.sdk_version for r in rows[:: len(rows) // 2]] == ["0.9.0", "0.10.0"]
    assert {r.detail for r in rows if r.sdk_version == "0.10.0"} == {"new"}
    assert completed(rows) == set()  # unavailable releases are tried again
    write_results(tmp_path / "s.json", rows)
    assert load_results(tmp_path / "s.json") == rows
    header = (tmp_path / "s.csv").read_text().splitlines()[0]
    assert header == ",".join(COLUMNS)


def _meeting(version: str, mode: str, stage: str) -> Meeting:
    return Meeting(
        version, "responses", mode, "faithful", "run", "approve", "on", "json", stage,
        "answered", False, "", None, "", "", "", 0, "", "", 0,
    )  # fmt: skip


def test_meetings_merge_in_release_mode_case_and_stage_order(tmp_path: Path) -> None:
    met = merge_meetings([], "0.10.0", [_meeting("0.10.0", "auto", "pause")])
    met = merge_meetings(met, "0.9.0", [_meeting("0.9.0", "auto", "pause")])
    later = [_meeting("0.9.0", m, s) for m, s in (("auto", "next_turn"), ("input", "pause"))]
    met = merge_meetings(met, "0.9.0", [*later, _meeting("0.9.0", "auto", "pause")])
    assert [(m.sdk_version, m.mode, m.stage) for m in met] == [
        ("0.9.0", "input", "pause"),
        ("0.9.0", "auto", "pause"),
        ("0.9.0", "auto", "next_turn"),
        ("0.10.0", "auto", "pause"),
    ]
    versions = ("0.9.0", "0.10.0", "0.11.0")
    ran = [
        replace(row, status="holds")
        for version in versions
        for row in unavailable_records(version, "x", all_cases())
    ]
    assert completed(ran, met) == {"0.9.0", "0.10.0"}  # 0.11.0 ran but has no meetings yet
    write_results(tmp_path / "s.json", ran, met)
    assert load_meetings(meetings_path(tmp_path / "s.json")) == met


def test_meetings_file_is_named_beside_the_sweep() -> None:
    assert meetings_path(paths.DATA_FILES.sweep) == paths.DATA_FILES.sweep_meetings
    assert liveness_path(paths.DATA_FILES.sweep) == paths.DATA_FILES.sweep_liveness


def test_liveness_of_an_unavailable_release_fills_every_situation_unjudged() -> None:
    rows = release_liveness("0.9.0", {"unavailable": "uv: no such release"})
    keys = {(r.scenario, r.mode, r.invariant) for r in rows}
    assert len(keys) == len(rows) == len(SITUATIONS) * len(LIVENESS_MODES) * len(LIVENESS_NAMES)
    assert {(r.holds, r.error) for r in rows} == {(None, "uv: no such release")}


def test_liveness_merge_in_release_mode_and_situation_order_and_reuse_needs_it(
    tmp_path: Path,
) -> None:
    """A release is reused only when its liveness situations and its continued cases are there:
    a sweep written before them runs every release again."""
    live = merge_liveness([], "0.10.0", release_liveness("0.10.0", {"unavailable": "x"}))
    live = merge_liveness(live, "0.9.0", release_liveness("0.9.0", {"unavailable": "y"}))
    assert [r.sdk_version for r in live[:: len(live) // 2]] == ["0.9.0", "0.10.0"]
    assert [(r.mode, r.scenario) for r in live[:4:2]] == [
        ("input", "poisoned"),
        ("input", "abandoned"),
    ]
    ran = [
        replace(row, status="holds")
        for version in ("0.9.0", "0.10.0", "0.11.0")
        for row in unavailable_records(version, "x", all_cases())
    ]
    assert completed(ran, None, live) == {"0.9.0", "0.10.0"}
    before = [row for row in ran if row.invariant not in LIVENESS_NAMES]  # eight per case
    assert completed(before, None, live) == set()
    write_results(tmp_path / "s.json", ran, None, live)
    assert load_liveness(liveness_path(tmp_path / "s.json")) == live


# ------------------------------------------------------------------------ real releases
#
# These install real releases with uv (into a temporary folder, from uv's cache when it is
# warm, else from the package index) and run the probe in each. pytest-socket blocks sockets in
# this process only; uv is a subprocess, so enable_socket is not what lets it reach the index.
# It is there so that the index lookup for release dates is not blocked if a test needs it.


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """Sweep the three releases once, into a temporary results file and environment folder."""
    folder = tmp_path_factory.mktemp("sweep")
    output, envs = folder / "sweep.json", folder / "envs"
    cutoffs = load_releases(paths.DATA_FILES.release_dates)
    sweep([BEFORE, PINNED, AFTER], cutoffs, output, envs=envs, jobs=2)
    yield output, envs
    shutil.rmtree(folder, ignore_errors=True)


def _judged(output: Path) -> dict[str, dict[str, bool | None]]:
    rows = load_results(output)
    return {name: judge_rows(rows, name) for name in INVARIANTS}


@pytest.mark.releases
@pytest.mark.enable_socket
def test_sweep_three_releases_shows_where_invariants_break_and_hold_again(
    three: tuple[Path, Path],
) -> None:
    judged = _judged(three[0])
    assert judged["next_turn_input_paired"] == {BEFORE: True, PINNED: False, AFTER: True}
    assert judged["stored_history_paired"] == {BEFORE: True, PINNED: False, AFTER: True}
    assert judged["compaction_input_complete"] == {BEFORE: False, PINNED: False, AFTER: True}
    assert judged["decision_enforced"] == {BEFORE: True, PINNED: True, AFTER: True}
    rows = load_results(three[0])
    assert all(r.openai and r.pydantic for r in rows)
    assert {r.sdk_version for r in rows} == {BEFORE, PINNED, AFTER}


@pytest.mark.releases
@pytest.mark.enable_socket
def test_sweep_meetings_say_where_the_user_meets_the_refusal_in_each_mode(
    three: tuple[Path, Path],
) -> None:
    """Before the fix, compaction by ``previous_response_id`` (and ``auto``, which picks it)
    is refused at the pause; in ``input`` mode the pause goes through; after the fix nothing is
    refused."""
    met = load_meetings(meetings_path(three[0]))
    raised = {(m.sdk_version, m.mode, m.stage) for m in met if m.outcome == "raised"}
    for release in (BEFORE, PINNED):
        for mode in ("auto", "previous_response_id"):
            assert (release, mode, "pause") in raised
    assert (PINNED, "input", "next_turn") in raised and (BEFORE, "input", "next_turn") not in raised
    assert not {r for r in raised if r[0] == AFTER}
    pauses = [m for m in met if m.stage == "pause" and m.outcome == "raised"]
    assert {m.endpoint for m in pauses} == {"/v1/responses/compact"}
    assert {m.api_message for m in pauses} == {"No tool output found for function call pending-c1."}
    assert {m.model for m in met} == {"responses"}


@pytest.mark.releases
@pytest.mark.enable_socket
def test_sweep_liveness_finds_where_a_dead_call_stops_compaction(
    three: tuple[Path, Path],
) -> None:
    """Issue 21, the compaction endpoint keeping the user's messages as the API does: a dead
    call (an abandoned approval, a lost output) pins what is stored before it, but in ``input``
    and ``auto`` modes the later turns compact what follows it on every release. In
    ``previous_response_id`` mode the SDK returns rather than compact that partial suffix, so the
    pinned and the newest release stop compacting for good, pinned by the call. The clean
    control keeps compacting everywhere; the poisoned store is refused everywhere (the API's
    400 at every later turn); and every release has every situation in every mode."""
    from approval_compaction.lab.findings.liveness import KEEPS, REFUSED, STUCK, liveness_eras

    rows = load_liveness(liveness_path(three[0]))
    found = liveness_eras(rows)
    assert found.releases == (BEFORE, PINNED, AFTER)
    for name in ("abandoned", "lost"):
        for mode in ("input", "auto"):
            assert found.keeps(name, mode) == (BEFORE, PINNED, AFTER), (name, mode)
        assert {PINNED, AFTER} <= set(found.stuck(name, "previous_response_id"))
        (era,) = [e for e in found.of(name, "previous_response_id") if e.state.verdict == STUCK]
        assert "compaction_runs" in era.state.broken and "pending-c1" in era.state.pin
    for mode in LIVENESS_MODES:
        assert found.keeps("clean", mode) == (BEFORE, PINNED, AFTER)
        # the store the pinned release poisoned: the API refuses every later turn, everywhere
        assert found.refused("poisoned", mode) == (BEFORE, PINNED, AFTER)
        (era,) = found.of("poisoned", mode)
        assert "No tool call found for function call output" in era.state.raised
    assert all(e.state.verdict in (KEEPS, STUCK, REFUSED) for e in found.eras)
    assert {(r.mode, r.turns) for r in rows} == {(m, 10) for m in LIVENESS_MODES}


@pytest.mark.releases
@pytest.mark.enable_socket
def test_sweep_pinned_release_matches_the_matrix_on_the_installed_sdk(
    three: tuple[Path, Path],
) -> None:
    """The sweep's environment for the pinned release judges every case as the matrix does."""
    from approval_compaction.analysis.matrix import records
    from approval_compaction.openai_agents.harness import run_matrix

    assert sdk_version() == PINNED
    here = [
        (r.runner, r.decision, r.compaction, r.state_boundary, r.invariant, r.holds)
        for r in records(run_matrix())
    ]
    there = [
        (r.runner, r.decision, r.compaction, r.state_boundary, r.invariant, r.holds)
        for r in load_results(three[0])
        if r.sdk_version == PINNED
    ]
    assert there == here


@pytest.mark.releases
def test_judged_runs_the_selected_cases_in_an_environment_as_the_sweep_judged_them(
    three: tuple[Path, Path],
) -> None:
    """One case in the pinned release's environment, judged as the sweep judged it there."""
    from approval_compaction.lab.releases.environments import release_environment

    case = "runner=run,decision=approve,compaction=on,state_boundary=json"
    rows = judged(release_environment(PINNED, three[1], create=False), case)
    swept = [
        r
        for r in load_results(three[0])
        if r.sdk_version == PINNED and r.case_key == rows[0].case_key
    ]
    assert {r.case_key for r in rows} == {rows[0].case_key} and rows == swept


@pytest.mark.releases
@pytest.mark.enable_socket
def test_sweep_rerun_offline_reuses_or_reinstalls_from_cache_byte_for_byte(
    three: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offline with a warm cache: one environment rebuilt by uv --offline and its release swept
    again, merged into the file, which comes out unchanged."""
    output, envs = three
    before, met = output.read_bytes(), meetings_path(output).read_bytes()
    live = liveness_path(output).read_bytes()
    shutil.rmtree(envs / AFTER)
    monkeypatch.setenv("UV_OFFLINE", "1")
    cutoffs = load_releases(paths.DATA_FILES.release_dates)
    sweep([AFTER], cutoffs, output, envs=envs, refresh=True)
    assert output.read_bytes() == before
    assert meetings_path(output).read_bytes() == met
    assert liveness_path(output).read_bytes() == live


@pytest.mark.enable_socket
def test_sweep_keeps_going_past_a_release_that_cannot_install(tmp_path: Path) -> None:
    """A cutoff before the release was uploaded: uv finds no such release; it is unavailable."""
    records = run_release(AFTER, "2020-01-01T00:00:00Z", tmp_path / "envs", uv_binary())
    assert {r.status for r in records} == {UNAVAILABLE}
    assert records[0].detail.startswith("install failed: ")
    assert f"no version of openai-agents=={AFTER}" in records[0].detail


@pytest.mark.releases
@pytest.mark.enable_socket
def test_bisect_on_the_three_releases_agrees_with_the_sweep(three: tuple[Path, Path]) -> None:
    rows = load_results(three[0])
    found = bisect(
        [BEFORE, PINNED, AFTER],
        "next_turn_input_paired",
        judge=lambda version: pytest.fail(f"{version} should come from the sweep"),
        sweep=judge_rows(rows, "next_turn_input_paired"),
        start=PINNED,
    )
    assert (found.last_holding, found.first_broken, found.holds_again) == (BEFORE, PINNED, AFTER)


def test_cli_sweep_with_a_corrupted_results_file_is_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from approval_compaction.cli import main

    output = tmp_path / "sweep.json"
    output.write_text('[{"sdk_version": ')
    assert main(["sweep", "--versions", PINNED, "--output", str(output)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {output} is not valid JSON (Expecting value, line 1)\n"
