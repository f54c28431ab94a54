"""The ADK finding: its tables are the JS study's with ADK's words as data."""

from __future__ import annotations

from dataclasses import replace

from approval_compaction.adk.finding import (
    BESIDE,
    HTTP_PATH,
    MEETS,
    SCRIPTED_PATH,
    WORDS,
    AdkFinding,
    adk_liveness_frame,
    adk_paths_frame,
    adk_releases_frame,
    adk_verdict_frame,
    load_adk,
    over_http_agreement,
    over_http_sweep_agreement,
    result,
)
from approval_compaction.analysis.liveness import LivenessRecord
from approval_compaction.lab.findings.liveness import GROWS_CELL
from approval_compaction.lab.findings.releases import RESUME_FAILS
from approval_compaction.lab.findings.verdict import (
    AFFECTED,
    BUG,
    CONTRACT,
    GROWS,
    KEPT_LIVENESS_LEFT,
    LIVENESS_LEFT,
    NEVER_RUNS,
    NOT_AFFECTED,
    UNPAIRED,
    disagreements,
    driver_verdicts,
)
from approval_compaction.lab.releases.driven import NEVER_COMPACTED, SweepRecord


def _row(
    version: str, plan: str, violating: int = 0, raised: str = "", na: str = ""
) -> SweepRecord:
    return SweepRecord(version, plan, plan, None, "case", "memory and database", 16, violating,
                    "", raised, "", "", na)  # fmt: skip


def test_adk_verdict_frame_reads_adks_words_and_joins_equal_releases() -> None:
    rows = [
        _row(v, k, 8 if k.startswith("window") else 0, "resume" if k.startswith("w") else "",
             "" if k.startswith("window") else "token_threshold: Extra inputs are not permitted")
        for v in ("1.16.0", "1.17.0") for k in ("window-0", "window-1", "tokens-0", "tokens-2")
    ]  # fmt: skip
    frame = adk_verdict_frame(driver_verdicts(rows, [], WORDS))
    assert list(frame.index) == ["1.16.0..1.17.0"]
    assert frame.iloc[0]["verdict"] == AFFECTED
    assert frame.iloc[0]["window, overlap 0"] == f"{MEETS[RESUME_FAILS]} (8 of 16 cases)"
    assert frame.iloc[0]["tokens, retention 2"] == "no token threshold in this release"


def test_adk_liveness_frame_says_the_history_grows_when_compaction_still_runs() -> None:
    def rec(invariant: str, holds: bool) -> LivenessRecord:
        return LivenessRecord("clean", "2.13.0", "window-0", False, invariant, holds, "", "")

    frame = adk_liveness_frame([rec("compaction_runs", True), rec("history_bounded", False)])
    assert frame.loc["clean", "2.13.0"].startswith(GROWS_CELL)


def test_adk_finding_loads_the_committed_files() -> None:
    found = load_adk()
    assert found is not None and found.version and len(found.pinned) == 4


def test_adk_paths_frame_sets_each_kind_s_cases_by_both_model_paths_side_by_side() -> None:
    scripted = [_row("2.13.0", k) for k in ("window-0", "window-1", "tokens-0", "tokens-2")]
    over_http = [*scripted[:3], _row("2.13.0", "tokens-2", 8, "resume")]
    frame = adk_paths_frame(scripted, over_http)
    assert frame[SCRIPTED_PATH].eq("no case breaks an invariant").all()
    assert frame.loc["tokens, retention 2", HTTP_PATH] == "8 of 16 break , raised at resume"
    assert frame["the same"].tolist() == ["yes", "yes", "yes", "no"]


def test_over_http_agreement_counts_records_that_differ_only_in_the_stand_in_s_call_ids() -> None:
    def rec(version: str, sent: str, holds: bool = True) -> LivenessRecord:
        return LivenessRecord("lost", version, "window-0", False, "compaction_runs", holds, "",
                              "", sent_unpaired=sent, model="responses")  # fmt: skip

    pinned = (rec("2.13.0", "call-1"),)
    same = AdkFinding((), (_row("2.13.0", "window-0"),), pinned, (), (),
                      (rec("2.13.0 over HTTP", "call_standin_1"),))  # fmt: skip
    assert over_http_agreement(same).startswith("1 of 1 liveness records on 2.13.0")
    other = AdkFinding((), same.pinned, pinned, (), (),
                       (rec("2.13.0 over HTTP", "call_standin_1", holds=False),))  # fmt: skip
    assert over_http_agreement(other).startswith("0 of 1")


