"""Command: ``explore`` runs a search and writes its data; ``explore replay FILE`` reruns one.

Without ``--release`` the search runs here, on the installed (pinned) release. With it, the
search runs in that release's own environment (``releases.environments``, created if needed):
its interpreter runs ``python -m approval_compaction.lab.explore.search`` with this project's source
folder on ``PYTHONPATH``, and hypothesis (which that environment lacks) from one shared folder
installed once with uv, as the crosscheck does for pytest. With ``--patch``/``--sdk`` it runs
the same way in the patched SDK's scratch environment (``releases.patched``): the result carries
the patch's label and is written beside that environment unless ``--folder`` says where.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys
from dataclasses import asdict, replace
from pathlib import Path

from ...errors import InvestigationError
from .. import paths
from ..mechanism.catalogue import PINNED
from ..releases import environments
from ..releases.patched import from_namespace, patched_environment, results_folder
from .replay import load, package_of, save_result, text
from .search import Finding, Options, Progress, SearchResult, rerun, search

SEARCH_MODULE = "approval_compaction.lab.explore.search"
SEARCH_TIMEOUT_SECONDS = 3600
TOOLS_FOLDER = "explore-tools"
DATABASE_FOLDER = "explore-database"
PROGRESS_PREFIX = "explore "  # how each of the search's progress lines starts (``Progress``)


def cache_folder() -> Path:
    """Beside the release environments, in the user's cache (not in git)."""
    return environments.default_envs().parent


def relay_progress(line: str) -> None:
    """A line of the release's search on its stderr: its progress lines go on to ours."""
    if line.startswith(PROGRESS_PREFIX):
        print(line, file=sys.stderr, flush=True)


def in_release(
    version: str, options: Options, env: environments.Environment | None = None
) -> SearchResult:
    """Run one search with the release's own interpreter (or ``env``'s, a patched copy); its
    JSON result comes back."""
    env = env or environments.release_environment(version, environments.default_envs())
    tools = environments.install_tools(cache_folder() / TOOLS_FOLDER, ("hypothesis",))
    found = environments.run_module(
        env.python,
        SEARCH_MODULE,
        "--options",
        json.dumps(asdict(options)),
        timeout=SEARCH_TIMEOUT_SECONDS,
        tools=tools,
        label=f"{version}: the search",
        relay=relay_progress,
    )
    return SearchResult.from_json(found)


def explore_driver(args: argparse.Namespace) -> int:
    """``explore --driver SDK``: the search on a driver, on each release ``--release`` names
    (``pinned``, ``newest``, versions, comma-separated; one search for a release named twice),
    or on the pinned one with ``--patch``; its data under ``data/`` (``--folder``)."""
    from .driven import search as driven_search
    from .sdks import driven

    line = driven(args.driver)
    patches = list(getattr(args, "patch", None) or [])
    if len(patches) > 1:
        raise InvestigationError("a driver's search takes one --patch")
    options = Options(examples=args.examples, seed=args.seed, rounds=args.rounds)
    words = (args.release or "pinned").split(",")
    releases = list(dict.fromkeys(line.release(word) for word in words))  # pinned may be newest
    for release in [""] if patches else releases:
        driver = line.patched(Path(patches[0])) if patches else line.open(release)
        try:
            label = f"{line.moves.package} {driver.version}"
            result = driven_search(line.moves, driver, options, Progress(label))
        finally:
            driver.close()
        print(describe(result))
        folder = Path(args.folder) if args.folder else paths.DATA
        for path in save_result(result, folder):
            shown = path.relative_to(paths.ROOT) if path.is_relative_to(paths.ROOT) else path
            print(f"wrote {shown}")
    return 0


def explore(args: argparse.Namespace) -> int:
    if getattr(args, "driver", None):
        return explore_driver(args)

    database = str(cache_folder() / DATABASE_FOLDER) if args.database else None
    options = Options(
        examples=args.examples,
        seed=args.seed,
        fix=args.fix,
        rounds=args.rounds,
        kinds=tuple(k for k in (args.kinds or "").split(",") if k),
        boundaries=tuple(b for b in args.boundaries.split(",") if b),
        database=database,
        first=tuple(a for a in (args.first or "").split(",") if a),
    )

    installed = importlib.metadata.version("openai-agents")
    patched = from_namespace(args, PINNED)
    if patched is not None:
        options = replace(options, patch=patched.label)
        result = in_release(patched.base, options, patched_environment(patched))
    elif args.release and args.release != installed:
        result = in_release(args.release, options)
    else:
        result = search(options, Progress(installed + (" with the workaround" if args.fix else "")))
    print(describe(result))
    default = results_folder(patched) if patched is not None else paths.DATA
    folder = Path(args.folder) if args.folder else default
    for path in save_result(result, folder):
        shown = path.relative_to(paths.ROOT) if path.is_relative_to(paths.ROOT) else path
        print(f"wrote {shown}")
    return 0


def describe(result: SearchResult) -> str:
    """A few lines: what was searched, what was found, what holds."""
    fix = " with the workaround" if result.fix else ""
    fix += f" with {result.patch}" if result.patch else ""
    package = package_of(result.sdk)
    lines = [
        f"{package} {result.sdk_version}{fix}: {result.tally.get('examples', 0)} examples, "
        f"{result.tally.get('steps', 0)} steps in {result.rounds} rounds (seed {result.seed})"
    ]
    for kind, why in sorted(result.skipped.items()):
        lines.append(f"  skipped {kind}: {why}")
    for finding in result.findings:
        pairs = ", ".join(f"{i} ({k})" for i, k in finding.pairs)
        label = "known" if finding.label == "known" else "NEW"
        lines.append(f"  {label} {finding.name}: {pairs} in {len(finding.trace.records)} steps")
    if result.exhausted:
        lines.append(f"  holds: {', '.join(result.holds) or 'nothing'}")
    else:
        lines.append(
            f"  stopped after {result.rounds} rounds: the rest was not searched to the end"
        )
    return "\n".join(lines)


def replay_driver(finding: Finding, saved: bool) -> int:
    """A driver's counterexample run again on the release it was found on (or as saved)."""
    from .driven import Drive, rerun
    from .rules import Setup
    from .sdks import driven

    line = driven(finding.trace.conversation.sdk)
    again = None
    if not saved:
        found = finding.trace.sdk_version
        base, _, patch = found.partition("+")
        fixes = {p.name: p for p in (paths.ROOT / line.moves.short / "fix").glob("*.diff")}
        driver = line.patched(fixes[patch]) if patch in fixes else line.open(base)
        try:
            again = rerun(Drive(line.moves, driver, Setup(())), finding.trace.conversation)
        finally:
            driver.close()
    print(text(finding, again))
    return 0


def replay(args: argparse.Namespace) -> int:

    finding = load(Path(args.file))
    if finding.trace.conversation.sdk:
        return replay_driver(finding, args.saved)
    installed = importlib.metadata.version("openai-agents")
    again = None if args.saved else rerun(finding.trace.conversation)
    if again is None and finding.trace.sdk_version != installed:
        print(f"(as found on {finding.trace.sdk_version}; installed is {installed})")
    print(text(finding, again))
    return 0


def command(args: argparse.Namespace) -> int:
    return replay(args) if getattr(args, "file", None) else explore(args)
