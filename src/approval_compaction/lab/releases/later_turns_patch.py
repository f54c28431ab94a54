"""Liveness patch: the proposed SDK patch for compaction liveness, proven through the patch lab.

The patch (``paths.LIVENESS_PATCH``, against the newest release) is judged four ways, each a
committed result file (``paths.Data``):

- ``liveness_patch_test``: the upstream-form regression test (``paths.LIVENESS_TEST``) on the
  release and on the patched SDK, each by its own interpreter (``--runxfail``: raw outcomes);
- ``liveness_patch_mcp``: the short self-contained test of the bug a fresh session meets (an
  unanswered hosted MCP approval request, ``paths.LIVENESS_MCP_TEST``), the same way;
- ``liveness_patch_suite``: the SDK's own tests that touch compaction or approvals (the
  selection ``upstream-suite`` makes, with the regression test beside them) in the release's
  checkout and in its patched copy, and every test whose outcome differs between the two;
- ``liveness_patch_matrix``: the sixteen cases in the patched SDK (the original bug stays fixed);
- ``liveness_patch_runs``: every liveness situation (``mcp_abandoned`` among them: a hosted MCP
  approval request nobody answered, the user asking something else; ``make explore`` found
  0.24.0 stuck there) and case continued on the patched SDK, through the same ``Worker`` path
  as ``later_turns`` does; the release's own runs are ``later_turns``'s.

Those runs and ``liveness_patch_http`` (each situation over HTTP) run openai-agents: they are
the Python SDK's folder's (its ``liveness_patch``), loaded by name (``sdks.sdk_module``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...analysis.liveness import LivenessRun, broken_runs
from ...formats.records import write_json
from ...sdks import sdk_module
from .. import paths
from . import NEWEST, environments
from .crosscheck import TOOLS, TOOLS_FOLDER, run_file
from .later_turns import LIVENESS_MODEL
from .patched import (
    Patched,
    PatchError,
    from_arguments,
    from_namespace,
    patched_environment,
    patched_matrix,
    results_folder,
)
from .upstream.changes import changes, unreproduced_marked
from .upstream.checkout import (
    LIVENESS_TEST_NAME,
    UPSTREAM_TEST_FOLDER,
    default_root,
    install_upstream_test,
    patched_checkout,
    prepare,
)
from .upstream.command import PINNED
from .upstream.suite import clean_message, run_suite, select_files, summarize

Report = Callable[[str], None]
BASE = NEWEST  # the release the patch is written against
INTENDED = "the liveness regression test: it fails without the patch"
MCP_SITUATION = "mcp_abandoned"
# Not patched: explicit previous_response_id mode with a dead item pinned (a partial suffix)
# stops compaction for good, as the SDK's class docstring says and one of its tests pins.
SESSION_SOURCE = "src/agents/memory/openai_responses_compaction_session.py"
DOCUMENTED_LIMIT = "explicit previous_response_id mode requires complete coverage"
DOCUMENTED_TEST = (
    "tests/memory/test_compaction_suffix.py::test_partial_previous_response_mode_preserves_history"
)


@dataclass(frozen=True)
class TestOutcome:
    """One parametrisation of the regression test on one SDK (``sdk``: ``released``/``patched``)."""

    sdk: str
    test: str
    outcome: str
    message: str


def the_patch(base: str = BASE, patch: Path | None = None) -> Patched:
    """The patched SDK: the liveness patch on ``base``."""
    found = from_arguments([str(patch or paths.LIVENESS_PATCH)], None, base, base)
    assert found is not None
    return found


def run_regression(
    env: environments.Environment, sdk: str, test_file: Path = paths.LIVENESS_TEST
) -> list[TestOutcome]:
    """The regression test by ``env``'s interpreter in a scratch folder, raw outcomes."""

    tools = environments.install_tools(environments.default_envs() / TOOLS_FOLDER, TOOLS)
    cases = run_file(env, tools, test_file, beside=())
    return [TestOutcome(sdk, c.name, c.outcome, clean_message(c.message)[:200]) for c in cases]


def regression_outcomes(patched: Patched, test_file: Path = paths.LIVENESS_TEST) -> dict[str, Any]:
    """The test (``test_file``) on the release and on the patched SDK."""
    released = environments.release_environment(patched.base, environments.default_envs())
    rows = run_regression(released, "released", test_file) + run_regression(
        patched_environment(patched), "patched", test_file
    )
    return {"base": patched.base, "patch": patched.label, "outcomes": [r.__dict__ for r in rows]}


def suite_outcomes(patched: Patched, workers: int = 2, report: Report = print) -> dict[str, Any]:
    """The SDK's selected tests in the release's checkout and in the patched copy: the counts of
    each, and every test whose outcome differs (none is explained in advance but ours)."""

    ours = f"{UPSTREAM_TEST_FOLDER}/{LIVENESS_TEST_NAME}"
    intended = {f"{ours}::": INTENDED}
    runs, outcomes = [], {}
    release = prepare(patched.base, default_root(), report=report)
    checkouts = {"released": release, "patched": patched_checkout(release, patched)}
    for sdk, checkout in checkouts.items():
        install_upstream_test(checkout.folder)
        install_upstream_test(checkout.folder, paths.LIVENESS_TEST, LIVENESS_TEST_NAME)
        files = sorted({*select_files(checkout.folder / "tests"), ours})
        started = time.monotonic()
        found, _ = run_suite(checkout, files, fix=False, workers=workers)
        report(f"{sdk}: {len(found)} tests in {time.monotonic() - started:.0f} s")
        outcomes[sdk] = found
        runs.append({"sdk": sdk, **summarize(patched.base, sdk, len(files), found, 0).__dict__})
    differ = changes(patched.base, outcomes["released"], outcomes["patched"], intended)
    differ = confirm_alone(differ, checkouts)
    before = {o.test: o.outcome for o in outcomes["released"]}
    after = {o.test: o.outcome for o in outcomes["patched"]}
    return {
        "base": patched.base,
        "patch": patched.label,
        "runs": runs,
        "same_outcome": sum(1 for t, o in before.items() if after.get(t) == o),
        "changes": [c.__dict__ for c in differ],
        "documented": documented_limit(checkouts, outcomes),
    }


