"""Anatomy: which part of 0.24.0's diff is the fix, found by experiment.

The files on the bug's path (the catalogue's modules) are read from the two releases' cached
environments and cut into hunks (``hunks``). Every experiment is a patched run (the patch lab,
``releases.patched``): the sixteen cases in a scratch copy of a release's environment with one
set of hunks applied, through the sweep's probe, judged as the sweep judges a release.

- **Ablation** (after the search, so that it keeps the fix): each hunk reverted alone from the
  newer release; does the bug come back? A revert that does not import or run is widened by
  what it misses: the hunks whose added lines use the missing name are reverted with it, the
  package's other changed modules' hunks among them (they import or call what the path's files
  define), or a module it left unparsable whole; when it names nothing more, the modules it
  touches whole. The minimal fix's hunks are never reverted with another.
- **The other modules**: each of the package's other changed modules (off the bug's path: the
  ``RunState`` schema, the run loop, ...) reverted whole from the newer release, widened the
  same way when it does not run alone.
- **The rest**: the newer release with every change of every module but the minimal fix's
  reverted (its ``agents`` is then the older release's plus the fix, on the newer release's
  dependencies): together they change no verdict, or they do.
- **Minimal fix**: Zeller's ddmin (``ddmin``) over the hunks applied to the older release, for
  the smallest set that makes every invariant hold in every case; a set whose patch does not
  import or run is unresolved. Each distinct set runs once (results are kept by content).
- **A poisoned session**: the minimal fix's next turn on a store the older release poisoned
  (scripted model, so the turn reaches compaction): does compaction still run on it?

``python -m approval_compaction fix-anatomy`` (``make fix-anatomy``) writes it all to
``data/fix-anatomy.json``; notebook 03 reads it.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ... import paths
from ...analysis.pairing import orphan_outputs
from ...doctor.verdict import judge
from ...formats.records import read_json, write_json
from ...study.driver import Ask, Decide, Resume, Setup, converse
from ...study.harness import FINISHED, NEXT_ANSWER, PENDING_CALL, QUESTIONS
from ...study.worker import Worker
from ..releases import environments
from ..releases.patched import Patched, patch_from_text, site_packages, throwaway_environment
from ..releases.sweep import ReleaseRecord, judged
from .catalogue import CATALOGUE, NEWEST, PINNED
from .ddmin import FAIL, PASS, UNRESOLVED, Verdict, ddmin
from .hunks import Hunk, compose, mentions, patch_text, split
from .permalink import differences, installed_sources
from .record import pinned_here

FIXED, BUG = "fixed", "bug"  # an outcome's verdict, with UNRESOLVED
# A run of the sixteen cases takes seconds; a revert that hangs (a loop it left unfinished) is
# unresolved after this long, not after the sweep's ten minutes.
PROBE_TIMEOUT_SECONDS = 180
Report = Callable[[str], None]


def path_files() -> tuple[str, ...]:
    """The catalogue's modules as files under ``site-packages``: ``agents/.../x.py``."""
    return tuple(sorted({f"{f.module.replace('.', '/')}.py" for f in CATALOGUE}))


def sources(env: environments.Environment, files: Sequence[str]) -> dict[str, str]:
    """The files' text in a release's environment."""

    site = site_packages(env.folder)
    return {name: (site / name).read_text() for name in files}


@dataclass(frozen=True)
class Outcome:
    """What one run of the sixteen cases found: ``fixed`` (every invariant holds in every
    case), ``bug`` (some do not: how many cases per invariant, and which cases), or
    ``unresolved`` (it did not import or run: why)."""

    verdict: str
    violated: dict[str, int]
    cases: tuple[str, ...]
    reason: str

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        return cls(**data | {"cases": tuple(data["cases"])})


FILE_IN_PARENTHESES = re.compile(r" \(/[^)]*\)")  # an ImportError's "(/path/to/module.py)"


def plain_reason(detail: str) -> str:
    """Why a run did not run, on one line, without the scratch environment's paths (they are
    temporary, and the record is committed)."""
    return FILE_IN_PARENTHESES.sub("", " ".join(detail.split()))[:300]


def outcome(rows: Sequence[ReleaseRecord]) -> Outcome:
    """The outcome of one run's records."""
    broken = [r for r in rows if r.holds is None]
    if broken:
        return Outcome(UNRESOLVED, {}, (), plain_reason(broken[0].detail))
    violated: dict[str, int] = {}
    cases = set()
    for row in rows:
        if row.holds is False:
            violated[row.invariant] = violated.get(row.invariant, 0) + 1
            cases.add("/".join(row.case_key))
    return Outcome(BUG if violated else FIXED, violated, tuple(sorted(cases)), "")


