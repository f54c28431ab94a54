"""The verdict record: one status per release, and every published page saying the same."""

from __future__ import annotations

import pytest

from approval_compaction import paths
from approval_compaction.adk.finding import load_adk
from approval_compaction.lab.explore.replay import load_results
from approval_compaction.lab.findings.headlines import HEADLINES
from approval_compaction.lab.findings.load import Findings
from approval_compaction.lab.findings.verdict import (
    AFFECTED,
    BUG,
    CONTRACT,
    DOCUMENTED_LIMIT,
    LIVENESS_LEFT,
    NOT_AFFECTED,
    REFUSED,
    STUCK,
    SUMMARY_ONLY,
    UNKNOWN,
    LivenessVerdict,
    ReleaseVerdict,
    breach_kind,
    claims,
    count_disagreements,
    disagreements,
    kind_of,
    kind_tally,
    liveness_claims,
    liveness_disagreements,
    of,
    package_named,
    published,
    term_disagreements,
)
from approval_compaction.study.words import AUTO_STORE_FALSE


def verdict(release: str, violating: int, *liveness: LivenessVerdict) -> ReleaseVerdict:
    return ReleaseVerdict(release, 16, violating, (), (), liveness)


RECORD = (
    verdict("1.0.0", 8),
    verdict("2.0.0", 0, LivenessVerdict("lost", STUCK, ("input",), BUG)),
    verdict("3.0.0", 0, LivenessVerdict("lost", STUCK, ("previous_response_id",), CONTRACT)),
)


@pytest.mark.parametrize(
    ("mode", "state", "shape", "kind"),
    [
        ("previous_response_id", STUCK, "", CONTRACT),
        ("previous_response_id", REFUSED, "", BUG),
        ("input", STUCK, "", BUG),
        ("input", STUCK, SUMMARY_ONLY, UNKNOWN),
        ("previous_response_id", STUCK, SUMMARY_ONLY, UNKNOWN),
    ],
    ids=["contract", "refused-is-a-bug", "input-stuck", "unknown-shape", "unknown-first"],
)
def test_kind_of_sorts_a_liveness_failure(mode: str, state: str, shape: str, kind: str) -> None:
    assert kind_of(mode, state, shape) == kind


def test_word_counts_only_bugs_after_the_cases() -> None:
    """A documented contract or an unknown shape leaves a release not affected; a bug does not."""
    unknown = verdict("4.0.0", 0, LivenessVerdict("lost", STUCK, ("input",), UNKNOWN))
    assert [v.word for v in (*RECORD, unknown)] == [
        AFFECTED,
        LIVENESS_LEFT,
        NOT_AFFECTED,
        NOT_AFFECTED,
    ]


def test_disagreements_finds_a_page_claiming_another_verdict() -> None:
    page = (
        "| 2.0.0 | 1 | not affected |\n"
        "On 1.0.0 the session is affected. 3.0.0 fixes these cases; 2.0.0 is fixed.\n"
        "| @openai/agents 2.0.0 | not affected |\n"
    )
    wrong = disagreements(page, RECORD)
    assert list(wrong) == ["2.0.0"]
    assert [phrase for phrase, _ in wrong["2.0.0"]] == [NOT_AFFECTED]
    assert disagreements("1.0.0..2.0.0 is not affected.", RECORD).keys() == {"1.0.0", "2.0.0"}


def test_two_pages_disagreeing_on_a_release_cannot_both_agree_with_the_record() -> None:
    said = {
        "a.md": "3.0.0 is not affected.",
        "b.md": "3.0.0: pending call fixed, liveness bugs left.",
    }
    wrong = {name: disagreements(text, RECORD) for name, text in said.items()}
    assert wrong == {"a.md": {}, "b.md": {"3.0.0": [(LIVENESS_LEFT, said["b.md"].strip())]}}


def test_the_newest_release_splits_liveness_into_bugs_contracts_and_unknown_shapes(
    committed: Findings,
) -> None:
    """On the fixing release no case breaks; an unanswered MCP request stops compaction (a bug),
    previous_response_id stops after a dead call as the SDK documents, and a summary-only
    compaction answer is unknown, never a bug."""
    found = committed
    assert found.fixed_in is not None
    newest = of(found.verdicts, found.fixed_in)
    assert (newest.violating, newest.word) == (0, LIVENESS_LEFT)
    bugs = {(v.situation, v.modes) for v in newest.of_kind(BUG) if v.state == STUCK}
    assert bugs == {("mcp_abandoned", ("input", "auto"))}
    contracts = newest.of_kind(CONTRACT)
    assert {v.situation for v in contracts} >= {"abandoned", "lost"}
    assert all(
        v.modes == ("previous_response_id",) and DOCUMENTED_LIMIT in v.source for v in contracts
    )
    assert {v.situation for v in newest.of_kind(UNKNOWN)} == {"abandoned", "lost"}
    assert [e.affected for e in newest.exposure] == [0, 0, 0]
    pinned = of(found.verdicts, "0.23.1")
    assert pinned.word == AFFECTED and all(e.affected > 0 for e in pinned.exposure)


