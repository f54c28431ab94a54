"""Headlines: each notebook's answer line carries the values of the committed records."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from approval_compaction.lab.findings import headlines
from approval_compaction.lab.findings.load import Findings, load_findings
from approval_compaction.lab.findings.tables import refused_on, stuck_on
from approval_compaction.lab.findings.verdict import BUG, CONTRACT, of
from approval_compaction.lab.plugins import plugins


@pytest.fixture(scope="module")
def found() -> Findings:
    return load_findings()


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


def test_headlines_after_the_fix_names_every_situation_that_stops(found: Findings) -> None:
    assert found.liveness is not None and found.fixed_in is not None
    said = headlines.after_the_fix(found)
    assert all(f"**{s}**" in said for s in stuck_on(found.liveness, found.fixed_in))
    refused = refused_on(found.liveness, found.fixed_in)
    assert refused and all(f"**{s}**" in said.split(";")[0] for s in refused)


def test_headlines_after_the_fix_says_each_situation_under_its_kind(found: Findings) -> None:
    """A situation the record calls the documented contract is named after "contract" only, in
    its modes; a bug before it."""
    said = headlines.after_the_fix(found)
    bugs, rest = said.split("The SDK's documented contract:")
    record = of(found.verdicts, found.fixed_in or "")
    for v in record.of_kind(CONTRACT):
        assert f"**{v.situation}**" in rest.split(".")[0] and f"`{v.modes[0]}`" in rest
    for v in record.of_kind(BUG):
        assert f"**{v.situation}**" in bugs


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
