"""How soon a notebook teaches: characters rendered, words before its first table, jargon used.

For each notebook: the characters of its rendered markdown (`data/rendered/NN-name.md`, prose
and outputs), the words of prose (markdown cells) a reader meets before the first table an output
shows (a DataFrame, or a markdown table), and how often its rendered page (prose and outputs, code
left out) uses a word only this project gives a meaning (`TERMS`), in all and before its first
`## Aside:` heading (the lesson). `--rev REV`
measures a git revision instead of the working tree, so a change can be set against what came
before it:

    python benchmarks/notebook_reading.py --rev c7e0b0f
    python benchmarks/notebook_reading.py
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Words with a meaning only here: the explorer's and the liveness grid's labels, the search's and
# the ablation's internals. A reader meets them in no SDK or API documentation.
TERMS = (
    "lenient",
    "world",
    "era",
    "pin",
    "STUCK",
    "UNPAIRED",
    "ddmin",
    "ablation",
    "generation",
    "ownership gate",
    "catalogue",
    "hunk",
    "widened",
)
TERM = re.compile(r"\b(" + "|".join(re.escape(t) for t in TERMS) + r")s?\b")
CODE = re.compile(r"^```.*?^```", re.S | re.M)
TABLE = re.compile(r"<table|^\|.*\|\s*$\n^\|[-| :]+\|\s*$", re.M)


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
    if rev is None:
        return sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
    listed = subprocess.run(
        ["git", "ls-tree", "--name-only", rev, "notebooks/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return sorted(Path(p).name for p in listed if p.endswith(".ipynb"))


def _shows_table(cell: dict[str, Any]) -> bool:
    """Whether a code cell's outputs show a table (HTML or markdown)."""
    for output in cell.get("outputs", []):
        for kind in ("text/html", "text/markdown"):
            if TABLE.search("".join(output.get("data", {}).get(kind, ""))):
                return True
    return False


def _words_before_table(notebook: dict[str, Any]) -> int:
    """The words of the markdown cells before the first output that shows a table."""
    words = 0
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code" and _shows_table(cell):
            break
        if cell["cell_type"] == "markdown":
            words += len("".join(cell["source"]).split())
    return words


def _terms(rendered: str) -> tuple[int, int]:
    """Project terms on the rendered page, code left out: in all, and before any aside."""
    text = CODE.sub("", rendered)
    lesson = text.split("\n## Aside:", 1)[0]
    return len(TERM.findall(text)), len(TERM.findall(lesson))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", help="a git revision to measure instead of the working tree")
    rev = parser.parse_args().rev
    print(
        f"{'notebook':36s} {'rendered chars':>14s} {'words before table':>18s} "
        f"{'project terms':>13s} {'in the lesson':>13s}"
    )
    for name in _names(rev):
        text = _read(f"notebooks/{name}", rev)
        if text is None:
            continue
        words = _words_before_table(json.loads(text))
        rendered = _read(f"data/rendered/{Path(name).stem}.md", rev) or ""
        size = len(rendered)
        terms, lesson = _terms(rendered)
        print(f"{name:36s} {size:14d} {words:18d} {terms:13d} {lesson:13d}")


if __name__ == "__main__":
    main()
