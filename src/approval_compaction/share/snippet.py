"""Snippet: a markdown comment for the upstream thread, generated from the committed data.

It holds the API's error text (the stand-in's rules on the committed runs' next turn, so a search
for the message finds it), the release that fixes the bug (``reproduce.fix_release`` on the
committed test results and sweep), the fix idea in a few lines, a one-line command that runs the
regression test without a clone, a before/after table of the invariants and of the compactions
made (each column named after the release its records were made on), the test's outcome on every
swept release, and the SDK-style regression test as a maintainer would paste it (this project's
workaround block removed).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from .. import paths
from ..analysis import vocabulary
from ..analysis.invariants import INVARIANTS
from ..analysis.matrix import MatrixRecord
from ..errors import InvestigationError
from ..formats.files import write_atomic
from ..formats.records import read_json_list, read_records
from ..mechanism.views import where_in_the_sdk
from ..releases.crosscheck import CrossRecord
from ..releases.versions import PACKAGE, version_key
from ..study.capture import CaseRun
from ..wire.rules import ApiError
from .reproduce import (
    TEST_NAME,
    api_errors,
    committed_fix_release,
    error_sentence,
    fixed_sentence,
    one_line,
)

SNIPPET = paths.DATA_FILES.snippet
PROJECT_BLOCK = re.compile(
    r"\n# >>> approval-compaction only.*?# <<< approval-compaction only\n", re.DOTALL
)
FIX_IDEA = """\
**Fix idea.** Automatic compaction must not run while the stored history holds an unfinished
item group: a tool call whose output has not been stored yet (a call waiting for approval,
whether it will be approved or rejected; a rejection also stores an output) or a hosted MCP
`mcp_approval_request` without its `mcp_approval_response`. Defer instead of compacting, and
let the next turn's compaction run once every group is complete: compaction keeps working, it
only waits for the pause to be resolved; a compaction the application asks for itself still runs.
On released versions the same effect is available without patching the SDK: a subclass of
`OpenAIResponsesCompactionSession` whose automatic compaction returns early while such a group is
open in the latest exchange, so the SDK's own type checks and attribute writes keep working."""


def upstream_test(text: str) -> str:
    """The regression test without this project's block: what a maintainer pastes."""
    stripped, count = PROJECT_BLOCK.subn("", text)
    if count != 1:
        raise InvestigationError(
            f"expected one approval-compaction block in the test, found {count}"
        )
    return stripped


def _cell(rows: Sequence[MatrixRecord], invariant: str) -> str:
    mine = [r for r in rows if r.invariant == invariant]
    if not mine:
        return "not run"
    broken = sum(r.holds is False for r in mine)
    unjudged = sum(r.holds is None for r in mine)
    if broken:
        return f"{vocabulary.VIOLATED.marker} violated in {broken} of {len(mine)} cases"
    return f"{vocabulary.HOLDS.marker} holds in {len(mine) - unjudged} of {len(mine)} cases"


def _compactions(rows: Sequence[MatrixRecord]) -> str:
    per_case = {r.case_key: r.compaction_requests for r in rows}
    return f"{sum(per_case.values())} in {len(per_case)} cases" if per_case else "not run"


