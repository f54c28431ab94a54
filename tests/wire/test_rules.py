"""The stand-in's rules: each answer in the API's words, and only where a source shows it."""

from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from approval_compaction.wire import rules
from approval_compaction.wire.rules import (
    CHAT,
    COMPACT,
    RESPONSES,
    RULES,
    UNKNOWN,
    ApiError,
    check_compaction,
    check_pairing,
)

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


def test_rules_each_rule_cites_public_sources_each_for_what_it_shows() -> None:
    for rule in RULES:
        assert rule.sources and all(s.url.startswith("https://github.com/") for s in rule.sources)
        assert all(s.shows for s in rule.sources)
        assert len({s.url for s in rule.sources}) == len(rule.sources)
    assert {r.name for r in RULES} >= {"orphan_function_call_output", "open_function_call"}


def test_rules_each_rule_has_a_source_that_shows_its_status() -> None:
    """A rule's status is shown by at least one of its sources (the fix PR and the latency
    thread cited for the compaction endpoint's 400 show none: they say so)."""
    for rule in RULES:
        assert any(str(rule.status) in s.shows for s in rule.sources), rule.name
    compact = {s.label: s.shows for s in rules.OPEN_CALL_COMPACT.sources}
    assert "400" in compact["openai/openai-agents-python#2317"]
    for thread in ("openai/openai-agents-python#2322", "openai/openai-agents-python#2343"):
        assert compact[thread].endswith("no status or body")


def test_rules_a_param_the_answer_carries_is_shown_by_a_source_or_unknown() -> None:
    """The pairing answers carry ``param: input``: shown for ``/v1/responses`` by its sources;
    for the compaction endpoint no source shows it, so it is listed as unknown."""
    for rule in (rules.ORPHAN_OUTPUT, rules.OPEN_CALL):
        assert any("`param: input`" in s.shows for s in rule.sources), rule.name
    assert not any("`param: input`" in s.shows for s in rules.OPEN_CALL_COMPACT.sources)
    unknown = {u.name: u for u in UNKNOWN}["param_of_the_compaction_refusal"]
    assert COMPACT in unknown.endpoints and "2317" in unknown.why
    assert all("5385" not in s.url for rule in RULES for s in rule.sources)


def test_rules_source_labels_name_the_repository_and_number() -> None:
    source = rules.Source("https://github.com/openai/codex/issues/5385", "x")
    assert source.label == "openai/codex#5385"
    assert source.cited() == "[openai/codex#5385](https://github.com/openai/codex/issues/5385): x"
    assert rules.Source("https://example.com/a", "y").label == "https://example.com/a"


def test_rules_compaction_refuses_an_open_call_in_the_previous_response_chain() -> None:
    """openai/openai-agents-python#2317: ``responses.compact`` with a ``previous_response_id``
    whose response holds a function call without its output answers HTTP 400."""
    assert check_compaction([USER, call("c1")], []) == rules.open_call("c1")
    assert rules.open_call("c1").body()["error"]["message"] == (
        "No tool output found for function call c1."
    )
    assert COMPACT in rules.OPEN_CALL_COMPACT.endpoints
    assert "openai/openai-agents-python/issues/2317" in " ".join(
        s.url for s in rules.OPEN_CALL_COMPACT.sources
    )


@pytest.mark.parametrize(
    ("chain", "given"),
    [
        ([USER, call("c1"), output("c1")], []),
        ([USER, call("c1")], [output("c1")]),
        ([], [USER, call("c1")]),
        ([], [USER, output("c1")]),
        ([USER, output("c1")], []),
    ],
    ids=[
        "chain-paired",
        "output-given-with-the-chain",
        "open-call-in-input-unknown",
        "orphan-in-input-unknown",
        "orphan-in-chain-unknown",
    ],
)
def test_rules_compaction_checks_only_what_a_source_shows(
    chain: list[Item], given: list[Item]
) -> None:
    """An open call in ``input`` and an orphan output anywhere: nothing public shows the
    compaction endpoint's answer, so they are listed as unknown, not enforced."""
    assert check_compaction(chain, given) is None


def test_rules_lenient_compaction_accepts_anything() -> None:
    assert check_compaction([USER, call("c1")], [], "lenient") is None