def test_every_published_file_states_each_release_s_verdict_as_the_record_does(
    committed: Findings,
) -> None:
    """README, report, snippets, docs and the notebooks' answer lines: no release whose verdict
    text differs from the record, so no two of them disagree."""
    found = committed
    texts = published(paths.ROOT)
    texts["data/report-adk.md"] = (paths.ROOT / "data" / "report-adk.md").read_text()
    assert {"README.md", "data/report.md", "data/upstream-liveness.md"} <= texts.keys()
    adk = load_adk()
    assert adk is not None and adk.verdicts  # google-adk's releases are covered
    for verdicts in (found.verdicts, adk.verdicts):
        wrong = {name: disagreements(text, verdicts) for name, text in texts.items()}
        assert {name: said for name, said in wrong.items() if said} == {}


def test_the_answer_lines_the_notebooks_are_given_agree_with_the_record(
    committed: Findings,
) -> None:
    found = committed
    said = {number: write(found) for number, write in HEADLINES.items()}
    wrong = {n: disagreements(text, found.verdicts) for n, text in said.items()}
    assert {n: w for n, w in wrong.items() if w} == {}


@pytest.mark.parametrize(
    ("mode", "invariants", "kind"),
    [
        ("previous_response_id", ["compaction_runs", "history_bounded"], CONTRACT),
        ("input", ["compaction_runs", "history_bounded"], BUG),
        ("previous_response_id", ["next_turn_accepted"], BUG),
        ("previous_response_id", ["compaction_runs", "stored_history_paired"], BUG),
    ],
    ids=["liveness-contract", "liveness-bug", "refused", "liveness-and-pairing"],
)
def test_breach_kind_sorts_an_explored_conversation(
    mode: str, invariants: list[str], kind: str
) -> None:
    assert breach_kind(mode, invariants) == kind


def test_kind_tally_counts_bugs_first_in_singular_and_plural() -> None:
    assert kind_tally([CONTRACT, BUG, CONTRACT]) == "1 bug, 2 the SDK's documented contract"
    assert kind_tally([BUG, BUG]) == "2 bugs"


def test_the_explorer_s_liveness_bugs_are_in_modes_the_record_calls_a_bug(
    committed: Findings,
) -> None:
    """Notebook 08's search and notebook 10's situations tell one story: a conversation that
    only stops compaction, counted a bug, is in a mode where the release's record holds a
    liveness bug, and a release with no such bug has none."""
    found = committed
    for result in load_results(paths.DATA).values():
        if result.fix:
            continue
        record = of(found.verdicts, result.sdk_version)
        bug_modes = {m for v in record.of_kind(BUG) for m in v.modes}
        explored = {
            f.trace.conversation.mode
            for f in result.findings
            if set(f.invariants) <= {"compaction_runs", "history_bounded"}
            and breach_kind(f.trace.conversation.mode, f.invariants) == BUG
        }
        assert explored <= bug_modes, result.sdk_version


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("On 2.0.0, 1 of 16 cases violate an invariant.", [("2.0.0", "1 of 16", "0")]),
        ("On 1.0.0, 8 of 16 cases break an invariant.", []),
        ("2.0.0 has 2 bugs left.", [("2.0.0", "2 bugs", "1")]),
        ("3.0.0: 0 bugs.", []),
        ("@openai/agents 2.0.0 has 5 bugs.", []),
    ],
    ids=["cases-wrong", "cases-right", "bugs-wrong", "bugs-right", "other-package"],
)
def test_count_disagreements_finds_a_count_the_record_does_not_hold(
    text: str, wrong: list[tuple[str, str, str]]
) -> None:
    assert count_disagreements(text, RECORD) == wrong


def test_term_disagreements_finds_another_name_for_a_setting() -> None:
    said = "auto (store false), auto-store-false, auto, store=False; every plan\n```\nplan\n```"
    assert term_disagreements(said) == ["auto (store false)", "auto-store-false", "plan"]
    assert term_disagreements(f"| {AUTO_STORE_FALSE} | input |") == []


