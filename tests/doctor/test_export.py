"""Export: a session's items as JSON (getItems() in JS, get_items() in Python), judged, healed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from approval_compaction.cli import main
from approval_compaction.doctor.export import ExportError, judge_export, read_export
from approval_compaction.js.harness import Plan, run_plan
from approval_compaction.lab import paths
from approval_compaction.study.scenario import Case
from approval_compaction.wire.rules import orphan_output

USER = {"type": "message", "role": "user", "content": "first question"}
NEXT = {"type": "message", "role": "user", "content": "next question"}
ANSWER = {
    "type": "message",
    "role": "assistant",
    "status": "completed",
    "content": [{"type": "output_text", "text": "stand-in answer"}],
}
# What @openai/agents stores after a compacted pause and the resume: the compaction item, then
# the decision's output without its call (notebook 11 shows the run that stores it).
COMPACTION = {"type": "compaction", "encrypted_content": "summary", "providerData": {"id": "c1"}}
JS_OUTPUT = {
    "type": "function_call_result",
    "name": "protected_lookup",
    "callId": "call_standin_1",
    "status": "completed",
    "output": {"type": "text", "text": "looked up x"},
}
JS_CALL = {
    "type": "function_call",
    "callId": "call_standin_2",
    "name": "protected_lookup",
    "status": "completed",
    "arguments": '{"value":"y"}',
}
PY_OUTPUT = {"type": "function_call_output", "call_id": "pending-c1", "output": "looked up x"}
POISONED_JS = [USER, COMPACTION, JS_OUTPUT, NEXT]


def _write(folder: Path, items: object, name: str = "export.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(items))
    return path


def test_export_of_a_poisoned_js_session_names_the_apis_refusal_and_heals_in_js_shape(
    tmp_path: Path,
) -> None:
    judged = judge_export(read_export(_write(tmp_path, POISONED_JS)))
    assert judged.export.sdk == "js"
    assert (judged.report.verdict, judged.report.orphan_outputs) == (
        "poisoned",
        ("call_standin_1",),
    )
    assert judged.refused == orphan_output("call_standin_1")
    (rewrite,) = judged.rewrites
    assert rewrite.position == 2 and rewrite.before == JS_OUTPUT
    assert rewrite.after == {
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [
            {
                "type": "output_text",
                "text": "[doctor] The tool call call_standin_1 returned: looked up x",
            }
        ],
    }
    healed = judged.healed()
    assert healed[:2] == POISONED_JS[:2] and healed[3] == NEXT
    again = judge_export(read_export(_write(tmp_path, healed, "healed.json")))
    assert (again.report.verdict, again.refused, again.rewrites) == ("healthy", None, ())


def test_export_of_a_python_session_heals_as_doctor_repair_does(tmp_path: Path) -> None:
    """The Python SDK's items are the wire's: the rewrite is repair's easy message."""
    items = [{"role": "user", "content": "q"}, PY_OUTPUT, {"role": "user", "content": "next"}]
    judged = judge_export(read_export(_write(tmp_path, items)))
    assert judged.export.sdk == "python"
    assert judged.refused == orphan_output("pending-c1")
    assert judged.healed()[1] == {
        "role": "assistant",
        "content": "[doctor] The tool call pending-c1 returned: looked up x",
    }


def test_export_with_a_dead_js_call_is_stuck_and_retired_not_refused(tmp_path: Path) -> None:
    """A call nobody answered that the user moved on from: the API takes the next turn (the
    SDK leaves the call out), but it pins the history; the healed list retires it as text."""
    judged = judge_export(read_export(_write(tmp_path, [USER, JS_CALL, NEXT, ANSWER])))
    assert (judged.report.verdict, judged.refused) == ("stuck", None)
    (rewrite,) = judged.rewrites
    assert rewrite.position == 1 and rewrite.after["content"][0]["text"].startswith(
        "[doctor] The tool call call_standin_2 (protected_lookup"
    )