def test_rules_unknowns_name_the_compaction_input_and_orphan_forms() -> None:
    names = {u.name for u in UNKNOWN}
    assert {
        "open_function_call_in_compaction_input",
        "orphan_function_call_output_in_compaction",
    } <= names
    assert all(u.why for u in UNKNOWN)
    assert all(COMPACT in u.endpoints or CHAT in u.endpoints for u in UNKNOWN)
    assert not any(rule.name in names for rule in RULES)


def test_rules_responses_rules_stay_on_responses() -> None:
    assert rules.ORPHAN_OUTPUT.endpoints == rules.OPEN_CALL.endpoints == (RESPONSES,)


def test_rules_readme_lists_each_rule_and_each_unknown_with_its_sources() -> None:
    from approval_compaction.lab import paths
    from approval_compaction.lab.share.readme import RULES_END, RULES_START, rules_block

    readme = (paths.DOCS / "wire.md").read_text()
    block = readme.split(RULES_START, 1)[1].split(RULES_END, 1)[0].strip()
    assert block == rules_block()
    for rule in RULES:
        row = next(
            (line for line in block.splitlines() if line.startswith(f"| `{rule.name}` |")), ""
        )
        assert row, f"README has no row for {rule.name}"
        assert all(source.cited() in row for source in rule.sources)
        assert all(f"`{e}`" in row for e in rule.endpoints)
    for unknown in UNKNOWN:
        row = next(line for line in block.splitlines() if line.startswith(f"| `{unknown.name}` |"))
        assert "unknown: not enforced" in row


def test_rules_readme_invariant_table_lists_every_invariant() -> None:
    from approval_compaction.analysis.invariants import INVARIANTS
    from approval_compaction.lab import paths

    readme = (paths.DOCS / "invariants.md").read_text()
    assert all(f"| `{name}` |" in readme for name in INVARIANTS)


def _open_call_ids_reference(items: list[Item]) -> list[str]:
    """The rule as first written (a list searched per output): quadratic, but plainly right."""
    waiting: list[str] = []
    for item in items:
        kind, call_id = item.get("type"), str(item.get("call_id"))
        if kind == "function_call":
            waiting.append(call_id)
        elif kind == "function_call_output" and call_id in waiting:
            waiting.remove(call_id)
    return waiting


@given(
    st.lists(
        st.builds(
            lambda kind, n: {"type": kind, "call_id": f"c{n}"},
            st.sampled_from(["function_call", "function_call_output", "message"]),
            st.integers(0, 4),
        ),
        max_size=30,
    )
)
def test_rules_open_calls_are_those_the_plain_rule_finds(items: list[Item]) -> None:
    assert rules._open_call_ids(items) == _open_call_ids_reference(items)


def _check_compaction_reference(chain: list[Item], given: list[Item]) -> ApiError | None:
    """The compaction rule as written before it read the chain once: two passes, one copy."""
    in_chain = set(_open_call_ids_reference(chain))
    found = [c for c in _open_call_ids_reference([*chain, *given]) if c in in_chain]
    return rules.open_call(found[0]) if found else None


ITEMS = st.lists(
    st.builds(
        lambda kind, n: {"type": kind, "call_id": f"c{n}"},
        st.sampled_from(["function_call", "function_call_output", "message"]),
        st.integers(0, 4),
    ),
    max_size=20,
)


@given(ITEMS, ITEMS)
def test_rules_compaction_check_in_one_pass_answers_as_the_two_pass_rule(
    chain: list[Item], given_input: list[Item]
) -> None:
    assert rules.check_compaction(chain, given_input) == _check_compaction_reference(
        chain, given_input
    )


def test_rules_a_compaction_of_40000_calls_is_checked_in_linear_time() -> None:
    """Regression for issue 33: one compaction request of 40,000 calls blocked every client
    for 20.6 s (20,000: 4.8 s), the pairing check growing quadratically."""
    chain = [{"type": "function_call", "call_id": f"c{n}"} for n in range(40_000)]
    given_input = [{"type": "function_call_output", "call_id": f"c{n}"} for n in range(40_000)]
    started = time.process_time()
    assert rules.check_compaction(chain, given_input[:-1]) == rules.open_call("c39999")
    assert time.process_time() - started < 2.0  # the quadratic check took 20 s
