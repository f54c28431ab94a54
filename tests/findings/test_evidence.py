"""Notebook 09's evidence: the rules this bug meets with their sources, and the stand-in's log."""

from __future__ import annotations

import json

from approval_compaction.lab.findings import evidence
from approval_compaction.wire import rules
from approval_compaction.wire.standin import Exchange


def test_evidence_rules_met_are_the_two_rules_then_the_unjudged_checks() -> None:
    shown = evidence.rules_met()
    assert list(shown.columns) == list(evidence.COLUMNS)
    assert list(shown["rule"]) == [
        rules.ORPHAN_OUTPUT.name,
        rules.OPEN_CALL_COMPACT.name,
        evidence.UNJUDGED,
        evidence.ORPHAN_IN_COMPACTION,
        evidence.OTHER_KINDS,
    ]
    orphan = shown.iloc[0]
    assert orphan["answer"] == f"{rules.ORPHAN_OUTPUT.status}: {rules.ORPHAN_OUTPUT.example}"
    for source in rules.ORPHAN_OUTPUT.sources:  # each source with what it shows
        assert f"{source.label}: {source.shows.replace('`', '')}" in orphan.iloc[4]
    assert shown.iloc[2]["answer"] == "not judged: the stand-in answers 200 with a compaction item"
    # r18: the compaction request holding an orphan output (08's `compaction_input_paired`) is a
    # row, not a third check in prose beside a table of two
    assert shown.iloc[3]["answer"].startswith("not judged: the stand-in answers 200")
    assert "/v1/responses only" in shown.iloc[3]["answer"]
    assert (
        shown.iloc[4]["answer"] == "not judged: the stand-in checks function calls and outputs only"
    )
    assert "workaround" not in shown.iloc[4]["what it checks"]  # the rule, not an aside
    # r15: a source that shows no status (the SDK's change history) is no evidence of the answer
    compact = shown.iloc[1].iloc[4]
    assert "#2317: 400" in compact and "#2322" not in compact and "#2343" not in compact
    assert not shown.map(lambda cell: "`" in cell).any().any()  # text, not markdown


def test_evidence_answered_drops_the_tools_and_joins_status_and_error() -> None:
    log = [
        Exchange(
            method="POST",
            path="/v1/responses",
            body={"input": "hi", "tools": [{"x": 1}]},
            status=200,
        ),
        Exchange(
            method="POST",
            path="/v1/responses/compact",
            body={"model": "m", "previous_response_id": "r1"},
            status=400,
            error="No tool output found for function call c1.",
        ),
    ]
    shown = evidence.answered(log)
    assert list(shown["endpoint"]) == ["/v1/responses", "/v1/responses/compact"]
    assert json.loads(shown.iloc[0]["body (without tools)"]) == {"input": "hi"}
    # r16: "400: message", as the rules table writes it
    assert list(shown["answer"]) == ["200", "400: No tool output found for function call c1."]
