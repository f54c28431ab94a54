"""Driven: the search on a driver that runs in the SDK's own runtime (Node for a Node
SDK, a release's interpreter for a Python SDK), judged by the one judge.

An SDK's folder gives its moves as data (``study.moves.Moves``: the settings a conversation
starts with, the steps it may take) and a driver process that takes one step per request
(``study.moves.StepDriver``: the harness's ``Steps``). This module builds the hypothesis state
machine from the moves (a setting or a field is drawn from its values, simplest first; a move
that needs something the conversation does not hold is not taken), takes each drawn step on the
driver, and judges its answer as the Python search judges its own steps (``driver.judge_step``:
the step as the stage it plays in a case; ``driver.judge_turns``: a ``continue``'s turns by the
liveness rules). The rounds, the shrinking and the records are the Python search's
(``search``, ``rules``).

Each settings' control, ``CONTROL_STEPS`` ``continue`` steps on a fresh conversation, runs
once per search and sets two things. Its leading turns without a compaction request are the
trigger's warm-up (a token threshold keeping N raw events compacts nothing until more than N
are stored): the liveness rules judge a ``continue``'s turns after it (a control that never
compacts has none: that is a finding). A liveness invariant the SDK breaks by design
(``Moves.designed``, with its public source) is not a finding where the control breaks it too:
a step's verdict on it is then recorded as not judged, its detail naming the source.

A finding is ``known`` when its steps have the shape of one of the SDK's hand-picked situations
or cases (``Moves.shapes``; plain questions in a row count as one, runners and boundaries as
any), or the start of one, in settings they ran; anything else is ``new``: what the hand-picked
situations miss.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, cast

from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from ...analysis.invariants import INVARIANTS
from ...errors import InvestigationError
from ...study.capture import Stage
from ...study.moves import Choice, Moves, StepAnswer, StepDriver
from ...study.words import Kind
from .conversation import Conversation, Judgement, Step, StepRecord, Trace
from .driver import joined, judge_step, judge_turns
from .rules import Setup, Violation, _count, new_pairs
from .search import Finding, Options, Progress, SearchResult, _settings, own_draws

STEP_FIELDS = frozenset(Step.__dataclass_fields__) - {"action"}
# A control's ``continue`` steps: long enough for a sliding window's overlap (up to two
# invocations) to show its designed growth, which starts a turn after the overlap fills.
CONTROL_STEPS = 2
# hypothesis's decorators, their strategies given as a dict (their stubs overload on the names)
STARTS: Callable[..., Callable[[Callable[..., None]], Callable[..., None]]] = initialize


def strategy(choice: Choice) -> st.SearchStrategy[Any]:
    """A choice's values, simplest first; a list of up to ``many`` of them as a tuple."""
    one = st.sampled_from(choice.values)
    return st.lists(one, max_size=choice.many).map(tuple) if choice.many else one


@dataclass
class Drive:
    """One search on one driver: the SDK's moves, the driver, the search's ``Setup`` (what it
    looks for, has found and has counted), and each settings' designed breaks (the control)."""

    moves: Moves
    driver: StepDriver
    setup: Setup
    controls: dict[tuple[tuple[str, Any], ...], Control] = field(default_factory=dict)
    last: StepAnswer | None = None  # the driver's last answer
    turns: tuple[Stage, ...] = ()  # the last step's turns, each a stage

    def kind_of(self, key: str) -> str:
        return self.moves.kind_of(key)

    def control(self, settings: Mapping[str, Any]) -> Control:
        """The control of these settings (run once per search)."""
        key = tuple(settings.items())
        if key not in self.controls:
            found = Control()
            if not self.driver.start(settings):
                turns: list[Stage] = []
                for index in range(CONTROL_STEPS):
                    if take(self, found, index, Step("continue")) is None:
                        break
                    turns += self.turns
                else:
                    found = Control.of(turns, self.moves.designed, self.driver.version)
            self.controls[key] = found
        return self.controls[key]


@dataclass(frozen=True)
class Control:
    """What a plain conversation shows in one conversation's settings: the trigger's warm-up
    (its leading turns without a compaction request; none when it never compacts) and the
    designed invariants it breaks."""

    warmup: int = 0
    designed: frozenset[str] = frozenset()

    @classmethod
    def of(cls, turns: Sequence[Stage], designed: Sequence[str], version: str) -> Control:
        """The control read from its turns: the warm-up, then the liveness rules after it."""
        compacted = [bool(s.compaction_inputs) for s in turns]
        warmup = compacted.index(True) if any(compacted) else 0
        judged = judge_turns([(s, "answered") for s in turns[warmup:]], version)
        broken = {j.invariant for j in judged if j.holds is False} & set(designed)
        return cls(warmup, frozenset(broken))