class Lab:
    """Runs configurations (a release plus a patch), each distinct content once."""

    def __init__(self, envs: Path, report: Report = print) -> None:
        self.envs, self.report = envs, report
        self.seen: dict[str, Outcome] = {}
        self.runs = 0  # patched runs made (each distinct content once)
        self.timings: dict[str, tuple[float, int]] = {}  # a step's wall time and patched runs

    def run(self, base: str, patch: str, label: str) -> Outcome:
        """The cases on ``base`` with ``patch`` (a unified diff; empty: the release as is)."""

        key = hashlib.sha256(f"{base}\0{patch}".encode()).hexdigest()
        if key in self.seen:
            return self.seen[key]
        if patch:
            patched = Patched(base, (patch_from_text(f"{label}.diff", patch),))
            with throwaway_environment(patched, self.envs) as env:
                found = outcome(judged(env, timeout=PROBE_TIMEOUT_SECONDS))
            self.runs += 1
        else:
            env = environments.release_environment(base, self.envs, create=False)
            found = outcome(judged(env, timeout=PROBE_TIMEOUT_SECONDS))
        self.seen[key] = found
        self.report(f"{label}: {found.verdict} {found.reason[:80]}".rstrip())
        return found


# ---------------------------------------------------------------------------- the record


def reverts_from_json(data: dict[str, Any]) -> dict[str, Any]:
    """A revert's fields (alone, what it needed, widened) parsed from a record's JSON."""
    return {
        "reverted": Outcome.from_json(data["reverted"]),
        "together": tuple(data["together"]),
        "reverted_together": Outcome.from_json(data["reverted_together"]),
    }


@dataclass(frozen=True)
class HunkRecord:
    """One hunk: where it is, its own patch (the older release plus this hunk alone), what
    reverting it alone from the newer release does and, when that does not run, reverting it
    with the hunks that need it (``together``: their names); whether the minimal fix holds it."""

    name: str
    path: str
    span: str
    first_line: str
    patch: str
    reverted: Outcome
    together: tuple[str, ...]
    reverted_together: Outcome
    in_minimal_fix: bool

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HunkRecord:
        return cls(**data | reverts_from_json(data))


@dataclass(frozen=True)
class ModuleRecord:
    """One of the package's other changed modules (off the bug's path): how many hunks its
    change has, what reverting it whole from the newer release does and, when that does not
    run, reverting it with the hunks that need it (``together``: their names)."""

    path: str
    hunks: int
    reverted: Outcome
    together: tuple[str, ...]
    reverted_together: Outcome

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ModuleRecord:
        return cls(**data | reverts_from_json(data))


@dataclass(frozen=True)
class SearchStep:
    """One set ddmin tried: its hunks (as numbers in the list, ``1-3,7``) and what the cases
    found on 0.23.1 with them: ``fixed``, ``bug`` or ``unresolved``."""

    hunks: str
    verdict: str


@dataclass(frozen=True)
class PoisonedTurn:
    """The next turn on a store the older release poisoned, on one SDK: what compaction got."""

    sdk: str
    compaction_requests: int
    compaction_input_orphans: str
    model_input_orphans: str
    stored_after: str


