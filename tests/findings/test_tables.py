"""Tables: each published finding as a frame of the records' values."""

from __future__ import annotations

import pytest

from approval_compaction.lab.findings.liveness import (
    KEEPS_CELL,
    REFUSED_CELL,
    STOPS_CELL,
    LivenessEra,
    LivenessEras,
    LivenessState,
)
from approval_compaction.lab.findings.load import Findings
from approval_compaction.lab.findings.releases import MEETS
from approval_compaction.lab.findings.tables import (
    affected_frame,
    check_frame,
    errors_frame,
    fixed_in_cases,
    liveness_frame,
    refused_on,
    stuck_on,
    upgrade_frame,
    verdicts_frame,
)
from approval_compaction.lab.releases.later_turns import LIVENESS_MODES


@pytest.fixture(scope="module")
def found(committed: Findings) -> Findings:
    return committed


def test_tables_affected_rows_are_the_sweeps_ranges_and_cells_its_severities(
    found: Findings,
) -> None:
    assert found.releases is not None
    frame = affected_frame(found.releases)
    firsts = [era.span.split("..")[0] for era in found.releases.eras]
    assert {span.split("..")[0] for span in frame.index} <= set(firsts)  # eras, some merged
    assert frame["releases in range"].sum() == sum(era.count for era in found.releases.eras)
    cells = frame.drop(columns="releases in range").values.tolist()
    assert all(a != b for a, b in zip(cells, cells[1:], strict=False))  # same rows merged
    for story in found.releases.stories:
        column = "auto (default)" if story.mode == "auto" else story.mode
        row = [s for s in frame.index if firsts.index(s.split("..")[0])
               <= firsts.index(story.span.split("..")[0])][-1]  # fmt: skip
        assert frame.loc[row, column].startswith(MEETS[story.severity])


def test_tables_errors_are_each_refusal_once_with_where_it_is_met(found: Findings) -> None:
    frame = errors_frame(found.errors_met)
    for error in found.errors_met:
        row = frame.loc[error.api_message]
        assert (row["HTTP"], row["endpoint"], row["releases"]) == (
            error.http_status,
            error.endpoint,
            error.releases,
        )


def test_tables_the_fixing_release_violates_nothing_the_pinned_one_does(found: Findings) -> None:
    assert found.releases is not None and found.fixed_in is not None
    assert fixed_in_cases(found.releases, found.fixed_in)[0] == 0
    assert fixed_in_cases(found.releases, "0.23.1")[0] > 0
    with pytest.raises(LookupError):
        fixed_in_cases(found.releases, "0.0.1")


def _eras(*states: tuple[str, str, str, tuple[str, ...]]) -> LivenessEras:
    eras = tuple(LivenessEra(s, m, LivenessState(v), r) for s, m, v, r in states)
    return LivenessEras(("1.0", "2.0"), eras, 10)


def test_tables_liveness_folds_releases_and_names_the_modes_that_stop() -> None:
    found = _eras(
        *[("abandoned", mode, "keeps compacting", ("1.0",)) for mode in ("input", "auto")],
        ("abandoned", "input", "keeps compacting", ("2.0",)),
        ("abandoned", "auto", "stuck", ("2.0",)),
        ("abandoned", "previous_response_id", "keeps compacting", ("1.0", "2.0")),
    )
    frame = liveness_frame(found)
    assert list(frame.columns) == ["what happened", "1.0", "2.0"]
    assert frame.loc["abandoned", "1.0"] == KEEPS_CELL
    assert frame.loc["abandoned", "2.0"] == f"{STOPS_CELL} in auto"
    assert frame.loc["clean", "1.0"] == "not judged"
    assert stuck_on(found, "2.0") == ("abandoned",)