class DriverLive:
    """One conversation on the driver: started with its settings, then step by step; what it
    holds (``pending``, ``kept``, ``waiting``) is what the last answer said."""

    def __init__(self, drive: Drive, settings: Mapping[str, Any]) -> None:
        self.drive = drive
        self.control = drive.control(settings)
        self.why = drive.driver.start(settings)
        self.holds: frozenset[str] = frozenset()

    def can(self, needs: Sequence[str]) -> bool:
        return not needs or bool(set(needs) & self.holds)

    def normal(self, step: Step) -> Step:
        """The step as taken: a decide of the kept state when one is kept and it drew it, or
        when nothing else is pending (the Python search's rule)."""
        if step.action != "decide":
            return step
        kept = "kept" in self.holds and (step.kept or "pending" not in self.holds)
        return replace(step, kept=kept)

    def take(self, index: int, step: Step) -> StepRecord | None:
        record = take(self.drive, self.control, index, step)
        if record is not None and self.drive.last is not None:
            self.holds = self.drive.last.holds
        return record


def take(drive: Drive, control: Control, index: int, step: Step) -> StepRecord | None:
    """Take one step on the driver and judge it (None: the driver cannot take it as drawn); a
    ``continue``'s liveness after the control's warm-up."""
    answer: StepAnswer = drive.driver.step(index, step.to_json())
    drive.last = answer
    if answer.not_applicable:
        return None
    assert answer.stages  # every step the driver takes records the turns it took
    stages = list(answer.stages)
    drive.turns = tuple(stages)
    stage = joined(stages) if len(stages) > 1 else stages[0]
    moves, version = drive.moves, drive.driver.version
    sdk = cast(Any, moves.short)
    judged = judge_step(stage, step.action, answer.approvals, version, moves.model, sdk)
    if step.action == "continue":
        judged += judge_turns([(s, "answered") for s in stages[control.warmup :]], version)
    judged = tuple(by_design(j, control.designed, moves.designed_source) for j in judged)
    return StepRecord(index, step, answer.outcome, answer.pending, answer.approvals, stage, judged)


def by_design(judgement: Judgement, designed: frozenset[str], source: str) -> Judgement:
    """A designed invariant's break, where the control breaks it too, as not judged."""
    if judgement.invariant not in designed or judgement.holds is not False:
        return judgement
    why = f"by design, as in a plain conversation in these settings ({source}): {judgement.detail}"
    return Judgement(judgement.invariant, None, why)


