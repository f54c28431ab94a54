"""Front page: how long each published file takes to read, and how soon it answers.

For the README and each comment the project publishes (the report, the snippets, the rendered
notebooks), prints the characters, the words, the reading time at 238 words a minute, the line
and character where the first answer appears (an error text the API returns, or the fixing
release), the longest paragraph or bullet in words, and the coined terms used before their
definition. Then, for each SDK, the reading distance to its workaround: the fewest characters a
reader goes through from the README's top to the line of code a team pastes (the wrap of its
session), following the repository's relative links (each page read up to the link it follows,
the last up to the code). ``--ref REV`` reads the files as committed at that revision (``--ref
main`` gives the figures before a change).

    .venv/bin/python benchmarks/front_page.py [--ref main]
"""

from __future__ import annotations

import argparse
import heapq
import posixpath
import re
import subprocess
from pathlib import Path

from approval_compaction.formats.markdown import paragraphs
from approval_compaction.lab.share.reading import undefined_terms

ROOT = Path(__file__).resolve().parent.parent
FILES = (
    "README.md",
    "data/report.md",
    "data/upstream-snippet.md",
    "data/upstream-liveness.md",
    *(f"data/rendered/{p.stem}.md" for p in sorted((ROOT / "notebooks").glob("*.ipynb"))),
)
WPM = 238
ANSWERS = ("No tool output found", "No tool call found", "0.24.0")
# The line of code a team pastes from each SDK's workaround: the wrap of its compaction session.
PASTE = {
    "openai-agents": "defer_compaction_while_pending(OpenAIResponsesCompactionSession",
    "@openai/agents": "deferCompactionWhilePending(new OpenAIResponsesCompactionSession",
}
IMAGES = (".png", ".svg", ".jpg", ".gif")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def links(page: str, text: str) -> list[tuple[int, str]]:
    """Each relative link of a page: where it is, and the repository path it names."""
    found = []
    for match in LINK.finditer(text):
        target = match.group(1)
        if "://" in target or target.startswith("mailto:") or target.endswith(IMAGES):
            continue
        found.append(
            (match.start(), posixpath.normpath(posixpath.join(posixpath.dirname(page), target)))
        )
    return found


def distance(code: str, ref: str | None) -> tuple[int, list[str]] | None:
    """The fewest characters read from the README's top to ``code``, and the pages read."""
    best: dict[str, int] = {"README.md": 0}
    queue: list[tuple[int, str, list[str]]] = [(0, "README.md", ["README.md"])]
    found: tuple[int, list[str]] | None = None
    while queue:
        read_so_far, page, route = heapq.heappop(queue)
        if found is not None and read_so_far >= found[0]:
            break
        text = read(page, ref)
        if text is None:
            continue
        at = text.find(code)
        if at >= 0 and (found is None or read_so_far + at < found[0]):
            found = (read_so_far + at, route)
        for offset, target in links(page, text):
            cost = read_so_far + offset
            if cost < best.get(target, cost + 1):
                best[target] = cost
                heapq.heappush(queue, (cost, target, [*route, target]))
    return found


def read(path: str, ref: str | None) -> str | None:
    if ref is None:
        file = ROOT / path
        return file.read_text() if file.is_file() else None
    done = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{ref}:{path}"], capture_output=True, text=True
    )
    return done.stdout if done.returncode == 0 else None


def first_answer(text: str) -> tuple[int, int] | None:
    hits = [text.find(a) for a in ANSWERS if a in text]
    if not hits:
        return None
    at = min(hits)
    return text.count("\n", 0, at) + 1, at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", help="read the files at this git revision")
    args = parser.parse_args()
    head = f"{'file':38} {'chars':>7} {'words':>6} {'min':>4} {'answer at':>14} {'longest':>7}"
    print(f"{head}  undefined")
    for path in FILES:
        text = read(path, args.ref)
        if text is None:
            continue
        words = len(text.split())
        answer = first_answer(text)
        where = f"L{answer[0]} c{answer[1]}" if answer else "none"
        longest = max((len(b.split()) for b in paragraphs(text)), default=0)
        terms = undefined_terms(text)
        print(
            f"{path:38} {len(text):7,} {words:6,} {words / WPM:4.0f} {where:>14} {longest:7}  "
            f"{len(terms)}: {', '.join(terms[:4])}{' ...' if len(terms) > 4 else ''}"
        )
    print(f"\n{'workaround of':16} {'chars read':>10} {'min':>4}  route")
    for sdk, code in PASTE.items():
        found = distance(code, args.ref)
        if found is None:
            print(f"{sdk:16} {'not found':>10}")
            continue
        chars, route = found
        minutes = chars / 6 / WPM  # about six characters a word, spaces included
        print(f"{sdk:16} {chars:10,} {minutes:4.1f}  {' > '.join(route)}")


if __name__ == "__main__":
    main()
