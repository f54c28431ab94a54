"""Every notebook runs without errors and reproduces its committed outputs exactly."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from approval_compaction.lab import paths
from approval_compaction.lab.share.notebooks import (
    WIDGET_VIEW,
    NotebookError,
    dumps,
    execute,
    execute_in_place,
    notebook_paths,
    sanitise,
)

NOTEBOOKS = notebook_paths(paths.NOTEBOOKS)
MAX_BYTES = 1_000_000  # GitHub stops rendering notebooks around 1 MB


def test_notebooks_exist() -> None:
    assert [p.name for p in NOTEBOOKS][:3] == [
        "01-walkthrough.ipynb",
        "02-stored-vs-sent.ipynb",
        "03-inside-the-sdk.ipynb",
    ]


@pytest.mark.notebooks
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebooks_reexecution_equals_committed(path: Path) -> None:
    """Restart & Run All gives the committed outputs, byte for byte, with no error output."""
    fresh = dumps(execute(path))
    assert '"output_type": "error"' not in fresh
    assert fresh == path.read_text(), f"{path.name} differs from a fresh execution: run `make run`"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebooks_stay_small_and_free_of_machine_details(path: Path) -> None:
    text = path.read_text()
    assert len(text.encode()) < MAX_BYTES
    for leak in ("/tmp/", "approval-compaction-", " at 0x", 'execution_count": null'):
        assert leak not in text, f"{path.name} contains {leak!r}"


@pytest.mark.notebooks
def test_notebooks_failing_cell_is_one_line_error_and_keeps_the_file(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("1 + 1"), nbformat.v4.new_code_cell("raise KeyError('x')")]
    )
    path = tmp_path / "99-broken.ipynb"
    path.write_text(nbformat.writes(nb))
    before = path.read_bytes()
    with pytest.raises(NotebookError, match=r"^99-broken.ipynb failed: KeyError: 'x'$"):
        execute_in_place(path)
    assert path.read_bytes() == before


def test_notebooks_sanitise_drops_widget_views_and_keeps_their_text() -> None:
    """A widget's view names a random model id; the committed output is its text/plain."""
    view = {"version_major": 2, "version_minor": 0, "model_id": "a1b2c3"}
    data = {"text/plain": "Stepper at run/approve/on/json", WIDGET_VIEW: view}
    output = nbformat.v4.new_output("execute_result", data, execution_count=1)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("ac.stepper()")])
    nb.cells[0].outputs = [output]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    clean = sanitise(nb)
    assert clean.cells[0].outputs[0]["data"] == {"text/plain": "Stepper at run/approve/on/json"}
    assert "widgets" not in clean.metadata


def test_notebooks_sanitise_joins_a_stream_split_across_messages() -> None:
    """A print may arrive as its text and its newline apart; either way the output is one."""
    split = [
        nbformat.v4.new_output("stream", name="stdout", text="0: ask"),
        nbformat.v4.new_output("stream", name="stdout", text="\n"),
        nbformat.v4.new_output("stream", name="stderr", text="warning\n"),
        nbformat.v4.new_output("stream", name="stdout", text="1: next\n"),
    ]
    whole = [
        nbformat.v4.new_output("stream", name="stdout", text="0: ask\n"),
        nbformat.v4.new_output("stream", name="stderr", text="warning\n"),
        nbformat.v4.new_output("stream", name="stdout", text="1: next\n"),
    ]
    cells = [nbformat.v4.new_code_cell("print()", outputs=outputs) for outputs in (split, whole)]
    one, two = (sanitise(nbformat.v4.new_notebook(cells=[cell])) for cell in cells)
    assert one.cells[0].outputs == two.cells[0].outputs
    assert [o["text"] for o in one.cells[0].outputs] == ["0: ask\n", "warning\n", "1: next\n"]


def _cells(path: Path) -> list[nbformat.NotebookNode]:
    return list(nbformat.read(path, as_version=4).cells)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebooks_teach_predict_then_show_and_end_with_try_this_and_going_deeper(
    path: Path,
) -> None:
    cells = _cells(path)
    prose = [c.source for c in cells if c.cell_type == "markdown"]
    headings = [line for text in prose for line in text.splitlines() if line.startswith("## ")]
    assert headings[-2:] == ["## Try this", "## Going deeper"], f"{path.name} ends {headings[-2:]}"
    asks = [i for i, c in enumerate(cells) if c.cell_type == "markdown" and "redict" in c.source]
    assert asks, f"{path.name} never asks the reader to predict"
    assert any(c.cell_type == "code" for c in cells[asks[0] + 1 :]), "a prediction is then shown"


def test_notebooks_walkthrough_opens_with_plain_sdk_calls_before_any_helper() -> None:
    """Notebook 01's bare reproduction uses the SDK alone, bar the stand-in client (and a
    table's title, and the stored items one a row: r9 found the SDK's raw dicts as noise)."""
    cells = _cells(paths.NOTEBOOKS / "01-walkthrough.ipynb")
    helpers = next(i for i, c in enumerate(cells) if "## Which request carried what" in c.source)
    bare = "\n".join(c.source for c in cells[:helpers] if c.cell_type == "code")
    assert set(re.findall(r"\bac\.(\w+)", bare)) <= {"standin_client", "titled", "items_frame"}
    for call in ("Runner.run(", "RunState.from_json(", ".to_json()", ".approve(", "get_items()"):
        assert call in bare, f"the bare reproduction lacks {call}"


