"""The probe: which features a release has, by feature not by version, and what it writes.

A release's API is passed in (``api=``), so a test stands in for a release that lacks a part.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
from pathlib import Path
from typing import Any

import pytest

from approval_compaction.analysis.invariants import INVARIANTS
from approval_compaction.lab.releases import probe
from approval_compaction.lab.releases.sweep import UNAVAILABLE, release_meetings, release_records
from approval_compaction.study.capture import CaseRun, sdk_version
from approval_compaction.study.scenario import Case, all_cases, select_cases
from approval_compaction.study.words import MODELS, Model


def _api(**missing: None) -> argparse.Namespace:
    """The pinned SDK's API, with the named parts taken away."""
    return argparse.Namespace(**{**vars(probe.sdk_api()), **missing})


def _without_method(cls: type, name: str) -> type:
    kept = {k: v for k, v in vars(cls).items() if k != name and not k.startswith("__")}
    return type(cls.__name__, (), kept)


def test_missing_features_finds_nothing_missing_on_the_pinned_release() -> None:
    assert all(probe.missing_features(case, probe.sdk_api()) == [] for case in all_cases())


@pytest.mark.parametrize(
    ("api", "case", "missing"),
    [
        (
            {"OpenAIResponsesCompactionSession": None},
            Case(),
            [list(probe.RELEASE_FEATURES)[1]],
        ),
        (
            {"function_tool": lambda func=None, name_override=None: func},
            Case(),
            ["function_tool(needs_approval=...)"],
        ),
        ({"Runner": None}, Case(runner="run"), []),
        ({"Runner": None}, Case(runner="run_streamed"), ["Runner.run_streamed"]),
        ("to_json", Case(state_boundary="json"), ["RunState.to_json/from_json"]),
        ("to_json", Case(state_boundary="memory"), []),
    ],
    ids=[
        "no-compaction-session",
        "no-needs-approval",
        "run-without-runner-streamed",
        "streamed-needs-run-streamed",
        "json-needs-to-json",
        "memory-needs-no-json",
    ],
)
def test_missing_features_detects_by_feature(api: Any, case: Case, missing: list[str]) -> None:
    if api == "to_json":
        namespace = _api()
        namespace.RunState = _without_method(namespace.RunState, "to_json")
    else:
        namespace = _api(**api)
    assert probe.missing_features(case, namespace) == missing


def test_probe_records_cases_a_release_cannot_run_as_not_applicable() -> None:
    """A release without ``run_streamed`` is not skipped: its streamed cases say why."""
    api = _api()
    api.Runner = _without_method(api.Runner, "run_streamed")
    result = probe.probe(select_cases("decision=reject,state_boundary=memory"), api=lambda: api)
    rows = release_records(sdk_version(), result)
    streamed = {(r.status, r.holds, r.detail) for r in rows if r.runner != "run"}
    assert streamed == {("not applicable", None, "release lacks Runner.run_streamed")}
    ran = {r.status for r in rows if r.runner == "run"}
    assert ran <= {"holds", "violated"} and ran


def test_probe_reports_an_sdk_that_does_not_import_as_unavailable() -> None:
    def broken() -> None:
        raise ImportError("cannot import name 'Agent'")

    result = probe.probe(all_cases(), api=broken)
    records = release_records("9.9.9", result)
    assert {r.status for r in records} == {UNAVAILABLE}
    assert records[0].detail == "import agents failed: ImportError: cannot import name 'Agent'"
    assert len(records) == len(all_cases()) * len(INVARIANTS)


def _nothing() -> argparse.Namespace:
    """A release with none of the names the scenario uses."""
    return argparse.Namespace(
        **dict.fromkeys([*probe.API_NAMES, "OpenAIResponsesCompactionSession"])
    )


def test_missing_features_of_a_bare_release_lists_every_feature_in_order() -> None:
    missing = probe.missing_features(Case(runner="run_streamed"), _nothing())
    assert missing == [*probe.RELEASE_FEATURES, "Runner.run_streamed", "RunState.to_json/from_json"]


def test_missing_features_rejects_a_function_tool_that_cannot_take_the_keyword() -> None:
    api = _api(function_tool=lambda func=None, **kwargs: func)
    assert probe.missing_features(Case(), api) == []  # **kwargs accepts needs_approval
    api = _api(function_tool=len)  # a builtin whose signature says no keywords
    assert probe.missing_features(Case(), api) == ["function_tool(needs_approval=...)"]


def test_sdk_api_finds_every_name_on_the_pinned_release() -> None:
    api = probe.sdk_api()
    assert all(getattr(api, name) is not None for name in vars(api))
    assert set(vars(api)) == {*probe.API_NAMES, "OpenAIResponsesCompactionSession"}


def test_not_applicable_run_names_what_the_release_lacks() -> None:
    run = probe.not_applicable(Case(decision="reject"), "0.1.0", ["A", "B"])
    assert run == CaseRun(
        Case(decision="reject"), "0.1.0", [], 0, 0, not_applicable="release lacks A, B"
    )
    assert probe.not_applicable(Case(), "0.1.0", ["A"]).approvals == 1


