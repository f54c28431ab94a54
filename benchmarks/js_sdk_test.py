"""The regression test's run time: js/sdk-test (vitest, 32 tests) against the pinned
@openai/agents, one vitest process per run; the first run is a warm-up and is not counted.

    .venv/bin/python benchmarks/js_sdk_test.py [runs]
"""

from __future__ import annotations

import os
import statistics
import sys

from approval_compaction.lab.js.sdk_test import run_sdk_test

# Measured as a user runs it: bytecode caches written and reused.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def main(runs: int) -> None:
    first = run_sdk_test()
    print(f"cold: {first.seconds:.2f} s ({first.tests} tests, {first.failed} failed)")
    warm = [run_sdk_test().seconds for _ in range(runs)]
    print(f"warm: median {statistics.median(warm):.2f} s over {runs} runs "
          f"(min {min(warm):.2f}, max {max(warm):.2f})")  # fmt: skip


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
