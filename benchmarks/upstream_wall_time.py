"""Wall time of ``upstream-suite``: cold (a fresh checkout folder) and warm (the same again).

Cold fetches the release's sdist with pip and runs its Makefile's ``uv sync`` (uv's own package
cache is left as it is: a machine that never synced the SDK also downloads its packages), checks
the upstream-form test with the release's ruff and pyright, and runs the selection both ways.
Warm reuses the checkout and its environment. The default selection is the two files of the
compaction session's own tests, so that the figures show the setup cost; ``--select REGEX``
picks others, and ``--select ''`` the command's full selection (about half an hour per release
on two shared cores).

    .venv/bin/python benchmarks/upstream_wall_time.py [--release 0.23.1] [--select REGEX]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_SELECT = r"class TestOpenAIResponsesCompactionSession|def test_compaction_session"


def timed_run(release: str, root: Path, select: str | None) -> float:
    command = [sys.executable, "-m", "approval_compaction", "upstream-suite", "--fix"]
    command += ["--release", release, "--root", str(root)]
    if select:
        command += ["--select", select]
    start = time.monotonic()
    subprocess.run(command, check=False, capture_output=True, text=True)
    return time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--release", default="0.23.1")
    parser.add_argument("--select", default=DEFAULT_SELECT)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="upstream-wall-") as scratch:
        cold = timed_run(args.release, Path(scratch), args.select or None)
        warm = timed_run(args.release, Path(scratch), args.select or None)
    print(f"upstream-suite {args.release} --fix, selection {args.select or 'default'!r}:")
    print(f"  cold {cold:7.0f} s  (sdist download, make sync, checks, both runs)")
    print(f"  warm {warm:7.0f} s  (checks and both runs)")


if __name__ == "__main__":
    main()
