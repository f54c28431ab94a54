"""Crosscheck: the SDK-style regression test run on each swept release, set against the sweep.

The test file is copied into a scratch folder and run by each release environment's own
interpreter, so neither this project's configuration nor its conftest applies. pytest and
pytest-asyncio come from one shared folder on ``PYTHONPATH`` (installed once with uv), so the
sweep's environments are left as they are. The project's source folder is on ``PYTHONPATH`` too
(its front door is lazy), so the test's workaround variant runs; ``--runxfail`` makes the
unfixed variant report its raw outcome.

The expectation comes from ``data/sweep.json``: the unfixed test should fail for a runner and
decision exactly when the sweep finds ``next_turn_input_paired`` or ``compaction_input_complete``
violated in that json-boundary, compaction-on case, and pass when both hold.

With ``--patch``/``--sdk`` the test runs in the patched SDK's scratch environment
(``releases.patched``) and the expectation is the patched matrix, run there too (a sweep of
released SDKs says nothing about a patch); each record carries the patch's label, and the
files go beside that environment unless ``--folder`` says where.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from ...analysis import vocabulary
from ...analysis.table import to_frame as records_frame
from ...formats.markdown import markdown_table
from ...formats.progress import Progress, tracked
from ...formats.records import read_records, write_records
from .. import paths
from . import PINNED, environments
from .patched import from_namespace, labelled, patched_environment, patched_matrix, results_folder
from .sweep import ReleaseRecord, load_results
from .versions import load_releases, parse_versions, sort_versions, version_key

if TYPE_CHECKING:
    from .patched import Patched

Report = Callable[[str], None]

TEST_FILE = paths.REGRESSION_TEST
# The upstream test's cases with the workaround and the SDK's session (``unfixed``) as variants.
VARIANTS_FILE = paths.REGRESSION_VARIANTS
JUDGED = ("next_turn_input_paired", "compaction_input_complete")
TOOLS = ("pytest", "pytest-asyncio")
TOOLS_FOLDER = "_regression-tools"  # beside the release environments
TEST_TIMEOUT_SECONDS = 300
INI = "[pytest]\nasyncio_default_fixture_loop_scope = function\n"


@dataclass(frozen=True)
class Outcome:
    """One parametrisation of the regression test on one release."""

    sdk_version: str
    decision: str
    runner: str
    variant: str
    outcome: str  # passed, failed, error, skipped
    message: str


@dataclass(frozen=True)
class CrossRecord:
    """The unfixed test on one release, runner and decision, against the sweep's verdict."""

    sdk_version: str
    runner: str
    decision: str
    sweep: str  # VIOLATED, holds, n/a (the sweep could not judge), not swept
    unfixed: str
    workaround: str
    agrees: bool | None  # None where the sweep has no verdict to compare with
    unfixed_message: str = ""


@dataclass(frozen=True)
class PatchedCross(CrossRecord):
    """A crosscheck record from a patched SDK, with the patch's label."""

    patch: str = ""


def tool_requirements() -> list[str]:
    """pytest and pytest-asyncio at the versions this project pins."""
    return environments.pins(TOOLS)


def parse_id(name: str) -> tuple[str, str, str]:
    """``test_x[approve-run_streamed-unfixed]`` as (decision, runner, variant)."""
    inside = name[name.index("[") + 1 : name.rindex("]")]
    decision, runner, variant = inside.split("-")
    return decision, runner, variant


def outcome_of(case: environments.JUnitCase, version: str) -> Outcome:
    """One parametrisation's outcome, from its JUnit test case."""
    decision, runner, variant = parse_id(case.name)
    return Outcome(version, decision, runner, variant, case.outcome, case.message[:200])