def test_notebooks_inside_the_sdk_labels_each_step_before_its_excerpts_in_order() -> None:
    """Issue 61 (r6): 03's "Three of those functions" headed seven excerpts, and its numbered
    step labels came after their excerpts (1 after persist's, 2 and 3 together after compact's).
    Each `step_excerpts` cell now follows the label naming its step. Round 5: 03 quotes the one
    step its answer rests on, `compact` (the runner's `persist` and `prepare` were cut)."""
    cells = _cells(paths.NOTEBOOKS / "03-inside-the-sdk.ipynb")
    shown = [
        (i, step)
        for i, c in enumerate(cells)
        if c.cell_type == "code"
        for step in re.findall(r'step_excerpts\("(\w+)"', c.source)
    ]
    assert [step for _, step in shown] == ["compact"]
    for i, step in shown:
        label = cells[i - 1].source
        # r16: the catalogue's step name meant nothing to a reader; the label names the stage
        assert "At the pause: 0.23.1's `_run_compaction_locked`" in label, step
        assert f"`{step}`" not in label
    assert "Three of those functions" not in "".join(c.source for c in cells)


def test_notebooks_releases_shows_no_bisect_table_and_no_unknown_cause() -> None:
    """Issue 61 (r6, r7): 05's bisect table said "bisect: same as the sweep = yes" of a bisect
    that searches the sweep's own results (circular), its "broken on" repeated the heatmap, and
    its Try this said bisect "finds it from scratch"; its 0.22.3 against 0.23.1 section ended on
    "the cause is unknown here" where notebook 02 gives it. Both are cut to what 05 alone shows."""
    rendered = (paths.DATA / "rendered" / "05-releases.md").read_text()
    assert "## Does bisect" not in rendered and "same as the sweep" not in rendered
    assert "from scratch" not in rendered and "the cause is unknown" not in rendered
    assert "| input | 0.22.3" not in rendered  # the store table: the two modes whose pause fails


def test_notebooks_workaround_lists_every_suite_change_and_the_failures_in_both() -> None:
    """Issue 61 (r6): 06 left flips out of its changes table by rule (not reproduced, the
    `AdvancedSQLiteSession` tests), so its suite counts did not add up on screen; the counts
    add up in the records (tests/releases/upstream/test_results.py) and 06 now drops none.
    r13: the counts table went (the changes table lists every change, computed in the package by
    ``suite_change_table``, whose test counts them); 06 says why the failures in both are not
    the workaround's."""
    cells = _cells(paths.NOTEBOOKS / "06-workaround.ipynb")
    code = "\n".join(c.source for c in cells if c.cell_type == "code")
    assert "not reproduced" not in code and "changed = changed[" not in code
    assert "ac.suite_change_table(suite_releases" in code
    prose = " ".join(" ".join(c.source.split()) for c in cells if c.cell_type == "markdown")
    # r15: the flaky row contradicted the table's title and was set aside twice; 06 now leaves
    # it out, its code saying which tests and why (r24: the prose saying it, and that a table of
    # changes shows no test failing both ways, was noise beside the lesson)
    assert "Left out:" not in prose
    drop = (
        'table = table[~table.index.str.startswith("AdvancedSQLiteSession")]  # changes run to run'
    )
    assert drop in code


def test_notebooks_am_i_affected_defines_every_diagnosis_by_the_glossary() -> None:
    """Issue 61 (r6): 07 named four doctor verdicts while its scan table has an `unreadable`
    column. (r13) Its hand-written list defined *stuck* apart from the glossary's *dead call*;
    07 now defines the diagnoses by the glossary's terms block, which names each one a scan
    reports (``doctor.verdict.REPORTED``), in its own word, before the scan table."""
    from approval_compaction.doctor.verdict import REPORTED
    from approval_compaction.lab.share.glossary import BY_NAME

    meaning = BY_NAME["diagnosis"].full
    assert all(f"*{verdict}*" in meaning for verdict in REPORTED)
    text = "\n".join(c.source for c in _cells(paths.NOTEBOOKS / "07-am-i-affected.ipynb"))
    assert BY_NAME["diagnosis"].line in text.split("doctor scan STORE --all` prints")[0]
    assert "- *healthy*:" not in text  # no second, hand-written definition


