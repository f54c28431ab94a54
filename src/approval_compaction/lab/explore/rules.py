"""Rules: a hypothesis ``RuleBasedStateMachine`` that walks the space of conversations.

Each example is one conversation on a fresh SQLite store: ``start`` picks the compaction
mode, then ``ask``, ``decide`` (while an approval is pending, or a state is kept: it decides
that one when it draws ``kept``, or when nothing else is pending), ``lose`` and ``keep`` (only
while an approval is pending) and ``carry_on`` (a ``continue``: later turns with the hook saying
yes) run as real steps through the SDK (``driver.take``). A ``decide`` of the kept state after
turns is a late resume (counted in the tally). After every step every invariant is judged on
every payload the step sent and on the history it left; a violation the search still looks for
raises ``Violation`` and hypothesis shrinks the conversation to the smallest that still raises
it.

The search looks for one (invariant, tool kind) pair at a time: a pair already found is in
``Setup.found`` and no longer fails an example, so the next round finds something else.
Strategies list their simplest choice first (no compaction, ``run``, the ``memory`` boundary,
approval, the study's own function tool), which is where shrinking moves a choice.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from ...study.words import ENDINGS, RUNNERS, Kind, Mode
from .conversation import (
    BOUNDARIES,
    DECISIONS,
    MODES,
    TURNLESS,
    Conversation,
    Step,
    StepRecord,
    late_resumes,
)
from .driver import Live, scratch_folder, take
from .kinds import kind_of

if TYPE_CHECKING:  # a worker of any SDK's driver (the Python SDK's is one), whose type mypy reads
    from ...study.worker import Worker

MAX_CALLS = 3
ACTIONS: tuple[str, ...] = ("ask", "decide", "lose", "keep", "continue")
NO_KIND = "-"  # a violation that names no call (a dispatch count)


@dataclass
class Setup:
    """What one search explores and what it has found so far; shared by its examples."""

    kinds: tuple[Kind, ...]
    fix: bool = False
    modes: tuple[Mode, ...] = MODES
    boundaries: tuple[str, ...] = BOUNDARIES
    targets: frozenset[str] = frozenset()
    found: set[tuple[str, str]] = field(default_factory=set)
    tally: Counter[str] = field(default_factory=Counter)
    worker: Worker | None = None
    actions: tuple[str, ...] = ACTIONS  # the rules that may be taken
    progress: Any = None  # told as each example starts (``search.Progress``), when given


class Violation(AssertionError):
    """A step broke an invariant the search still looks for: the conversation up to it."""

    def __init__(self, conversation: Conversation, records: list[StepRecord], pairs: set[Any]):
        self.conversation, self.records = conversation, list(records)
        self.pairs: list[tuple[str, str]] = sorted(pairs)
        text = ", ".join(f"{i} ({k})" for i, k in self.pairs)
        super().__init__(f"{text} after {len(conversation.steps)} steps")


def new_pairs(
    record: StepRecord, setup: Setup, kind: Callable[[str], str] = kind_of
) -> set[tuple[str, str]]:
    """(invariant, kind) pairs this step violates that the search has not found yet (``kind``:
    the kind an offending id came from, on a driver the SDK's)."""
    pairs = set()
    for judgement in record.violations:
        if judgement.invariant not in setup.targets:
            continue
        kinds = {kind(key) for key in judgement.offenders} or {NO_KIND}
        pairs |= {(judgement.invariant, kind) for kind in kinds}
    return pairs - setup.found


def machine(setup: Setup) -> type[RuleBasedStateMachine]:
    """A state machine class bound to one search's setup (its strategies use its kinds)."""
    calls = st.lists(st.sampled_from(setup.kinds), max_size=MAX_CALLS).map(tuple)
    runners, flags = st.sampled_from(RUNNERS), st.booleans()
    endings = st.sampled_from(ENDINGS[:1] * 4 + ENDINGS[1:])  # most turns end normally

    class Explorer(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.folder = tempfile.TemporaryDirectory(
                prefix="approval-compaction-explore-", dir=scratch_folder()
            )
            self.loop = asyncio.new_event_loop()
            self.live: Live | None = None
            self.conversation = Conversation(fix=setup.fix)
            self.records: list[StepRecord] = []

        @initialize(mode=st.sampled_from(setup.modes))
        def start(self, mode: Mode) -> None:
            if setup.progress is not None:
                setup.progress.example(setup.tally)
            setup.tally["examples"] += 1
            setup.tally[f"mode: {mode}"] += 1
            folder = Path(self.folder.name)
            self.live = Live(mode, setup.fix, setup.kinds, folder)
            self.conversation = Conversation(mode, setup.fix)

        def step(self, step: Step) -> None:
            assert self.live is not None
            index = len(self.records)
            record = self.loop.run_until_complete(take(self.live, index, step, setup.worker))
            self.records.append(record)
            self.conversation = self.conversation.then(step)
            _count(setup.tally, record)
            if step.action == "decide" and index in late_resumes(self.records):
                setup.tally["late resumes"] += 1
            pairs = new_pairs(record, setup)
            if pairs:
                raise Violation(self.conversation, self.records, pairs)

        @rule(calls=calls, ending=endings, runner=runners, compact=flags)
        def ask(self, **choices: Any) -> None:  # the choices drawn are the step's fields
            self.step(Step("ask", **choices))

        # A state is kept only when ``keep`` is a rule; without it ``kept`` draws nothing.
        @precondition(lambda self: self.live is not None and (self.live.pending or self.live.kept))
        @rule(
            decision=st.sampled_from(DECISIONS),
            boundary=st.sampled_from(setup.boundaries),
            runner=runners,
            compact=flags,
            kept=flags if "keep" in setup.actions else st.just(False),
        )
        def decide(self, kept: bool, **choices: Any) -> None:
            assert self.live is not None  # the kept state when drawn, or when nothing else waits
            kept = self.live.kept and (kept or not self.live.pending)
            self.step(Step("decide", kept=kept, **choices))

        # The liveness steps are rules only when searched: a rule left out changes nothing
        # in the draws of the others (the same seed walks the same conversations).
        if "lose" in setup.actions:

            @precondition(lambda self: self.live is not None and self.live.pending)
            @rule()
            def lose(self) -> None:
                self.step(Step("lose"))

        if "keep" in setup.actions:

            @precondition(lambda self: self.live is not None and self.live.pending)
            @rule()
            def keep(self) -> None:
                self.step(Step("keep"))

        if "continue" in setup.actions:

            @rule(runner=runners)
            def carry_on(self, runner: Any) -> None:
                self.step(Step("continue", runner=runner))

        def teardown(self) -> None:
            if self.live is not None:
                self.live.close()
            self.loop.close()
            self.folder.cleanup()

    return Explorer


def _count(tally: Counter[str], record: StepRecord) -> None:
    step = record.step
    tally["steps"] += 1
    tally[f"rule: {step.action}"] += 1
    if step.action not in TURNLESS:  # a step that takes no turn has no runner and no hook
        tally[f"runner: {step.runner}"] += 1
        yes = step.compact or step.action == "continue"
        tally[f"compaction hook: {'yes' if yes else 'no'}"] += 1
    tally[f"outcome: {record.outcome}"] += 1
    tally["compaction requests"] += len(record.stage.compaction_inputs)
    if step.action == "ask":
        tally[f"calls in reply: {len(step.calls)}"] += 1
        tally[f"ending: {step.ending}"] += 1
        for kind in step.calls:
            tally[f"kind: {kind}"] += 1
    elif step.action == "decide":
        tally[f"decided: {'the kept state' if step.kept else 'the latest'}"] += 1
        tally[f"decision: {step.decision}"] += 1
        tally[f"boundary: {step.boundary}"] += 1
    for judgement in record.judgements:
        tally[f"judged: {judgement.invariant}"] += 1
