"""How the notebooks read: median lines per code cell and characters a reader scrolls through.

For each notebook: its code cells, their median line count, the characters of its markdown cells
(the prose), and the characters of its rendered markdown (`data/rendered/NN-name.md`: prose and
outputs), in all and as a reader sees it before unfolding any ``<details>`` (a full table folded
under a cut one counts only in the first). `--rev REV` measures a git revision instead of the
working tree, so a change can be set against what came before it:

    python benchmarks/notebook_shape.py --rev ff04b3b
    python benchmarks/notebook_shape.py
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FOLDED = re.compile(r"<details>.*?</details>", re.S)


def _read(path: str, rev: str | None) -> str | None:
    """The file's text in the working tree, or at ``rev``; None when it does not exist there."""
    if rev is None:
        file = ROOT / path
        return file.read_text() if file.is_file() else None
    shown = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return shown.stdout if shown.returncode == 0 else None


def _names(rev: str | None) -> list[str]:
    """The notebooks' file names at ``rev`` (or in the working tree), in reading order."""
    listed = subprocess.run(
        ["git", "ls-tree", "--name-only", rev, "notebooks/"] if rev else ["git", "ls-files"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if rev is None:
        return sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
    return sorted(Path(p).name for p in listed if p.endswith(".ipynb"))


def _shape(notebook: dict[str, Any]) -> tuple[int, float, int]:
    """Code cells, their median line count, and the characters of the markdown cells."""
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    lines = [len("".join(c["source"]).splitlines()) for c in code]
    prose = sum(
        len("".join(c["source"])) for c in notebook["cells"] if c["cell_type"] == "markdown"
    )
    return len(code), statistics.median(lines) if lines else 0.0, prose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", help="a git revision to measure instead of the working tree")
    rev = parser.parse_args().rev
    print(
        f"{'notebook':30s} {'code cells':>10s} {'median lines':>12s} {'prose chars':>11s} "
        f"{'rendered md chars':>17s} {'unfolded':>9s}"
    )
    all_lines: list[int] = []
    for name in _names(rev):
        text = _read(f"notebooks/{name}", rev)
        if text is None:
            continue
        notebook = json.loads(text)
        cells, median, prose = _shape(notebook)
        all_lines += [
            len("".join(c["source"]).splitlines())
            for c in notebook["cells"]
            if c["cell_type"] == "code"
        ]
        rendered = _read(f"data/rendered/{Path(name).stem}.md", rev)
        size = len(rendered) if rendered is not None else 0
        visible = len(FOLDED.sub("", rendered)) if rendered is not None else 0
        print(f"{name:30s} {cells:10d} {median:12.1f} {prose:11d} {size:17d} {visible:9d}")
    print(f"{'all code cells':30s} {len(all_lines):10d} {statistics.median(all_lines):12.1f}")


if __name__ == "__main__":
    main()
