"""SDK test: the regression test written for langchain, run here with pytest, and its mutants.

``langchain/sdk-test/tests/unit_tests/agents/middleware/implementations/`` holds one file a
maintainer drops into ``libs/langchain_v1/tests/unit_tests/agents/middleware/implementations/``
as it is: pytest, a scripted chat model, ``create_agent`` on an ``InMemorySaver``, no network,
in that project's style. Here it runs with the interpreter of a release's environment (or a
patched one, ``patched``), with this project's pin of pytest in a tools folder beside it, so the
environment stays as the sweep made it; ``langchain/sdk-test/pytest.ini`` stands in for
langchain_v1's pytest settings. ``MUTANTS`` are plausible simplifications of the fix: each
applied to a copy of the patched package must fail the test, or the test does not pin the fix.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ..lab import paths
from ..lab.releases import driven
from ..lab.releases.driven import SdkTestRun as SdkTestRun
from .packages import RELEASES

SDK_TEST = paths.ROOT / "langchain" / "sdk-test"
REGRESSION_TEST = (
    SDK_TEST
    / "tests/unit_tests/agents/middleware/implementations/test_human_in_the_loop_new_message.py"
)
TOOLS = ("pytest",)
TIMEOUT = 600.0
FIXED = "langchain/agents/middleware/human_in_the_loop.py"  # the file the fix changes
# Each mutant: its name, then a text of the fixed file and what it becomes.
MUTANTS: tuple[tuple[str, str, str], ...] = (
    (
        "answers put after the new message, not right after their AI message",
        "        if len(patched) == len(messages):\n",
        "        patched = [m for m in patched if m in messages] + [\n"
        "            m for m in patched if m not in messages\n"
        "        ]\n"
        "        if len(patched) == len(messages):\n",
    ),
    (
        "only the reviewed tools' calls answered",
        '                if call["id"] not in answered\n',
        '                if call["id"] not in answered and call["name"] in self.interrupt_on\n',
    ),
    (
        "the answers added to the history instead of rewriting it",
        '        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *patched]}\n',
        '        return {"messages": [m for m in patched if m not in messages]}\n',
    ),
    (
        "no hook: before_agent answers nothing",
        '        messages = state["messages"]\n        answered =',
        '        return None\n        messages = state["messages"]\n        answered =',
    ),
)


def run_sdk_test(python: Path, overlay: Path | None = None) -> SdkTestRun:
    """Run the regression test with ``python`` (a release's, or a patched one's); ``overlay``:
    a folder whose ``langchain`` package is imported instead of the environment's."""
    label = "the langchain regression test"
    cases = driven.run_sdk_test(
        RELEASES, python, REGRESSION_TEST, SDK_TEST, TOOLS, label, overlay, TIMEOUT
    )
    return SdkTestRun.of(cases, lambda name: name.partition("[")[2].rstrip("]"))  # its ids


def run_mutants(python: Path) -> dict[str, SdkTestRun]:
    """Each mutant of the fix (on the patched environment ``python``), the test's outcome."""
    site = next(python.parent.parent.glob("lib/python*/site-packages"))
    found = {}
    for name, before, after in MUTANTS:
        with tempfile.TemporaryDirectory(prefix="approval-compaction-mutant-") as scratch:
            shutil.copytree(site / "langchain", Path(scratch) / "langchain")
            target = Path(scratch) / FIXED
            text = target.read_text()
            if before not in text:
                raise ValueError(f"mutant {name!r}: its text is not in the fixed file")
            target.write_text(text.replace(before, after, 1))
            found[name] = run_sdk_test(python, Path(scratch))
    return found
