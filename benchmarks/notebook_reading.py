"""How soon a notebook teaches: characters rendered, words before its first table, paragraphs
over 80 words, and terms used before their definition.

For each notebook: the characters of its rendered markdown (`data/rendered/NN-name.md`, prose
and outputs; the limit is about 25,000), the words of prose (markdown cells) a reader meets before
the first table an output shows (a DataFrame, or a markdown table), how many paragraphs of its
prose hold more than 80 words, and the words only this project gives a meaning that its prose
uses before it defines them in italics (`approval_compaction.lab.share.reading.TERMS`), whether
its first cell asks a prediction before its answer, and how many kinds of noise its page shows
(`reading.defects`: untitled tables, row numbers, dtype lines, figure notes, ...). The
measures are the package's (`lab/share/reading.py`), the ones `tests/share/test_reading.py`
holds every notebook to. `--rev REV` measures a git revision instead of the working tree, so a
change can be set against what came before it:

    python benchmarks/notebook_reading.py --rev c7e0b0f
    python benchmarks/notebook_reading.py
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

from approval_compaction.lab.share.reading import defects, predicts_first, reading, screen_line

ROOT = Path(__file__).resolve().parents[1]


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", help="a git revision to measure instead of the working tree")
    rev = parser.parse_args().rev
    print(
        "| notebook | rendered chars | words before first table | paragraphs over 80 words "
        "| terms before definition | predicts first | noise | answer at line | action at line |"
        "\n|---|---:|---:|---:|---|---|---:|---:|---:|"
    )
    for name in _names(rev):
        text = _read(f"notebooks/{name}", rev)
        if text is None:
            continue
        rendered = _read(f"data/rendered/{Path(name).stem}.md", rev) or ""
        found = reading(name, json.loads(text), rendered)
        terms = ", ".join(found.undefined_terms) or "none"
        first = "yes" if predicts_first(json.loads(text)) else "no"
        print(
            f"| {name} | {found.rendered} | {found.words_before_table} "
            f"| {len(found.long_paragraphs)} | {len(found.undefined_terms)}: {terms} "
            f"| {first} | {len(defects(rendered))} | {screen_line(rendered, '**Answer')} "
            f"| {screen_line(rendered, '**What to do')} |"
        )


if __name__ == "__main__":
    main()
