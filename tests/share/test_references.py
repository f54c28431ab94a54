"""Cross-references: a page that sends the reader elsewhere names the page that holds it.

Checked over every published page (the README, docs/, the report and the upstream comments), the
prose of every notebook, and the package's own sentences (a reason recorded in data/ comes from
them): a reference to a part of the README names a part it has, each named reference elsewhere
leads to a page that holds what it names, and the references that once pointed to the wrong page
are gone.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from approval_compaction.lab import paths
from approval_compaction.lab.share.readme import pages

PASTED = (paths.DATA_FILES.report, paths.DATA_FILES.snippet, paths.DATA_FILES.upstream_liveness)
NOTEBOOKS = sorted(paths.NOTEBOOKS.glob("*.ipynb"))
SOURCES = sorted((paths.ROOT / "src").rglob("*.py"))

# What "the README's ..." may name, with the text in the README that shows it is there.
README_PARTS = {
    "answers": "## Answers",
    "answers block": "<!-- answers:start -->",
    "notebook table": "<!-- notebooks:start -->",
    "liveness table": "<!-- liveness:start -->",  # 05 (r22): what later turns meet per release
    # issue 61's vocabulary names the one test of ours this way
    "regression": "tests/sdk_regression/test_compaction_pending_approval.py",
}
# Named references to other pages: (the words used, the page they name, what that page holds).
CLAIMS = [
    ("the rules `docs/wire.md` lists", paths.DOCS / "wire.md", "<!-- rules:start -->"),
    (
        'under "What `serve` bounds" in [wire.md]',
        paths.DOCS / "wire.md",
        "**What `serve` bounds.**",
    ),
    ('docs/liveness.md, "A late resume"', paths.DOCS / "liveness.md", "*A late resume.*"),
    ("the last table of [the README's answers]", paths.README, "## Answers"),
]
# Pointers that named the wrong page (issue 43), never to come back.
STALE = ("the README's table of rules", "the README's command table", "README, the design space")


def texts(sources: bool = True) -> dict[str, str]:
    """Every text a reader follows, its lines joined: published pages, notebook prose, and the
    package's sources (unless ``sources`` is false)."""
    found = {page.name: page.read_text() for page in (*pages(), *PASTED)}
    for path in NOTEBOOKS:
        cells = nbformat.read(path, as_version=4).cells
        found[path.name] = "\n".join(c.source for c in cells if c.cell_type == "markdown")
    if sources:
        found.update({str(path.relative_to(paths.ROOT)): path.read_text() for path in SOURCES})
    return {name: " ".join(text.split()) for name, text in found.items()}


def test_references_to_the_readme_name_a_part_it_has() -> None:
    readme = paths.README.read_text()
    named = {
        (name, match.group(1))
        for name, text in texts(sources=False).items()
        for match in re.finditer(r"the README's ([a-z]+(?: block| table)?)\b", text)
        if match.group(1) not in ("and",)
    }
    unknown = sorted((name, part) for name, part in named if part not in README_PARTS)
    assert unknown == []
    assert all(README_PARTS[part] in readme for _, part in named)


@pytest.mark.parametrize(("words", "page", "holds"), CLAIMS, ids=[c[0][:30] for c in CLAIMS])
def test_references_lead_to_the_page_that_holds_them(words: str, page: Path, holds: str) -> None:
    assert any(words in text for text in texts().values()), f"nothing says {words!r} any more"
    assert holds in page.read_text()


def test_references_that_named_the_wrong_page_are_gone() -> None:
    found = [(name, stale) for name, text in texts().items() for stale in STALE if stale in text]
    assert found == []


@pytest.mark.parametrize("page", PASTED, ids=lambda p: p.name)
def test_references_in_a_pasted_comment_hold_outside_the_clone(page: Path) -> None:
    """A comment pasted into a thread links by absolute URL only, points to no file of this
    repository by its path, and carries no instruction meant for the person pasting it."""
    from approval_compaction.lab.share.render import relative_links

    text = page.read_text()
    assert relative_links(text) == []
    assert re.findall(r"`(?:data|docs|notebooks)/[^`]*`", text) == []
    assert re.search(r"drag|from the clone|attach \S+ here", text, re.I) is None


def test_references_the_readme_and_the_report_link_the_upstream_issue() -> None:
    issue = "https://github.com/openai/openai-agents-python/issues/5340"
    assert issue in paths.README.read_text() and issue in paths.DATA_FILES.report.read_text()