def run_file(
    env: environments.Environment,
    tools: Path,
    test_file: Path = VARIANTS_FILE,
    beside: Sequence[Path] = (TEST_FILE,),
) -> list[environments.JUnitCase]:
    """Run a test file with one release's interpreter in a scratch folder, with the raw outcome
    of each parametrisation (``--runxfail``); the files ``beside`` it are copied too (the
    variants module loads the upstream test from its folder)."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-regression-") as scratch:
        folder = Path(scratch)
        for path in (test_file, *beside):
            shutil.copy(path, folder / path.name)
        (folder / "pytest.ini").write_text(INI)
        return environments.run_pytest(
            env.python,
            [test_file.name, "--runxfail"],
            cwd=folder,
            env=environments.isolated_environ(tools=tools),
            timeout=TEST_TIMEOUT_SECONDS,
            report=folder / "junit.xml",
            label=f"{env.version}: pytest",
        )


def run_test(env: environments.Environment, tools: Path) -> list[Outcome]:
    """Run the regression test with one release's interpreter; one Outcome per parametrisation."""
    return [outcome_of(case, env.version) for case in run_file(env, tools)]


def sweep_verdicts(rows: Iterable[ReleaseRecord]) -> dict[tuple[str, str, str], str]:
    """Per (release, runner, decision): ``VIOLATED``, ``holds`` or ``n/a`` for the judged pair."""
    found: dict[tuple[str, str, str], list[bool | None]] = {}
    for row in rows:
        if row.invariant in JUDGED and row.compaction == "on" and row.state_boundary == "json":
            found.setdefault((row.sdk_version, row.runner, row.decision), []).append(row.holds)
    verdicts = {}
    for key, values in found.items():
        if False in values:
            verdicts[key] = vocabulary.word(False)
        elif values and all(v is True for v in values):
            verdicts[key] = vocabulary.word(True)
        else:
            verdicts[key] = vocabulary.word(None)
    return verdicts


EXPECTED = {vocabulary.word(False): "failed", vocabulary.word(True): "passed"}
NOT_SWEPT = "not swept"


def compare(outcomes: Sequence[Outcome], rows: Iterable[ReleaseRecord]) -> list[CrossRecord]:
    """The unfixed and workaround outcomes per release, runner and decision, with agreement."""
    verdicts = sweep_verdicts(rows)
    index = {(o.sdk_version, o.runner, o.decision, o.variant): o for o in outcomes}
    missing = Outcome("", "", "", "", "missing", "")
    keys = sorted({(o.sdk_version, o.runner, o.decision) for o in outcomes}, key=_order)
    records = []
    for version, runner, decision in keys:
        verdict = verdicts.get((version, runner, decision), NOT_SWEPT)
        unfixed = index.get((version, runner, decision, "unfixed"), missing)
        workaround = index.get((version, runner, decision, "workaround"), missing)
        agrees = EXPECTED[verdict] == unfixed.outcome if verdict in EXPECTED else None
        records.append(
            CrossRecord(
                version,
                runner,
                decision,
                verdict,
                unfixed.outcome,
                workaround.outcome,
                agrees,
                unfixed.message,
            )
        )
    return records


def _order(key: tuple[str, str, str]) -> tuple[object, ...]:
    version, runner, decision = key
    return (version_key(version), runner, decision)


def run_releases(
    versions: Sequence[str], envs: Path, *, create: bool = False, report: Report = print
) -> list[Outcome]:
    """Run the test in each release's sweep environment; make missing ones only if asked."""
    tools = environments.install_tools(envs / TOOLS_FOLDER, TOOLS)
    outcomes: list[Outcome] = []
    for version in tracked(versions, Progress("crosscheck", len(versions), "releases")):
        try:
            env = environments.release_environment(version, envs, create=create)
        except environments.SweepError as error:
            report(f"{version:<8} skipped: {error}")
            continue
        found = run_test(env, tools)
        outcomes.extend(found)
        report(f"{version:<8} {_tally(found)}")
    return outcomes


def _tally(outcomes: Sequence[Outcome]) -> str:
    counts: dict[str, int] = {}
    for o in outcomes:
        key = f"{o.variant} {o.outcome}"
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{n} {key}" for key, n in sorted(counts.items()))


