"""Export: a session's items as JSON (getItems() in JS, get_items() in Python), judged, healed."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from approval_compaction.cli import main
from approval_compaction.doctor.export import ExportError, judge_export, not_regular, read_export
from approval_compaction.doctor.status import AFFECTED, HEALED, HEALTHY
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
        ("[" * 100_000 + "]" * 100_000, "item 0 of {path} is not a JSON object (a list)"),
        ("[NaN]", "{path} is not JSON: "),
        ('[{"a": 1},]', "{path} is not JSON: "),
    ],
    ids=["missing", "not-json", "object", "not-an-item", "nested", "nan", "trailing-comma"],
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
    """Issue 60: the dry run on a poisoned export exited 0; it is affected (4), a written
    healed list is healed (1), and the healed list itself is healthy (0)."""
    export = _write(tmp_path, POISONED_JS)
    before = export.read_bytes()
    assert main(["doctor", "items", str(export)]) == AFFECTED
    assert "dry run: 1 item rewritten" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export.json"]
    healed = tmp_path / "healed.json"
    assert main(["doctor", "items", str(export), "--output", str(healed)]) == HEALED
    assert export.read_bytes() == before
    written = json.loads(healed.read_text())
    assert written == judge_export(read_export(export)).healed()
    healed.write_text("kept")
    assert main(["doctor", "items", str(export), "--output", str(healed)]) == 2
    assert healed.read_text() == "kept"
    assert "already exists: pass --force" in capsys.readouterr().err
    assert main(["doctor", "items", str(export), "--output", str(healed), "--force"]) == HEALED
    assert json.loads(healed.read_text()) == written
    assert main(["doctor", "items", str(healed)]) == HEALTHY
    assert main(["doctor", "items", str(export), "--output", str(export)]) == 2
    assert "is the export itself: pass --in-place" in capsys.readouterr().err
    assert export.read_bytes() == before
    assert main(["doctor", "items", str(export), "--in-place", "--format", "json"]) == HEALED
    report = json.loads(capsys.readouterr().out)
    assert (report["verdict"], report["written"]) == ("poisoned", str(export))
    assert report["refused"]["message"] == orphan_output("call_standin_1").message
    assert json.loads(export.read_text()) == written
    assert main(["doctor", "items", str(export), "--in-place"]) == HEALTHY
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


def _items_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """``doctor items ARGV``: exit 2 and one ``error:`` line, which is returned."""
    assert main(["doctor", "items", *argv]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("error: ")
    return line


def test_a_non_utf8_export_is_one_line_naming_the_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 57: bytes that are not UTF-8 (a Latin-1 é) ended in a UnicodeDecodeError
    traceback."""
    path = tmp_path / "export.json"
    path.write_bytes(b'[{"role": "user", "content": "caf\xe9"}]')
    line = _items_line([str(path)], capsys)
    assert line == (
        f"error: {path} is not UTF-8 text (byte 0xe9 at offset 33: invalid continuation "
        "byte): export it as UTF-8, which JSON requires"
    )


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-32"])
def test_an_export_with_a_byte_order_mark_is_read_as_its_encoding(
    tmp_path: Path, encoding: str
) -> None:
    """What a Windows shell writes for ``node -e ... > items.json`` (a byte-order mark, or
    UTF-16): read as JSON allows, judged as the same items in UTF-8."""
    path = tmp_path / "export.json"
    path.write_bytes(json.dumps(POISONED_JS).encode(encoding))
    judged = judge_export(read_export(path))
    assert judged.export.items == POISONED_JS and judged.report.verdict == "poisoned"


