"""Replay: counterexample files keep one name, load back whole, and rerun to the same verdicts."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction import paths
from approval_compaction.cli import main
from approval_compaction.lab.explore import replay
from approval_compaction.lab.explore.conversation import Conversation, Step
from approval_compaction.lab.explore.kinds import kind_of
from approval_compaction.lab.explore.search import Finding, known_as, rerun

STEPS = (
    Step("ask", compact=True, calls=("function_approval",)),
    Step("decide", decision="reject", boundary="json"),
    Step("ask"),
)


@pytest.fixture(scope="module")
def finding() -> Finding:
    conversation = Conversation("input", False, STEPS)
    pairs = (("next_turn_input_paired", "function_approval"),)
    return Finding(pairs, "known", known_as(conversation, pairs), rerun(conversation))


def test_saved_counterexample_loads_back_whole_under_a_stable_name(
    finding: Finding, tmp_path: Path
) -> None:
    path = replay.save(finding, tmp_path)
    assert path.name == f"{finding.trace.sdk_version}-{finding.trace.conversation.digest()}.json"
    assert replay.load(path) == finding
    assert replay.save(finding, tmp_path) == path  # the same steps, the same file


def test_rerun_reproduces_the_saved_violations(finding: Finding) -> None:
    again = rerun(finding.trace.conversation)
    assert replay.same_violations(finding.trace, again)
    assert (2, "next_turn_input_paired") in {(i, j.invariant) for i, j in again.violations}


def test_replay_text_shows_each_step_and_the_label(finding: Finding) -> None:
    text = replay.text(finding)
    assert "known: the original report's case (runner=run,compaction=on,decision=reject" in text
    assert "2: ask[]: last model input" in text and "orphan output" in text


def test_cli_replay_of_a_saved_file(
    finding: Finding, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = replay.save(finding, tmp_path)
    assert main(["explore", "replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "rerun: same violations" in out and finding.name in out


def test_cli_replay_of_a_bad_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["explore", "replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_save_result_removes_what_its_search_no_longer_finds(
    finding: Finding, tmp_path: Path
) -> None:
    """A search saved again keeps only its own counterexamples: an earlier one of the same
    release and variant it did not find again goes; another variant's stays."""
    from dataclasses import replace as changed

    from approval_compaction.lab.explore.search import SearchResult

    version = finding.trace.sdk_version
    result = SearchResult(version, False, 0, 1, 1, True, (), {}, (), {}, (finding,))
    fixed = changed(
        finding,
        trace=changed(finding.trace, conversation=changed(finding.trace.conversation, fix=True)),
    )
    other = replay.save(fixed, tmp_path)
    kept = replay.save_result(result, tmp_path)[1]
    assert kept.exists() and other.exists()
    replay.save_result(changed(result, findings=()), tmp_path)
    assert not kept.exists() and other.exists()


def test_committed_late_resumes_agree_with_a_rerun_here() -> None:
    """What ``make explore`` found on the installed release about late resumes (a kept state
    decided after later turns) is what a rerun here shows: its first late-resume counterexample
    breaks the same invariants again, and there is one with the workaround's search exactly when
    the simplest late resume stores an orphan with it (so the data and the workaround agree,
    whichever way the workaround handles a late output whose call it retired)."""
    import importlib.metadata

    from approval_compaction import paths
    from approval_compaction.lab.explore.conversation import late_resumes

    installed = importlib.metadata.version("openai-agents")
    results = [r for r in replay.load_results(paths.DATA).values() if r.sdk_version == installed]
    assert {r.fix for r in results} == {False, True}
    simplest = (
        Step("ask", calls=("function_approval",)),
        Step("keep"),
        Step("continue"),
        Step("decide", kept=True),
    )
    for result in results:
        late = [f for f in result.findings if late_resumes(f.trace.records)]
        if late:
            assert replay.same_violations(late[0].trace, rerun(late[0].trace.conversation))
        again = rerun(Conversation("input", result.fix, simplest))
        orphaned = {
            kind_of(key)
            for _, j in again.violations
            if j.invariant == "stored_history_paired"
            for key in j.offenders
        }
        reported = {
            kind
            for f in late
            for invariant, kind in f.pairs
            if invariant == "stored_history_paired"
        }
        assert ("function_approval" in reported) is ("function_approval" in orphaned), result.fix


def test_committed_pause_refusal_names_its_kind_and_its_refused_compaction() -> None:
    """Notebook 08: the search judges an ``ask`` that pauses as a next turn, so a compaction
    refused at the pause is filed under ``next_turn_accepted``; its row names the kind of
    approval asked (a refusal names no offending item, ``-`` in the record), and the refusals
    table shows the compaction endpoint that refused it."""
    from approval_compaction import paths

    results = replay.load_results(paths.DATA)
    breaks = " ".join(replay.findings_table(results)["breaks"])
    assert "(-)" not in breaks
    assert "next_turn_accepted (function_approval)" in breaks
    refused = replay.refusals_table(results, "next_turn_accepted")
    assert list(refused["mode"]) == ["previous_response_id"]
    assert refused["refused"].str.contains("/v1/responses/compact").all()


