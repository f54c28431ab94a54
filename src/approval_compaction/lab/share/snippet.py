"""Snippet: a markdown comment for the upstream thread, generated from the committed data.

It renders the committed findings (``findings.load``): the API's error text (the stand-in's
rules on the committed runs' next turn, so a search for the message finds it), what a user of
the real API meets on the pinned release in each compaction mode, every refusal a user meets
with every text the ``openai`` client raises it as, the release that fixes the bug, where in
the SDK, the fix idea in a few lines, a one-line command that runs the
regression test without a clone, a before/after table of the invariants and of the compactions
made (each column named after the release its records were made on), the test's outcome on
every swept release, and the SDK-style regression test as a maintainer would paste it (the file
itself: its project variants live in ``test_pending_approval_variants.py``).

The one line is ``uv run --no-project --with openai-agents==X --with pytest==Y --with
pytest-asyncio==Z pytest FILE``: uv builds a throwaway environment with only those pins, and the
test needs no configuration file because it marks its coroutine ``@pytest.mark.asyncio`` itself
(pytest-asyncio's default strict mode runs exactly the marked tests). The tool pins are the ones
installed here (``requirements.txt`` pins them); the ``openai-agents`` pin is the release the
data was recorded on.
"""

from __future__ import annotations

import argparse
import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from ...analysis import vocabulary
from ...analysis.invariants import INVARIANTS
from ...errors import InvestigationError
from ...formats.files import write_atomic
from ...formats.markdown import fence, markdown_table
from .. import paths
from ..findings.fix import Crosscheck
from ..findings.load import Findings, load_findings
from ..findings.matrix import MatrixFinding
from ..findings.tables import (
    crosscheck_frame,
    error_texts,
    errors_frame,
    liveness_frame,
    mechanism_frame,
    verdict_frame,
)
from ..mechanism.permalink import REPOSITORY
from ..releases.crosscheck import tool_requirements
from ..releases.versions import PACKAGE

SNIPPET = paths.DATA_FILES.snippet
# The upstream issue the regression test reproduces, as a link that holds once pasted.
ISSUE = f"{REPOSITORY}/issues/5340"
TEST_NAME = paths.REGRESSION_TEST.name
PROJECT_BLOCK = re.compile(
    r"\n# >>> approval-compaction only.*?# <<< approval-compaction only\n", re.DOTALL
)
FIX_IDEA = """\
**Fix idea.** Automatic compaction must not run while the stored history holds an unfinished
item group: a tool call whose output is not stored yet (a call waiting for approval; a rejection
also stores an output) or a hosted MCP `mcp_approval_request` without its
`mcp_approval_response`. Defer instead, and let the next turn compact once every group is
complete; a compaction the application asks for itself still runs.

On released versions the same effect needs no patch: a subclass of
`OpenAIResponsesCompactionSession` whose automatic compaction returns early while such a group is
open in the latest exchange, so the SDK's own type checks and attribute writes keep working."""


def one_line(sdk_version: str, tools: Sequence[str] | None = None) -> str:
    """The command that runs the saved test on ``sdk_version`` in a throwaway environment:
    ``uv run --no-project`` with only the pins, the tools at the versions installed here."""
    pins = [f"{PACKAGE}=={sdk_version}", *(tool_requirements() if tools is None else tools)]
    words = ["uv", "run", "--no-project"]
    for pin in pins:
        words += ["--with", pin]
    return shlex.join([*words, "pytest", TEST_NAME])


def upstream_test(text: str) -> str:
    """The regression test without this project's block: what a maintainer pastes."""
    stripped, count = PROJECT_BLOCK.subn("", text)
    if count != 1:
        raise InvestigationError(
            f"expected one approval-compaction block in the test, found {count}"
        )
    return stripped


def regression_test(path: Path = paths.REGRESSION_TEST) -> str:
    """The regression test as the README and this comment name it: the file itself, which is
    the upstream form (its project variants and marks live in another module)."""
    text = path.read_text()
    if "approval_compaction" in text or "approval-compaction only" in text:
        raise InvestigationError(f"{path.name} must be the upstream form: it names this project")
    return text


def _cell(found: MatrixFinding | None, invariant: str) -> str:
    count = next((c for c in found.invariants if c.invariant == invariant), None) if found else None
    if count is None or not count.cases:
        return "not run"
    if count.violated:
        return f"{vocabulary.VIOLATED.marker} violated in {count.violated} of {count.cases} cases"
    judged = count.cases - count.unjudged
    return f"{vocabulary.HOLDS.marker} holds in {judged} of {count.cases} cases"