def before_after(columns: Mapping[str, Sequence[MatrixRecord]]) -> str:
    """Invariants by variant, and the compaction requests each variant made, in markdown."""
    lines = ["| invariant | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for invariant in INVARIANTS:
        cells = [_cell(rows, invariant) for rows in columns.values()]
        lines.append(f"| `{invariant}` | " + " | ".join(cells) + " |")
    counts = [_compactions(rows) for rows in columns.values()]
    lines.append("| compaction requests | " + " | ".join(counts) + " |")
    return "\n".join(lines)


def releases_sentence(records: Sequence[CrossRecord]) -> str:
    """The unfixed test across the sweep, in one sentence."""
    if not records:
        return "The test has not been run across releases yet."
    failing: set[str] = set()
    passing: set[str] = set()
    for r in records:
        (failing if r.unfixed != "passed" else passing).add(r.sdk_version)
    passing -= failing
    judged = [r for r in records if r.agrees is not None]
    agreed = sum(bool(r.agrees) for r in judged)
    wrapped = {r.sdk_version for r in records if r.workaround == "passed"}
    wrapped -= {r.sdk_version for r in records if r.workaround != "passed"}
    return (
        f"Run unpatched in each release's own environment, the test fails on "
        f"{_span(failing)} and passes on {_span(passing)}; in {agreed} of {len(judged)} "
        "release/runner/decision cases its outcome matches the sweep's verdict on "
        "`next_turn_input_paired` and `compaction_input_complete` (fails exactly where either "
        "is violated). With the workaround wrapper around the session it passes on "
        f"{_span(wrapped)}."
    )


def _span(versions: set[str]) -> str:
    ordered = sorted(versions, key=version_key)
    if not ordered:
        return "no release"
    if len(ordered) == 1:
        return ordered[0]
    return f"{len(ordered)} releases ({ordered[0]} to {ordered[-1]})"


def _load(path: Path) -> list[MatrixRecord]:
    return read_records(path, MatrixRecord) if path.exists() else []


def release_of(rows: Sequence[MatrixRecord], fallback: str) -> str:
    """The one release the records were made on (``fallback`` when there are none)."""
    versions = sorted({r.sdk_version for r in rows}, key=version_key)
    if len(versions) > 1:
        raise InvestigationError(
            f"one column shows one release, the records come from {', '.join(versions)}"
        )
    return versions[0] if versions else fallback


def _runs(path: Path) -> list[CaseRun]:
    return read_json_list(path, CaseRun.from_json) if path.exists() else []


def _crosscheck(path: Path) -> list[CrossRecord]:
    return read_records(path, CrossRecord) if path.exists() else []


def build(folder: Path = paths.DATA, test_file: Path = paths.REGRESSION_TEST) -> str:
    """The whole comment, from ``matrix*.json``, ``fix-*.json``, the sweep and the test file."""
    unfixed, fixed = _load(folder / "matrix.json"), _load(folder / "fix-matrix.json")
    newest = _load(folder / "fix-newest-matrix.json")
    pinned = release_of(unfixed, "pinned")
    columns = {
        pinned: unfixed,
        f"{release_of(fixed, 'pinned')} + workaround": fixed,
        release_of(newest, "newest"): newest,
    }
    fix = committed_fix_release(folder)
    tested = _crosscheck(folder / "fix-releases.json")
    fails = any(r.sdk_version == pinned and r.unfixed != "passed" for r in tested)
    cases = len({r.case_key for r in unfixed})
    return "\n".join(
        [
            *lead(pinned, fix, api_errors(_runs(folder / "matrix-runs.json"))),
            "",
            FIX_IDEA,
            "",
            *reproduce(pinned, fix, fails),
            "",
            f"**Before/after.** {cases} cases (`run`/`run_streamed` × approve/reject × compaction "
            "hook on/off × `RunState` JSON round trip or in-memory state), scripted model, "
            "recording compaction client, real `SQLiteSession`; each column is named after the "
            f"`{PACKAGE}` release its records were made on:",
            "",
            before_after(columns),
            "",
            releases_sentence(tested),
            "",
            f"<details><summary>Regression test: save as <code>{TEST_NAME}</code> "
            "(pytest + pytest-asyncio, self-contained)</summary>",
            "",
            "```python",
            upstream_test(test_file.read_text()).rstrip("\n"),
            "```",
            "",
            "</details>",
            "",
        ]
    )


def lead(pinned: str, fix: str | None, errors: Sequence[ApiError]) -> list[str]:
    """What the user meets, verbatim, and which release fixes it."""
    fixed = fixed_sentence(fix, "the regression test below")
    where = where_in_the_sdk(pinned, fix)
    return [
        f"**`{PACKAGE}` {pinned}.** {error_sentence(errors)}{fixed}",
        *(["", where] if where else []),
    ]


def reproduce(pinned: str, fix: str | None, fails: bool) -> list[str]:
    """The one line that runs the test below in a throwaway environment, no clone needed."""
    said = [f"it fails on {pinned}"] if fails else []
    said += [f"with `{PACKAGE}=={fix}` it passes"] if fix else []
    outcome = f" ({'; '.join(said)})" if said else ""
    return [
        f"**Reproduce in one line.** Save the test below as `{TEST_NAME}` in an empty folder "
        f"and run it with uv{outcome}:",
        "",
        "```sh",
        one_line(pinned),
        "```",
    ]


def write(path: Path = SNIPPET) -> Path:
    write_atomic(path, build(path.parent))
    return path


def command(args: argparse.Namespace) -> int:
    """``snippet``: write the upstream comment from the committed data."""
    path = write(Path(args.output))
    print(f"wrote {path}")
    return 0
