"""Anatomy: which part of 0.24.0's diff is the fix, for each kind of approval, found by experiment.

The files on the bug's path (the catalogue's modules) are read from the two releases' cached
environments and cut into hunks (``hunks``). Every experiment is a configuration: a release
with some modules' texts replaced (some hunks applied, or reverted), run on the bench
(``bench``: a worker per release forks a child per configuration that loads the texts in place
of the installed modules) through the probe's own cases, judged as the sweep judges a release.
Each configuration is judged for each approval kind (``KindSpec``): the study's function tool on
the sixteen cases, and the other kinds the explorer knows (a custom tool, a local shell tool, an
apply_patch tool, a hosted MCP server; their calls made by ``explore.kinds`` and passed in) on
the cases of ``Runner.run`` with compaction on.

- **Ablation** (after the search, so that it keeps the fix): each hunk reverted alone from the
  newer release; does the bug come back, for each kind? A revert that does not import or run
  (for the function kind) is widened by what it misses: the hunks whose added lines use the
  missing name are reverted with it, the package's other changed modules' hunks among them
  (they import or call what the path's files define), or a module it left unparsable whole;
  when it names nothing more, the modules it touches whole. The function kind's minimal fix's
  hunks are never reverted with another.
- **The other modules**: each of the package's other changed modules (off the bug's path: the
  ``RunState`` schema, the run loop, ...) reverted whole from the newer release, widened the
  same way when it does not run alone.
- **The rest**: the newer release with every change of every module but a kind's minimal fix
  reverted (its ``agents`` is then the older release's plus the fix, on the newer release's
  dependencies): together they change no verdict, or they do.
- **Minimal fix**, per kind: Zeller's ddmin (``ddmin``) over the hunks applied to the older
  release, for the smallest set that makes every invariant hold in every case of the kind; a
  set whose patch does not import or run is unresolved. The search needs a verdict only: the
  report's case runs first, and a configuration stops at its first case that does not hold.
  Each distinct configuration's cases run once (what is known is kept by content), the kinds'
  searches side by side on both cores.
- **A poisoned session**: the function kind's minimal fix's next turn on a store the older
  release poisoned (scripted model, so the turn reaches compaction): does compaction still run?

``python -m approval_compaction fix-anatomy`` (``make fix-anatomy``) writes it all to
``data/fix-anatomy.json``, saying on stderr how many configurations it has judged and what they
found; notebook 12 reads it (the record: ``lab/mechanism/anatomy.py``, which names no SDK). A
kind a release cannot make is recorded with the reason (``KindAnatomy.absent``), not left out.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import re
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ..analysis.pairing import orphan_outputs
from ..doctor.verdict import judge
from ..errors import InvestigationError
from ..lab import paths
from ..lab.mechanism.anatomy import (
    BUG,
    FIXED,
    Anatomy,
    HunkRecord,
    KindAnatomy,
    ModuleRecord,
    Outcome,
    PoisonedTurn,
    SearchStep,
    outcome,
    plain_reason,
    ranges,
    write_anatomy,
)
from ..lab.mechanism.catalogue import CATALOGUE, NEWEST, PINNED
from ..lab.mechanism.ddmin import FAIL, PASS, UNRESOLVED, Verdict, ddmin
from ..lab.mechanism.hunks import Hunk, compose, mentions, patch_text, split
from ..lab.mechanism.permalink import differences, installed_sources
from ..lab.mechanism.record import pinned_here
from ..lab.releases import environments
from ..lab.releases.patched import Patched, patch_from_text, site_packages, throwaway_environment
from ..lab.releases.probe import ProbeResult
from ..lab.releases.sweep import release_records
from ..study.items import Item
from ..study.scenario import Case, all_cases
from . import bench as _bench
from . import driver as _driver
from . import harness as _harness
from . import worker as _worker


class AnatomyError(InvestigationError):
    """Bad input to the anatomy: an unknown kind."""


# A case takes a second or less; one that hangs (a revert left a loop unfinished) is unresolved
# after this long, and its kind's later cases are not run.
STEP_TIMEOUT_SECONDS = 60
Report = Callable[[str], None]
T = TypeVar("T")
R = TypeVar("R")


def path_files() -> tuple[str, ...]:
    """The catalogue's modules as files under ``site-packages``: ``agents/.../x.py``."""
    return tuple(sorted({f"{f.module.replace('.', '/')}.py" for f in CATALOGUE}))


