"""Changes: the tests whose outcome the workaround changes, and why.

A change is a test whose outcome differs between the run without and the run with the
workaround (missing in one run counts). The changes the workaround is meant to make are named
by test id (``INTENDED``); any other change is re-run alone, both ways, and one that does not
recur there (a timeout while other workers held the cores) keeps its record with the re-run's
outcomes as its reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from .. import environments
from .checkout import LIVENESS_TEST_NAME, UPSTREAM_TEST_FOLDER, UPSTREAM_TEST_NAME, Checkout
from .suite import DEFAULT_WORKERS, CaseOutcome, run_suite

# The changes the workaround makes, each with its cause, by test id (a prefix).
_LIVENESS = f"{UPSTREAM_TEST_FOLDER}/{LIVENESS_TEST_NAME}::"
_SESSION_TESTS = (  # the SDK's own tests of the compaction session
    "tests/memory/test_openai_responses_compaction_session.py::TestOpenAIResponsesCompactionSession::"
)
INTENDED: dict[str, str] = {
    f"{UPSTREAM_TEST_FOLDER}/{UPSTREAM_TEST_NAME}::": (
        "the project's upstream-form regression test: it fails on an affected release and "
        "passes once automatic compaction waits for the pending call"
    ),
    f"{_LIVENESS}test_compaction_keeps_history_bounded_after_unpaired_item": (
        "the project's upstream-form liveness test: the workaround retires the dead call or "
        "unanswered MCP approval request, so compaction runs again and the history stays bounded"
    ),
    f"{_LIVENESS}test_abandoned_approval_resumed_later_stays_paired[function-": (
        "the workaround stores the output of a call it retired as text, so the approval resumed "
        "after the user moved on stores and sends nothing unpaired"
    ),
    f"{_LIVENESS}test_abandoned_approval_resumed_later_stays_paired[mcp-": (
        'the workaround\'s stated cost (docs/liveness.md, "A late resume"): it retired the '
        "abandoned MCP approval request, so the response resumed after the user moved on is "
        "stored as text, not as a request and response pair; nothing unpaired is stored or sent"
    ),
    # The three below were found by a run: each passes on 0.24.0 with the workaround once its
    # after-failure check (``_make_whole``) is switched off, or, for the reasoning test, the
    # dead call left stored (the items each turn stores and compacts were printed both ways).
    f"{_LIVENESS}test_compaction_keeps_reasoning_with_its_following_item": (
        "our test checks the bare SDK's shape: with the dead call retired, compaction summarises "
        "the reasoning item with the item after it; nothing unpaired"
    ),
    f"{_SESSION_TESTS}test_rollback_budget_bounds_failed_clear_inspection": (
        "after a failed replacement the workaround reads the whole history once more (past "
        "max_rollback_items)"
    ),
    f"{_SESSION_TESTS}test_run_compaction_reraises_replacement_error_when_restore_fails": (
        "after a failed replacement and restore the workaround tries up to three more restores, "
        "then raises the same error"
    ),
}
# What an intended change must end in with the workaround, where that is fixed: the liveness
# test passing (on an affected release it is a strict xfail, so passing there reads as an
# ``[XPASS(strict)]`` failure, which counts as passing), the resumed-later test passing for a
# function call and failing for an MCP request (its response is text, not a pair). A change that
# ends otherwise is not explained.
ENDS_IN: dict[str, str] = {
    f"{_LIVENESS}test_compaction_keeps_history_bounded_after_unpaired_item": "passed",
    f"{_LIVENESS}test_abandoned_approval_resumed_later_stays_paired[function-": "passed",
    f"{_LIVENESS}test_abandoned_approval_resumed_later_stays_paired[mcp-": "failed",
    f"{_LIVENESS}test_compaction_keeps_reasoning_with_its_following_item": "failed",
    f"{_SESSION_TESTS}test_rollback_budget_bounds_failed_clear_inspection": "failed",
    f"{_SESSION_TESTS}test_run_compaction_reraises_replacement_error_when_restore_fails": "failed",
}
XPASS_STRICT = "[XPASS(strict)]"
NOT_REPRODUCED = "not reproduced"  # the reason of a change that a re-run alone does not repeat


def xpassed_strict(outcome: str, message: str) -> bool:
    """Whether a failure is a strict xfail that passed (pytest reports it as failed)."""
    return outcome == "failed" and message.startswith(XPASS_STRICT)


def shown_outcomes(baseline: str, fixed: str, message: str) -> tuple[str, str]:
    """A change's two outcomes in pytest's own words. JUnit records an expected failure as
    ``skipped``; pytest's summary calls it ``xfailed``, and a strict one that passed ``failed``
    with ``[XPASS(strict)]``. Every published file names outcomes this way."""
    if xpassed_strict(fixed, message):
        return ("xfailed" if baseline == "skipped" else baseline), f"failed {XPASS_STRICT}"
    return baseline, fixed


def passed_in_effect(outcome: CaseOutcome) -> str:
    """The outcome, a strict xfail that passed counted as passing."""
    return "passed" if xpassed_strict(outcome.outcome, outcome.message) else outcome.outcome


@dataclass(frozen=True)
class SuiteChange:
    """A test whose outcome differs with the workaround, and why when that is intended."""

    sdk_version: str
    test: str
    baseline: str
    fixed: str
    message: str  # the failing assertion of whichever run failed
    reason: str  # empty: not explained


def reason_for(test: str, intended: dict[str, str] = INTENDED, ends_in: str | None = None) -> str:
    """The explanation of an intended change (``ends_in``: its outcome with the workaround, a
    passing strict xfail counted as passing, which must be the prefix's ``ENDS_IN`` when it has
    one), or empty."""
    for prefix, why in intended.items():
        if test.startswith(prefix):
            wanted = ENDS_IN.get(prefix)
            return why if wanted is None or ends_in is None or ends_in == wanted else ""
    return ""


def changes(
    version: str,
    baseline: Iterable[CaseOutcome],
    fixed: Iterable[CaseOutcome],
    intended: dict[str, str] = INTENDED,
) -> list[SuiteChange]:
    """Every test whose outcome differs between the runs (missing in one counts as a change)."""
    before = {o.test: o for o in baseline}
    after = {o.test: o for o in fixed}
    found = []
    for test in sorted(before.keys() | after.keys()):
        old = before.get(test, CaseOutcome(test, "missing", ""))
        new = after.get(test, CaseOutcome(test, "missing", ""))
        if old.outcome != new.outcome:
            message = new.message if new.outcome != "passed" else old.message
            reason = reason_for(test, intended, passed_in_effect(new))
            found.append(SuiteChange(version, test, old.outcome, new.outcome, message, reason))
    return found


def confirm(
    checkout: Checkout,
    found: Sequence[SuiteChange],
    *,
    workers: int = DEFAULT_WORKERS,
    run: environments.Runner = environments.run,
) -> list[SuiteChange]:
    """Re-run each unexplained change alone, both ways; one that does not recur is timing."""
    suspects = [c.test for c in found if not c.reason]
    if not suspects:
        return list(found)
    again, _ = run_suite(checkout, suspects, fix=False, workers=workers, run=run)
    fixed, _ = run_suite(checkout, suspects, fix=True, workers=workers, run=run)
    before = {o.test: o.outcome for o in again}
    after = {o.test: o.outcome for o in fixed}
    return unreproduced_marked(found, before, after, "the workaround")


def unreproduced_marked(
    found: Sequence[SuiteChange], before: Mapping[str, str], after: Mapping[str, str], side: str
) -> list[SuiteChange]:
    """The changes, each unexplained one whose re-run alone (``before`` and ``after``: outcome by
    test, without and with ``side``) gives one outcome both ways marked as not reproduced, with
    the re-run's outcomes as its reason (a failure under load)."""
    kept = []
    for change in found:
        old, new = before.get(change.test, "missing"), after.get(change.test, "missing")
        if change.reason or old != new:
            kept.append(change)
            continue
        note = f"{NOT_REPRODUCED}: re-run alone, {old} without and {new} with {side} "
        kept.append(replace(change, reason=note + "(a failure under load)"))
    return kept
