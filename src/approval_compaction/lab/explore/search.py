"""Search: rounds of the state machine until no new violation turns up, and their records.

A round runs hypothesis on the machine from ``rules`` with a fixed seed (the same seed gives
the same examples, so a bounded search is reproducible) and a budget of examples. A round that
fails hands back the shrunk conversation; it becomes a ``Finding``, its (invariant, kind)
pairs are marked found, and the next round looks for another. The search ends when a round
spends its whole budget without a new violation, or after ``rounds`` rounds.

A search may be staged (``Options.first``): its first rounds take only those steps (``explore``
starts with the report's own, ask and decide, which find its violation in a few dozen examples
where every step at once needs a few hundred), and once a round of them runs dry the rounds take
every step in ``actions``; only a dry round of every step ends the search, so every step stays
reachable. A search longer than a few seconds reports its progress on stderr (``Progress``):
rounds, examples and findings so far.

A finding is ``known`` when it is the original report's case, or a prefix of it: one function
tool call that needs approval, paused while the hook said compact (input mode), then approve or
reject across the memory or JSON boundary, then a new question (a plain ask, or a ``continue``,
whose later turns are plain questions), all with one runner. Anything else is ``new``.
``python -m approval_compaction.lab.explore.search`` runs one search and writes its result as JSON
to ``--output``: that is how ``explore --release`` runs in a release's own environment.

The seed fixes the examples whatever else the process has done: hypothesis draws now and then
(one draw in twenty) a constant from a pool it fills, process-wide, from the source of every
local module imported so far, so the same seed used to walk other conversations after a test
had imported, say, the doctor's Redis store (``BATCH_SESSIONS = 200``); a search draws from its
own strategies only (``own_draws``).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import json
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

from ...analysis.invariants import INVARIANTS
from ...formats import progress
from ...formats.records import write_json
from ...sdks import sdk_module
from ...study.capture import sdk_version
from ...study.words import Mode
from .conversation import MODES, Conversation, Trace
from .driver import Live, scratch_folder, take
from .rules import ACTIONS, NO_KIND, Setup, Violation, machine, new_pairs

# The Python SDK's folder, reached by name as every SDK's folder is (``sdks``); mypy reads the
# same modules by import.
if TYPE_CHECKING:
    from ...openai_agents import kinds as _kinds
    from ...openai_agents import worker as _worker
    from ...study.worker import Worker  # a worker of any SDK's driver (the Python SDK's is one)
else:
    _kinds, _worker = (sdk_module("python", m) for m in ("kinds", "worker"))

KNOWN_SHAPE = ("function_approval",)
REPORT_STEPS = ("ask", "decide")  # the report's own steps: ``explore`` searches them first
PROGRESS_SECONDS = 5.0  # the most time between two progress lines


def peak_megabytes() -> float:
    """This process's peak resident size in MB (0 where ``resource`` is missing)."""
    try:
        import resource
    except ImportError:  # not on Windows
        return 0.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