def test_a_lone_surrogate_is_read_judged_and_written_back_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 57: ``JSON.stringify`` writes a string cut inside a surrogate pair as a lone
    ``\\ud83d`` escape; the export was refused as "not JSON" though JSON allows it and Python's
    ``json`` reads it. Judged and healed, the healed list keeps the escape (what JS reads back
    as the same string)."""
    cut = {**JS_OUTPUT, "output": {"type": "text", "text": "half \ud83d"}}
    path = tmp_path / "export.json"
    path.write_text(json.dumps([USER, COMPACTION, cut, NEXT]), encoding="ascii")
    healed = tmp_path / "healed.json"
    assert main(["doctor", "items", str(path), "--output", str(healed)]) == HEALED
    assert "poisoned" in capsys.readouterr().out
    assert b"\\ud83d" in healed.read_bytes()
    text = json.loads(healed.read_text(encoding="ascii"))[2]["content"][0]["text"]
    assert text == "[doctor] The tool call call_standin_1 returned: half \ud83d"


def test_a_fifo_is_refused_at_once_and_nothing_waits_on_a_writer(tmp_path: Path) -> None:
    """Issue 57: ``doctor items`` on a named pipe waited for a writer for ever."""
    fifo = tmp_path / "export.json"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "approval_compaction", "doctor", "items", str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr.strip()) == (
        2,
        f"error: {fifo} is a named pipe (FIFO), not a file: write the export to a file first",
    )


@pytest.mark.parametrize(
    ("mode", "said"),
    [(stat.S_IFCHR | 0o666, "a character device"), (stat.S_IFBLK | 0o600, "a block device"),
     (stat.S_IFIFO | 0o600, "a named pipe (FIFO)"), (stat.S_IFDIR | 0o755, "a folder"),
     (stat.S_IFLNK | 0o777, "a symbolic link"), (stat.S_IFREG | 0o644, None)],
    ids=["char-device", "block-device", "fifo", "folder", "symlink", "file"],
)  # fmt: skip
def test_not_regular_names_what_a_file_is(mode: int, said: str | None) -> None:
    assert not_regular(mode) == said


@pytest.mark.parametrize("kind", ["fifo", "symlink", "folder"])
def test_output_force_replaces_nothing_but_a_regular_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """Issue 57: ``--output X --force`` renamed the healed list over whatever X was, a device
    node included (as root, ``/dev/null``). A FIFO, a symbolic link (to the device) and a
    folder stand for it here: each is refused in one line and left as it was."""
    export = _write(tmp_path, POISONED_JS)
    target = tmp_path / "target"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        target.symlink_to("/dev/null")
    else:
        target.mkdir()
    before = target.lstat()
    line = _items_line([str(export), "--output", str(target), "--force"], capsys)
    what = {"fifo": "a named pipe (FIFO)", "symlink": "a symbolic link", "folder": "a folder"}
    assert line == (
        f"error: --output {target} is {what[kind]}: the doctor replaces only a regular file"
    )
    after = target.lstat()
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export.json", "target"]


def test_in_place_through_a_symbolic_link_heals_the_file_and_keeps_the_link(
    tmp_path: Path,
) -> None:
    export = _write(tmp_path, POISONED_JS)
    link = tmp_path / "link.json"
    link.symlink_to(export.name)
    assert main(["doctor", "items", str(link), "--in-place"]) == HEALED
    assert link.is_symlink() and judge_export(read_export(export)).report.verdict == "healthy"


@pytest.mark.parametrize("asked", ["python", "js"])
def test_an_sdk_the_items_contradict_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], asked: str
) -> None:
    """Issue 57: ``--sdk python`` on a poisoned JS export read ``callId`` as no pairing key
    and answered healthy; ``--sdk js`` on a Python export read it the other way."""
    items = POISONED_JS if asked == "python" else [USER, PY_OUTPUT]
    path = _write(tmp_path, items)
    line = _items_line([str(path), "--sdk", asked], capsys)
    other = "js" if asked == "python" else "python"
    assert line.startswith(f"error: --sdk {asked}, but {path} holds the ")
    assert line.endswith(f"pass --sdk {other} or auto")


def test_an_output_nested_1000_deep_is_read_judged_and_healed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 57: an output nested 1,000 deep was refused ("nested deeper than the JSON parser
    goes"), so the session could not be healed. Its item is judged from its top-level fields;
    the rewrite quotes the deep value's text, and an item kept keeps its own text, deep too."""
    deep = "[" * 1000 + "]" * 1000
    paired = {"type": "function_call", "callId": "c0", "name": "t", "arguments": "{}"}
    answer = '{"type": "function_call_result", "callId": "c0", "output": ' + deep + "}"
    orphan = '{"type": "function_call_result", "callId": "gone", "output": ' + deep + "}"
    items = [json.dumps(USER), json.dumps(paired), answer, json.dumps(COMPACTION), orphan]
    path = tmp_path / "export.json"
    path.write_text("[" + ", ".join(items) + "]")
    healed = tmp_path / "healed.json"
    assert main(["doctor", "items", str(path), "--output", str(healed)]) == HEALED
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: 5 @openai/agents items, poisoned")
    written = healed.read_text()
    assert answer in written and orphan not in written
    again = judge_export(read_export(healed))
    assert (again.report.verdict, again.export.texts is not None) == ("healthy", True)
    (rewrite,) = judge_export(read_export(path)).rewrites
    assert rewrite.position == 4
    assert rewrite.after["content"][0]["text"] == f"[doctor] The tool call gone returned: {deep}"


@pytest.mark.parametrize(
    ("kind", "said"),
    [("function", "the next turn is refused: HTTP 400 No tool call found for function call "
      "output with call_id call_standin_1."),
     ("shell", "the next turn is refused: No tool call found for shell call output with "
      "call_id call_standin_1. (the status is not shown: vercel/ai#18134)"),
     ("apply_patch", "the next turn sends apply_patch_call_output call_standin_1 without its "
      "call: no public source shows what the API answers it"),
     ("computer", "the next turn sends computer_call_output call_standin_1 without its call: "
      "no public source shows what the API answers it")],
    ids=["function", "shell", "apply_patch", "computer"],
)  # fmt: skip
def test_each_kinds_orphan_output_names_the_apis_answer_or_says_it_is_unknown(
    kind: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 57: the runner's real exports of an approved call whose pause compacted it away
    (tests/doctor/exports): a function output was named with the API's refusal, while computer,
    shell and apply_patch outputs were judged poisoned with nothing said of the API's answer."""
    export = paths.DOCTOR_EXPORTS / f"js-0.20.0-{kind}-approve-compaction-on.json"
    assert main(["doctor", "items", str(export)]) == AFFECTED
    lines = capsys.readouterr().out.splitlines()
    assert "poisoned" in lines[0] and lines[1] == said
    assert main(["doctor", "items", str(export), "--format", "json"]) == AFFECTED
    refused = json.loads(capsys.readouterr().out)["refused"]
    assert refused["call_id"] == "call_standin_1"
    assert (refused["message"] is None) == (kind in ("apply_patch", "computer"))
    assert bool(refused["sources"]) == (kind in ("function", "shell"))