@dataclass(frozen=True)
class Anatomy:
    """The whole experiment: the releases, the files, each hunk, the minimal fix and how the
    search found it, and the poisoned session's next turn."""

    old: str
    new: str
    files: tuple[str, ...]
    old_outcome: Outcome
    new_outcome: Outcome
    all_on_old: Outcome  # the older release with every hunk applied
    other_files: tuple[str, ...]  # the package's other modules that differ (off the path)
    added_files: tuple[str, ...]  # modules only the newer release has (no revert removes them)
    hunks: tuple[HunkRecord, ...]
    modules: tuple[ModuleRecord, ...]  # the other modules, each reverted whole
    minimal_fix: tuple[str, ...]
    minimal_patch: str
    minimal_outcome: Outcome
    rest_reverted: Outcome  # the newer release with every change but the fix reverted
    one_minimal: bool  # leaving out any one hunk of the fix loses it (checked)
    search: tuple[SearchStep, ...]
    ablation_runs: int  # the patched runs reverting hunks and modules took
    poisoned: tuple[PoisonedTurn, ...]

    @property
    def numbers(self) -> dict[str, int]:
        """Each hunk's number in the list of the path's, as the search names its sets."""
        return {hunk.name: index for index, hunk in enumerate(self.hunks, start=1)}

    @property
    def search_runs(self) -> int:
        """The patched runs ddmin needed: one per distinct set it tried."""
        return len(self.search)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Anatomy:
        return cls(
            **data
            | {
                "files": tuple(data["files"]),
                "old_outcome": Outcome.from_json(data["old_outcome"]),
                "new_outcome": Outcome.from_json(data["new_outcome"]),
                "all_on_old": Outcome.from_json(data["all_on_old"]),
                "other_files": tuple(data["other_files"]),
                "added_files": tuple(data["added_files"]),
                "hunks": tuple(HunkRecord.from_json(h) for h in data["hunks"]),
                "modules": tuple(ModuleRecord.from_json(m) for m in data["modules"]),
                "minimal_fix": tuple(data["minimal_fix"]),
                "minimal_outcome": Outcome.from_json(data["minimal_outcome"]),
                "rest_reverted": Outcome.from_json(data["rest_reverted"]),
                "search": tuple(SearchStep(**s) for s in data["search"]),
                "poisoned": tuple(PoisonedTurn(**p) for p in data["poisoned"]),
            }
        )


def ranges(numbers: Sequence[int]) -> str:
    """``1,2,3,7`` as ``1-3,7``."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and runs[-1][-1] == number - 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ",".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


# ---------------------------------------------------------------------------- the experiments


def poisoned_turns(
    pythons: Mapping[str, str | None],
) -> tuple[PoisonedTurn, ...]:
    """The next turn, per SDK (its interpreter; None: this one), on a copy of a store this
    process's release poisoned (pause with compaction on, approve, resume), scripted model."""

    pinned_here()  # the poisoned store is the pinned release's
    found = []
    with tempfile.TemporaryDirectory(prefix="approval-compaction-anatomy-") as folder:
        store = Path(folder) / "poisoned.db"
        paused = converse(Setup(), [Ask(QUESTIONS[0], (PENDING_CALL,), stage="pause")], store)
        converse(Setup(), [Decide(), Resume((FINISHED,))], store, state=paused.state)
        for index, (label, python) in enumerate(pythons.items()):
            copy = Path(folder) / f"copy-{index}.db"
            shutil.copyfile(store, copy)
            steps = [Ask(QUESTIONS[1], (NEXT_ANSWER,))]
            if python is None:
                turn = converse(Setup(), steps, copy)
            else:
                with Worker(python, environments.isolated_environ()) as worker:
                    turn = converse(Setup(), steps, copy, worker=worker)
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


def search_minimal_fix(diff: PathDiff, lab: Lab) -> tuple[list[Hunk], list[tuple[str, str]]]:
    """Ddmin over the hunks applied to the older release: the 1-minimal set that fixes every
    case, and each set it tried (as hunk numbers) with its verdict. ``lab.timings["ddmin"]``
    keeps its wall time and patched runs."""
    verdicts = {FIXED: FAIL, BUG: PASS, UNRESOLVED: UNRESOLVED}  # ddmin looks for FAIL
    words = {verdict: word for word, verdict in verdicts.items()}

    def test(chosen: list[Hunk]) -> Verdict:
        label = f"{PINNED} + {diff.numbers(chosen)}"
        return verdicts[lab.run(PINNED, diff.on_old(chosen), label).verdict]

    started, runs_before = time.monotonic(), lab.runs
    minimal, search = ddmin(list(diff.hunks), test)
    lab.timings["ddmin"] = (time.monotonic() - started, lab.runs - runs_before)
    return minimal, [(diff.numbers(chosen), words[verdict]) for chosen, verdict in search.tests]


