"""Driven: what every driver's study shares, whatever its SDK. The record its sweep writes, one
per plan on one release (``SweepRecord``: the cases that break an invariant and what the user
met), made from a plan's judged runs (``record``) or for a release that could not be installed
(``unavailable``); its regression test's record on one package (``SdkTestRecord``); one lint or
type tool's record on a fix (``CheckRecord``); and the error of a source line a release does not
hold (``SourceLineError``). What every driver's packages share: a patch applied to an installed
package, keyed by the release and the patch's content (``PatchError``, ``patch_key``,
``apply_patch``), and an SDK published on the Python package index, one cached uv environment
per release beside its pin file (``UvPackage``), a patched one under ``_patched/<key>`` beside
them (``UvPackage.patched``), and its driver's line of the search's registry (``uv_driven``).
An SDK's folder imports these with its own names and words;
nothing here names an SDK.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from ...analysis.invariants import JudgedRun
from ...errors import InvestigationError
from ...study.capture import CaseRun
from ...study.moves import Driven, Moves, StepDriver
from .environments import (
    Environment,
    JUnitCase,
    default_envs,
    install,
    install_tools,
    isolated_environ,
    recorded,
    run_pytest,
    uv_binary,
)
from .environments import record as mark
from .versions import fetch_releases, load_releases, save_releases, sort_versions


@dataclass(frozen=True)
class SweepRecord:
    """One plan on one release: the cases that break an invariant, and what the user met."""

    sdk_version: str
    plan: str
    mode: str
    response_store: bool | None
    trigger: str
    session: str
    cases: int
    violating: int
    invariants: str  # the invariants broken, space-separated, in the study's order
    raised_at: str  # the stage of the first refusal the user meets ("" when none)
    endpoint: str
    api_message: str  # the API's message, the call id as the stand-in numbered it
    not_applicable: str
    # What the driver added to the plan for the release to run it (a field the release
    # requires, an option it lacks left out), in words; "" when it ran as planned.
    configured: str = ""


class SweepPlan(Protocol):
    """What a record reads of any driver's plan (any SDK's driver)."""

    @property
    def label(self) -> str: ...
    @property
    def mode(self) -> str: ...
    @property
    def response_store(self) -> bool | None: ...
    @property
    def trigger(self) -> str | int: ...
    @property
    def session(self) -> str: ...
    @property
    def process(self) -> bool: ...


def record(plan: SweepPlan, judged: Sequence[JudgedRun]) -> SweepRecord:
    """A plan's judged runs as one record (any driver's: the SDK's name is the runs')."""
    runs = [j.run for j in judged]
    broken = [j for j in judged if j.violations]
    names = [v.invariant for v in judged[0].verdicts] if judged else []
    violated = {v.invariant for j in broken for v in j.violations}
    refused = next(
        (s for r in runs for s in r.stages if not s.outcome.ok), None
    )  # the first case's first refusal: every refused case in a plan meets the same
    na = next((r.not_applicable for r in runs if r.not_applicable), None) or never_compacted(runs)
    errors = [r.error for r in runs if r.error]
    return SweepRecord(
        sdk_version=runs[0].sdk_version if runs else "",
        plan=plan.label,
        mode=plan.mode,
        response_store=plan.response_store,
        trigger=str(plan.trigger),
        session="process" if plan.process else plan.session,
        cases=len(runs),
        violating=len(broken),
        invariants=" ".join(n for n in names if n in violated),
        raised_at=refused.name if refused else "",
        endpoint=refused.outcome.endpoint if refused else "",
        api_message=refused.outcome.api_message if refused else "",
        not_applicable=na or (errors[0] if errors else ""),
        configured=next((r.configured for r in runs if r.configured), ""),
    )


NEVER_COMPACTED = "compaction never ran in a case that turns it on"


def never_compacted(runs: Sequence[CaseRun]) -> str:
    """``NEVER_COMPACTED`` when cases turn compaction on and no stage of any of them gave the
    compaction step anything (the release ignores the setting), else ""."""
    on = [r for r in runs if r.case.compaction == "on" and not r.error]
    ran = any(s.compaction_inputs for r in on for s in r.stages)
    return NEVER_COMPACTED if on and not ran else ""


def unavailable(version: str, plan: SweepPlan, why: str) -> SweepRecord:
    """A plan not run on a release that could not be installed, with the reason."""
    return SweepRecord(
        sdk_version=version,
        plan=plan.label,
        mode=plan.mode,
        response_store=plan.response_store,
        trigger=str(plan.trigger),
        session="process" if plan.process else plan.session,
        cases=0,
        violating=0,
        invariants="",
        raised_at="",
        endpoint="",
        api_message="",
        not_applicable=why,
    )


@dataclass(frozen=True)
class CheckRecord:
    """One tool on one subject: what ran, on how many files, and what it said."""

    subject: str  # ``pending``, ``stall``, ``both``, or ``tests``
    tool: str  # ``tsc``, ``prettier``, ``eslint``
    command: str  # the tool as the repository runs it, with the settings it reads
    files: int
    problems: int
    said: str  # the first problems, one a line (empty when none)


@dataclass(frozen=True)
class SdkTestRecord:
    """The regression test, in the SDK's own style, on one package: pinned or patched."""

    package: str
    tests: int
    passed: int
    failed: int