def documented_limit(checkouts: dict[str, Any], outcomes: dict[str, Any]) -> dict[str, Any]:
    """What the patch leaves alone, on each SDK: whether the class docstring says it
    (``DOCUMENTED_LIMIT``), and the outcomes of the SDK's test that pins it."""
    found = {}
    for sdk, checkout in checkouts.items():
        source = " ".join((checkout.folder / SESSION_SOURCE).read_text().split())
        tests = {o.test: o.outcome for o in outcomes[sdk] if o.test.startswith(DOCUMENTED_TEST)}
        found[sdk] = {"docstring": DOCUMENTED_LIMIT in source, "tests": dict(sorted(tests.items()))}
    return found


def confirm_alone(found: Sequence[Any], checkouts: dict[str, Any]) -> list[Any]:
    """Re-run each unexplained change alone in both checkouts; one that does not recur there
    (a test that timed out while other workers held the cores) keeps its record with the
    re-run's outcomes as its reason."""

    suspects = [c.test for c in found if not c.reason]
    if not suspects:
        return list(found)
    again = {
        sdk: {o.test: o.outcome for o in run_suite(checkout, suspects, fix=False, workers=1)[0]}
        for sdk, checkout in checkouts.items()
    }
    return unreproduced_marked(found, again["released"], again["patched"], "the patch")


def matrix_outcomes(patched: Patched) -> dict[str, Any]:
    """The sixteen cases in the patched SDK, judged as the sweep judges a release."""
    rows = patched_matrix(patched)
    return {"base": patched.base, "patch": patched.label, "records": [r.__dict__ for r in rows]}


PARTS = ("test", "mcp", "suite", "matrix", "liveness", "http")


def write_proofs(
    patched: Patched,
    folder: Path = paths.DATA,
    parts: Sequence[str] = PARTS,
    turns: int = 10,
    report: Report = print,
) -> list[Path]:
    """Each proof's result file under ``folder``."""
    files = paths.data(folder)
    runs = sdk_module("python", "liveness_patch")  # the Python SDK's folder, by name (sdks)
    written = []
    makers: dict[str, tuple[Path, Callable[[], dict[str, Any]]]] = {
        "test": (files.liveness_patch_test, lambda: regression_outcomes(patched)),
        "mcp": (
            files.liveness_patch_mcp,
            lambda: regression_outcomes(patched, paths.LIVENESS_MCP_TEST),
        ),
        "suite": (files.liveness_patch_suite, lambda: suite_outcomes(patched, report=report)),
        "matrix": (files.liveness_patch_matrix, lambda: matrix_outcomes(patched)),
        "liveness": (files.liveness_patch_runs, lambda: runs.patched_liveness(patched, turns)),
        "http": (files.liveness_patch_http, lambda: runs.over_http(patched, turns)),
    }
    for part in parts:
        path, make = makers[part]
        started = time.monotonic()
        write_json(path, make(), indent=1)
        report(f"wrote {path.name} in {time.monotonic() - started:.0f} s")
        written.append(path)
    return written


def command(args: argparse.Namespace) -> int:
    """``liveness-patch``: prove the liveness patch (each part, or those ``--part`` names)."""
    patched = the_patch(args.release or BASE, Path(args.patch) if args.patch else None)
    write_proofs(patched, Path(args.folder), args.part or PARTS, args.turns)
    return 0


def liveness_command(args: argparse.Namespace) -> int:
    """``liveness --patch``/``--sdk``: every situation and case on the patched SDK only, written
    beside its scratch environment unless ``--output`` says where."""

    patched = from_namespace(args, PINNED)
    if patched is None:
        raise PatchError("liveness on a patched SDK needs --patch FILE or --sdk PATH")
    runs = sdk_module("python", "liveness_patch")  # the Python SDK's folder, by name (sdks)
    data = runs.patched_liveness(patched, args.turns, model=getattr(args, "model", LIVENESS_MODEL))
    folder = results_folder(patched)
    output = Path(args.output) if args.output else paths.data(folder).liveness_patch_runs
    output.parent.mkdir(parents=True, exist_ok=True)
    write_json(output, data, indent=1)
    print(f"{patched.describe()}: {liveness_summary(data)}")
    print(f"wrote {output}")
    return 0


def liveness_summary(data: dict[str, Any]) -> str:
    """How many runs keep the session usable and hold both liveness invariants, in one line."""

    runs = [LivenessRun.from_json(r) for r in data["runs"]]
    broken = broken_runs(runs)
    return (
        f"{len(runs) - len(broken)} of {len(runs)} runs keep the session usable and both "
        "liveness invariants"
    )
