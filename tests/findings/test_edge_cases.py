"""The workaround's edge cases judged: the table of invariants each edge case violates."""

from __future__ import annotations

from approval_compaction.fix.workaround import defer_compaction_while_pending
from approval_compaction.lab.findings.edge_cases import edge_table
from approval_compaction.openai_agents.edge_cases import EDGE_CASES


def test_edge_table_reports_each_edge_case_and_runner() -> None:
    table = edge_table({"with workaround": defer_compaction_while_pending})
    assert len(table) == 2 * len(EDGE_CASES)
    assert list(table.index.get_level_values("edge case").unique()) == [e.name for e in EDGE_CASES]
    assert set(table.index.get_level_values("runner")) == {"run", "run_streamed"}
    assert set(table["with workaround"]) == {"all hold"}
    assert table["with workaround: compactions"].min() >= 1


def test_edge_table_names_the_invariants_each_case_breaks_without_the_workaround() -> None:
    """Control: with no wrapper, each row names the pairing invariant the orphan output breaks."""
    table = edge_table({"none": None})
    assert all("next_turn_input_paired" in broken.split(", ") for broken in table["none"])
