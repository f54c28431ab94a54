"""The regression tests' run time: each file of js/sdk-test (vitest) against the pinned
@openai/agents and against the package its patch fixes, one vitest process per run; the first
run of each is a warm-up and is not counted.

    .venv/bin/python benchmarks/js_sdk_test.py [runs]
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

from approval_compaction import paths
from approval_compaction.js.patched import patched_folder
from approval_compaction.js.sdk_test import JS_REGRESSION_TEST, JS_STALL_TEST, run_sdk_test

# Measured as a user runs it: bytecode caches written and reused.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
FIX = paths.ROOT / "js" / "fix"
# Each test, with the patch that makes it pass.
TESTS = {
    JS_REGRESSION_TEST: FIX / "agents-openai-0.20.0.diff",
    JS_STALL_TEST: FIX / "agents-openai-0.20.0-stall.diff",
}


def measure(test: Path, package: Path, runs: int, label: str) -> None:
    first = run_sdk_test(package, test)
    warm = [run_sdk_test(package, test).seconds for _ in range(runs)]
    print(f"{test.name} on {label}: cold {first.seconds:.2f} s; warm median "
          f"{statistics.median(warm):.2f} s over {runs} runs (min {min(warm):.2f}, "
          f"max {max(warm):.2f}); {first.tests} tests, {first.failed} failed")  # fmt: skip


def main(runs: int) -> None:
    for test, patch in TESTS.items():
        measure(test, paths.ROOT, runs, "the pinned release")
        measure(test, patched_folder(patch), runs, patch.name)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