def sources(env: environments.Environment, files: Sequence[str]) -> dict[str, str]:
    """The files' text in a release's environment."""

    site = site_packages(env.folder)
    return {name: (site / name).read_text() for name in files}


@dataclass(frozen=True)
class KindSpec:
    """An approval kind as the anatomy judges it: the study's name for it, a reader's, the
    reply the model pauses on (empty: the study's own function call) and the cases."""

    kind: str
    label: str
    pause: tuple[Item, ...]
    cases: tuple[Case, ...]

    def steps(self, first: bool = False) -> list[_bench.Step]:
        """Its cases as a plan; ``first``: the report's case first (the one that tells)."""
        cases = list(self.cases)
        if first and REPORT_CASE in cases:
            cases.remove(REPORT_CASE)
            cases.insert(0, REPORT_CASE)
        kind = None if not self.pause else self.kind
        return [_bench.Step(case, kind, self.pause) for case in cases]


REPORT_CASE = Case()  # run, approve, compaction on, JSON: the original report's
FUNCTION = KindSpec("function_approval", "function", (), tuple(all_cases()))
# The other approval kinds the explorer knows, with a reader's name, in the explorer's order.
OTHER_KINDS: dict[str, str] = {
    "custom_approval": "custom",
    "shell_approval": "shell",
    "apply_patch_approval": "apply_patch",
    "mcp_approval": "hosted MCP",
}
# They are judged on the cases of ``Runner.run`` with compaction on, both decisions and both
# boundaries: without compaction nothing compacts the pending item, and the streamed runner
# takes the function kind's cases through the same session code.
COMPACTING = tuple(c for c in all_cases() if c.compaction == "on" and c.runner == "run")


def approval_kinds(pauses: Mapping[str, Item]) -> tuple[KindSpec, ...]:
    """The function kind and each other kind given its pause item (``explore.kinds`` makes
    them: ``call_item``), in ``OTHER_KINDS``'s order."""
    others = [
        KindSpec(kind, label, (pauses[kind],), COMPACTING)
        for kind, label in OTHER_KINDS.items()
        if kind in pauses
    ]
    return (FUNCTION, *others)


@dataclass
class Known:
    """What the runs of one configuration found so far: why it did not run, or the versions and
    each (kind, case)'s runs, or why the release cannot make a kind's tool."""

    unavailable: str = ""
    versions: dict[str, str] = field(default_factory=dict)
    runs: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    absent: dict[tuple[str, str], str] = field(default_factory=dict)
    hung: dict[tuple[str, str], str] = field(default_factory=dict)  # a case that took too long

    def has(self, spec: KindSpec, case: Case) -> bool:
        key = (spec.kind, case.label)
        known = key in self.runs or key in self.absent or key in self.hung
        return bool(self.unavailable) or known

    def errored(self, spec: KindSpec, case: Case) -> bool:
        """Whether the harness could not run the case (its runs hold the error, or it hung)."""
        key = (spec.kind, case.label)
        return key in self.hung or any(r.get("error") is not None for r in self.runs.get(key, []))

    def needed(self, spec: KindSpec, cases: Sequence[Case]) -> list[Case]:
        """The cases, in their order, still to run to judge them: up to the first one the
        harness could not run (its error is the outcome, whatever the later ones find)."""
        if self.unavailable:
            return []
        wanted = []
        for case in cases:
            if not self.has(spec, case):
                wanted.append(case)
            elif self.errored(spec, case):
                break
        return wanted

    def judged_cases(self, spec: KindSpec, cases: Sequence[Case]) -> list[Case]:
        """The cases an outcome reads: up to the first one the harness could not run."""
        for end, case in enumerate(cases, start=1):
            if self.errored(spec, case):
                return list(cases[:end])
        return list(cases)

    def add(
        self, steps: Sequence[_bench.Step], ran: _bench.Ran, specs: Mapping[str | None, KindSpec]
    ) -> None:
        """Keep what a bench run answered; where it failed (a case hung, the child crashed),
        the first step it did not answer is the one that failed."""
        self.unavailable = self.unavailable or ran.unavailable
        if ran.failure and not ran.unavailable:
            failed = next(i for i in range(len(steps)) if not ran.answered(i))
            step = steps[failed]
            self.hung[(specs[step.kind].kind, step.case.label)] = f"probe {ran.failure}"
        self.versions = self.versions or ran.versions
        for index, runs in ran.runs.items():
            self.runs[(specs[steps[index].kind].kind, steps[index].case.label)] = runs
        for index, why in ran.absent.items():
            self.absent[(specs[steps[index].kind].kind, steps[index].case.label)] = why