def test_tables_liveness_names_a_refused_session_and_its_modes_apart() -> None:
    """A session whose later turns raise is "refused", never "keeps compacting"; where modes
    differ the cell names each one's word, the modes that keep compacting left out."""
    found = _eras(
        *[("poisoned", mode, "refused", ("1.0", "2.0")) for mode in ("input", "auto")],
        ("poisoned", "previous_response_id", "refused", ("1.0",)),
        ("poisoned", "previous_response_id", "stuck", ("2.0",)),
        *[("abandoned", m, "keeps compacting", ("1.0",)) for m in LIVENESS_MODES],
        ("abandoned", "input", "refused", ("2.0",)),
        *[("abandoned", m, "keeps compacting", ("2.0",)) for m in ("auto", "previous_response_id")],
    )
    frame = liveness_frame(found)
    assert frame.loc["poisoned", "1.0"] == REFUSED_CELL
    assert frame.loc["poisoned", "2.0"] == (
        f"{REFUSED_CELL} in input, auto; {STOPS_CELL} in previous_response_id"
    )
    assert frame.loc["abandoned", "2.0"] == f"{REFUSED_CELL} in input"
    assert refused_on(found, "2.0") == ("poisoned", "abandoned")
    assert stuck_on(found, "2.0") == ("poisoned",)
    assert KEEPS_CELL not in set(frame.loc[["poisoned"], ["1.0", "2.0"]].to_numpy().ravel())


def test_tables_doctor_frames_carry_the_records_values(found: Findings) -> None:
    assert found.affected and found.upgrade and found.heal
    checks = check_frame(found.affected)
    for check in found.affected:
        assert checks.loc[check.release, "affected"] == len(check.affected_at)
    upgraded = upgrade_frame(found.upgrade)
    assert upgraded.loc["poisoned", "next turn"] == found.upgrade.poisoned.next_turn
    verdicts = verdicts_frame({"poisoned": 3}, {"healthy": 3})
    assert verdicts.to_dict("index") == {
        "poisoned": {"before repair": 3, "after repair": 0},
        "healthy": {"before repair": 0, "after repair": 3},
    }


def test_tables_advice_keeps_the_workaround_only_where_a_call_can_go_unanswered() -> None:
    """Issue 61 (r9): the README told a team on 0.24.0 to wrap the session in every mode, while
    the notebooks say to keep the workaround where an approval can go unanswered: on a release
    no case breaks, the advice names the situations that stop compacting without it (r11: by
    call kind, and the unanswered function calls that keep compacting without it)."""
    from approval_compaction.lab.findings.liveness import REFUSED, STUCK
    from approval_compaction.lab.findings.tables import KEEP, REPAIR, WRAP, advice
    from approval_compaction.lab.findings.verdict import (
        BUG,
        CONTRACT,
        LivenessVerdict,
        ReleaseVerdict,
    )

    poisoned = LivenessVerdict("poisoned", REFUSED, ("input", "previous_response_id"), BUG)
    mcp = LivenessVerdict("mcp_abandoned", STUCK, ("input",), BUG)
    lost = LivenessVerdict("lost", STUCK, ("previous_response_id",), CONTRACT)
    fixed = ReleaseVerdict("2.0", 16, 0, (), (), (poisoned, mcp, lost))
    assert advice(fixed, "input") == (
        f"{KEEP} where a hosted MCP approval request can go unanswered (mcp_abandoned stops "
        "compacting without it); else drop it: abandoned, lost keep compacting without it; "
        f"{REPAIR}"
    )
    assert advice(fixed, "previous_response_id") == (
        f"{KEEP} where any call can go unanswered (lost stops compacting without it, as the SDK "
        f"documents for this mode); else drop it: abandoned keeps compacting without it; {REPAIR}"
    )
    abandoned = LivenessVerdict("abandoned", STUCK, ("auto",), BUG)
    assert advice(ReleaseVerdict("2.0", 16, 0, (), (), (abandoned,)), "auto") == (
        f"{KEEP} where an approval can go unanswered (abandoned stops compacting without it); "
        "else drop it: lost keeps compacting without it"
    )
    assert advice(ReleaseVerdict("2.0", 16, 0, (), (), ()), "auto") == "nothing"
    broken = ReleaseVerdict("1.0", 16, 8, (), (), (mcp,))
    assert advice(broken, "input") == WRAP