def by_release(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per release: the sweep's verdict, the unfixed and workaround tests, agreement."""

    def words(values: pd.Series) -> str:
        return ", ".join(sorted(set(values)))

    grouped = frame.groupby("sdk_version", sort=False).agg(
        sweep=("sweep", words),
        unfixed_test=("unfixed", words),
        workaround_test=("workaround", words),
        agrees=("agrees", _agreement),
    )
    return grouped


def load(path: Path = paths.DATA_FILES.fix_releases) -> list[CrossRecord]:
    """Records written by ``write``."""
    return read_records(path, CrossRecord)


def regression_table(path: Path = paths.DATA_FILES.fix_releases) -> pd.DataFrame:
    """The committed crosscheck, one row per release."""
    return by_release(records_frame(load(path), CrossRecord))


def regression_ranges(path: Path = paths.DATA_FILES.fix_releases) -> pd.DataFrame:
    """``regression_table`` with each run of consecutive releases whose rows match joined into
    one range (``0.8.0..0.23.1``), its size under ``releases``; the sweep's ``VIOLATED`` read
    as ``broken`` and the test's columns named for the variant each ran."""
    import pandas as pd

    tested = regression_table(path)
    run = tested.ne(tested.shift()).any(axis=1).cumsum()  # a new range where any column changes
    versions = tested.index.to_series().groupby(run)
    ends = zip(versions.first(), versions.last(), strict=True)
    spans = [a if a == b else f"{a}..{b}" for a, b in ends]
    ranges = tested.groupby(run).first().set_index(pd.Index(spans, name="sdk_versions"))
    ranges.insert(0, "releases", versions.size().to_numpy())
    ranges["sweep"] = ranges["sweep"].replace({"VIOLATED": "broken"})
    names = {"unfixed_test": "as released", "workaround_test": "with the workaround"}
    return ranges.rename(columns=names)


def _agreement(values: pd.Series) -> str:
    known = [bool(v) for v in values if v is not None and not pd.isna(v)]
    if not known:
        return "not judged"
    return "yes" if all(known) else "NO"


def write(
    records: Sequence[CrossRecord], folder: Path, schema: type[CrossRecord] = CrossRecord
) -> list[Path]:
    """Write the records as JSON and CSV, and the per-release table as markdown."""
    table = by_release(records_frame(records, schema))
    markdown = markdown_table(table, cell=vocabulary.marked) + "\n"
    return write_records(paths.data(folder).fix_releases, records, schema, markdown=markdown)


def patched_crosscheck(patched: Patched, envs: Path, report: Report = print) -> list[PatchedCross]:
    """The test in the patched SDK's scratch environment, against the patched matrix there."""

    env = patched_environment(patched, envs)
    tools = environments.install_tools(envs / TOOLS_FOLDER, TOOLS)
    found = run_test(env, tools)
    report(f"{patched.describe()}: {_tally(found)}")
    rows = patched_matrix(patched, envs=envs)
    return labelled(compare(found, rows), PatchedCross, patched.label)


def command(args: argparse.Namespace) -> int:
    """``crosscheck``: run the test on each swept release (or on a patched SDK); exit 1 if any
    disagrees."""

    envs = Path(args.envs) if args.envs else environments.default_envs()
    patched = from_namespace(args, PINNED)
    records: Sequence[CrossRecord]
    if patched is not None:
        records = patched_crosscheck(patched, envs)
        folder = Path(args.folder) if args.folder else results_folder(patched, envs)
        written = write(records, folder, PatchedCross)
    else:
        rows = load_results(Path(args.sweep))
        swept = sort_versions(row.sdk_version for row in rows)
        known = sort_versions([*load_releases(paths.DATA_FILES.release_dates), *swept])
        versions = parse_versions(args.versions, known) if args.versions else swept
        records = compare(run_releases(versions, envs, create=args.create), rows)
        folder = Path(args.folder) if args.folder else paths.DATA
        written = write(records, folder)
    for path in written:
        print(f"wrote {path.relative_to(folder.parent) if patched is None else path}")
    disagree = [r for r in records if r.agrees is False]
    judged = [r for r in records if r.agrees is not None]
    against = "the sweep" if patched is None else "the patched matrix"
    print(f"{len(judged) - len(disagree)} of {len(judged)} judged cases agree with {against}")
    return 0 if not disagree else 1