def test_every_published_file_states_the_record_s_counts_and_names(committed: Findings) -> None:
    """Issue 51: notebook 08 counted 1 bug on 0.24.0 where the README listed two bug
    situations, and one setting had three names ("auto (store false)", "auto-store-false",
    "auto, store false") while the JS report called modes plans."""
    found = committed
    texts = published(paths.ROOT)
    texts["data/report-js.md"] = (paths.ROOT / "data" / "report-js.md").read_text()
    for number, write in HEADLINES.items():
        texts[f"answer {number}"] = write(found)
    counts = {n: count_disagreements(t, found.verdicts) for n, t in texts.items()}
    terms = {n: term_disagreements(t) for n, t in texts.items()}
    assert {n: w for n, w in counts.items() if w} == {}
    assert {n: w for n, w in terms.items() if w} == {}


NEWEST_RECORD = (
    verdict(
        "2.0.0",
        0,
        LivenessVerdict("abandoned", STUCK, ("previous_response_id",), CONTRACT),
        LivenessVerdict("abandoned", STUCK, ("input",), UNKNOWN),
        LivenessVerdict("poisoned", REFUSED, ("input", "auto", "previous_response_id"), BUG),
    ),
)
VERDICT_HEADER = (
    "| openai-agents | verdict | liveness bugs | the SDK's documented contract | only with a "
    "compaction answer no public source shows |\n|---|---|---|---|---|\n"
)


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        (VERDICT_HEADER + "| 2.0.0 | x | poisoned refused (all modes) | abandoned stops "
         "compacting (previous_response_id) | abandoned stops compacting (input) |", []),
        (VERDICT_HEADER + "| 2.0.0 | x | poisoned refused (all modes); abandoned stops "
         "compacting (input) | none | none |", ["abandoned"]),
        (VERDICT_HEADER.replace("only with a compaction answer no public source shows",
                                "no public source shows") + "| 2.0.0 | x | poisoned refused "
         "(all modes) | abandoned stops compacting (previous_response_id) | abandoned stops "
         "compacting (input) |", ["abandoned"]),
        ("On 2.0.0 abandoned stops compacting (input).", ["abandoned"]),
        ("On 2.0.0, with an answer no public source shows, abandoned stops compacting (input).",
         []),
        ("| situation | 2.0.0 |\n|---|---|\n| abandoned | stops compacting in "
         "previous_response_id |\n| poisoned | refused |", []),
        ("| situation | 2.0.0 |\n|---|---|\n| abandoned | keeps compacting |", ["abandoned"]),
        ("| situation | 2.0.0 |\n|---|---|\n| abandoned | stops compacting in input |",
         ["abandoned"]),
    ],
    ids=["verdict-row", "unknown-as-bug", "unscoped-column", "sentence-unscoped", "sentence-scoped",
         "situation-table", "keeps-where-it-stops", "wrong-mode"],
)  # fmt: skip
def test_liveness_disagreements_hold_each_claim_to_the_record_under_its_scope(
    text: str, wrong: list[str]
) -> None:
    """Issue 60: the README's verdict row listed "abandoned stops compacting (input)" while its
    liveness table said abandoned stops only in previous_response_id: the row's column was a
    compaction answer no public source shows, unnamed. A claim is held to the record's modes
    under the answers its column or sentence names."""
    found = liveness_disagreements(text, NEWEST_RECORD)
    assert sorted({claim.situation for _, claim, _ in found}) == wrong


def test_every_published_file_and_report_says_of_each_situation_what_the_record_holds(
    committed: Findings,
) -> None:
    """README's tables, the reports, docs and the notebooks' answer lines: each situation's state
    and modes on a release as the record holds them, under the answers each names."""
    found = committed
    texts = published(paths.ROOT)
    for name in ("report-js.md", "report-js-stall.md", "report-adk.md"):
        texts[f"data/{name}"] = (paths.ROOT / "data" / name).read_text()
    wrong = {name: liveness_disagreements(text, found.verdicts) for name, text in texts.items()}
    assert {name: said for name, said in wrong.items() if said} == {}
    order = [v.release for v in found.verdicts]  # the README's two tables are read, not skipped
    assert len(liveness_claims(texts["README.md"], order)) > 20


@pytest.mark.parametrize(
    ("statement", "sdk"),
    [
        ("google-adk 1.0.0 is affected.", "google-adk"),
        ("LangChain 1.0.0 is affected.", "langchain"),
        ("@openai/agents 1.0.0 is affected.", "@openai/agents"),
    ],
    ids=["adk", "langchain", "js"],
)
def test_verdict_a_statement_naming_a_driver_is_read_for_it_not_for_openai_agents(
    statement: str, sdk: str
) -> None:
    """Which package a statement is about comes from each plugin's ``mentions``."""
    assert sdk in package_named()
    assert claims(statement, ["1.0.0"], sdk) == [("1.0.0", AFFECTED, statement)]
    assert claims(statement, ["1.0.0"]) == []
    assert claims("openai-agents 1.0.0 is affected.", ["1.0.0"], sdk) == []