def test_probe_of_a_release_lacking_everything_runs_no_case() -> None:
    """Every case is not applicable, so the harness (and the SDK's runner) is never called."""
    cases = select_cases("runner=run_streamed")
    result = probe.probe(cases, api=_nothing, modes=("input",))
    runs = [CaseRun.from_json(run) for run in result["runs"]]
    assert [run.case for run in runs] == cases
    assert all(run.stages == [] and run.not_applicable for run in runs)
    assert "Runner.run_streamed" in runs[0].not_applicable  # type: ignore[operator]
    for name in probe.DEPENDENCIES:
        assert result[name] == importlib.metadata.version(name)  # type: ignore[literal-required]


def test_probe_records_each_case_once_per_model_and_mode() -> None:
    """A release without ``run_streamed``: each case appears once for each model and mode it
    ran in; the matrix records are of the study's mode."""
    api = _api()
    api.Runner = _without_method(api.Runner, "run_streamed")
    cases = select_cases("decision=reject,compaction=off,state_boundary=memory")
    result = probe.probe(cases, api=lambda: api)
    keys = [(run["case"]["runner"], run["model"], run["mode"]) for run in result["runs"]]
    assert len(keys) == len(set(keys)), keys
    assert {mode for *_, mode in keys} == set(probe.PROBE_MODES)
    rows = release_records(sdk_version(), result)
    assert len(rows) == len(cases) * len(INVARIANTS)  # one record per case and invariant


def test_probe_unavailable_reason_is_cut_at_300_characters() -> None:
    def broken() -> Any:
        raise ImportError("x" * 400)

    result = probe.probe(all_cases(), api=broken)
    assert set(result) == {"unavailable"}
    assert len(result["unavailable"]) == 300
    assert result["unavailable"].startswith("import agents failed: ImportError: xxx")


def test_probe_main_writes_the_runs_of_the_selected_cases(tmp_path: Path) -> None:
    """Each selected case runs on the scripted model, and on the responses model when the
    wire's dependencies import (``wire`` says why not otherwise)."""
    output = tmp_path / "probe.json"
    spec = "runner=run,decision=reject,compaction=off,state_boundary=memory"
    assert probe.main(["--case", spec, "--modes", "input", "--output", str(output)]) == 0
    result = json.loads(output.read_text())
    for name in probe.DEPENDENCIES:
        assert result[name] == importlib.metadata.version(name)
    models = list(MODELS) if result["wire"] == "" else ["scripted"]
    runs = [CaseRun.from_json(run) for run in result["runs"]]
    assert [(run.case, run.model) for run in runs] == [
        (case, model) for model in models for case in select_cases(spec)
    ]
    assert all(run.error is None and run.sdk_version == sdk_version() for run in runs)
    statuses = [r.status for r in release_records(sdk_version(), result)]
    assert statuses == ["holds"] * len(INVARIANTS)  # one record per case and invariant


def test_probe_unavailable_reason_is_one_line() -> None:
    def broken() -> Any:
        raise ImportError("cannot import\n    name 'Agent'")

    result = probe.probe(all_cases(), api=broken)
    assert result["unavailable"] == "import agents failed: ImportError: cannot import name 'Agent'"


def test_probe_main_runs_the_modes_asked_for_in_their_order(tmp_path: Path) -> None:
    output = tmp_path / "probe.json"
    spec = "runner=run,decision=approve,compaction=on,state_boundary=memory"
    assert probe.main(["--case", spec, "--modes", "auto,input", "--output", str(output)]) == 0
    runs = [CaseRun.from_json(run) for run in json.loads(output.read_text())["runs"]]
    assert [(run.model, run.mode) for run in runs][:2] == [
        ("scripted", "auto"),
        ("scripted", "input"),
    ]
    refused = next(run for run in runs if run.mode == "auto")
    assert refused.stage("pause").outcome.endpoint == "/v1/responses/compact"  # type: ignore[union-attr]


def test_probe_main_an_unknown_mode_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        probe.main(["--modes", "sideways", "--output", str(tmp_path / "probe.json")])


def test_probe_continues_only_the_scripted_runs_of_the_study_mode() -> None:
    assert probe.continued("scripted", probe.STUDY_MODE, 10) == 10
    assert probe.continued("scripted", "auto", 10) == 0
    assert probe.continued("responses", probe.STUDY_MODE, 10) == 0


