"""Render: each executed notebook as HTML and as markdown under ``data/rendered/``.

A reporter links or attaches these in an issue thread. The HTML embeds its images; the markdown
links PNGs written beside it in ``NN-name_files/``. Rendering reads only the notebook and
nbconvert's local templates, so one notebook gives the same bytes every time and nothing is
fetched (the HTML names require.js and MathJax CDN URLs, which only a browser loads). Every file
is written atomically; images a previous render left behind are removed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
from nbconvert import HTMLExporter, MarkdownExporter

from ..formats.files import write_atomic

# pandas puts a <style scoped> block before each HTML table; GitHub's markdown view drops the
# tag but prints the CSS inside it as text, so the markdown leaves it out.
STYLE_BLOCK = re.compile(r"<style scoped>.*?</style>\n?", re.DOTALL)


@dataclass(frozen=True)
class Rendered:
    """The files written for one notebook."""

    html: Path
    markdown: Path
    images: tuple[Path, ...]

    @property
    def paths(self) -> list[Path]:
        return [self.html, self.markdown, *self.images]


def images_folder(stem: str) -> str:
    return f"{stem}_files"


def to_html(nb: Any, stem: str, folder: Path) -> str:
    """The notebook as one HTML page, titled with its name, images embedded.

    ``folder`` is the notebook's own, where images linked from markdown cells are found.
    """
    exporter = HTMLExporter(embed_images=True)
    resources = {"metadata": {"name": stem, "path": str(folder)}}
    text, _ = exporter.from_notebook_node(nb, resources=resources)
    return str(text)


def to_markdown(nb: Any, stem: str) -> tuple[str, dict[str, bytes]]:
    """The notebook as markdown, and its output images keyed by the path the markdown links."""
    resources = {
        "metadata": {"name": stem},
        "unique_key": stem,
        "output_files_dir": images_folder(stem),
    }
    text, written = MarkdownExporter().from_notebook_node(nb, resources=resources)
    images = {str(name): bytes(data) for name, data in written["outputs"].items()}
    return STYLE_BLOCK.sub("", str(text)), images


def render_notebook(path: Path, folder: Path) -> Rendered:
    """Write ``STEM.html``, ``STEM.md`` and its images under ``folder``."""
    nb = nbformat.read(path, as_version=4)
    stem = path.stem
    text, images = to_markdown(nb, stem)
    image_paths = tuple(folder / name for name in sorted(images))
    for name in sorted(images):
        write_atomic(folder / name, images[name])
    stale = folder / images_folder(stem)
    for old in sorted(stale.glob("*")) if stale.is_dir() else []:
        if old not in image_paths and old.is_file():
            old.unlink()
    if stale.is_dir() and not any(stale.iterdir()):
        stale.rmdir()
    write_atomic(folder / f"{stem}.md", text)
    write_atomic(folder / f"{stem}.html", to_html(nb, stem, path.parent))
    return Rendered(folder / f"{stem}.html", folder / f"{stem}.md", image_paths)