ABSENT = "the release cannot make this kind's tool: "  # a kind's outcome where it has none


def judged_outcome(base: str, known: Known, spec: KindSpec, cases: Sequence[Case]) -> Outcome:
    """The outcome of a kind's runs on these cases (each one known), judged as the sweep
    judges a release (``releases.sweep.release_records``)."""
    if known.unavailable:
        return outcome(release_records(base, {"unavailable": known.unavailable}))
    cases = known.judged_cases(spec, cases)
    hung = (spec.kind, cases[-1].label) if cases else None
    if hung in known.hung:
        before = judged_outcome(base, known, spec, cases[:-1]) if len(cases) > 1 else None
        if before is not None and before.verdict == UNRESOLVED:
            return before
        return Outcome(UNRESOLVED, {}, (), known.hung[hung])
    absent = [
        known.absent[(spec.kind, c.label)] for c in cases if (spec.kind, c.label) in known.absent
    ]
    if absent:
        return Outcome(UNRESOLVED, {}, (), plain_reason(ABSENT + absent[0]))
    runs = [known.runs[(spec.kind, c.label)] for c in cases]
    by_model = [run for position in range(max(map(len, runs))) for run in
                (r[position] for r in runs if position < len(r))]  # fmt: skip
    result: ProbeResult = {
        "runs": by_model,
        "openai": known.versions.get("openai", ""),
        "pydantic": known.versions.get("pydantic", ""),
    }
    return outcome(release_records(base, result))


def first_outcome(base: str, known: Known, spec: KindSpec) -> Outcome | None:
    """The kind's first verdict from what is known, the report's case first: the outcome of
    the cases up to the first one that does not hold (None: each known one holds, and some are
    not known yet); every case holding is ``fixed``."""
    cases = [step.case for step in spec.steps(first=True)]
    for end in range(1, len(cases) + 1):
        if not known.has(spec, cases[end - 1]):
            return None
        if known.errored(spec, cases[end - 1]):
            return judged_outcome(base, known, spec, cases[:end])
        found = judged_outcome(base, known, spec, cases[:end])
        if found.verdict != FIXED:
            return found
    return judged_outcome(base, known, spec, cases)


