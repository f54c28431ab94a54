"""Report: a counterexample as a paste with a self-contained test of the SDK's own style."""

from __future__ import annotations

import ast

from approval_compaction.explore.conversation import Conversation, Step, Trace
from approval_compaction.explore.report import left_out, markdown, regression_source
from approval_compaction.explore.search import Finding

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
