"""The stall as its own study: plain conversations on @openai/agents through the harness,
judged by analysis.liveness; the boundary from a sweep's records; the patches; the fakes of
the SDK's own tests."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from approval_compaction import paths
from approval_compaction.analysis.liveness import SDK_DEFAULT_THRESHOLD, liveness_run
from approval_compaction.js.harness import run_situations
from approval_compaction.js.patched import patched_folder
from approval_compaction.js.stall import (
    STALL_LOG,
    STALL_LOG_NAMESPACE,
    STALL_PLANS,
    StallRecord,
    run_stall,
    stall_plan,
    stall_record,
)
from approval_compaction.js.stall_finding import StallDataError, stall_boundary
from approval_compaction.study.capture import Stage

FIX = paths.ROOT / "js" / "fix"
node = [pytest.mark.enable_socket, pytest.mark.subprocess, pytest.mark.usefixtures("node_harness")]


def test_the_stall_plans_are_each_mode_runner_trigger_and_shape_once() -> None:
    keys = {(p.mode, p.runner, p.trigger, p.shape) for p in STALL_PLANS}
    assert len(keys) == len(STALL_PLANS) == 16
    assert len({p.label for p in STALL_PLANS}) == 16
    assert all(p.situations == ("clean",) and not p.tools and not p.cases for p in STALL_PLANS)
    assert {p.later for p in STALL_PLANS if p.trigger == "default"} == {32}
    assert {p.threshold for p in STALL_PLANS} == {None, SDK_DEFAULT_THRESHOLD}


def _stage(stored: list[dict[str, str]], compacted: bool) -> Stage:
    return Stage(
        "next_turn",
        stored=stored,
        model_inputs=[stored[-2:]],
        compaction_inputs=[stored] if compacted else [],
    )


def test_a_stall_record_carries_each_turn_and_the_judges_verdicts() -> None:
    user = {"role": "user", "content": "q"}
    answer = {"type": "message", "role": "assistant", "content": "a"}
    summary = {"type": "compaction", "encrypted_content": "s"}
    stages = [_stage([user, summary], True), _stage([user, summary, user, answer], False)]
    run = liveness_run("clean", "9.9.9", "input", False, [(s, "answered") for s in stages])
    record = stall_record(
        run, sdk="@openai/agents", release="9.9.9", variant="", runner="run",
        trigger="always", shape="keeps_users",
    )  # fmt: skip
    assert (record.stored, record.inputs, record.compacted_at) == ("2 4", "2 2", "1")
    assert (record.compaction_runs, record.history_bounded, record.session_usable) == (
        False, False, True,
    )  # fmt: skip
    assert record.stalls and record.broken.startswith("compaction_runs: turns 2")


def _record(release: str, stalls: bool | None, shape: str = "keeps_users") -> StallRecord:
    held = None if stalls is None else not stalls
    return StallRecord(
        "@openai/agents", release, "", "input", "run", "always", shape, 8, 1, "1", "", "",
        held, held, held, "", "" if held is not None else "no compactionMode option",
    )  # fmt: skip


def test_the_boundary_is_the_first_stalling_release_after_one_that_keeps_compacting() -> None:
    records = [
        _record("0.3.6", None),
        _record("0.9.0", False),
        _record("0.10.0", False),
        _record("0.11.0", True),
        _record("0.11.0", False, "summary_only"),  # the variant never decides
        _record("0.12.0", True),
    ]
    found = stall_boundary(records)
    assert (found.last_good, found.first_bad, found.newest) == ("0.10.0", "0.11.0", "0.12.0")
    assert found.stalling == ("0.11.0", "0.12.0") and found.contiguous
    assert (found.span, found.judged) == ("0.11.0..0.12.0", 4)
    with pytest.raises(StallDataError, match="no release stalls"):
        stall_boundary([_record("0.9.0", False)])


def _changes(diff: Path) -> tuple[set[str], set[str]]:
    lines = diff.read_text().splitlines()
    added = {x[1:] for x in lines if x.startswith("+") and not x.startswith("+++")}
    removed = {x[1:] for x in lines if x.startswith("-") and not x.startswith("---")}
    return added, removed


def test_the_combined_patch_is_both_patches_and_nothing_else() -> None:
    """``both`` adds every line the pending call's and the stall's patches add, removes what
    they remove, and nothing more: the patch lab runs the same change alone and together."""
    both = _changes(FIX / "agents-openai-0.20.0-both.diff")
    pending = _changes(FIX / "agents-openai-0.20.0.diff")
    stall = _changes(FIX / "agents-openai-0.20.0-stall.diff")
    assert both[0] == pending[0] | stall[0]
    assert both[1] == pending[1] | stall[1]


def test_the_fix_in_typescript_is_the_diffs_helper() -> None:
    """The TypeScript statement of each fix and its dist patch make the same decisions, and the
    TypeScript calls nothing the repository's lib (ES2018) lacks."""
    typescript = (FIX / "agents-openai-0.20.0-stall.ts").read_text()
    dist = (FIX / "agents-openai-0.20.0-stall.diff").read_text()
    for needle in (
        "if (input) {",
        "for (let limit = exchange.items.length + 1; stored.length >= limit;) {",
        "stored = await this.underlyingSession.getItems(limit);",
        "while (at >= 0 && stored[at].type !== 'compaction') {",
        "input: [...stored.slice(0, at), ...covered], history: stored",
        "this.sessionItems = covered.history;",
    ):
        assert needle in typescript and needle in dist, needle
    assert "findLastIndex" not in typescript and "getAllUnderlyingSessionItems" not in typescript
    pending = (FIX / "agents-openai-0.20.0.ts").read_text()
    pending_dist = (FIX / "agents-openai-0.20.0.diff").read_text()
    for needle in (
        "export { getUnresolvedToolResultCorrelationsForResponse } from",
        "getUnresolvedToolResultCorrelationsForResponse(history).length > 0",
        "'skip: a tool call in the stored history awaits its result'",
    ):
        assert needle in pending and needle in pending_dist, needle