class Lab:
    """Runs configurations (a release with some of its modules' texts replaced) on a bench, each
    distinct content's cases once (what is known is kept by content), and says on stderr how many
    it ran and what they found."""

    def __init__(
        self,
        envs: Path,
        report: Report = print,
        kinds: Sequence[KindSpec] = (FUNCTION,),
        bench: _bench.Bench | None = None,
        jobs: int = 0,
    ) -> None:
        self.envs, self.report, self.kinds = envs, report, tuple(kinds)
        self.bench = bench or _bench.Bench(envs, jobs)
        self.known: dict[str, Known] = {}
        self.locks: dict[str, threading.Lock] = {}
        self.lock = threading.Lock()
        self.asked: list[str] = []  # every configuration asked about, by content, in order
        self.runs = 0  # configurations run (each distinct content once)
        self.verdicts: dict[str, str] = {}  # each configuration's latest verdict (function's)
        self.timings: dict[str, tuple[float, int]] = {}  # a step's wall time and runs

    @staticmethod
    def missing(known: Known, specs: Sequence[KindSpec], first: bool) -> list[_bench.Step]:
        """The steps of the kinds' plans still to run."""
        steps = []
        for spec in specs:
            plan = spec.steps(first=first)
            wanted = known.needed(spec, [step.case for step in plan])
            steps += [step for step in plan if step.case in wanted]
        return steps

    def key(self, base: str, files: Mapping[str, str]) -> str:
        content = json.dumps([base, sorted(files.items())])
        return hashlib.sha256(content.encode()).hexdigest()

    def run(
        self, base: str, files: Mapping[str, str], label: str, first: str | None = None
    ) -> dict[str, Outcome]:
        """Every kind's outcome on ``base`` with ``files`` (module texts by path; empty: the
        release as is); with ``first`` (a kind), that kind's first verdict only."""
        key = self.key(base, files)
        with self.lock:
            lock = self.locks.setdefault(key, threading.Lock())
            fresh = key not in self.known
            known = self.known.setdefault(key, Known())
            if key not in self.asked:
                self.asked.append(key)
        specs = [s for s in self.kinds if first is None or s.kind == first]
        by_kind = {(None if not s.pause else s.kind): s for s in self.kinds}
        with lock:
            while steps := self.missing(known, specs, first is not None):

                def stop(ran: _bench.Ran, steps: list[_bench.Step] = steps) -> bool:
                    if first is None:
                        return False
                    trial = Known(known.unavailable, dict(known.versions), dict(known.runs))
                    trial.absent, trial.hung = dict(known.absent), dict(known.hung)
                    trial.add(steps, ran, by_kind)
                    return first_outcome(base, trial, specs[0]) is not None

                ran = self.bench.run(base, files, steps, stop, STEP_TIMEOUT_SECONDS)
                known.add(steps, ran, by_kind)
                with self.lock:
                    self.runs += fresh
                fresh = False
                if not ran.failure:
                    break  # answered, or stopped at the verdict: else the rest runs again
        found = {}
        for spec in specs:
            if first is None:
                found[spec.kind] = judged_outcome(base, known, spec, spec.cases)
            else:
                verdict = first_outcome(base, known, spec)
                assert verdict is not None  # the bench ran until it had one
                found[spec.kind] = verdict
        shown = found.get(FUNCTION.kind) or next(iter(found.values()))
        with self.lock:
            self.verdicts[key] = shown.verdict
            tally = Counter(self.verdicts.values())
            counts = ", ".join(f"{tally[v]} {v}" for v in (FIXED, BUG, UNRESOLVED))
            line = f"[{len(self.asked)} configurations: {counts}] {label}: " + " ".join(
                f"{kind_label(self.kinds, k)} {o.verdict}" for k, o in found.items()
            )
            self.report(f"{line} {shown.reason[:60]}".rstrip())
        return found


def kind_label(kinds: Sequence[KindSpec], kind: str) -> str:
    return next((s.label for s in kinds if s.kind == kind), kind)


def poisoned_turns(
    pythons: Mapping[str, str | None],
) -> tuple[PoisonedTurn, ...]:
    """The next turn, per SDK (its interpreter; None: this one), on a copy of a store this
    process's release poisoned (pause with compaction on, approve, resume), scripted model."""

    pinned_here()  # the poisoned store is the pinned release's
    found = []
    with tempfile.TemporaryDirectory(prefix="approval-compaction-anatomy-") as folder:
        store = Path(folder) / "poisoned.db"
        paused = _driver.converse(
            _driver.Setup(),
            [_driver.Ask(_harness.QUESTIONS[0], (_harness.PENDING_CALL,), stage="pause")],
            store,
        )
        _driver.converse(
            _driver.Setup(),
            [_driver.Decide(), _driver.Resume((_harness.FINISHED,))],
            store,
            state=paused.state,
        )
        for index, (label, python) in enumerate(pythons.items()):
            copy = Path(folder) / f"copy-{index}.db"
            shutil.copyfile(store, copy)
            steps = [_driver.Ask(_harness.QUESTIONS[1], (_harness.NEXT_ANSWER,))]
            if python is None:
                turn = _driver.converse(_driver.Setup(), steps, copy)
            else:
                with _worker.Worker(python, environments.isolated_environ()) as worker:
                    turn = _driver.converse(_driver.Setup(), steps, copy, worker=worker)
            stage = turn.stage("next_turn")
            sent = [item for request in stage.model_inputs for item in request]
            fed = {key for request in stage.compaction_inputs for key in orphan_outputs(request)}
            found.append(
                PoisonedTurn(
                    sdk=label,
                    compaction_requests=len(stage.compaction_inputs),
                    compaction_input_orphans=" ".join(sorted(fed)),
                    model_input_orphans=" ".join(orphan_outputs(sent)),
                    stored_after=judge("s", stage.stored).verdict,
                )
            )
    return tuple(found)