def test_probe_judges_the_continued_cases_and_runs_the_situations() -> None:
    """The scripted run in the study's mode goes on for the later turns asked for, so its
    records include both liveness invariants; given a poisoned history, every situation runs in
    both liveness modes and the lost output's open call pins nothing on the pinned release."""
    from approval_compaction.analysis.liveness import (
        LIVENESS_NAMES,
        LivenessRun,
        judge_liveness,
        session_usable,
    )
    from approval_compaction.lab.releases.later_turns import LIVENESS_MODES
    from approval_compaction.openai_agents.later_turns import poisoned_history
    from approval_compaction.openai_agents.situations import SITUATIONS

    case = Case("run", "approve", "on", "memory")
    result = probe.probe([case], modes=("input",), models=("scripted",), later=3,
                         poisoned=poisoned_history())  # fmt: skip
    (run,) = [CaseRun.from_json(r) for r in result["runs"]]
    assert (run.continued, len(run.later)) == (3, 3)
    rows = release_records(sdk_version(), result)
    assert [r.invariant for r in rows][-2:] == list(LIVENESS_NAMES)
    runs = [LivenessRun.from_json(r) for r in result["liveness"]]
    assert [(r.mode, r.scenario) for r in runs] == [
        (m, s) for m in LIVENESS_MODES for s in SITUATIONS
    ]
    assert all(len(r.turns) == 3 and not r.error for r in runs)
    clean = next(r for r in runs if (r.scenario, r.mode) == ("clean", "input"))
    assert [v.holds for v in judge_liveness(clean)] == [True, True]
    # the situations answer as the API does: the poisoned store's later turns raise its 400
    assert {r.model for r in runs} == {"responses"}
    poisoned = [r for r in runs if r.scenario == "poisoned"]
    assert poisoned and all(session_usable(r).holds is False for r in poisoned)
    assert all("No tool call found" in t.raised for r in poisoned for t in r.turns)


def test_probe_situations_on_the_scripted_model_by_name_predict_the_refusal() -> None:
    """``--liveness-model scripted``: the scripted model answers every poisoned later turn, the
    first one flagged with the stand-in's prediction of the API's 400."""
    from approval_compaction.analysis.liveness import PREDICTED, LivenessRun
    from approval_compaction.openai_agents.later_turns import poisoned_history

    found = probe.situations(poisoned_history(), [], sdk_version(), 2, "scripted", jobs=1)
    runs = [LivenessRun.from_json(r) for r in found]
    assert {r.model for r in runs} == {"scripted"}
    poisoned = [r for r in runs if r.scenario == "poisoned"]
    assert poisoned and all(r.turns[0].raised.startswith(PREDICTED) for r in poisoned)
    assert all(t.met == "answered" for r in poisoned for t in r.turns[1:])


def test_probe_situations_shared_between_forked_copies_are_the_same_runs() -> None:
    from approval_compaction.openai_agents.later_turns import poisoned_history

    history = poisoned_history()
    alone = probe.situations(history, [], sdk_version(), 1, jobs=1)
    assert probe.situations(history, [], sdk_version(), 1, jobs=2) == alone


def test_probe_situations_on_a_release_lacking_everything_say_what_is_missing() -> None:
    result = probe.probe(all_cases()[:1], api=_nothing, modes=("input",), poisoned=[])
    from approval_compaction.analysis.liveness import LivenessRun

    runs = [LivenessRun.from_json(r) for r in result["liveness"]]
    assert runs and all(r.error.startswith("release lacks ") and not r.turns for r in runs)
    (run,) = [CaseRun.from_json(r) for r in result["runs"]]
    assert run.continued == probe.LATER_TURNS  # its liveness records are there, not judged


def test_probe_main_a_negative_later_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        probe.main(["--later", "-1", "--output", str(tmp_path / "probe.json")])


@pytest.mark.parametrize(
    ("runnable", "lean", "expected"),
    [
        (
            ("scripted", "responses"),
            False,
            [(m, mode) for m in MODELS for mode in probe.PROBE_MODES],
        ),
        (
            ("scripted", "responses"),
            True,
            [("scripted", "input")] + [("responses", mode) for mode in probe.PROBE_MODES],
        ),
        (("scripted",), True, [("scripted", mode) for mode in probe.PROBE_MODES]),
    ],
    ids=["every-run", "lean-with-http", "lean-without-http"],
)
def test_plan_leaves_out_only_the_scripted_modes_the_sweep_does_not_keep(
    runnable: tuple[Model, ...], lean: bool, expected: list[tuple[str, str]]
) -> None:
    """Lean, the scripted model keeps its other modes where it is all the release can run:
    the meetings of such a release come from them."""
    assert probe.plan(runnable, probe.PROBE_MODES, lean) == expected


def test_lean_probe_runs_are_the_full_probe_runs_the_sweep_keeps() -> None:
    cases = select_cases("runner=run,decision=reject,compaction=on,state_boundary=json")
    full, lean = probe.probe(cases, later=2), probe.probe(cases, later=2, lean=True)
    kept = [r for r in full["runs"] if r["model"] == "responses" or r["mode"] == "input"]
    assert lean["runs"] == kept
    assert release_records(sdk_version(), lean) == release_records(sdk_version(), full)
    assert release_meetings(lean) == release_meetings(full)
