"""Report: a counterexample as a paste with a self-contained test of the SDK's own style."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from approval_compaction.lab.explore.conversation import Conversation, Step, Trace, late_resumes
from approval_compaction.lab.explore.report import left_out, markdown, regression_source
from approval_compaction.lab.explore.search import Finding, rerun

STEPS = (
    Step("ask", compact=True, calls=("function_approval",)),
    Step("decide", decision="mixed", boundary="json"),
    Step("ask"),
)
FINDING = Finding(
    (("next_turn_input_paired", "function_approval"),),
    "new",
    "",
    Trace(Conversation("auto", False, STEPS), "9.9.9", ()),
)


def test_generated_test_is_python_that_carries_the_steps_and_mode() -> None:
    source = regression_source(FINDING)
    tree = ast.parse(source)
    names = {node.name for node in ast.walk(tree) if isinstance(node, ast.AsyncFunctionDef)}
    assert "test_explored_conversation_keeps_calls_paired" in names
    assert '"decision": "mixed"' in source and "MODE = 'auto'" in source
    assert "approval_compaction" not in source  # self-contained: the SDK and openai only


def test_markdown_names_release_pairs_and_replay_command() -> None:
    text = markdown(FINDING, "| table |")
    assert text.startswith("## Explorer counterexample on openai-agents 9.9.9")
    assert f"explore replay data/counterexamples/{FINDING.name}.json" in text
    assert "The test leaves out" not in text


def test_left_out_names_steps_the_test_cannot_replay() -> None:
    steps = (Step("ask", calls=("custom_approval",)), Step("decide", "run_streamed"), Step("ask"))
    assert left_out(Conversation("input", False, steps)) == [
        "0: ask[custom_approval]",
        "1: decide approve via memory (streamed)",
    ]
    with_fix = left_out(Conversation("input", True, (Step("keep"), Step("continue"))))
    assert with_fix == ["the workaround (the test runs the SDK alone)"]


TEMPLATE_CHECKS = {  # what the generated test asserts after each step, as the invariants say it
    "compaction_input_paired",
    "compaction_input_complete",
    "next_turn_input_paired",
    "resumed_input_paired",
    "stored_history_paired",
}


@pytest.mark.subprocess
@pytest.mark.parametrize("compact", [True, False], ids=["compacted-pause", "plain-pause"])
def test_generated_test_of_a_late_resume_fails_exactly_when_explore_sees_it_break(
    tmp_path: Path, compact: bool
) -> None:
    """The generated test replays keep, later turns and the kept state's late resume through the
    SDK alone, and fails exactly when explore's own run of it breaks what the test checks."""
    steps = (
        Step("ask", compact=compact, calls=("function_approval",)),
        Step("keep"),
        Step("continue"),
        Step("decide", decision="reject", kept=True),
        Step("ask"),
    )
    trace = rerun(Conversation("input", False, steps))
    assert late_resumes(trace.records) == [3]
    broken = {j.invariant for _, j in trace.violations} & TEMPLATE_CHECKS
    finding = Finding((), "new", "", trace)
    assert left_out(trace.conversation) == []
    test = tmp_path / "test_generated.py"
    test.write_text(regression_source(finding))
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (ran.returncode == 0) is (not broken), (broken, ran.stdout[-2000:])
    if broken:  # it failed on a pairing assertion of a step, not on anything else
        assert "AssertionError: step " in ran.stdout, ran.stdout[-2000:]