@pytest.mark.parametrize("name", ["15-your-session.ipynb"])
def test_notebooks_name_every_verdict_the_doctor_reports(name: str) -> None:
    """Issue 61 (r6): 07 named four doctor verdicts while its scan table has an `unreadable`
    column and 15 named five. Both first cells now define each verdict a scan reports
    (``doctor.verdict.REPORTED``), in its own word."""
    from approval_compaction.doctor.verdict import REPORTED
    from approval_compaction.lab.share.glossary import BY_NAME

    # the first cell, or the terms cell right after the answer (07: r10 moved its terms there)
    first = "\n".join(c.source for c in _cells(paths.NOTEBOOKS / name)[:2])
    words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    listed = f"is one of {words[len(REPORTED)]}:" in first
    if listed:
        assert all(f"- *{verdict}*:" in first for verdict in REPORTED), name
        return
    # r5: or a terms block defines *diagnosis*, whose meaning names each verdict in italics
    every = "\n".join(c.source for c in _cells(paths.NOTEBOOKS / name) if c.cell_type == "markdown")
    assert BY_NAME["diagnosis"].line in every, name
    assert all(f"*{verdict}*" in BY_NAME["diagnosis"].full for verdict in REPORTED), name


def test_notebooks_workaround_accounts_for_every_passed_to_failed_row() -> None:
    """Issue 61 (r7): 06 said "our two tests in the SDK's form: the regression test and the
    liveness test" while its changes table gave a third (the reasoning test) its own reason, and
    called every `passed → failed` row a cost a team carries, including that test and the
    load-dependent `AdvancedSQLiteSession` flip, neither among the answer's costs. It now names
    the liveness tests and says which of those rows are costs and which are not."""
    rendered = (paths.DATA / "rendered" / "06-workaround.md").read_text()
    assert "the regression test\nand the *liveness* test (" not in rendered
    assert "are what a team carries" not in rendered
    after = rendered.split("Of the rows that go from `passed` to `failed`")[1].split("## ")[0]
    # r18: "three are the costs the answer names" while the answer named two; r20: "the
    # answer's two costs" read as the answer's own: the workaround's, said here
    assert "three show the workaround's two costs" in after
    assert "a late answer to a call it retired is stored as text" in " ".join(after.split())
    # r15: the flaky row left the table (said above it), so the one other row is named here,
    # with the file it belongs to (r15: "our reasoning test" came out of nowhere)
    assert "The fourth," in after and "test_compaction_keeps_reasoning_with_its" in after
    flat = " ".join(after.split())
    # r22: "(the liveness file)" was never defined: the tests' owner in words
    assert "(a liveness test)" in flat and "`AdvancedSQLiteSession`" not in after


def test_notebooks_the_wire_shows_only_what_the_wire_adds() -> None:
    """Issue 61 (r7): 09 repeated 01's stand-in log, printed raw error dicts, listed every rule
    of the stand-in (`malformed_json`, `invalid_url`) with a bare count of sources. (r11): its
    per-mode table reran the case 01 and 02 run and repeated the README's error table; it now
    shows the rules this bug meets with what each public source shows, and plain calls."""
    rendered = (paths.DATA / "rendered" / "09-the-wire.md").read_text()
    assert "## The request log" not in rendered and "## Aside: the rules" not in rendered
    assert "{'message'" not in rendered and "malformed_json" not in rendered
    assert "ac.run_case" not in rendered and "Where each mode fails" not in rendered
    assert "openai/openai-agents-python#2317: 400" in rendered  # a source, with what it shows
    # r24: the plain calls showed only the stand-in's own rule, beside row 2's #2317: cut
    assert "## The plain library calls" not in rendered
    assert "| open_function_call_in_compacted_chain |" in rendered  # row 2: the item-less body


def test_notebooks_am_i_affected_shows_a_late_answer_after_the_repair() -> None:
    """Issue 61 (r9): 07 said a stuck session's call "nobody will answer" and told teams to
    repair it, while an application may answer it late; it now shows the late answer after a
    repair (poisoned, the next turn refused), says `refused` for the doctor's `rejected`, and
    gives the doctor's commands whole."""
    rendered = (paths.DATA / "rendered" / "07-am-i-affected.md").read_text()
    assert "nobody will answer" not in rendered and "| rejected |" not in rendered
    assert "| yes | healthy | answered | poisoned | HTTP 400" in rendered  # r14: not "accepted"
    assert "doctor repair STORE --all --apply" in rendered.split("<!-- answer:end -->")[0]
    assert "| True |" not in rendered and "| row_id |" not in rendered


def test_notebooks_exploration_marks_the_documented_contract_and_wire_defines_its_terms() -> None:
    """Issue 61 (r9): 08 promised the SDK's documented contract apart from a bug, and no table
    kept it; 09's first screen used *hosted MCP approval request* and the workaround undefined."""
    explored = (paths.DATA / "rendered" / "08-exploration.md").read_text()
    assert "broke (bug and documented)" in explored and "| documented |" in explored
    wire = (paths.DATA / "rendered" / "09-the-wire.md").read_text()
    terms, first = wire.split("<!-- answer:start -->")[0], wire.split("<!-- answer:end -->")[0]
    # r14: 09's action is the SDK maintainers' own; whatever of these its first screen uses,
    # the block above the answer defines
    for word, term in (("hosted MCP", "hosted MCP approval request"), ("workaround", "workaround")):
        assert word not in first.split("<!-- terms:end -->")[1] or f"- *{term}*:" in terms
