"""Mutants (Python): the plausible simplifications of the liveness patch
(``paths.LIVENESS_PATCH``), each run against its regression test (``paths.LIVENESS_TEST``).

Each mutant edits the patched SDK's ``agents/`` as the patch's scratch environment has it, in
a copy put first on the interpreter's path (an overlay: the environment stays as it was made);
a mutant is killed when a case of the regression test that passes on the patched SDK fails.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ...formats.records import write_records
from .. import paths
from ..mutation import Mutant, MutantRecord, MutationError, mutate, record
from . import environments
from .crosscheck import INI, TEST_TIMEOUT_SECONDS, TOOLS, TOOLS_FOLDER
from .later_turns_patch import the_patch
from .patched import patched_environment, site_packages

SESSION = Path("agents") / "memory" / "openai_responses_compaction_session.py"
PERSISTENCE = Path("agents") / "run_internal" / "session_persistence.py"
PATCH = paths.LIVENESS_PATCH.name

_MCP = "            matched_items = _after_unanswered_mcp_request(matched_items)\n"
_COMPACTION_START = (
    '    if not (isinstance(item, dict) and item.get("type") == "compaction"):\n'
    "        return False\n"
)
_REASONING = '    return not (isinstance(before, dict) and before.get("type") == "reasoning")\n'
_PRUNE = (
    "            pruned_history = resolved_settings.limit is not None or (\n"
    "                is_openai_responses_compaction_aware_session(session)\n"
    "            )\n"
)
_ANSWERED = '        if isinstance(item, dict) and item.get("type") == "mcp_approval_response"\n'

# (file, mutant): each edit applies to the one file named.
MUTANTS: tuple[tuple[Path, Mutant], ...] = (
    (
        SESSION,
        Mutant(
            PATCH,
            "mcp-replaced",
            "an unanswered hosted MCP approval request is replaced with the rest",
            ((_MCP, ""),),
            killer="mcp_abandoned",
        ),
    ),
    (
        SESSION,
        Mutant(
            PATCH,
            "users-only",
            "a replaced suffix starts at a user message only, never at a compaction item",
            ((_COMPACTION_START, "    return False\n"),),
            killer="abandoned-summary_only",
        ),
    ),
    (
        SESSION,
        Mutant(
            PATCH,
            "reasoning-ignored",
            "a compaction item starts a suffix even right after a reasoning item",
            ((_REASONING, "    return True\n"),),
            killer="test_compaction_keeps_reasoning_with_its_following_item",
        ),
    ),
    (
        SESSION,
        Mutant(
            PATCH,
            "every-request-kept",
            "every hosted MCP approval request is kept, answered or not",
            ((_ANSWERED, "        if False\n"),),
            killer="test_abandoned_approval_resumed_later_stays_paired[mcp-",
        ),
    ),
    (
        PERSISTENCE,
        Mutant(
            PATCH,
            "orphans-sent",
            "a stored output whose call is gone is still sent (no pruning)",
            ((_PRUNE, "            pruned_history = resolved_settings.limit is not None\n"),),
            killer="poisoned",
        ),
    ),
)


def _run(env: environments.Environment, tools: Path, overlay: Path | None) -> tuple[list[str], int]:
    """The regression test's cases that fail with ``env`` (``overlay`` first on the path)."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-liveness-mutant-") as scratch:
        folder = Path(scratch)
        shutil.copy(paths.LIVENESS_TEST, folder / paths.LIVENESS_TEST.name)
        (folder / "pytest.ini").write_text(INI)
        variables = environments.isolated_environ(tools=tools)
        if overlay is not None:
            variables["PYTHONPATH"] = f"{overlay}:{variables['PYTHONPATH']}"
        cases = environments.run_pytest(
            env.python,
            [paths.LIVENESS_TEST.name, "--runxfail"],
            cwd=folder,
            env=variables,
            timeout=TEST_TIMEOUT_SECONDS,
            report=folder / "junit.xml",
            label="the liveness regression test",
        )
    return sorted(c.name for c in cases if c.outcome != "passed"), len(cases)


def run_mutants(
    mutants: Sequence[tuple[Path, Mutant]] = MUTANTS,
) -> list[MutantRecord]:
    """Every mutant against the regression test, after the patched SDK passes it."""
    env = patched_environment(the_patch())
    tools = environments.install_tools(environments.default_envs() / TOOLS_FOLDER, TOOLS)
    failing, _ = _run(env, tools, None)
    if failing:
        raise MutationError(f"{PATCH}: {len(failing)} regression cases fail unmutated")
    site = site_packages(env.folder)
    records = []
    with tempfile.TemporaryDirectory(prefix="approval-compaction-liveness-mutants-") as scratch:
        for file, mutant in mutants:
            overlay = Path(scratch) / mutant.name
            shutil.copytree(site / "agents", overlay / "agents")
            path = overlay / file
            path.write_text(mutate(path.read_text(), mutant.edits, mutant.name))
            failing, total = _run(env, tools, overlay)
            records.append(record(mutant, total, failing))
    return records


def write_mutants(folder: Path = paths.DATA) -> list[Path]:
    """The liveness patch's mutants (``liveness-mutants.json``)."""
    return write_records(paths.data(folder).liveness_mutants, run_mutants(), MutantRecord)


def command(args: argparse.Namespace) -> int:
    """``liveness-mutants``: write the mutants' file (survivors are listed in it, as data)."""
    for path in write_mutants(Path(args.folder)):
        print(f"wrote {path}")
    return 0