def test_export_mixing_both_sdks_is_one_line_unless_told_which(tmp_path: Path) -> None:
    path = _write(tmp_path, [JS_OUTPUT, PY_OUTPUT])
    with pytest.raises(ExportError, match=r"mixes the JS SDK's items \(item 0\) with the Python"):
        read_export(path)
    assert read_export(path, "python").sdk == "python"
    assert read_export(path, "js").sdk == "js"


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "cannot read {path}: No such file or directory"),
        ("[{", "{path} is not JSON: "),
        ('{"items": []}', "{path} is not a JSON list of items (it holds a dict)"),
        ('[{"role": "user"}, "text"]', "item 1 of {path} is not a JSON object (a str)"),
        ("[" * 100_000 + "]" * 100_000, "{path} is nested deeper than the JSON parser goes"),
    ],
    ids=["missing", "not-json", "object", "not-an-item", "nested"],
)
def test_bad_export_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, said: str
) -> None:
    path = tmp_path / "export.json"
    if content is not None:
        path.write_text(content)
    assert main(["doctor", "items", str(path), "--output", str(tmp_path / "out.json")]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("error: " + said.format(path=path))
    assert not (tmp_path / "out.json").exists()


def test_items_writes_the_healed_list_only_where_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = _write(tmp_path, POISONED_JS)
    before = export.read_bytes()
    assert main(["doctor", "items", str(export)]) == 0
    assert "dry run: 1 item rewritten" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export.json"]
    healed = tmp_path / "healed.json"
    assert main(["doctor", "items", str(export), "--output", str(healed)]) == 0
    assert export.read_bytes() == before
    written = json.loads(healed.read_text())
    assert written == judge_export(read_export(export)).healed()
    healed.write_text("kept")
    assert main(["doctor", "items", str(export), "--output", str(healed)]) == 2
    assert healed.read_text() == "kept"
    assert "already exists: pass --force" in capsys.readouterr().err
    assert main(["doctor", "items", str(export), "--output", str(healed), "--force"]) == 0
    assert json.loads(healed.read_text()) == written
    assert main(["doctor", "items", str(export), "--output", str(export)]) == 2
    assert "is the export itself: pass --in-place" in capsys.readouterr().err
    assert export.read_bytes() == before
    assert main(["doctor", "items", str(export), "--in-place", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["verdict"], report["written"]) == ("poisoned", str(export))
    assert report["refused"]["message"] == orphan_output("call_standin_1").message
    assert json.loads(export.read_text()) == written
    assert main(["doctor", "items", str(export), "--in-place"]) == 0
    assert capsys.readouterr().out.endswith("left as it is\n")


@pytest.mark.subprocess
@pytest.mark.enable_socket
@pytest.mark.usefixtures("node_harness")
def test_the_js_sdk_is_refused_on_the_export_and_answers_on_the_healed_list(
    tmp_path: Path,
) -> None:
    """The pinned @openai/agents, its session holding the export: the poisoned list makes the
    API refuse the next question with the text the doctor named; the healed list, loaded as
    it is, pauses, resumes and answers."""
    export = _write(tmp_path, POISONED_JS)
    judged = judge_export(read_export(export))
    case = Case("run", "approve", "off", "memory")
    (poisoned,) = run_plan(Plan("input", cases=(case,), history=tuple(POISONED_JS)), paths.ROOT)
    pause = poisoned.stage("pause")
    assert pause is not None and judged.refused is not None
    assert (pause.outcome.http_status, pause.outcome.api_message) == (400, judged.refused.message)
    (healed,) = run_plan(Plan("input", cases=(case,), history=tuple(judged.healed())), paths.ROOT)
    assert healed.error is None
    assert [(s.name, s.outcome.ok) for s in healed.stages] == [
        ("pause", True), ("round_trip", True), ("resume", True), ("next_turn", True)]  # fmt: skip
