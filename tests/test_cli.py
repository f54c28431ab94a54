"""The command line: formats, filters, and one-line errors."""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
from dataclasses import fields

import pytest

from approval_compaction.analysis.invariants import INVARIANTS
from approval_compaction.analysis.matrix import MatrixRecord
from approval_compaction.cli import main
from approval_compaction.lab import paths


def readme_schema() -> list[str]:
    """The matrix record's columns as the command line's page documents them, in its order."""
    text = " ".join((paths.DOCS / "cli.md").read_text().split())
    found = re.search(r"The matrix JSON is a list of records with (.*?)\. A case that fails", text)
    assert found, "docs/cli.md no longer documents the matrix JSON's records"
    return re.findall(r"`(\w+)`", found.group(1))


SCHEMA = readme_schema()
COMMANDS = {
    "matrix",
    "js-matrix",
    "js-sweep",
    "js-sdk-test",
    "js-liveness",
    "js-stall",
    "js-fix",
    "js-typecheck",
    "js-mutants",
    "js-upstream",
    "report-js",
    "adk-matrix",
    "adk-data",
    "adk-fix",
    "adk-upstream",
    "adk-sweep",
    "report-adk",
    "langchain-data",
    "langchain-fix",
    "langchain-matrix",
    "langchain-sweep",
    "report-langchain",
    "data",
    "readme",
    "notebooks",
    "render",
    "report",
    "sweep",
    "envs",
    "mechanism",
    "fix-anatomy",
    "bisect",
    "fix-data",
    "liveness",
    "liveness-patch",
    "liveness-mutants",
    "upstream-liveness",
    "crosscheck",
    "upstream-suite",
    "explore",
    "snippet",
    "doctor",
    "serve",
    "share",
    "permalinks",
}


def test_cli_schema_is_the_matrix_record_the_readme_documents() -> None:
    assert [f.name for f in fields(MatrixRecord)] == SCHEMA


def test_cli_matrix_json_has_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix", "--format", "json", "--case", "runner=run,state_boundary=json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 4 * len(INVARIANTS)
    assert all(list(row) == SCHEMA for row in rows)
    assert {row["compaction"] for row in rows} == {"on", "off"}


