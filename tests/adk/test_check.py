"""``doctor check --adk``: the cases and the liveness situations on the google-adk beside the
doctor, one answer per compaction kind, judged against the control situation."""

from __future__ import annotations

import pytest

from approval_compaction.adk.check import (
    AdkCheck,
    KindRow,
    adk_answers,
    check_adk,
    kinds_of,
    problems,
)
from approval_compaction.adk.words import KINDS as ADK_KINDS
from approval_compaction.analysis.liveness import SituationRow
from approval_compaction.cli import main
from approval_compaction.doctor.check import CheckError


def situation(name: str, keeps: bool = True, usable: bool = True, late: str = "") -> SituationRow:
    return SituationRow(
        "2.13.0", False, name, usable, "" if usable else "window-0: raised", keeps,
        "" if keeps else "history_bounded in window-0 mode", "", "", "", late,
    )  # fmt: skip


def test_kinds_of_names_every_kind_or_one_and_refuses_others_in_one_line() -> None:
    assert kinds_of("every") == ADK_KINDS
    assert kinds_of("tokens-2") == ("tokens-2",)
    with pytest.raises(CheckError, match="--kind 'window-2' is not one of: every, window-0"):
        kinds_of("window-2")


def test_problems_read_a_growing_history_as_the_controls_design() -> None:
    """A sliding window keeps every summary: the control's history grows too, so a situation
    that only grows is no problem there; an unpaired late answer still is."""
    grows = [situation("clean", keeps=False), situation("abandoned", keeps=False),
             situation("resumed", keeps=False, late="window-0: unpaired adk-1")]  # fmt: skip
    assert problems(grows) == ["resumed splits its call and late answer"]
    bounded = [situation("clean"), situation("abandoned", keeps=False)]
    assert problems(bounded) == ["abandoned stops compacting (history_bounded in window-0 mode)"]
    refused = [situation("clean"), situation("poisoned", usable=False)]
    assert problems(refused) == ["poisoned refused (window-0: raised)"]


def test_answers_say_per_kind_what_breaks_and_the_check_is_affected_by_any() -> None:
    rows = (
        KindRow("window-0", 16, 8, "stored_history_paired", "resume: builtins.ValueError: x", ""),
        KindRow("tokens-0", 16, 0, "", "", "EventsCompactionConfig rejects tokens-0"),
    )
    found = AdkCheck("1.16.0", rows, (("window-0", (situation("clean"),)),))
    window, tokens = adk_answers(found, 3)
    assert window.startswith("google-adk 1.16.0, window-0: affected: 8 of 16 cases break")
    assert "the first raised at the resume: builtins.ValueError" in window
    assert window.endswith("no situation does worse than the control.")
    assert (
        tokens == "google-adk 1.16.0, tokens-0: not run: EventsCompactionConfig rejects tokens-0."
    )
    assert found.affected
    clean = AdkCheck("2.13.0", (KindRow("window-0", 16, 0, "", "", ""),), ())
    assert not clean.affected


@pytest.mark.slow
@pytest.mark.releases
@pytest.mark.subprocess
def test_check_adk_on_the_pinned_release_answers_each_kind() -> None:
    """The pinned google-adk in its own environment: no case breaks, the late answer of a
    confirmation answered late is left unpaired (what the ADK report shows)."""
    from approval_compaction.adk.packages import pinned, release_environment

    env = release_environment(pinned())
    found = check_adk(("window-0", "tokens-2"), 2, env.python)
    assert found.release == pinned()
    assert [(r.kind, r.violating, r.not_applicable) for r in found.rows] == [
        ("window-0", 0, ""), ("tokens-2", 0, ""),
    ]  # fmt: skip
    said = adk_answers(found, 2)
    assert all("resumed splits its call and late answer" in line for line in said)
    assert found.affected


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--js", "somewhere"], "--adk and --js check different SDKs: pass one"),
        (["--later", "-1"], "--later must be 0 or more"),
    ],
    ids=["two-sdks", "negative-later"],
)
def test_check_command_is_what_doctor_check_adk_runs(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The doctor reaches the folder's ``command`` by name (``sdks``): a wrong
    combination is one line and status 2, before any run."""
    assert main(["doctor", "check", "--adk", *argv]) == 2
    assert said in capsys.readouterr().err


def test_check_says_a_split_late_answer_in_the_verdict_words() -> None:
    """The check's words for a call and its late answer apart are the verdict tables' (the quick
    path's test reads them to tell an affected answer; r13 changed the verdict words once)."""
    from approval_compaction.adk.check import SPLIT
    from approval_compaction.lab.findings.verdict import STATE_WORDS, UNPAIRED

    assert STATE_WORDS[UNPAIRED] == SPLIT