def anatomy(envs: Path, report: Report = print, lab: Lab | None = None) -> Anatomy:
    """Run every experiment (many patched runs: minutes); ``lab`` keeps the timings."""

    diff = path_diff(envs)
    hunks = list(diff.hunks)
    lab = lab or Lab(envs, report)

    def on_old(chosen: Sequence[Hunk], label: str) -> Outcome:
        return lab.run(PINNED, diff.on_old(chosen), label)

    def revert(group: Sequence[Hunk]) -> Outcome:
        return lab.run(NEWEST, diff.reverted(group), f"{NEWEST} - {diff.numbers(group)}")

    old_outcome = lab.run(PINNED, "", PINNED)
    new_outcome = lab.run(NEWEST, "", NEWEST)
    all_on_old = on_old(hunks, f"{PINNED} + all {len(hunks)} hunks")
    minimal, tried = search_minimal_fix(diff, lab)
    minimal_outcome = on_old(minimal, "the minimal fix")
    one_minimal = minimal_outcome.verdict == FIXED and all(
        on_old([h for h in minimal if h is not left], f"the fix - {left.name}").verdict != FIXED
        for left in minimal
    )
    runs_before = lab.runs
    reverted = {hunk.name: revert([hunk]) for hunk in hunks}
    pool = [h for h in diff.every_hunk if h not in minimal]  # a widened revert keeps the fix
    together = {
        h.name: ([h], reverted[h.name])
        if h in minimal
        else revert_with_needs(h, pool, reverted[h.name], revert)
        for h in hunks
    }
    modules = []
    for name in diff.other_files:
        own = [h for h in diff.others if h.path == name]
        alone = revert(own)
        group, widened = revert_with_needs(own, pool, alone, revert)
        extra = tuple(diff.name(g) for g in group if g not in own)
        modules.append(ModuleRecord(name, len(own), alone, extra, widened))
    ablation_runs = lab.runs - runs_before
    minimal_patch = diff.on_old(minimal)
    rest = [h for h in diff.every_hunk if h not in minimal]
    rest_reverted = lab.run(NEWEST, diff.reverted(rest), f"{NEWEST} - all but the minimal fix")
    new_env = environments.release_environment(NEWEST, envs, create=False)
    fix = Patched(PINNED, (patch_from_text("minimal-fix.diff", minimal_patch),))
    with throwaway_environment(fix, envs) as fixed_env:
        poisoned = poisoned_turns(
            {PINNED: None, "the minimal fix": str(fixed_env.python), NEWEST: str(new_env.python)}
        )
    return Anatomy(
        old=PINNED,
        new=NEWEST,
        files=diff.files,
        old_outcome=old_outcome,
        new_outcome=new_outcome,
        all_on_old=all_on_old,
        other_files=diff.other_files,
        added_files=diff.added,
        hunks=tuple(
            HunkRecord(
                name=h.name,
                path=h.path,
                span=h.span,
                first_line=h.first_line,
                patch=diff.on_old([h]),
                reverted=reverted[h.name],
                together=tuple(diff.name(g) for g in together[h.name][0] if g is not h),
                reverted_together=together[h.name][1],
                in_minimal_fix=h in minimal,
            )
            for h in hunks
        ),
        modules=tuple(modules),
        minimal_fix=tuple(h.name for h in minimal),
        minimal_patch=minimal_patch,
        minimal_outcome=minimal_outcome,
        rest_reverted=rest_reverted,
        one_minimal=one_minimal,
        search=tuple(SearchStep(numbers, verdict) for numbers, verdict in tried),
        ablation_runs=ablation_runs,
        poisoned=poisoned,
    )


def write_anatomy(found: Anatomy, path: Path = paths.DATA_FILES.fix_anatomy) -> None:
    write_json(path, asdict(found))


def load_anatomy(path: Path = paths.DATA_FILES.fix_anatomy) -> Anatomy:
    """The committed anatomy (``make fix-anatomy``)."""
    return read_json(path, Anatomy.from_json)


def command(args: argparse.Namespace) -> int:
    """``fix-anatomy``: run the experiments and write the record; say how long the search took."""
    envs = Path(args.envs) if args.envs else environments.default_envs()
    output = Path(args.output)
    started = time.monotonic()
    lab = Lab(envs, report=lambda line: print(line, file=sys.stderr))
    found = anatomy(envs, lab=lab)
    took = time.monotonic() - started
    write_anatomy(found, output)
    shown = output.relative_to(paths.ROOT) if output.is_relative_to(paths.ROOT) else output
    search_time, search_runs = lab.timings["ddmin"]
    print(
        f"wrote {shown}: minimal fix {', '.join(found.minimal_fix)}; ddmin tried "
        f"{found.search_runs} sets ({search_runs} patched runs, {search_time:.0f} s), the "
        f"ablation {found.ablation_runs} runs; {lab.runs} patched runs, {took:.0f} s in all"
    )
    return 0
