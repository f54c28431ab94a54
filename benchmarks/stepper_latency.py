"""Stepper latency: from a stage click to the stage's tables, with the case's run cached.

Three figures:
1. In the kernel: the stepper's handler for a stage change (the page served from the cache),
   and a new case's run with its four stage pages rendered, in this process.
2. In the browser: JupyterLab and Debian's headless chromium started as the browser test starts
   them, notebook 01 run, then the stage buttons clicked round after round; each click is timed
   in the page's own clock, from the click event until the stage's tables are in the page.
3. The browser test's wall time (``pytest tests/lab``), as a separate process.
Parts 2 and 3 need chromium (``apt-get install -y chromium``); without it they are skipped.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from approval_compaction.lab.share.lab import NOTEBOOK, start_lab
from approval_compaction.openai_agents.harness import run_case
from approval_compaction.openai_agents.widget import Stepper
from approval_compaction.study.capture import STAGES
from approval_compaction.study.scenario import Case
from approval_compaction.testing import browser

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 20
BROWSER_ROUNDS = 10
SETTINGS = {"@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def figures(label: str, seconds: list[float]) -> None:
    ms = sorted(s * 1000 for s in seconds)
    p90 = ms[min(len(ms) - 1, round(0.9 * (len(ms) - 1)))]
    print(
        f"{label:<38} median {statistics.median(ms):8.2f} ms   p90 {p90:8.2f} ms"
        f"   max {ms[-1]:8.2f} ms   (n={len(ms)})"
    )


def in_kernel() -> None:
    run = run_case(Case())
    stepper = Stepper(run)
    cached = []
    for _ in range(ROUNDS):
        for stage in (*STAGES[1:], STAGES[0]):
            cached.append(timed(lambda s=stage: setattr(stepper.stages, "value", s)))
    new_case = timed(lambda: setattr(stepper.controls["decision"], "value", "reject"))
    print("in the kernel (this process):")
    figures("  stage click, cached page", cached)
    figures("  new case (its run and its 4 pages)", [new_case])


def in_browser(executable: str) -> None:
    with tempfile.TemporaryDirectory(prefix="stepper-bench-") as folder:
        root, home = Path(folder) / "root", Path(folder) / "home"
        root.mkdir()
        home.mkdir()
        shutil.copy(ROOT / NOTEBOOK, root)
        started = time.perf_counter()
        server = start_lab(root, home, settings=SETTINGS)
        try:
            ready = time.perf_counter() - started
            with browser.chromium(executable) as chromium:
                page = browser.open_notebook(chromium, server.page(Path(NOTEBOOK).name))
                opened = time.perf_counter() - started - ready
                ran = browser.run_all(page)
                page.locator(browser.STEPPER).wait_for(state="visible")
                clicks = [
                    browser.click_stage(page, stage)
                    for _ in range(BROWSER_ROUNDS)
                    for stage in (*STAGES[1:], STAGES[0])
                ]
        finally:
            server.stop()
    print("in the browser (JupyterLab, headless chromium):")
    print(f"  JupyterLab answering                 {ready:8.1f} s")
    print(f"  notebook open, kernel idle           {opened:8.1f} s")
    print(f"  Run All Cells                        {ran:8.1f} s")
    figures("  stage click to tables, cached run", clicks)


def browser_test() -> None:
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/lab"]
    start = time.perf_counter()
    result = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False
    )
    wall = time.perf_counter() - start
    last = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else "(no output)"
    print("the browser test (pytest tests/lab):")
    print(f"  wall time                            {wall:8.1f} s   ({last})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-test", action="store_true", help="skip timing the browser test")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores; the figures vary with its load")
    in_kernel()
    executable = browser.chromium_path()
    if executable is None:
        print("chromium is not installed: the browser figures are skipped")
        return
    in_browser(executable)
    if not args.no_test:
        browser_test()


if __name__ == "__main__":
    main()
