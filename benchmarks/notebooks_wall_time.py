"""Wall time of executing every notebook, as `make run` does, without writing them back."""

from __future__ import annotations

import time

from approval_compaction.lab import paths
from approval_compaction.lab.share.notebooks import execute, notebook_paths


def main() -> None:
    total = 0.0
    for path in notebook_paths(paths.NOTEBOOKS):
        start = time.perf_counter()
        execute(path)
        elapsed = time.perf_counter() - start
        total += elapsed
        print(f"{path.name:32s} {elapsed:6.1f} s")
    print(f"{'all notebooks':32s} {total:6.1f} s")


if __name__ == "__main__":
    main()