# What a revert's NameError, ImportError, AttributeError or TypeError says it misses.
NAMED = re.compile(r"(?:name|arguments?:?|attribute|variable) '(\w+)'")
UNPARSED = re.compile(r"(?:Syntax|Indentation)Error: .*\((\w+\.py), line \d+\)")
ROUNDS = 10  # at most this many widenings of one revert


def needed(found: Outcome, group: Sequence[Hunk], hunks: Sequence[Hunk]) -> list[Hunk]:
    """What a revert that did not run needs reverted with it: the hunks whose added lines use
    the name it misses; or, where it left a module that does not parse, that module's other
    hunks (the module then reverted whole). Nothing when it ran, or its error names neither."""
    if found.verdict != UNRESOLVED:
        return []
    named, unparsed = NAMED.search(found.reason), UNPARSED.search(found.reason)
    if named:
        return [h for h in hunks if h not in group and mentions(h, named.group(1))]
    if unparsed:
        module = unparsed.group(1)
        return [h for h in hunks if h not in group and h.path.rsplit("/", 1)[-1] == module]
    return []


def revert_with_needs(
    hunk: Hunk | Sequence[Hunk],
    hunks: Sequence[Hunk],
    alone: Outcome,
    revert: Callable[[Sequence[Hunk]], Outcome],
) -> tuple[list[Hunk], Outcome]:
    """A revert that does not run, widened: while the run says what it misses (``needed``: a
    name a ``NameError``, an ``ImportError`` or an unexpected argument gives, or a module that
    no longer parses), those hunks (of ``hunks``: the path's and the other modules', never the
    fix's) are reverted too; once, when it says nothing more, every module it touches is
    reverted whole. The group and its outcome (the hunk alone when it ran). ``hunk`` may be
    several (a whole module's), reverted together from the start."""
    group, found = ([hunk] if isinstance(hunk, Hunk) else list(hunk)), alone
    closed = False  # the touched modules reverted whole, the last resort
    for _ in range(ROUNDS):
        more = needed(found, group, hunks)
        if not more and found.verdict == UNRESOLVED and not closed:
            closed = True
            touched = {h.path for h in group}
            more = [h for h in hunks if h.path in touched and h not in group]
        if not more:
            break
        group = sorted([*group, *more], key=hunks.index)
        found = revert(group)
    return group, found


@dataclass(frozen=True)
class PathDiff:
    """The files on the bug's path in the two releases and the hunks between them (``hunks``,
    the experiments' changes), and the package's other modules that differ with theirs
    (``others``: reverted only with a path hunk whose revert needs them)."""

    files: tuple[str, ...]
    before: dict[str, str]  # every changed module's text in the older release, by path
    after: dict[str, str]  # and in the newer one
    hunks: tuple[Hunk, ...]
    others: tuple[Hunk, ...] = ()
    added: tuple[str, ...] = ()  # modules only the newer release has

    @property
    def other_files(self) -> tuple[str, ...]:
        return tuple(n for n in self.before if n not in self.files)

    @property
    def every_hunk(self) -> tuple[Hunk, ...]:
        return self.hunks + self.others

    def applied(self, chosen: Sequence[Hunk]) -> dict[str, str]:
        """The older release's modules with the chosen hunks."""
        return {
            n: compose(text, [h for h in chosen if h.path == n]) for n, text in self.before.items()
        }

    def on_old(self, chosen: Sequence[Hunk]) -> str:
        """The chosen hunks as a patch of the older release."""
        return patch_text(self.before, self.applied(chosen))

    def old_files(self, chosen: Sequence[Hunk]) -> dict[str, str]:
        """The older release's modules the chosen hunks change, with them: a configuration."""
        return {n: t for n, t in self.applied(chosen).items() if t != self.before[n]}

    def reverted_files(self, group: Sequence[Hunk]) -> dict[str, str]:
        """The newer release's modules the group's revert changes, reverted: a configuration."""
        kept = [h for h in self.every_hunk if h not in group]
        return {n: t for n, t in self.applied(kept).items() if t != self.after[n]}

    def reverted(self, group: Sequence[Hunk]) -> str:
        """The newer release without the group's hunks, as a patch of the newer release."""
        kept = [h for h in self.every_hunk if h not in group]
        return patch_text(self.after, self.applied(kept))

    def name(self, hunk: Hunk) -> str:
        """A path hunk's name (``items.py#2``); another module's with its path
        (``agents/run_internal/run_loop.py#4``), as two modules share a file name."""
        return hunk.name if hunk in self.hunks else hunk.qualified

    def numbers(self, chosen: Sequence[Hunk]) -> str:
        """The chosen hunks as numbers in the list of the path's (``1-3,7``), the other
        modules' after them by path and number (``agents/run_state.py#1-4``)."""
        parts = [ranges([self.hunks.index(h) + 1 for h in chosen if h in self.hunks])]
        for path in dict.fromkeys(h.path for h in chosen if h not in self.hunks):
            parts.append(f"{path}#{ranges([h.number for h in chosen if h.path == path])}")
        return ",".join(part for part in parts if part)