class Progress(progress.Progress):
    """The shared progress lines (``formats.progress``) of a search, on ``stream`` (stderr) at
    most every ``every`` seconds, and after each round: the release, the round, the examples
    and steps so far, the findings so far, the time and the peak memory."""

    def __init__(
        self,
        label: str,
        stream: TextIO | None = None,
        every: float = PROGRESS_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(
            f"explore {label}", unit="examples", stream=stream, every=every, clock=clock
        )
        self.round, self.findings = 0, 0
        self.tally: Counter[str] | dict[str, int] = {}

    def text(self, note: str = "") -> str:
        tally = self.tally
        return (
            f"{self.label}: round {self.round}, {tally.get('examples', 0)} examples, "
            f"{tally.get('steps', 0)} steps, {self.findings} findings, {self.seconds():.0f} s, "
            f"peak {peak_megabytes():.0f} MB{note}"
        )

    def report(self, tally: Counter[str] | dict[str, int], note: str = "") -> None:
        """A line now, with the tally so far."""
        self.tally = tally
        self.line(note)

    def example(self, tally: Counter[str]) -> None:
        """Called as each example starts: a line when ``every`` seconds passed since the last."""
        if self.due():
            self.report(tally)


@dataclass(frozen=True)
class Options:
    """What to search: the budget per round, the seed, and the space (plain values, so that a
    release's interpreter is handed them as JSON)."""

    examples: int = 200
    seed: int = 0
    fix: bool = False
    rounds: int = 40
    steps: int = 6  # the most steps in one conversation
    kinds: tuple[str, ...] = ()  # empty: every kind the release supports
    boundaries: tuple[str, ...] = ("memory", "json", "process")
    database: str | None = None  # a folder for hypothesis's example database
    invariants: tuple[str, ...] = ()  # the invariants whose violation fails (empty: all)
    modes: tuple[Mode, ...] = MODES  # the compaction modes a conversation starts in
    actions: tuple[str, ...] = ACTIONS  # the steps a conversation may take (ask and decide
    # always; lose and continue, the liveness steps, and keep, the late resume's,
    # unless left out)
    patch: str = ""  # the label of the patch this release runs with (``releases.patched``)
    first: tuple[str, ...] = ()  # the steps of the first rounds, until one runs dry (empty:
    # every step from the start)


@dataclass(frozen=True)
class Finding:
    """One shrunk counterexample: the pairs it breaks, known or new, and its run."""

    pairs: tuple[tuple[str, str], ...]
    label: str  # known, new
    known_as: str  # the report's cases it reproduces, as a case filter ("" when new)
    trace: Trace

    @property
    def name(self) -> str:
        """A stable file stem: the SDK on a driver (its registry name and a dash), the release, the
        workaround, and the digest of the steps."""
        conversation = self.trace.conversation
        sdk = f"{conversation.sdk}-" if conversation.sdk else ""
        fix = "-fix" if conversation.fix else ""
        return f"{sdk}{self.trace.sdk_version}{fix}-{conversation.digest()}"

    @property
    def invariants(self) -> list[str]:
        return sorted({invariant for invariant, _ in self.pairs})

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "pairs": [list(p) for p in self.pairs],
            "label": self.label,
            "known_as": self.known_as,
            "trace": self.trace.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        pairs = tuple((str(a), str(b)) for a, b in data["pairs"])
        return cls(pairs, str(data["label"]), str(data["known_as"]), Trace.from_json(data["trace"]))


@dataclass(frozen=True)
class SearchResult:
    """A whole search: what it covered, what it found, and whether its last round ran dry."""

    sdk_version: str
    fix: bool
    seed: int
    examples: int
    rounds: int
    exhausted: bool  # the last round spent its budget without a new violation
    kinds: tuple[str, ...]
    skipped: dict[str, str]
    invariants: tuple[str, ...]
    tally: dict[str, int]
    findings: tuple[Finding, ...] = field(default=())
    patch: str = ""  # the patch's label on a patched SDK (written only then)
    sdk: str = ""  # a driver's SDK, its registry name (written only then): "" is openai-agents

    @property
    def never_judged(self) -> list[str]:
        """Invariants no step of the search was judged on: no step plays the stage they read
        (``pause_accepted``: every ``ask`` is judged as a next turn, never as a case's pause)."""
        return [name for name in self.invariants if not self.tally.get(f"judged: {name}", 0)]

    @property
    def holds(self) -> list[str]:
        """Invariants judged and never violated (a search that never judged one says nothing
        of it: ``never_judged``)."""
        broken = {invariant for f in self.findings for invariant, _ in f.pairs}
        skipped = set(self.never_judged)
        return [name for name in self.invariants if name not in broken | skipped]

    def to_json(self) -> dict[str, Any]:
        return (
            {
                "sdk_version": self.sdk_version,
                "fix": self.fix,
                "seed": self.seed,
                "examples": self.examples,
                "rounds": self.rounds,
                "exhausted": self.exhausted,
                "kinds": list(self.kinds),
                "skipped": dict(sorted(self.skipped.items())),
                "invariants": list(self.invariants),
                "tally": dict(sorted(self.tally.items())),
                "findings": [f.to_json() for f in self.findings],
            }
            | ({"patch": self.patch} if self.patch else {})
            | ({"sdk": self.sdk} if self.sdk else {})
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SearchResult:
        return cls(
            str(data["sdk_version"]),
            bool(data["fix"]),
            int(data["seed"]),
            int(data["examples"]),
            int(data["rounds"]),
            bool(data["exhausted"]),
            tuple(data["kinds"]),
            dict(data["skipped"]),
            tuple(data["invariants"]),
            {str(k): int(v) for k, v in data["tally"].items()},
            tuple(Finding.from_json(f) for f in data["findings"]),
            str(data.get("patch", "")),
            str(data.get("sdk", "")),
        )


def known_as(conversation: Conversation, pairs: Sequence[tuple[str, str]]) -> str:
    """The report's cases this conversation is a prefix of, as a case filter ("" if none)."""
    steps = conversation.steps
    if conversation.mode != "input" or not 1 <= len(steps) <= 3:
        return ""
    if any(kind not in (*KNOWN_SHAPE, NO_KIND) for _, kind in pairs):
        return ""
    if len({s.runner for s in steps}) != 1:
        return ""
    first = steps[0]
    if not (first.action == "ask" and first.calls == KNOWN_SHAPE and first.compact):
        return ""
    if first.ending != "answer":
        return ""
    spec = f"runner={first.runner},compaction=on"
    if len(steps) >= 2:
        decide = steps[1]
        if decide.action != "decide" or decide.boundary not in ("memory", "json"):
            return ""
        decision = "reject" if decide.decision == "reject" else "approve"  # one call: mixed
        spec += f",decision={decision},state_boundary={decide.boundary}"  # approves it
    if len(steps) == 3:  # the new question: a plain ask, or a continue's plain later turns
        last = steps[2]
        plain_ask = last.action == "ask" and not last.calls and last.ending == "answer"
        if not (plain_ask or last.action == "continue"):
            return ""
    return spec


def finding(violation: Violation, skipped: dict[str, str]) -> Finding:
    conversation = violation.conversation
    trace = Trace(conversation, sdk_version(), tuple(violation.records), skipped)
    known = known_as(conversation, violation.pairs)
    return Finding(tuple(violation.pairs), "known" if known else "new", known, trace)


def _settings(options: Options) -> Any:
    from hypothesis import HealthCheck, Phase, Verbosity, settings
    from hypothesis.database import DirectoryBasedExampleDatabase

    database = None
    if options.database:  # one database per release and variant; the seed still fixes the run
        variant = f"{sdk_version()}{'-fix' if options.fix else ''}"
        database = DirectoryBasedExampleDatabase(str(Path(options.database) / variant))
    phases = [p for p in Phase if p != Phase.explain]  # the explain phase reruns a lot
    return settings(
        max_examples=options.examples,
        stateful_step_count=options.steps,
        derandomize=database is None,  # hypothesis refuses a database with derandomize
        database=database,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        phases=phases,
        print_blob=False,
    )


@contextlib.contextmanager
def own_draws() -> Iterator[None]:
    """Hypothesis with no pool of local constants while the block runs (its own pools back
    after): ``HypothesisProvider`` draws, one draw in twenty, a constant from
    ``providers._get_local_constants()``, the constants of every local module in
    ``sys.modules`` gathered so far (and cached per kind of draw in ``CONSTANTS_CACHE``), so
    what the same seed generated depended on what the process had imported before. With an
    empty pool it depends on the seed and the strategies alone. Hypothesis has no setting for
    this; its private hook is swapped for the block (a release without the pool is left be)."""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # a hypothesis older than its local constants: nothing to isolate
        yield
        return
    empty = Constants()
    gather = providers._get_local_constants
    providers.CONSTANTS_CACHE.cache.clear()
    providers._get_local_constants = lambda: empty
    try:
        yield
    finally:
        providers._get_local_constants = gather
        providers.CONSTANTS_CACHE.cache.clear()


def search(options: Options, progress: Progress | None = None) -> SearchResult:
    """Run the search on the installed release (in a thread when a loop already runs),
    reporting on ``progress`` when given."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _search(options, progress)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(_search, options, progress).result()


def _search(options: Options, progress: Progress | None = None) -> SearchResult:
    from hypothesis import seed
    from hypothesis.stateful import run_state_machine_as_test

    kinds, skipped = _kinds.available()
    if options.kinds:
        kinds = tuple(k for k in kinds if k in options.kinds)
    worker = _worker.Worker() if "process" in options.boundaries else None
    targets = frozenset(options.invariants or INVARIANTS)
    setup = Setup(kinds, options.fix, options.modes, options.boundaries, targets)
    every = tuple(options.actions)
    first = tuple(a for a in options.first if a in every) or every
    setup.worker, setup.actions, setup.progress = worker, first, progress
    findings: list[Finding] = []
    exhausted, rounds = False, 0
    try:
        while rounds < options.rounds and not exhausted:
            rounds += 1
            if progress is not None:
                progress.round = rounds
            explorer = seed(options.seed)(machine(setup))
            try:
                with own_draws():
                    run_state_machine_as_test(explorer, settings=_settings(options))
                exhausted = setup.actions == every  # a dry round of fewer steps: widen
                setup.actions = every
            except Violation as violation:
                found = tighten(violation, setup)
                findings.append(finding(found, skipped))
                setup.found.update(found.pairs)
            if progress is not None:
                progress.findings = len(findings)
                progress.report(setup.tally, " (dry)" if exhausted else "")
    finally:
        if worker is not None:
            worker.close()
    return SearchResult(
        sdk_version(),
        options.fix,
        options.seed,
        options.examples,
        rounds,
        exhausted,
        kinds,
        skipped,
        INVARIANTS,
        dict(setup.tally),
        tuple(findings),
        options.patch,
    )


def tighten(violation: Violation, setup: Setup) -> Violation:
    """Drop any single step hypothesis's shrinker left in while the rerun still breaks the same
    pairs (a last pass of step deletion; hypothesis does not promise a minimal result)."""
    best = violation
    changed = True
    while changed and len(best.conversation.steps) > 1:
        changed = False
        for index in range(len(best.conversation.steps)):
            steps = best.conversation.steps[:index] + best.conversation.steps[index + 1 :]
            shorter = replace(best.conversation, steps=steps)
            trace = rerun(shorter, setup.worker, setup.kinds)
            broken = {p for r in trace.records for p in new_pairs(r, setup)}
            if set(best.pairs) <= broken:
                best = Violation(shorter, list(trace.records), set(best.pairs))
                changed = True
                break
    return best


def rerun(
    conversation: Conversation, worker: Worker | None = None, only: tuple[str, ...] = ()
) -> Trace:
    """Run a saved conversation again on the installed release, every step judged."""
    kinds, skipped = _kinds.available()
    kinds = tuple(k for k in kinds if k in only) if only else kinds

    async def steps(folder: Path) -> Trace:
        live = Live(cast(Mode, conversation.mode), conversation.fix, kinds, folder)
        try:
            records = [await take(live, i, s, worker) for i, s in enumerate(conversation.steps)]
        finally:
            live.close()
        return Trace(conversation, sdk_version(), tuple(records), skipped)

    def run() -> Trace:
        with tempfile.TemporaryDirectory(
            prefix="approval-compaction-replay-", dir=scratch_folder()
        ) as folder:
            return asyncio.run(steps(Path(folder)))

    own = worker is None and any(s.boundary == "process" for s in conversation.steps)
    worker = _worker.Worker() if own else worker
    try:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return run()
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(run).result()
    finally:
        if own and worker is not None:
            worker.close()


def first_known(options: Options, budget: int) -> int | None:
    """Examples the search's first round needs to hit the report's violation (None: not within):
    it takes the steps of ``options.first`` (all of ``actions`` when empty)."""
    from hypothesis import seed, settings
    from hypothesis.stateful import run_state_machine_as_test

    kinds, _ = _kinds.available()
    targets = frozenset({"next_turn_input_paired"})
    setup = Setup(kinds, False, boundaries=options.boundaries, targets=targets)
    setup.actions = tuple(a for a in options.first if a in options.actions) or options.actions
    base = _settings(Options(examples=budget, steps=options.steps))
    quick = settings(base, phases=[p for p in base.phases if p.name == "generate"])
    try:
        with own_draws():
            run_state_machine_as_test(seed(options.seed)(machine(setup)), settings=quick)
    except Violation:
        return setup.tally["examples"]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run one search on this interpreter's release, its ``Options`` given as JSON; write the
    result as JSON to ``--output``."""
    parser = argparse.ArgumentParser(prog="python -m approval_compaction.lab.explore.search")
    parser.add_argument("--options", required=True, help="the Options as a JSON object")
    parser.add_argument("--output", required=True, help="write the result's JSON here")
    args = parser.parse_args(argv)
    given: dict[str, Any] = json.loads(args.options)  # JSON has lists where Options has tuples
    plain: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in given.items()}
    options = Options(**plain)
    label = sdk_version() + (" with the workaround" if options.fix else "")
    label += f" with {options.patch}" if options.patch else ""
    found = search(options, Progress(label))  # its lines on stderr, which ``explore`` relays
    write_json(Path(args.output), found.to_json(), indent=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
