"""Time to make the release environments that ``make test-all`` needs (``make envs``).

Cold: an empty uv cache and no environment. Warm: uv's cache kept, the environments removed
(what a new clone on a machine that ran the project before pays). Ready: both kept (what every
later ``make test-all`` pays). Each in a scratch cache folder; nothing of the user's is touched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from approval_compaction.lab.mechanism.catalogue import RELEASES


def make_envs(cache: Path) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(XDG_CACHE_HOME=str(cache), UV_CACHE_DIR=str(cache / "uv"))
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "approval_compaction", "envs"],
        env=env,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start


def main() -> None:
    cache = Path(tempfile.mkdtemp(prefix="approval-compaction-envs-"))
    try:
        cold = make_envs(cache)
        shutil.rmtree(cache / "approval-compaction")
        warm = make_envs(cache)
        ready = make_envs(cache)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(f"release environments for {', '.join(RELEASES)}")
    print(f"cold (empty uv cache)       {cold:6.1f} s")
    print(f"warm (uv cache, no envs)    {warm:6.1f} s")
    print(f"ready (both cached)         {ready:6.1f} s")


if __name__ == "__main__":
    main()
