"""The notebooks' answer lines: each renders a record of the notebook's own runs."""

from __future__ import annotations

import pytest
from factories import make_run

from approval_compaction.fix.workaround import defer_compaction_while_pending
from approval_compaction.lab.findings.answers import seen_sentence, variant_summary
from approval_compaction.lab.findings.matrix import Failure, Seen
from approval_compaction.openai_agents.harness import run_matrix
from approval_compaction.study.capture import CaseRun
from approval_compaction.study.scenario import all_cases, select_cases

ALL = [make_run(case, result=case.decision) for case in all_cases()]
CASES = "runner=run,state_boundary=json,decision=reject"


@pytest.fixture(scope="module")
def variants() -> dict[str, list[CaseRun]]:
    cases = select_cases(CASES)
    return {
        "unfixed": run_matrix(cases),
        "workaround": run_matrix(cases, wrap_session=defer_compaction_while_pending),
    }


def test_answers_variant_summary_counts_verdicts_and_compactions(
    variants: dict[str, list[CaseRun]],
) -> None:
    table = variant_summary(variants)
    # the compaction-on case breaks five: four on pairing, and the next turn is not accepted
    assert table.loc["unfixed", "results breaking"] == 5
    assert table.loc["workaround", "results breaking"] == 0
    assert table.loc["unfixed", "results holding"] + 5 == table.loc["workaround", "results holding"]
    assert table.loc["unfixed", "compaction requests"] == 2
    assert table.loc["workaround", "compaction requests"] == 1
    assert table["cases with compaction on never compacting"].tolist() == [0, 0]


def test_seen_sentence_carries_each_error_and_the_agreement() -> None:
    failure = Failure("next_turn", "openai.BadRequestError", 400, "No tool call found")
    text = seen_sentence(Seen(4, 2, (failure,), True, 3))
    assert text.startswith("2 of 4 cases")
    assert all(str(fact) in text for fact in (failure.exception, 400, failure.message))
    assert "in 3 of 4 cases" in text
