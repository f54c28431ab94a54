"""Claims: two published files cannot say different things of one release, mode or situation.

Issue 61 found seven contradictions a reader met side by side; each test below holds one of
them to the record, first on the words that contradicted (the check finds them), then on every
published file (none does)."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.adk.finding import load_adk
from approval_compaction.lab import paths
from approval_compaction.lab.findings.claims import (
    era_disagreements,
    liveness_disagreements,
    outcome_disagreements,
    unscoped_fix_claims,
    unscoped_stage_tables,
)
from approval_compaction.lab.findings.load import Findings
from approval_compaction.lab.findings.verdict import published
from approval_compaction.lab.mechanism.anatomy import load_anatomy
from approval_compaction.lab.releases.upstream.changes import shown_outcomes
from approval_compaction.lab.releases.upstream.results import load
from approval_compaction.lab.releases.upstream.text import written_versions

# Files about another SDK: their releases are not openai-agents', though the numbers collide.
OTHER_SDK = ("-js", "javascript", "-adk", "google-adk")


@pytest.fixture(scope="module")
def found(committed: Findings) -> Findings:
    return committed


def every_text() -> dict[str, str]:
    """The published files (``verdict.published``), the reports and the rendered notebooks."""
    texts = published(paths.ROOT)
    for page in [*sorted(paths.DATA.glob("*.md")), *sorted(paths.DATA_FILES.rendered.glob("*.md"))]:
        texts[page.relative_to(paths.ROOT).as_posix()] = page.read_text()
    return texts


def about_openai_agents() -> dict[str, str]:
    return {n: t for n, t in every_text().items() if not any(o in Path(n).name for o in OTHER_SDK)}


ERA_TABLE_OF_12 = """| span | count | requests |
|---|---|---|
| 0.8.0..0.22.0 | 67 | 3 on the scripted model, 3 over HTTP |
| 0.22.1..0.23.1 | 4 | 2 on the scripted model, 1 over HTTP |
| 0.24.0 | 1 | 1 on the scripted model, 1 over HTTP |
"""


def test_claims_an_era_list_that_joins_two_eras_disagrees(found: Findings) -> None:
    """Notebook 12 listed 0.22.1..0.23.1 as one era where notebook 05 listed two."""
    assert found.releases is not None
    eras, order = found.releases.eras, found.releases.versions
    assert era_disagreements(ERA_TABLE_OF_12, eras, order)
    said = "They fall into ranges that read the same: 0.8.0..0.22.0, 0.22.1..0.23.1, 0.24.0."
    assert era_disagreements(said, eras, order)
    right = ", ".join(e.span for e in eras)
    assert era_disagreements(f"Ranges that read the same: {right}.", eras, order) == []
    counted = "| releases | releases in range |\n|---|---|\n| 0.22.1..0.23.1 | 3 |\n"
    assert era_disagreements(counted, eras, order) == [("0.22.1..0.23.1: 3", "4")]


def test_claims_a_per_stage_table_names_its_model() -> None:
    """report.md's scripted per-stage table, untitled, read as the store after a refusal."""
    table = "| stage | stored_items |\n|---|---|\n| next_turn | 3 |\n"
    assert unscoped_stage_tables(f"**Per stage:** items stored\n\n{table}") == [
        "**Per stage:** items stored"
    ]
    assert unscoped_stage_tables(f"**Per stage (input mode, scripted model)**\n\n{table}") == []


def test_claims_a_liveness_claim_the_release_does_not_hold_disagrees(found: Findings) -> None:
    table = (
        "| situation | what happened | 0.24.0 |\n|---|---|---|\n"
        "| abandoned | an approval nobody answers | keeps compacting |\n"
    )  # 0.24.0 stops in previous_response_id mode, as the SDK documents
    assert ("0.24.0", "abandoned", "previous_response_id", "keeps compacting") in (
        liveness_disagreements(table, found.verdicts)
    )
    clause = "| 0.23.1 | 1 | affected | mcp_abandoned stops compacting (input) |"
    assert liveness_disagreements(
        f"| a | b | c | d |\n|---|---|---|---|\n{clause}\n", found.verdicts
    )
    held = "| 0.24.0 | 1 | x | mcp_abandoned stops compacting (input, auto) |"
    assert (
        liveness_disagreements(f"| a | b | c | d |\n|---|---|---|---|\n{held}\n", found.verdicts)
        == []
    )


def test_claims_a_changed_test_names_its_outcomes_as_the_suite_does() -> None:
    """Notebook 06 showed a strict xfail that passed as skipped -> failed."""
    shown = [("xfailed", "failed [XPASS(strict)]"), ("failed", "passed")]
    row = "| sdk_version | test | baseline | fixed |\n|---|---|---|---|\n"
    assert outcome_disagreements(row + "| 0.23.1 | t | skipped | failed |\n", shown) == [
        ("skipped", "failed")
    ]
    assert (
        outcome_disagreements(
            row + "| 0.23.1 | t | xfailed | failed \\[XPASS(strict)\\] |\n", shown
        )
        == []
    )


def test_claims_the_whole_fix_names_the_kinds_it_fixes() -> None:
    """Notebook 03 called the moved check the fix; hosted MCP approvals need two more hunks."""
    kinds = ["function", "hosted MCP"]
    assert unscoped_fix_claims("One of them is the whole fix: the check moved.", kinds)
    assert unscoped_fix_claims("For a function tool's approval it is the whole fix.", kinds) == []


def test_claims_every_published_file_agrees_with_the_record(found: Findings) -> None:
    """README, reports, docs, the notebooks' answers and their rendered pages: every list of
    eras, per-stage table, liveness claim, changed test's outcomes and 'whole fix' agrees with
    the record, so no two of them disagree (the ADK pages against google-adk's record)."""
    adk_found = load_adk()
    assert found.releases is not None and adk_found is not None
    eras, order = found.releases.eras, found.releases.versions
    shown = [
        shown_outcomes(c.baseline, c.fixed, c.message)
        for version in written_versions(paths.DATA)
        for c in load(version, paths.DATA).changes
    ]
    kinds = [k.label for k in load_anatomy(paths.DATA_FILES.fix_anatomy).kinds]
    wrong = {}
    for name, text in about_openai_agents().items():
        said = {
            "eras": era_disagreements(text, eras, order),
            "liveness": liveness_disagreements(text, found.verdicts),
            "outcomes": outcome_disagreements(text, shown),
            "whole fix": unscoped_fix_claims(text, kinds),
        }
        wrong[name] = {k: v for k, v in said.items() if v}
    for name, text in every_text().items():
        wrong.setdefault(name, {})
        if unscoped_stage_tables(text):
            wrong[name]["stage tables"] = unscoped_stage_tables(text)
        if "adk" in name or name == "README.md":
            adk = liveness_disagreements(text, adk_found.verdicts)
            if adk:
                wrong[name]["adk liveness"] = adk
    assert {n: w for n, w in wrong.items() if w} == {}