def path_diff(envs: Path) -> PathDiff:
    """The hunks of the pinned-to-newest diff of the path's files, and of the package's other
    changed modules, from the cached releases."""

    old_env = environments.release_environment(PINNED, envs, create=False)
    new_env = environments.release_environment(NEWEST, envs, create=False)
    files = path_files()
    old_files, new_files = (
        {n: b for n, b in installed_sources(site_packages(e.folder)).items() if n.endswith(".py")}
        for e in (old_env, new_env)
    )
    # Every revert keeps the added modules: what no longer imports them leaves them unused.
    found = differences(old_files, new_files)
    every = (*files, *(n for n in found.changed if n not in files))
    before, after = sources(old_env, every), sources(new_env, every)

    def cut(names: Sequence[str]) -> tuple[Hunk, ...]:
        return tuple(h for name in names for h in split(name, before[name], after[name]))

    others = cut(every[len(files) :])
    return PathDiff(files, before, after, cut(files), others, found.only_second)


def search_minimal_fix(
    diff: PathDiff, lab: Lab, kind: str = FUNCTION.kind
) -> tuple[list[Hunk], list[tuple[str, str]]]:
    """Ddmin over the hunks applied to the older release: the 1-minimal set that fixes every
    case of ``kind``, and each set it tried (as hunk numbers) with its verdict (the first one its
    cases gave, the report's case first: a search needs no more). ``lab.timings["ddmin " +
    kind]`` keeps its wall time and configurations."""
    verdicts = {FIXED: FAIL, BUG: PASS, UNRESOLVED: UNRESOLVED}  # ddmin looks for FAIL
    words = {verdict: word for word, verdict in verdicts.items()}
    label = kind_label(lab.kinds, kind)

    def test(chosen: list[Hunk]) -> Verdict:
        name = f"{label} ddmin: {PINNED} + {diff.numbers(chosen)}"
        return verdicts[lab.run(PINNED, diff.old_files(chosen), name, first=kind)[kind].verdict]

    started = time.monotonic()
    minimal, search = ddmin(list(diff.hunks), test)
    lab.timings[f"ddmin {kind}"] = (time.monotonic() - started, len(search.tests))
    return minimal, [(diff.numbers(chosen), words[verdict]) for chosen, verdict in search.tests]


def in_parallel(function: Callable[[T], R], items: Sequence[T], jobs: int) -> list[R]:
    """``[function(item) for item in items]`` on ``jobs`` threads (the bench's configurations
    run in processes; the threads only wait for them), in the items' order."""
    with concurrent.futures.ThreadPoolExecutor(max(jobs, 1)) as pool:
        return list(pool.map(function, items))