def test_adk_finding_over_http_agrees_with_the_scripted_model_on_the_pinned_release() -> None:
    """The committed runs: every kind's cases and every liveness record read the same with
    ADK's OpenAIResponsesLlm over HTTP as with the scripted model."""
    found = load_adk()
    assert found is not None and len(found.over_http) == 4
    assert adk_paths_frame(found.pinned, found.over_http)["the same"].eq("yes").all()
    total = sum(1 for r in found.liveness if r.sdk_version == found.version)
    assert over_http_agreement(found).startswith(f"{total} of {total} ")


def _live(situation: str, kind: str, invariant: str, holds: bool, paired: bool | None = None):  # type: ignore[no-untyped-def]  # a record written by hand
    return LivenessRecord(situation, "2.13.0", kind, False, invariant, holds, "", "",
                          resume_paired=paired)  # fmt: skip


KINDS = ("window-0", "window-1", "tokens-0", "tokens-2")
LATE = [
    _live(s, "window-0", "history_bounded", False) for s in ("clean", "abandoned")
] + [
    _live(s, "window-0", "compaction_runs", True) for s in ("clean", "abandoned")
] + [
    _live("resumed", "tokens-0", "history_bounded", True, paired=False),
    _live("resumed", "tokens-0", "compaction_runs", True, paired=False),
]  # fmt: skip


def test_driver_verdicts_word_a_liveness_bug_kept_when_no_release_ever_lost_the_call() -> None:
    """A sweep none of whose releases breaks an invariant fixed nothing: its liveness bugs read
    'pending call kept', never 'fixed' (LangChain 1.x, which never lost the pending call)."""
    (verdict,) = driver_verdicts([_row("2.13.0", k) for k in KINDS], LATE, WORDS)
    assert (verdict.violating, verdict.word) == (0, KEPT_LIVENESS_LEFT)


def test_adk_verdicts_sort_growth_the_control_shares_as_design_and_a_late_answer_as_a_bug() -> None:
    lost = [_row("1.16.0", k, 8, "resume") for k in KINDS]  # an earlier release lost the call
    rows = [_row("2.13.0", k) for k in KINDS]
    (_, verdict) = driver_verdicts([*lost, *rows], LATE, WORDS)
    assert (verdict.sdk, verdict.violating, verdict.word) == ("google-adk", 0, LIVENESS_LEFT)
    assert {(v.situation, v.state, v.kind) for v in verdict.liveness} == {
        ("clean", GROWS, CONTRACT), ("abandoned", GROWS, CONTRACT), ("resumed", UNPAIRED, BUG),
    }  # fmt: skip


def test_adk_verdicts_are_what_published_statements_about_google_adk_are_checked_against() -> None:
    rows = [_row("1.16.0", "window-0", 8, "resume"), _row("2.13.0", "window-0")]
    verdicts = driver_verdicts(rows, [], WORDS)
    assert [v.word for v in verdicts] == [AFFECTED, NOT_AFFECTED]
    said = "google-adk 1.16.0 is not affected. openai-agents 1.16.0 is not affected."
    assert disagreements(said, verdicts) == {
        "1.16.0": [("not affected", "google-adk 1.16.0 is not affected.")]
    }


def test_over_http_sweep_agreement_names_each_kind_that_reads_otherwise() -> None:
    kinds = ("window-0", "window-1", "tokens-0", "tokens-2")
    predicted = tuple(_row(v, k) for v in ("2.4.0", "2.5.0") for k in kinds)
    sent = (*predicted[:7], _row("2.5.0", "tokens-2", 8, "resume"))
    found = AdkFinding(predicted, (), (), (), (), (), sent)
    said = over_http_sweep_agreement(found)
    assert said.startswith("1 of 2 releases with OpenAIResponsesLlm (2.4.0..2.5.0)")
    assert said.endswith("2.5.0 tokens-2: predicted no case breaks an invariant, over HTTP "
                         "8 of 16 break , raised at resume")  # fmt: skip
    assert "no release" in over_http_sweep_agreement(AdkFinding(predicted, (), ()))


