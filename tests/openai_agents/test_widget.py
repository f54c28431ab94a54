"""The stepper: each stage shows the views' tables, runs are cached, bad input is one line."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from approval_compaction.display.views import (
    compaction_table,
    sent_table,
    stage_diff,
    stage_table,
)
from approval_compaction.fix.workaround import defer_compaction_while_pending
from approval_compaction.lab.share.notebooks import WIDGET_VIEW
from approval_compaction.openai_agents.harness import run_case
from approval_compaction.openai_agents.widget import NO_WORKAROUND, Stepper, Variant, stage_html
from approval_compaction.openai_agents.wiring import responses_backend, scripted_backend
from approval_compaction.study.capture import STAGES, CaseRun
from approval_compaction.study.scenario import Case


@pytest.fixture(scope="module")
def violating() -> CaseRun:
    return run_case(Case(compaction="on"))


class CountingRunner:
    """A fake runner: records each (case, wrapper, backend) it is asked for, returns a canned
    run."""

    def __init__(self, make: Callable[[Case], CaseRun]) -> None:
        self.make = make
        self.calls: list[tuple[Case, Any, Any]] = []

    def __call__(self, case: Case, wrapper: Any, backend: Any) -> CaseRun:
        self.calls.append((case, wrapper, backend))
        return self.make(case)


def empty_run(case: Case) -> CaseRun:
    return CaseRun(case, "0.0.0", [], approvals=0, dispatches=0)


def failed_run(case: Case) -> CaseRun:
    error = "AttributeError: 'RunState' object has no attribute\n'get_interruptions'"
    return CaseRun(case, "0.0.0", [], approvals=0, dispatches=0, error=error)


def rows(page: str, section: str) -> int:
    found = re.search(rf'data-section="{section}" data-rows="(\d+)"', page)
    assert found is not None, f"no {section} section"
    return int(found.group(1))


@pytest.mark.parametrize("stage", STAGES)
def test_stepper_stage_shows_the_views_tables(violating: CaseRun, stage: Any) -> None:
    stepper = Stepper(violating)
    stepper.stages.value = stage
    page = stepper.tables.value
    assert f'data-stage="{stage}"' in page
    sent = len(sent_table(violating, stage))
    assert rows(page, "stored") == len(stage_table(violating, stage))
    assert rows(page, "sent") == sent
    assert rows(page, "compaction") == len(compaction_table(violating, stage))
    assert rows(page, "diff") == (len(stage_diff(violating, stage)) if sent else 0)
    for call_id in stage_table(violating, stage)["call_id"]:
        assert call_id in page


def test_stepper_marks_pairing_faults_where_the_views_find_them(violating: CaseRun) -> None:
    page = stage_html(violating, "next_turn")
    assert "✗ pairing faults: " in page
    assert "to model: orphan outputs pending-c1" in page
    assert "orphan output</td>" in page  # the status column of the model request
    assert "background-color: #f5b7b1" in page  # and its colour, a local extra
    assert "✓ no pairing fault" in stage_html(violating, "round_trip")


def test_stepper_reuses_the_given_run_and_runs_each_case_once(violating: CaseRun) -> None:
    runner = CountingRunner(lambda case: violating if case == violating.case else empty_run(case))
    stepper = Stepper(violating, execute=runner)
    for _ in range(3):
        for stage in STAGES:
            stepper.stages.value = stage
        stepper.controls["decision"].value = "reject"
        stepper.controls["decision"].value = "approve"
    assert runner.calls == [(Case(decision="reject"), None, scripted_backend)]


def test_stepper_passes_the_chosen_workaround_to_the_runner(violating: CaseRun) -> None:
    runner = CountingRunner(empty_run)
    stepper = Stepper(violating, workaround=defer_compaction_while_pending, execute=runner)
    assert stepper.controls["workaround"].options == (
        NO_WORKAROUND,
        "defer_compaction_while_pending",
    )
    stepper.controls["workaround"].value = "defer_compaction_while_pending"
    assert runner.calls == [(violating.case, defer_compaction_while_pending, scripted_backend)]
    assert "workaround defer_compaction_while_pending" in stepper.message.value


def test_stepper_passes_the_chosen_model_transport_to_the_runner(violating: CaseRun) -> None:
    runner = CountingRunner(empty_run)
    stepper = Stepper(violating, execute=runner)
    assert stepper.controls["model"].options == ("scripted", "responses")
    stepper.controls["model"].value = "responses"
    assert runner.calls == [(violating.case, None, responses_backend)]
    assert "model responses, workaround none" in stepper.message.value


def test_stepper_over_http_shows_the_same_orphan_in_the_next_turn(violating: CaseRun) -> None:
    stepper = Stepper(violating)
    stepper.controls["model"].value = "responses"
    stepper.stages.value = "next_turn"
    assert "model responses" in stepper.message.value
    assert "to model: orphan outputs pending-c1" in stepper.tables.value


def test_stepper_with_the_workaround_shows_a_paired_next_turn(violating: CaseRun) -> None:
    stepper = Stepper(violating, workaround=defer_compaction_while_pending)
    stepper.controls["workaround"].value = "defer_compaction_while_pending"
    stepper.stages.value = "next_turn"
    assert "every invariant holds" in stepper.message.value
    assert "✓ no pairing fault" in stepper.tables.value


@pytest.mark.parametrize(
    ("choices", "expected"),
    [
        ({"decision": "maybe"}, "unknown decision &#x27;maybe&#x27;"),
        ({"colour": "red"}, "unknown case field &#x27;colour&#x27;"),
    ],
    ids=["bad-value", "bad-field"],
)
def test_stepper_bad_choice_is_one_line_in_the_widget(
    choices: dict[str, str], expected: str
) -> None:
    runner = CountingRunner(empty_run)
    stepper = Stepper(choices=choices, execute=runner)
    assert stepper.message.value.startswith("<b>error</b>: ")
    assert expected in stepper.message.value
    assert "\n" not in stepper.message.value and "Traceback" not in stepper.message.value
    assert stepper.tables.value == "" and runner.calls == []


def test_stepper_case_the_sdk_cannot_run_is_one_line_in_the_widget() -> None:
    stepper = Stepper(execute=CountingRunner(failed_run))
    message = stepper.message.value
    assert "did not run on openai-agents 0.0.0: AttributeError" in message
    assert "\n" not in message
    stepper.stages.value = "resume"
    assert 'class="ac-not-reached"' in stepper.tables.value
    assert "Stage resume was not reached" in stepper.tables.value


def test_stepper_runner_that_raises_is_one_line_in_the_widget() -> None:
    def broken(case: Case, wrapper: Any, backend: Any) -> CaseRun:
        raise RuntimeError("the scripted model\nran out of steps")

    stepper = Stepper(execute=broken)
    assert stepper.message.value == (
        "<b>error</b>: RuntimeError: the scripted model ran out of steps"
    )


def test_stepper_previous_and_next_stop_at_either_end(violating: CaseRun) -> None:
    stepper = Stepper(violating)
    stepper.step(-1)
    assert stepper.stages.value == "pause"
    for _ in STAGES:
        stepper.next.click()
    assert stepper.stages.value == "next_turn"
    assert 'data-stage="next_turn"' in stepper.tables.value
    stepper.previous.click()
    assert stepper.stages.value == "resume"


def test_stepper_text_is_stable_and_its_widget_view_is_what_sanitise_drops(
    violating: CaseRun,
) -> None:
    first, second = Stepper(violating)._repr_mimebundle_(), Stepper(violating)._repr_mimebundle_()
    assert first["text/plain"] == second["text/plain"]
    assert "run/approve/on/json" in first["text/plain"]
    assert first[WIDGET_VIEW]["model_id"] != second[WIDGET_VIEW]["model_id"]


def test_stepper_renders_every_stage_when_a_case_is_chosen(violating: CaseRun) -> None:
    stepper = Stepper(violating)
    assert sorted(name for _, _, name in stepper.cache.pages) == sorted(STAGES)
    pages = dict(stepper.cache.pages)
    for stage in STAGES:
        stepper.stages.value = stage
        assert stepper.tables.value is pages[(violating.case, Variant(), stage)]