def test_next_turn_accepted_means_any_request_of_the_turn_compaction_included() -> None:
    """The judge fails ``next_turn_accepted`` on any refused request of the stage (compaction
    too): its meaning must say so, not "the next turn's model request"."""
    from approval_compaction.analysis.properties import invariant

    meaning = invariant("next_turn_accepted").meaning
    assert "compaction included" in meaning and "model request is answered" not in meaning


def test_committed_liveness_break_names_every_kind_left_open() -> None:
    """Notebook 08 (r7 reading): on 0.23.1 in ``previous_response_id`` mode the only kept
    conversation naming a hosted MCP approval request also abandons a function call, and a
    function call alone stops compaction there; the row names both open kinds, never
    ``mcp_approval`` alone (the README: an unanswered MCP request keeps compacting on 0.23.1)."""
    from approval_compaction import paths

    found = replay.findings_table(replay.load_results(paths.DATA))
    rows = found[(found["search"] == "0.23.1") & (found["mode"] == "previous_response_id")]
    breaks = " ".join(rows["breaks"])
    assert "compaction_runs (mcp_approval)" not in breaks
    assert "compaction_runs (mcp_approval + function_approval)" in breaks
    single = found[found["search"] == "0.24.0"]  # one open call: the judge's kind alone
    assert "compaction_runs (mcp_approval)" in " ".join(single["breaks"])


@pytest.mark.parametrize(
    ("mode", "invariants", "kind"),
    [
        ("previous_response_id", ("compaction_runs", "history_bounded"), "documented"),
        ("input", ("compaction_runs", "history_bounded"), "bug"),
        ("previous_response_id", ("next_turn_accepted",), "bug"),
        ("previous_response_id", ("compaction_runs", "stored_history_paired"), "bug"),
    ],
    ids=["liveness-in-prid", "liveness-in-input", "refusal-in-prid", "pairing-with-liveness"],
)
def test_break_kind_counts_only_prid_liveness_as_the_documented_contract(
    mode: str, invariants: tuple[str, ...], kind: str
) -> None:
    """Issue 61 (r9): 08 promised the documented contract apart from a bug; no table kept it."""
    assert replay.break_kind(mode, invariants) == kind


def test_marked_invariants_says_what_broke_each_invariant() -> None:
    """The committed searches: 0.24.0's liveness breaks are a bug (the hosted MCP approval
    request, in ``input`` mode) and the documented contract; 0.23.1's pairing breaks are bugs."""
    table = replay.marked_invariants(replay.load_results(paths.DATA))
    assert table.loc["compaction_runs", "0.24.0"] == "broke (bug and documented)"
    assert table.loc["stored_history_paired", "0.23.1"] == "broke (bug)"
    assert table.loc["decision_enforced", "0.23.1"] == "holds"


def test_case_label_reads_a_cases_settings_with_any_choice_starred() -> None:
    assert replay.case_label("runner=run,compaction=on") == "run/*/on/*"
    assert replay.case_label("") == ""


def test_committed_counterexamples_are_one_row_per_conversation_per_mode() -> None:
    """Notebook 08's tables (moved from the notebook, r15): the refusal at the pause reads as
    such and is ``known`` as the pause refusal; a conversation two searches kept is one row
    naming both; no ``mode`` column (each table is one mode)."""
    from approval_compaction import paths

    per_mode = replay.counterexamples(replay.load_results(paths.DATA))
    assert set(per_mode) == {"input", "previous_response_id"}
    assert all(
        list(t.columns) == ["search", "is", "breaks", "steps", "known"] for t in per_mode.values()
    )
    contract = per_mode["previous_response_id"]
    refused = contract[contract["breaks"] == "the pause refused (filed as next_turn_accepted)"]
    assert list(refused["known"]) == ["the pause refusal"]
    assert contract["search"].str.contains(", ").any()  # kept by both releases' searches
    first = per_mode["input"].iloc[0]
    assert first["known"] == "run/*/on/*" and first["is"] == "bug"


def test_rounds_frame_gives_each_searchs_budget_rounds_and_conversations_per_mode() -> None:
    """The committed searches, as notebook 08 shows them: every search's last round ran dry, and
    the conversations started per mode add up to its tally's examples."""
    results = replay.load_results(paths.DATA)
    frame = replay.rounds_frame(results)
    assert list(frame.columns) == list(results)
    assert frame.loc["last round ran dry"].eq("yes").all()
    started = frame[frame.index.str.startswith("conversations started")].astype(int).sum()
    assert started.to_dict() == {n: r.tally["examples"] for n, r in results.items()}
    assert frame.loc["budget per round"].to_dict() == {
        n: str(r.examples) for n, r in results.items()
    }
