"""Headlines: each notebook's answer line carries the values of the committed records."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from approval_compaction.lab.findings import headlines
from approval_compaction.lab.findings.load import Findings, load_findings
from approval_compaction.lab.findings.verdict import BUG, CONTRACT, of
from approval_compaction.lab.plugins import plugins


@pytest.fixture(scope="module")
def found(committed: Findings) -> Findings:
    return committed


def test_headlines_cover_every_notebook_by_its_number() -> None:
    """Every notebook's answer is a headline's, or its SDK folder's (``lab.plugins``)."""
    numbers = sorted(p.name[:2] for p in Path("notebooks").glob("[0-9][0-9]-*.ipynb"))
    theirs = {plugin.notebook for plugin in plugins()}
    assert sorted(headlines.HEADLINES) == [n for n in numbers if n not in theirs]
    assert theirs <= set(numbers)


def test_headlines_matrix_answer_is_the_pinned_records_count_and_choice(found: Findings) -> None:
    assert found.pinned is not None
    said = headlines.violation_matrix(found)
    assert f"{found.pinned.violating} of {found.pinned.cases} cases" in said
    assert f"`{found.pinned.violating_choice}`" in said


def test_headlines_wire_answer_quotes_each_modes_refusal(found: Findings) -> None:
    """Each refusal's text, with the call id left to the reader's own: issue 51, 01's answer named
    `pending-c1` while its first output printed `call_standin_1`."""
    said = headlines.the_wire(found)
    assert all(f"`{headlines.any_call(e.api_message)}`" in said for e in found.errors_met)
    assert "<call id>" in said and "pending-c1" not in said


def test_headlines_after_the_fix_leads_with_the_bug_a_fresh_session_meets(found: Findings) -> None:
    """Issue 61: notebook 10 opened with *poisoned*, a store an older release wrote (a
    maintainer answers "repair your data"). Its first paragraph names the bugs a session meets
    with no old data; the poisoned store comes after, with what the SDK documents."""
    assert found.fixed_in is not None
    said = headlines.after_the_fix(found)
    first, rest = said.split("\n\n", 1)
    record = of(found.verdicts, found.fixed_in)
    fresh = [v for v in record.of_kind(BUG) if v.situation != "poisoned"]
    assert fresh and all(f"*{v.situation}*" in first for v in fresh)
    assert "poisoned" not in first and "older release left an orphan output" in rest
    documented = rest.split("As the SDK documents")[1].split(".")[0]
    assert all(f"*{v.situation}*" in documented for v in record.of_kind(CONTRACT))


def test_headlines_after_the_fix_says_what_to_do_by_mode(found: Findings) -> None:
    """Issue 61: the README says "use auto or input" for previous_response_id, where notebook
    10 said to wrap the session whatever the mode."""
    action = headlines.after_the_fix(found).split("**What to do.**")[1]
    assert "in `input` or `auto` mode wrap the session" in action
    assert "in `previous_response_id` mode use `auto` or `input`" in action


def test_headlines_upgrade_answer_follows_the_record(found: Findings) -> None:
    """The doctor's second answer says "heals" only when the record's next turn is accepted."""
    assert found.upgrade is not None
    assert "does not heal" in headlines.am_i_affected(found)
    healed = replace(found.upgrade, poisoned=found.upgrade.repaired)
    assert "2. Upgrading heals" in headlines.am_i_affected(replace(found, upgrade=healed))


def test_headlines_without_the_data_is_a_headline_error(tmp_path: Path) -> None:
    empty = load_findings(tmp_path)
    for number in ("01", "04", "05", "07", "10"):
        with pytest.raises(headlines.HeadlineError):
            headlines.HEADLINES[number](empty)