def anatomy(
    envs: Path, report: Report = print, lab: Lab | None = None, kinds: Sequence[KindSpec] = ()
) -> Anatomy:
    """Run every experiment (a few hundred configurations: minutes) for each kind of ``lab``
    (or ``kinds``; by default the function kind alone); ``lab`` keeps the timings."""

    diff = path_diff(envs)
    hunks = list(diff.hunks)
    lab = lab or Lab(envs, report, kinds or (FUNCTION,))
    jobs = lab.bench.jobs
    fn = FUNCTION.kind

    def on_old(chosen: Sequence[Hunk], label: str, first: str | None = None) -> dict[str, Outcome]:
        return lab.run(PINNED, diff.old_files(chosen), label, first)

    def revert(group: Sequence[Hunk]) -> dict[str, Outcome]:
        return lab.run(NEWEST, diff.reverted_files(group), f"{NEWEST} - {diff.numbers(group)}")

    old_outcome = lab.run(PINNED, {}, PINNED)
    new_outcome = lab.run(NEWEST, {}, NEWEST)
    all_on_old = on_old(hunks, f"{PINNED} + all {len(hunks)} hunks")
    found = dict(
        zip(
            [s.kind for s in lab.kinds],
            in_parallel(lambda s: search_minimal_fix(diff, lab, s.kind), lab.kinds, jobs),
            strict=True,
        )
    )
    minimal_of = {kind: result[0] for kind, result in found.items()}
    minimal_outcomes = {k: on_old(m, f"the {kind_label(lab.kinds, k)} minimal fix")[k]
                        for k, m in minimal_of.items()}  # fmt: skip
    function_fix = on_old(minimal_of[fn], "the function minimal fix")  # every kind's outcome

    def one_minimal(kind: str) -> bool:
        minimal = minimal_of[kind]
        return minimal_outcomes[kind].verdict == FIXED and all(
            on_old([h for h in minimal if h is not left], f"fix - {left.name}", kind)[kind].verdict
            != FIXED
            for left in minimal
        )

    minimal_ones = {kind: one_minimal(kind) for kind in minimal_of}
    minimal = minimal_of[fn]
    asked_before = len(lab.asked)
    reverted = dict(
        zip([h.name for h in hunks], in_parallel(lambda h: revert([h]), hunks, jobs), strict=True)
    )
    pool = [h for h in diff.every_hunk if h not in minimal]  # a widened revert keeps the fix

    def widen(h: Hunk) -> tuple[list[Hunk], dict[str, Outcome]]:
        if h in minimal:
            return [h], reverted[h.name]
        group, _ = revert_with_needs(h, pool, reverted[h.name][fn], lambda g: revert(g)[fn])
        return group, revert(group) if len(group) > 1 else reverted[h.name]

    together = dict(zip([h.name for h in hunks], in_parallel(widen, hunks, jobs), strict=True))

    def module(name: str) -> tuple[list[Hunk], dict[str, Outcome], list[Hunk], dict[str, Outcome]]:
        own = [h for h in diff.others if h.path == name]
        alone = revert(own)
        group, _ = revert_with_needs(own, pool, alone[fn], lambda g: revert(g)[fn])
        return own, alone, group, revert(group) if group != own else alone

    modules_run = dict(
        zip(diff.other_files, in_parallel(module, diff.other_files, jobs), strict=True)
    )
    ablation_runs = len(lab.asked) - asked_before
    rests = {k: lab.run(NEWEST, diff.reverted_files([h for h in diff.every_hunk if h not in m]),
                        f"{NEWEST} - all but the {kind_label(lab.kinds, k)} minimal fix")[k]
             for k, m in minimal_of.items()}  # fmt: skip
    minimal_patch = diff.on_old(minimal)
    new_env = environments.release_environment(NEWEST, envs, create=False)
    fix = Patched(PINNED, (patch_from_text("minimal-fix.diff", minimal_patch),))
    with throwaway_environment(fix, envs) as fixed_env:
        poisoned = poisoned_turns(
            {PINNED: None, "the minimal fix": str(fixed_env.python), NEWEST: str(new_env.python)}
        )
    modules = [
        ModuleRecord(
            name,
            len(own),
            alone[fn],
            tuple(diff.name(g) for g in group if g not in own),
            widened[fn],
        )
        for name, (own, alone, group, widened) in modules_run.items()
    ]
    kind_records = tuple(
        KindAnatomy(
            kind=spec.kind,
            label=spec.label,
            cases=tuple(c.label for c in spec.cases),
            absent={
                v: o[spec.kind].reason.removeprefix(ABSENT)
                for v, o in ((PINNED, old_outcome), (NEWEST, new_outcome))
                if o[spec.kind].reason.startswith(ABSENT)
            },  # fmt: skip
            old_outcome=old_outcome[spec.kind],
            new_outcome=new_outcome[spec.kind],
            minimal_fix=tuple(h.name for h in minimal_of[spec.kind]),
            minimal_outcome=minimal_outcomes[spec.kind],
            with_function_fix=function_fix[spec.kind],
            one_minimal=minimal_ones[spec.kind],
            search=tuple(SearchStep(n, v) for n, v in found[spec.kind][1]),
            reverted={n: o[spec.kind].verdict for n, o in reverted.items()},
            reverted_together={
                n: o[spec.kind].verdict for n, (g, o) in together.items() if len(g) > 1
            },  # fmt: skip
            modules_reverted={n: r[1][spec.kind].verdict for n, r in modules_run.items()},
            modules_reverted_together={
                n: r[3][spec.kind].verdict for n, r in modules_run.items() if r[2] != r[0]
            },  # fmt: skip
            rest_reverted=rests[spec.kind],
        )
        for spec in lab.kinds
    )
    return Anatomy(
        old=PINNED,
        new=NEWEST,
        files=diff.files,
        old_outcome=old_outcome[fn],
        new_outcome=new_outcome[fn],
        all_on_old=all_on_old[fn],
        other_files=diff.other_files,
        added_files=diff.added,
        hunks=tuple(
            HunkRecord(
                name=h.name,
                path=h.path,
                span=h.span,
                first_line=h.first_line,
                patch=diff.on_old([h]),
                reverted=reverted[h.name][fn],
                together=tuple(diff.name(g) for g in together[h.name][0] if g is not h),
                reverted_together=together[h.name][1][fn],
                in_minimal_fix=h in minimal,
            )
            for h in hunks
        ),
        modules=tuple(modules),
        minimal_fix=tuple(h.name for h in minimal),
        minimal_patch=minimal_patch,
        minimal_outcome=minimal_outcomes[fn],
        rest_reverted=rests[fn],
        one_minimal=minimal_ones[fn],
        search=tuple(SearchStep(numbers, verdict) for numbers, verdict in found[fn][1]),
        ablation_runs=ablation_runs,
        poisoned=poisoned,
        kinds=kind_records,
    )