def before_after(columns: Mapping[str, MatrixFinding | None]) -> str:
    """Invariants by variant, and the compaction requests each variant made, in markdown."""
    lines = ["| invariant | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for invariant in INVARIANTS:
        cells = [_cell(found, invariant) for found in columns.values()]
        lines.append(f"| `{invariant}` | " + " | ".join(cells) + " |")
    counts = [
        str(found.compaction_requests) if found and found.cases else "not run"
        for found in columns.values()
    ]
    lines.append("| compaction requests, the cases together | " + " | ".join(counts) + " |")
    return "\n".join(lines)


def release_of(found: MatrixFinding | None, fallback: str) -> str:
    """The one release a column's records were made on (``fallback`` when there are none)."""
    releases = found.releases if found is not None else ()
    if len(releases) > 1:
        raise InvestigationError(
            f"one column shows one release, the records come from {', '.join(releases)}"
        )
    return releases[0] if releases else fallback


def build(folder: Path = paths.DATA, test_file: Path = paths.REGRESSION_TEST) -> str:
    """The whole comment, from the findings under ``folder`` and the test file."""
    found = load_findings(folder)
    pinned = release_of(found.pinned, "pinned")
    columns = {
        pinned: found.pinned,
        f"{release_of(found.fixed, 'pinned')} + workaround": found.fixed,
        release_of(found.newest, "newest"): found.newest,
    }
    return "\n".join(
        [
            *lead(pinned, found),
            "",
            FIX_IDEA,
            "",
            *reproduce(pinned, found.fixed_in, found.crosscheck),
            "",
            f"**Before/after.** {found.pinned.cases if found.pinned else 0} cases "
            "(`run`/`run_streamed` × approve/reject × compaction "
            "hook on/off × `RunState` JSON round trip or in-memory state), scripted model, "
            "recording compaction client, real `SQLiteSession`; each column is named after the "
            f"`{PACKAGE}` release its records were made on:",
            "",
            before_after(columns),
            "",
            *(
                [markdown_table(crosscheck_frame(found.crosscheck))]
                if found.crosscheck
                else ["The test has not been run across releases yet."]
            ),
            "",
            f"<details><summary>Regression test: save as <code>{TEST_NAME}</code> "
            "(pytest + pytest-asyncio, self-contained)</summary>",
            "",
            "```python",
            regression_test(test_file).rstrip("\n"),
            "```",
            "",
            "</details>",
            "",
        ]
    )


def lead(pinned: str, found: Findings) -> list[str]:
    """Every error text first, where each is met, the fix with its scope, where in the SDK."""
    texts = error_texts(found.errors_met, found.errors)
    parts = [fence("\n".join(texts), "text"), ""] if texts else []
    parts += [f"**`{PACKAGE}` {pinned}**, every case over HTTP in each compaction mode:"]
    if found.errors_met:
        parts += ["", markdown_table(errors_frame(found.errors_met))]
    if found.releases is not None and found.fixed_in is not None:
        parts += [
            "",
            f"`{PACKAGE}` {found.fixed_in} fixes these cases: the regression test below passes "
            "there. The verdict per release says what each still gets wrong, by kind (the cases "
            "with a compaction hook that always says yes, the default trigger by the doctor's "
            "check); a separate comment on compaction liveness names them, with a test and a "
            "patch.",
            "",
            markdown_table(verdict_frame(found.verdicts)),
            *(["", markdown_table(liveness_frame(found.liveness))] if found.liveness else []),
        ]
    if found.mechanism is not None:
        parts += [
            "",
            "Where in the SDK (read from each release's installed source):",
            "",
            markdown_table(mechanism_frame(found.mechanism)),
        ]
    return parts


def outcomes(pinned: str, fix: str | None, check: Crosscheck | None) -> str:
    """What the one line prints last on the pinned and on the fixing release, from the
    crosscheck's records: ``on 0.23.1 pytest ends with `4 failed`; with ... `4 passed```."""
    said = []
    for version, lead_in in ((pinned, f"on {pinned}"), (fix, f"with `{PACKAGE}=={fix}`")):
        summary = check.summary(version) if check is not None and version else None
        if summary:
            said.append(f"{lead_in} pytest ends with `{summary}`")
    return ", and ".join(said)


def reproduce(pinned: str, fix: str | None, check: Crosscheck | None) -> list[str]:
    """The one line that runs the test below in a throwaway environment, no clone needed."""
    said = outcomes(pinned, fix, check)
    outcome = f" ({said})" if said else ""
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
