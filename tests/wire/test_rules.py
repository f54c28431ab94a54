"""The stand-in's rules: each answer in the API's words, and only where a source shows it."""

from __future__ import annotations

from typing import Any

import pytest

from approval_compaction.wire import rules
from approval_compaction.wire.rules import RULES, ApiError, check_pairing

Item = dict[str, Any]


def call(call_id: str) -> Item:
    return {"type": "function_call", "call_id": call_id, "name": "f", "arguments": "{}"}


def output(call_id: str) -> Item:
    return {"type": "function_call_output", "call_id": call_id, "output": "o"}


USER: Item = {"role": "user", "content": "q"}


def test_rules_orphan_output_gets_the_api_body() -> None:
    error = check_pairing([USER, output("c1")])
    assert error == ApiError(
        400, "No tool call found for function call output with call_id c1.", param="input"
    )
    assert error.body() == {
        "error": {
            "message": "No tool call found for function call output with call_id c1.",
            "type": "invalid_request_error",
            "param": "input",
            "code": None,
        }
    }


def test_rules_output_before_its_call_is_an_orphan() -> None:
    assert check_pairing([output("c1"), call("c1")]) == rules.orphan_output("c1")


def test_rules_open_call_gets_the_no_tool_output_message() -> None:
    assert check_pairing([USER, call("c1"), USER]) == ApiError(
        400, "No tool output found for function call c1.", param="input"
    )


def test_rules_orphan_is_reported_before_an_open_call() -> None:
    assert check_pairing([call("a"), output("b")]) == rules.orphan_output("b")


@pytest.mark.parametrize(
    "items",
    [
        [],
        [USER],
        [USER, call("c1"), output("c1")],
        [call("c"), call("c"), output("c"), output("c")],
    ],
    ids=["empty", "user only", "paired", "repeated id paired twice"],
)
def test_rules_paired_inputs_pass(items: list[Item]) -> None:
    assert check_pairing(items) is None


def test_rules_repeated_output_consumes_one_call_each() -> None:
    assert check_pairing([call("c"), output("c"), output("c")]) == rules.orphan_output("c")


def test_rules_each_rule_cites_public_sources() -> None:
    for rule in RULES:
        assert rule.sources and all(s.startswith("https://github.com/") for s in rule.sources)
    assert {r.name for r in RULES} >= {"orphan_function_call_output", "open_function_call"}


def test_rules_pairing_is_not_enforced_on_compaction() -> None:
    """Nothing public shows what the compact endpoint does with an unpaired input."""
    assert rules.COMPACT not in rules.ORPHAN_OUTPUT.endpoints
    assert rules.COMPACT not in rules.OPEN_CALL.endpoints


def test_rules_readme_lists_each_rule_with_its_sources() -> None:
    from approval_compaction import paths

    readme = (paths.ROOT / "README.md").read_text()
    for rule in RULES:
        row = next(
            (line for line in readme.splitlines() if line.startswith(f"| `{rule.name}` |")), ""
        )
        assert row, f"README has no row for {rule.name}"
        assert all(source in row for source in rule.sources)


def test_rules_readme_invariant_table_lists_every_invariant() -> None:
    from approval_compaction import paths
    from approval_compaction.analysis.invariants import INVARIANTS

    readme = (paths.ROOT / "README.md").read_text()
    assert all(f"| `{name}` |" in readme for name in INVARIANTS)