class SourceLineError(InvestigationError):
    """A piece of text the installed module does not hold (a release that changed it)."""


class PatchError(InvestigationError):
    """A patch that cannot be applied to the installed package, in one line."""


def patch_key(patch: Path, version: str) -> str:
    """A patched package's key: its release and its patch's content, hashed."""
    digest = hashlib.sha256(version.encode() + b"\0" + patch.read_bytes()).hexdigest()
    return digest[:16]


def apply_patch(patch: Path, folder: Path, strip: int) -> str | None:
    """Apply ``patch`` in ``folder`` (``patch -pSTRIP``): ``None``, or why it does not apply in
    one line (patch's own last line)."""
    given = str(patch.resolve())  # patch runs in ``folder``: a relative path would not be found
    done = subprocess.run(
        ["patch", f"-p{strip}", "--forward", "--batch", "--no-backup-if-mismatch", "-i", given],
        cwd=folder, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    if done.returncode == 0:
        return None
    said = [line for line in f"{done.stdout}\n{done.stderr}".splitlines() if line.strip()]
    return f"{patch.name} does not apply: {said[-1] if said else 'no output'}"


PATCH_MARKER = "approval-compaction-patch.json"


@dataclass(frozen=True)
class UvPackage:
    """An SDK published on the Python package index, swept release by release as the Python
    sweep is (``environments``): one virtual environment per release under the user's cache
    (``approval-compaction/py3.X/<folder>/<version>``), its dependencies resolved as of the
    release's upload (uv's ``--exclude-newer``, the dates in ``dates``), reused while its marker
    records the same install, and beside the release every other line of its pin file
    (``requirements``), which pins the pinned release. Its errors are ``error``'s, one line."""

    name: str  # the package's name on the index
    first: str  # the first release the study runs
    requirements: Path  # the pin file
    dates: Path  # each release from ``first`` on and its upload time (committed once fetched)
    folder: str  # its folder in the cache
    error: type[InvestigationError]
    span: str  # what every release the study runs is, in words ("a 1.x release")
    command: str  # the command that fetches the dates (``NAME --dates``)

    def requirement_lines(self, path: Path | None = None) -> list[str]:
        """The pin file's requirement lines (comments and blanks left out)."""
        text = (path or self.requirements).read_text()
        lines = (line.split("#")[0].strip() for line in text.splitlines())
        return [line for line in lines if line]

    def pinned(self, path: Path | None = None) -> str:
        """The release the pin file pins."""
        for line in self.requirement_lines(path):
            found = re.fullmatch(rf"{re.escape(self.name)}==(\S+)", line)
            if found:
                return found.group(1)
        raise self.error(f"{(path or self.requirements).name} pins no {self.name} release")

    def release_dates(self, path: Path | None = None) -> dict[str, str]:
        """Each release from ``first`` on and its cutoff (committed once fetched)."""
        given = path or self.dates
        found = load_releases(given)
        if not found:
            raise self.error(f"no {given.name}: run `python -m approval_compaction {self.command}`")
        return found

    def fetch_release_dates(self, path: Path | None = None) -> Path:
        """Ask the package index for the releases and their upload times, and write them."""
        target = path or self.dates
        save_releases(target, fetch_releases(package=self.name, first=self.first))
        return target

    def releases(self, dates: dict[str, str] | None = None) -> list[str]:
        """The releases the study runs, oldest first."""
        return sort_versions(dates if dates is not None else self.release_dates())

    def cache_folder(self) -> Path:
        return default_envs() / self.folder

    def environment(self, version: str, dates: dict[str, str] | None = None) -> Environment:
        """The release's environment (not made: ``ready()`` tells)."""
        cutoffs = dates if dates is not None else self.release_dates()
        if version not in cutoffs:
            raise self.error(f"{self.name} {version} is not {self.span}")
        pin = f"{self.name}=="
        extras = [line for line in self.requirement_lines() if not line.startswith(pin)]
        wanted = (f"{pin}{version}", *extras)
        return Environment(self.cache_folder() / version, version, cutoffs[version], wanted)

    def release_environment(self, version: str, dates: dict[str, str] | None = None) -> Environment:
        """The release's environment, made with uv on first use."""
        env = self.environment(version, dates)
        error = install(env, uv_binary())
        if error is not None:
            raise self.error(f"{self.name} {version}: {error}")
        return env

    def label(self, patch: Path, version: str | None = None) -> str:
        """A patched package's name in records: ``RELEASE+FILE`` (the pinned release's)."""
        return f"{version or self.pinned()}+{patch.name}"

    def patched(self, patch: Path, version: str | None = None, strip: int = 1) -> Environment:
        """The release's environment (the pinned one's by default) with ``patch`` applied in its
        ``site-packages`` (``patch -pSTRIP``), made once under ``_patched/<key>`` in the same
        cache, keyed by the release and the patch's content; the release's own environment is
        never written, and a patch that does not apply leaves nothing behind."""
        if not patch.is_file():
            raise PatchError(f"no patch at {patch}")
        release = version or self.pinned()
        key = patch_key(patch, release)
        env = replace(self.environment(release), folder=self.cache_folder() / "_patched" / key)
        if env.ready() and recorded(env.folder / PATCH_MARKER, key):
            return env
        shutil.rmtree(env.folder, ignore_errors=True)
        error = install(env, uv_binary())
        if error is not None:
            raise PatchError(f"{self.name} {release}: {error}")
        refused = apply_patch(patch, next(env.folder.glob("lib/python*/site-packages")), strip)
        if refused is not None:
            shutil.rmtree(env.folder, ignore_errors=True)
            raise PatchError(refused)
        mark(env.folder / PATCH_MARKER, key)
        return env


def uv_driven(
    moves: Moves,
    package: UvPackage,
    steps: Callable[[Path], StepDriver],
    patched: Callable[[Path], Environment],
) -> Driven:
    """A uv-installed SDK's line of the search's registry: its ``moves``, its driver (``steps``
    given an interpreter) in a release's environment, made with uv on first use, or in the
    pinned release's with a patch applied (``patched``; the driver named ``V+FILE``), and its
    pinned and newest releases."""

    def release(version: str) -> StepDriver:
        return steps(package.release_environment(version).python)

    def newest() -> str:
        return package.releases()[-1]

    def fixed(patch: Path) -> StepDriver:
        driver = steps(patched(patch).python)
        driver.version = package.label(patch)
        return driver

    return Driven(moves, release, package.pinned, newest, fixed)


@dataclass(frozen=True)
class SdkTestRun:
    """A regression test's outcome on one environment: its cases and how each ended."""

    tests: int
    passed: int
    failed: int
    failing: tuple[str, ...]  # the failing cases, each named by ``name`` (``of``)

    @classmethod
    def of(cls, cases: Sequence[JUnitCase], name: Callable[[str], str] = str) -> SdkTestRun:
        """The run from pytest's cases, each failing one by ``name`` of its JUnit name."""
        failing = tuple(name(c.name) for c in cases if c.outcome != "passed")
        return cls(len(cases), len(cases) - len(failing), len(failing), failing)


def run_sdk_test(
    package: UvPackage,
    python: Path,
    test: Path,
    folder: Path,
    tools: Sequence[str],
    label: str,
    overlay: Path | None = None,
    timeout: float = 600.0,
) -> list[JUnitCase]:
    """Run a regression test in the SDK's own style (``test``, a file under ``folder``, whose
    ``pytest.ini`` stands in for the SDK's settings) with ``python`` (a release's, or a patched
    one's), this project's pins of ``tools`` in a folder beside the package's environments, so
    the environment stays as the sweep made it; ``overlay``: a folder whose packages are
    imported instead of the environment's (a mutant's). Its cases, from pytest's report (none
    written: a ``ProbeError`` naming ``label``)."""
    installed = install_tools(package.cache_folder() / "_tools", tools)
    env = isolated_environ(with_package=False, tools=installed)
    if overlay is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(overlay), env.get("PYTHONPATH")]))
    env["PYTHONWARNINGS"] = "ignore"
    prefix = f"approval-compaction-{package.folder}-test-"
    with tempfile.TemporaryDirectory(prefix=prefix) as scratch:
        return run_pytest(
            python,
            [str(test.relative_to(folder))],
            cwd=folder,
            env=env,
            timeout=timeout,
            report=Path(scratch) / "report.xml",
            label=label,
        )