def machine(drive: Drive) -> type[RuleBasedStateMachine]:
    """A state machine class whose rules are the SDK's moves, bound to one search."""
    moves, setup = drive.moves, drive.setup

    class Explorer(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.live: DriverLive | None = None
            self.conversation = Conversation(sdk=moves.short)
            self.records: list[StepRecord] = []

        @STARTS(**{c.name: strategy(c) for c in moves.settings})
        def start(self, **settings: Any) -> None:
            if setup.progress is not None:
                setup.progress.example(setup.tally)
            live = DriverLive(drive, settings)
            assume(not live.why)  # settings the release cannot run: not an example
            setup.tally["examples"] += 1
            setup.tally[f"mode: {settings['mode']}"] += 1
            self.live, self.conversation = live, conversation(moves, settings)

        def step(self, step: Step) -> None:
            assert self.live is not None
            step = self.live.normal(step)
            record = self.live.take(len(self.records), step)
            assume(record is not None)  # a step the driver cannot take as drawn
            assert record is not None
            self.records.append(record)
            self.conversation = self.conversation.then(step)
            _count(setup.tally, record)
            pairs = new_pairs(record, setup, drive.kind_of)
            if pairs:
                raise Violation(self.conversation, self.records, pairs)

    for move in moves.moves:
        setattr(Explorer, f"take_{move.action}", _rule(move.action, move.choices, move.needs))
    return Explorer


def _rule(action: str, choices: Sequence[Choice], needs: Sequence[str]) -> Callable[..., None]:
    unknown = {c.name for c in choices} - STEP_FIELDS
    assert not unknown, f"a move draws fields a step does not have: {unknown}"

    def taken(self: Any, **drawn: Any) -> None:
        self.step(Step(cast(Any, action), **drawn))

    def able(self: Any) -> bool:
        return self.live is not None and bool(self.live.can(needs))

    made: Callable[..., None] = cast(Any, rule)(**{c.name: strategy(c) for c in choices})(taken)
    return precondition(able)(made)


def conversation(moves: Moves, settings: Mapping[str, Any]) -> Conversation:
    """A driver's conversation with these settings and no step yet (the workaround is the
    ``fix`` setting where the SDK has one)."""
    rest = tuple((k, v) for k, v in settings.items() if k not in ("mode", "fix"))
    return Conversation(settings["mode"], bool(settings.get("fix", False)), (), moves.short, rest)


# ---------------------------------------------------------------- known shapes


PLAIN_ASK = ("ask", "answer", False)
LATER = ("continue", "answer", False)


def _normal(steps: Sequence[Mapping[str, Any]]) -> list[tuple[tuple[str, str, bool], Any]]:
    """Steps as a shape compares them: action, ending and a kept decide, with the calls (in a
    shape, a call may be a list of the kinds it stands for); plain questions in a row as one
    (runners, boundaries and decisions as any)."""
    out: list[tuple[Any, Any]] = []
    for step in steps:
        key = (step["action"], step.get("ending", "answer"), bool(step.get("kept", False)))
        calls = tuple(step.get("calls", ()))
        if out and key == PLAIN_ASK and not calls and out[-1] == (key, ()):
            continue
        out.append((key, calls))
    return out


def _calls_fit(mine: Sequence[str], theirs: Sequence[Any]) -> bool:
    """Whether a step's calls are a shape step's, in any order (each a kind or its list)."""
    if len(mine) != len(theirs):
        return False
    options = [set(c) if isinstance(c, list | tuple) else {c} for c in theirs]
    return any(
        all(kind in allowed for kind, allowed in zip(order, options, strict=True))
        for order in itertools.permutations(mine)
    )


def _step_fits(mine: tuple[Any, Any], theirs: tuple[Any, Any]) -> bool:
    """A step fits a shape's: the same, or later questions (``continue``) where the shape asks
    a plain one (the next question of a case)."""
    (key, calls), (shape, wanted) = mine, theirs
    if key == LATER and shape == PLAIN_ASK and not wanted:
        return True
    return bool(key == shape and _calls_fit(calls, wanted))


def _begins(mine: Sequence[tuple[Any, Any]], theirs: Sequence[tuple[Any, Any]]) -> bool:
    """Whether steps are the start of a shape's, its plain questions optional (a situation
    asks them while an answer waits; a compaction at the ask's own end has the same effect)."""
    if not mine:
        return True
    if not theirs:
        return False
    skip = theirs[0] == (PLAIN_ASK, ()) and _begins(mine, theirs[1:])
    return skip or (_step_fits(mine[0], theirs[0]) and _begins(mine[1:], theirs[1:]))


def shape_of(moves: Moves, found: Conversation) -> str:
    """The hand-picked shape a conversation has, or begins, in settings it ran ("" if none)."""
    mine = _normal([step.to_json() for step in found.steps])
    options = found.options
    for shape in moves.shapes:
        if any(options.get(name) not in values for name, values in shape.settings.items()):
            continue
        if mine and _begins(mine, _normal(shape.steps)):
            return shape.name
    return ""


def known_as(
    moves: Moves, found: Conversation, records: Sequence[StepRecord], invariants: set[str]
) -> str:
    """The hand-picked shape a finding has ("" if none), read up to the first step that broke
    one of its invariants: a conversation whose compaction had stopped for good before its
    later steps is that first stop, whatever the later steps leave pinned."""
    broke = [r.index for r in records for j in r.violations if j.invariant in invariants]
    first = min(broke, default=len(found.steps) - 1)
    return shape_of(moves, replace(found, steps=found.steps[: first + 1]))


# ---------------------------------------------------------------- the search


def rerun(drive: Drive, found: Conversation) -> Trace:
    """Run a saved conversation again on the driver, every step judged."""
    settings = found.options
    control = drive.control(settings)
    why = drive.driver.start(settings)
    if why:
        raise InvestigationError(
            f"{drive.moves.package} {drive.driver.version} cannot run it: {why}"
        )
    needs = {move.action: move.needs for move in drive.moves.moves}
    records, holds = [], frozenset[str]()
    for index, step in enumerate(found.steps):
        wanted = needs.get(step.action, ())
        if wanted and not set(wanted) & holds:
            break  # a step the conversation cannot take any more (a shorter one, tightened)
        record = take(drive, control, index, step)
        if record is None or drive.last is None:
            break
        records.append(record)
        holds = drive.last.holds
    return Trace(found, drive.driver.version, tuple(records))


def tighten(violation: Violation, drive: Drive) -> Violation:
    """Drop any single step hypothesis's shrinker left in while the rerun still breaks the
    same pairs (``search.tighten``'s pass, on the driver)."""
    best, changed = violation, True
    while changed and len(best.conversation.steps) > 1:
        changed = False
        for index in range(len(best.conversation.steps)):
            steps = best.conversation.steps[:index] + best.conversation.steps[index + 1 :]
            shorter = replace(best.conversation, steps=steps)
            trace = rerun(drive, shorter)
            if len(trace.records) < len(steps):
                continue
            broken = {p for r in trace.records for p in new_pairs(r, drive.setup, drive.kind_of)}
            if set(best.pairs) <= broken:
                best = Violation(shorter, list(trace.records), set(best.pairs))
                changed = True
                break
    return best


def finding(violation: Violation, drive: Drive) -> Finding:
    """A shrunk violation as a finding: known when it has a hand-picked shape."""
    found = violation.conversation
    trace = Trace(found, drive.driver.version, tuple(violation.records))
    shape = known_as(drive.moves, found, violation.records, {i for i, _ in violation.pairs})
    return Finding(tuple(violation.pairs), "known" if shape else "new", shape, trace)


@contextmanager
def patient() -> Iterator[None]:
    """Shrinking bounded by its count of shrinks alone while the block runs: hypothesis stops
    shrinking after ``MAX_SHRINKING_SECONDS`` of wall time too, so on a driver (a step takes
    a process round trip) and a busy machine the same seed shrank to a different example count
    from run to run. Hypothesis has no setting for it; its module constant is raised for the
    block (``search.own_draws`` swaps a private hook the same way)."""
    from hypothesis.internal.conjecture import engine

    bound = engine.MAX_SHRINKING_SECONDS
    engine.MAX_SHRINKING_SECONDS = 10**9
    try:
        yield
    finally:
        engine.MAX_SHRINKING_SECONDS = bound


def search(
    moves: Moves, driver: StepDriver, options: Options, progress: Progress | None = None
) -> SearchResult:
    """Rounds of the machine on the driver until one finds nothing new (``search.search``'s
    loop): each finding shrunk by hypothesis, then tightened, then marked found."""
    from hypothesis import seed
    from hypothesis.stateful import run_state_machine_as_test

    targets = frozenset(options.invariants or INVARIANTS)
    kinds = cast(tuple[Kind, ...], moves.kinds)
    setup = Setup(kinds, options.fix, targets=targets)
    setup.progress = progress
    drive = Drive(moves, driver, setup)
    findings: list[Finding] = []
    exhausted, rounds = False, 0
    while rounds < options.rounds and not exhausted:
        rounds += 1
        if progress is not None:
            progress.round = rounds
        explorer = seed(options.seed)(machine(drive))
        try:
            with own_draws(), patient():
                run_state_machine_as_test(explorer, settings=_settings(options))
            exhausted = True
        except Violation as violation:
            found = tighten(violation, drive)
            findings.append(finding(found, drive))
            setup.found.update(found.pairs)
        if progress is not None:
            progress.findings = len(findings)
            progress.report(setup.tally, " (dry)" if exhausted else "")
    return SearchResult(
        driver.version,
        options.fix,
        options.seed,
        options.examples,
        rounds,
        exhausted,
        moves.kinds,
        {},
        INVARIANTS,
        dict(setup.tally),
        tuple(findings),
        options.patch,
        sdk=moves.short,
    )


def first_finding(
    moves: Moves, driver: StepDriver, options: Options
) -> tuple[int | None, Finding | None]:
    """The examples the first round needs to find any violation, and its shrunk finding (None,
    None: not within ``options.examples``): what ``benchmarks/explore_speed.py`` times."""
    from hypothesis import seed
    from hypothesis.stateful import run_state_machine_as_test

    setup = Setup(cast(tuple[Kind, ...], moves.kinds), targets=frozenset(INVARIANTS))
    drive = Drive(moves, driver, setup)
    try:
        with own_draws(), patient():
            run_state_machine_as_test(
                seed(options.seed)(machine(drive)), settings=_settings(options)
            )
    except Violation as violation:
        return setup.tally["examples"], finding(violation, drive)
    return None, None