def test_adk_a_kind_run_with_fields_the_release_requires_says_so_in_every_table() -> None:
    """google-adk 1.25.0 to 2.5.0 run a token threshold only beside the window's fields: the
    cell and the boundary say it ran so, rather than reading as 2.6.0's threshold alone (or as
    not applicable, as the study said before it added them)."""
    added = "compaction_interval=1000000, overlap_size=0"
    rows = [
        replace(_row("2.0.0", k), configured=added if k.startswith("tokens") else "")
        for k in ("window-0", "window-1", "tokens-0", "tokens-2")
    ]
    frame = adk_verdict_frame(driver_verdicts(rows, [], WORDS))
    assert frame.iloc[0]["tokens, retention 0"] == f"no error in these cases, {BESIDE}"
    assert frame.iloc[0]["window, overlap 0"] == "no error in these cases"
    assert result(rows[2]) == f"no case breaks an invariant ({BESIDE}: {added})"


def test_adk_verdict_of_a_release_that_never_compacts_is_never_compacts() -> None:
    """Issue 61: the README called google-adk 2.0.0..2.1.0 "pending call fixed" where notebook
    13 showed its cases pass only because the App's compaction never runs."""
    idle = [_row("2.0.0", "window-0", na=NEVER_COMPACTED), _row("2.0.0", "tokens-0", na="no")]
    ran = [_row("2.3.0", "window-0"), _row("2.3.0", "tokens-0", na="no")]
    words = {v.release: v.word for v in driver_verdicts(idle + ran, [], WORDS)}
    assert words == {"2.0.0": NEVER_RUNS, "2.3.0": NOT_AFFECTED}
    assert disagreements("google-adk 2.0.0 is fixed.", driver_verdicts(idle, [], WORDS))


def test_adk_verdict_frame_names_every_kind_every_setting_as_notebook_13_does() -> None:
    """Issue 61 (r10): 13's verdict cells said "(all modes)" for ADK's settings."""
    found = load_adk()
    assert found is not None
    bugs = adk_verdict_frame(found.verdicts, contract=False)["liveness bugs"]
    assert not bugs.str.contains("all modes").any()
    assert bugs.str.contains(r"\(every setting\)").any()


def test_adk_releases_frame_says_scripted_refusals_and_never_started_compaction() -> None:
    """Issue 61 (r18): 13's table said "refused" (answered HTTP 400) of requests the scripted
    model answered, and "stops compacting" in window settings where compaction never runs."""
    found = load_adk()
    assert found is not None
    frame = adk_releases_frame(found.verdicts)
    assert "window-0, window-1" in frame and "window-1" not in frame  # alike: one column
    bugs = " ".join(frame["liveness bugs"])
    assert " would be refused (" in bugs and "lost refused" not in bugs
    assert "found by the search" not in bugs and "(8 of 16 cases)" not in " ".join(
        frame["tokens-0"]
    )
    idle = frame[frame["window-0, window-1"] == "compaction never runs"]
    assert len(idle)  # 2.0.0..2.1.0, the record this test is about
    for cell in idle["liveness bugs"]:
        assert "stops compacting (window-0, window-1)" not in cell
        assert "stops compacting (every setting)" not in cell
        assert "never compact (window-0, window-1)" in cell
    running = frame[frame["window-0, window-1"] != "compaction never runs"]
    assert not running["liveness bugs"].str.contains("never compact").any()


def test_adk_releases_frame_merges_neighbouring_rows_that_read_alike() -> None:
    """Issue 61 (r21): "releases that read the same in every column share a row", yet 2.5.0 and
    2.6.0..2.9.2 read alike once a clause was trimmed; the pinned release keeps its own row."""
    found = load_adk()
    assert found is not None
    frame = adk_releases_frame(found.verdicts)
    said = frame.drop(columns="releases in range")
    for above, below in zip(range(len(frame) - 2), range(1, len(frame) - 1), strict=True):
        assert not said.iloc[above].equals(said.iloc[below]), frame.index[below]
    assert frame["releases in range"].sum() == len(found.verdicts)
    assert frame.index[-1] == max(found.verdicts, key=lambda v: _key(v.release)).release


def _key(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split("."))