@pytest.mark.enable_socket
@pytest.mark.subprocess
@pytest.mark.usefixtures("node_harness")
def test_the_pinned_release_stalls_only_when_the_endpoint_answers_as_documented() -> None:
    """Three plain turns, the hook always saying yes: with the documented answer only the first
    compacts; with the compaction item alone every turn does."""
    plans = [
        replace(stall_plan("input", "run", "always", shape), later=3)
        for shape in ("keeps_users", "summary_only")
    ]
    (documented,), (alone,) = run_situations(plans)
    assert [t.compacted for t in documented.turns] == [True, False, False]
    assert [t.compacted for t in alone.turns] == [True, True, True]
    assert [t.inputs for t in documented.turns] == [1, 2, 4]  # from the compaction item on


@pytest.mark.enable_socket
@pytest.mark.subprocess
@pytest.mark.usefixtures("node_harness")
def test_a_stalled_session_says_so_in_the_sdks_debug_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The README's and the report's line for a team's logs: with ``DEBUG`` naming the SDK's
    compaction logger, each turn after the first compaction logs ``STALL_LOG`` and compacts
    nothing; the answer with the compaction item alone never logs it."""
    import subprocess

    from approval_compaction.js import harness

    said: list[str] = []
    run = subprocess.run

    def keep_stderr(*args: object, **kwargs: object) -> subprocess.CompletedProcess[str]:
        done = run(*args, **kwargs)  # type: ignore[call-overload]
        said.append(done.stderr)
        return done  # type: ignore[no-any-return]

    monkeypatch.setenv("DEBUG", STALL_LOG_NAMESPACE)
    monkeypatch.setattr(harness.subprocess, "run", keep_stderr)
    plans = [
        replace(stall_plan("input", "run", "always", shape), later=4)
        for shape in ("keeps_users", "summary_only")
    ]
    (documented,), (alone,) = run_situations(plans)
    assert [t.compacted for t in documented.turns] == [True, False, False, False]
    logged, plain = said
    assert logged.count(STALL_LOG) == 3 and logged.count("compact: start") == 1
    assert plain.count(STALL_LOG) == 0 and plain.count("compact: start") == 4


@pytest.mark.enable_socket
@pytest.mark.subprocess
@pytest.mark.usefixtures("node_harness")
@pytest.mark.parametrize(
    "patch", ["agents-openai-0.20.0-stall.diff", "agents-openai-0.20.0-both.diff"]
)
def test_the_patched_package_compacts_whenever_its_trigger_asks(patch: str) -> None:
    plans = [
        replace(stall_plan("input", "run_streamed", "always", "keeps_users"), later=4),
        stall_plan("previous_response_id", "run", "default", "keeps_users"),
    ]
    always, default = run_stall(patched_folder(FIX / patch), "0.20.0", patch, plans)
    assert always.compacted_at == "1 2 3 4" and not always.stalls
    assert default.compacted_at == "10 20 30" and not default.stalls
    assert re.fullmatch(r"[\d ]+", default.stored)


def test_the_judges_threshold_is_both_sdks_default() -> None:
    """``SDK_DEFAULT_THRESHOLD`` is the installed SDKs' own ``DEFAULT_COMPACTION_THRESHOLD``."""
    from agents.memory import openai_responses_compaction_session as python_session

    assert python_session.DEFAULT_COMPACTION_THRESHOLD == SDK_DEFAULT_THRESHOLD
    session = (
        paths.ROOT / "node_modules" / "@openai" / "agents-openai" / "dist" / "memory"
        / "openaiResponsesCompactionSession.mjs"
    )  # fmt: skip
    if session.is_file():  # make setup installs it
        assert f"DEFAULT_COMPACTION_THRESHOLD = {SDK_DEFAULT_THRESHOLD};" in session.read_text()