def test_cli_matrix_csv_and_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    main(["matrix", "--format", "csv", "--case", "runner=run,decision=approve,state_boundary=json"])
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 2 * len(INVARIANTS) and all(list(row) == SCHEMA for row in rows)
    main(["matrix", "--format", "markdown", "--case", "runner=run,compaction=off"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| case |") and len(lines) == 2 + 4
    assert all("VIOLATED" not in line for line in lines[2:])


def test_cli_matrix_writes_output_file(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from pathlib import Path

    target = Path(str(tmp_path)) / "m.json"
    assert (
        main(
            [
                "matrix",
                "--format",
                "json",
                "--case",
                "runner=run,decision=reject,compaction=on,state_boundary=json",
                "--output",
                str(target),
            ]
        )
        == 0
    )
    assert json.loads(target.read_text())[0]["decision"] == "reject"


def test_cli_unknown_case_value_is_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix", "--case", "runner=walk"]) == 2
    err = capsys.readouterr().err
    assert err == "error: unknown runner 'walk': expected one of run, run_streamed\n"


def test_cli_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    from approval_compaction.cli import parser

    choices = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert set(choices.choices) == COMMANDS
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert all(command in out for command in COMMANDS)


def test_cli_matrix_model_responses_records_what_the_user_saw(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from approval_compaction.cli import MODELS
    from approval_compaction.openai_agents.wiring import BACKENDS

    assert list(MODELS) == list(BACKENDS)  # every model the CLI offers has its wiring
    case = "runner=run,decision=reject,state_boundary=json"
    assert main(["matrix", "--model", "responses", "--format", "json", "--case", case]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["model"] for row in rows} == {"responses"}
    accepted = {r["compaction"]: r for r in rows if r["invariant"] == "next_turn_accepted"}
    assert accepted["off"]["holds"] is True and accepted["on"]["holds"] is False
    assert (
        "No tool call found for function call output with call_id pending-c1."
        in (accepted["on"]["detail"])
    )


@pytest.mark.parametrize(
    ("rules", "pause", "next_turn"),
    [("faithful", False, True), ("lenient", True, False)],
    ids=["faithful", "lenient"],
)
def test_cli_matrix_mode_and_compact_rules_say_where_the_user_meets_the_400(
    capsys: pytest.CaptureFixture[str], rules: str, pause: bool, next_turn: bool
) -> None:
    """In the SDK's default mode the compaction endpoint refuses the pause (#2317); the lenient
    endpoint of the original report compacts the call away, and the next turn fails instead."""
    case = "runner=run,decision=approve,compaction=on,state_boundary=json"
    argv = ["matrix", "--model", "responses", "--mode", "auto", "--compact-rules", rules]
    assert main([*argv, "--format", "json", "--case", case]) == 0
    verdicts = {r["invariant"]: r for r in json.loads(capsys.readouterr().out)}
    assert verdicts["pause_accepted"]["holds"] is pause
    assert verdicts["next_turn_accepted"]["holds"] is next_turn
    if not pause:
        assert "/v1/responses/compact" in verdicts["pause_accepted"]["detail"]


def test_cli_matrix_unknown_model_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["matrix", "--model", "gpt"])
    assert exit_info.value.code == 2


def test_cli_a_lazy_command_runs_with_the_collector_back_on() -> None:
    """``__main__`` turns the collector off for the imports; a long command such as ``explore``
    must run with it on, or its cycles pile up (issue 34: past 3 GB in 27 rounds)."""
    import gc

    from approval_compaction.cli import collect_from_here

    gc.disable()
    try:
        collect_from_here()
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()


def test_cli_matrix_response_store_false_in_auto_moves_the_400_to_the_next_question(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``auto`` with ``ModelSettings(store=False)`` compacts by ``input``: the pause is answered
    and the next question meets the orphan output's 400, as in ``input`` mode."""
    case = "runner=run,decision=approve,compaction=on,state_boundary=json"
    argv = ["matrix", "--model", "responses", "--mode", "auto", "--format", "json", "--case", case]
    assert main([*argv, "--response-store", "false"]) == 0
    verdicts = {r["invariant"]: r for r in json.loads(capsys.readouterr().out)}
    assert verdicts["pause_accepted"]["holds"] is True
    assert verdicts["next_turn_accepted"]["holds"] is False
    assert "No tool call found for function call output" in verdicts["next_turn_accepted"]["detail"]


def test_cli_matrix_response_store_default_is_the_output_without_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [
        "matrix",
        "--format",
        "json",
        "--case",
        "runner=run,decision=reject,state_boundary=json",
    ]
    assert main(argv) == 0
    plain = capsys.readouterr().out
    assert main([*argv, "--response-store", "default"]) == 0
    assert capsys.readouterr().out == plain


def test_cli_matrix_response_store_is_refused_for_a_patched_run_and_a_bad_word(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["matrix", "--response-store", "maybe"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'maybe'" in capsys.readouterr().err
    assert main(["matrix", "--patch", "no-such.patch", "--response-store", "false"]) == 2
    assert capsys.readouterr().err == "error: --response-store does not apply to a patched run\n"


@pytest.mark.parametrize(
    ("argv", "needs"),
    [
        (["doctor", "scan", "s.db"], False),
        (["matrix", "--format", "json"], False),
        (["doctor", "data"], True),
        (["doctor", "--help"], True),
        (["sweep"], True),
        ([], True),
    ],
    ids=["doctor-scan", "matrix", "doctor-data", "doctor-help", "sweep", "nothing"],
)
def test_cli_a_core_or_doctor_command_builds_the_parser_without_the_lab(
    argv: list[str], needs: bool
) -> None:
    from approval_compaction.cli import _needs_lab, parser

    assert _needs_lab(argv) is needs
    choices = next(a for a in parser(False)._actions if isinstance(a, argparse._SubParsersAction))
    assert set(choices.choices) == {"matrix", "serve", "doctor"}
