"""The Python store fuzzer: its trials as data, its judge, and its seeded runs (issue 57): the
workaround keeps every promise in every trial it promises it (``in_contract``), beside the bare
pinned release and the newest one, the control."""

from __future__ import annotations

import json

import needs
import pytest

from approval_compaction.testing.pyfuzz import (
    HISTORIES,
    Ask,
    Fault,
    Problems,
    Race,
    Record,
    Resume,
    Trial,
    draw,
    in_contract,
    lost,
    problems,
    run_in,
    run_trials,
    single_faults,
    tally,
)

SEEDS = range(150)  # the fuzzer's drawn trials in test-all (docs/workaround.md names them)


def test_a_trial_survives_its_json() -> None:
    trial = Trial(
        (Ask("a", pause=True), Race((Resume("a", approve=False), Ask("b")), (1.5, 0.0))),
        store="list",
        handles="per_request",
        history=HISTORIES["dead"],
        latency_ms=3.0,
        fault=Fault(4, "lost", then=1),
        seed=9,
    )
    assert Trial.from_json(json.loads(json.dumps(trial.to_json()))) == trial


def test_draws_are_the_same_for_a_seed_and_cover_the_deployments() -> None:
    assert draw(7) == draw(7)
    drawn = [draw(seed) for seed in SEEDS]
    assert {t.store for t in drawn} == {"sqlite", "list"}
    assert {t.handles for t in drawn} == {"kept", "per_request"}
    assert any(isinstance(s, Race) for t in drawn for s in t.steps)
    assert {t.fault.mode for t in drawn if t.fault} == {"fail", "lost"}
    assert {t.latency_ms for t in drawn} == {0.0, 1.0, 3.0, 10.0}


def test_the_judge_finds_the_poisoned_session_the_pinned_release_leaves() -> None:
    """The driver can fail: bare 0.23.1 compacts the call awaiting approval away, the resume
    stores its output alone, and the strict model refuses the next turn."""
    trial = Trial((Ask("a", pause=True), Resume("a"), Ask("a")))
    [record] = run_trials([trial], (False,))
    assert problems(record).unpaired_stored == ["output call-1 without its call"]
    assert record["refused"] == 1 and record["outcomes"][-1] == "a: refused"


def test_the_judge_counts_what_a_clear_dropped_and_no_compaction_replaced() -> None:
    user, answer = {"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}
    compaction = {"type": "compaction", "id": "k", "encrypted_content": "s"}
    record: Record = {
        "initial": [user, answer],
        "ledger": [
            {"op": "clear", "items": [], "after": [], "failed": False},
            {"op": "add", "items": [user], "after": [user], "failed": False},
        ],
        "stored": [user],
    }
    assert lost(record) == [json.dumps(answer, sort_keys=True)]
    compacted = {**record, "stored": [user, compaction]}
    compacted["ledger"] = [
        *record["ledger"][:1],
        {"op": "add", "items": [user, compaction], "after": [user, compaction], "failed": False},
    ]
    assert lost(compacted) == []  # the compaction that committed replaced it


def beyond_bare(fixed: Record, bare: Record) -> Problems | None:
    """What the workaround broke in a trial: anything unpaired, or an item lost or stored twice
    that the bare SDK kept in the same trial (a turn the SDK fails after its answer is stored,
    when a read fails, is retried by the application, which asks again: bare as wrapped).
    None when nothing."""
    found, control = problems(fixed), problems(bare)
    broken = Problems(
        [i for i in found.lost if i not in control.lost],
        [i for i in found.duplicated if i not in control.duplicated],
        found.unpaired_inputs,
        found.unpaired_stored,
    )
    return broken if broken.any() or fixed["refused"] else None


@pytest.mark.slow
def test_seeded_trials_keep_every_promise_with_the_workaround() -> None:
    """The seeded trials on the pinned release: with the workaround, no trial it promises
    sends or stores anything unpaired, meets a refusal, or loses or duplicates what bare kept."""
    trials = [draw(seed) for seed in SEEDS]
    records = run_trials(trials, (True, False))
    fixed, bare = records[0::2], records[1::2]
    broken = {
        t.seed: beyond_bare(f, b)
        for t, f, b in zip(trials, fixed, bare, strict=True)
        if in_contract(t) and beyond_bare(f, b) is not None
    }
    assert broken == {}
    found = tally(fixed)
    assert found.faults >= len(SEEDS) // 4  # a fault fired in a quarter of the trials or more


@pytest.mark.slow
@pytest.mark.parametrize("store", ["sqlite", "list"])
def test_every_single_store_failure_loses_nothing(store: str) -> None:
    """Each store call of each scenario fails in turn, each way it can (SQLite's own practice
    for its commits): with the workaround nothing is lost, duplicated, sent or stored unpaired,
    and no request is refused."""
    scenarios = [
        (Ask("a", pause=True), Resume("a"), Ask("c")),
        (Ask("a", pause=True), Ask("b"), Resume("a"), Ask("c")),
        (Ask("a", pause=True), Ask("b"), Ask("c")),
    ]
    broken: dict[str, Problems] = {}
    for steps in scenarios:
        for history in ("plain", "dead"):
            trial = Trial(steps, store=store, history=HISTORIES[history])  # type: ignore[arg-type]
            [clean] = run_trials([trial], (True,))
            faulty = list(single_faults(trial, clean))
            for t, record in zip(faulty, run_trials(faulty, (True,)), strict=True):
                if problems(record).any() or record["refused"]:
                    broken[json.dumps(t.to_json())[:200]] = problems(record)
    assert broken == {}


@pytest.mark.releases
def test_on_the_newest_release_the_workaround_keeps_the_bare_sdks_promises() -> None:
    """The same trials in 0.24.0's own environment, bare (the control: the SDK's own fix) and
    with the workaround: it breaks no promise the bare SDK keeps, and bare poisons nothing."""
    env = needs.release("0.24.0")
    trials = [draw(seed) for seed in SEEDS[:60]]
    records = run_in(str(env.python), trials, (True, False))
    fixed, bare = records[0::2], records[1::2]
    broken = {
        t.seed: beyond_bare(f, b)
        for t, f, b in zip(trials, fixed, bare, strict=True)
        if in_contract(t) and beyond_bare(f, b) is not None
    }
    assert broken == {}
    assert tally(bare).poisoned == 0