def chosen_kinds(spec: str | None, pauses: Mapping[str, Item]) -> tuple[KindSpec, ...]:
    """The kinds ``--kinds`` names (readers' names, comma-separated; None: every one), or a
    one-line error naming the unknown one."""
    every = approval_kinds(pauses)
    if not spec:
        return every
    by_label = {s.label: s for s in every}
    wanted = [name.strip() for name in spec.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in by_label]
    if unknown:
        raise AnatomyError(f"--kinds: no kind {unknown[0]!r} (one of {', '.join(by_label)})")
    if FUNCTION.label not in wanted:
        wanted.insert(0, FUNCTION.label)  # the record's own fields are the function kind's
    return tuple(by_label[name] for name in by_label if name in wanted)


def command(args: argparse.Namespace, pauses: Mapping[str, Item] | None = None) -> int:
    """``fix-anatomy``: run the experiments and write the record; say how long each kind's
    search took. ``pauses``: each other kind's pause item (the command line passes the
    explorer's); without them, the function kind alone."""
    envs = Path(args.envs) if args.envs else environments.default_envs()
    output = Path(args.output)
    kinds = chosen_kinds(getattr(args, "kinds", None), pauses or {})
    started = time.monotonic()
    report = lambda line: print(line, file=sys.stderr)  # noqa: E731
    with _bench.Bench(envs, getattr(args, "jobs", 0) or 0) as bench:
        lab = Lab(envs, report, kinds, bench)
        found = anatomy(envs, lab=lab)
    took = time.monotonic() - started
    write_anatomy(found, output)
    shown = output.relative_to(paths.ROOT) if output.is_relative_to(paths.ROOT) else output
    fixes = "; ".join(f"{k.label} {', '.join(k.minimal_fix) or '-'}" for k in found.kinds)
    searches = ", ".join(
        f"{kind_label(kinds, kind.removeprefix('ddmin '))} {runs} sets in {seconds:.0f} s"
        for kind, (seconds, runs) in lab.timings.items()
    )
    print(
        f"wrote {shown}: minimal fix per kind: {fixes}; ddmin: {searches}; the ablation "
        f"{found.ablation_runs} configurations; {len(lab.asked)} configurations "
        f"({lab.runs} run), {took:.0f} s in all, {took / max(len(lab.asked), 1):.1f} s each"
    )
    return 0
