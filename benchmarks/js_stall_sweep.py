"""The stall's sweep against the project's JS sweep: wall and CPU seconds of each over the same
releases, installs warm (``make js-stall`` or ``make js-sweep`` installed them once into the
cache; a release missing there is installed first, untimed). The stall's sweep runs its sixteen
plain conversations per release (two modes, two runners, two triggers, two answer shapes); the
JS sweep its four plans of sixteen cases.

``PYTHONDONTWRITEBYTECODE`` is unset, so Python imports use bytecode caches as a user's do.

    python benchmarks/js_stall_sweep.py [--releases N]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

from approval_compaction import paths
from approval_compaction.js.packages import package_folder, releases


def timed(code: str, env: dict[str, str]) -> tuple[float, float]:
    """A Python snippet's wall and CPU seconds (its children included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=paths.ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--releases", type=int, default=64)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    chosen = releases()[-args.releases :]
    for version in chosen:  # installs are not what is measured
        package_folder(version)
    with tempfile.TemporaryDirectory() as out:
        runs = {
            "js-stall sweep": "from approval_compaction.js.stall import sweep",
            "js-sweep": "from approval_compaction.js.sweep import sweep",
        }
        for name, imported in runs.items():
            code = f"from pathlib import Path; {imported}; sweep({chosen!r}, Path({out!r}))"
            wall, cpu = timed(code, env)
            print(f"{name}, {len(chosen)} releases, installs warm: {wall:.0f} s wall "
                  f"({cpu:.0f} s CPU), {wall / len(chosen):.1f} s a release")  # fmt: skip


if __name__ == "__main__":
    main()
