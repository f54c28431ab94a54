"""Render: each executed notebook as HTML and as markdown under ``data/rendered/``.

The markdown is the page a reader browses in the repository (GitHub's file view, any markdown
viewer): each figure an output drew is written beside it in ``NN-name_files/`` and shown by a
link relative to the page, under the alt text ``figure``. A reporter pastes the same markdown
into an issue thread through ``share``, where a relative link cannot resolve: ``as_comment``
puts in each figure's place a note that names the PNG to attach. The page fits GitHub's limit
for one comment (``GITHUB_LIMIT`` characters as ``github_length`` counts them; ``render``
refuses in one line, before it writes anything, when a notebook goes over) and links nothing
else by a relative path. The HTML embeds every image and keeps each ``<details>`` whole:
nbconvert's ``embed_images`` passes each HTML block of a markdown output through a parser that
closes ``<details>`` at the block's end (jupyter/nbconvert#2131), so it is off, and images that
markdown cells link are embedded here instead; code in outputs is set in the code font (the lab
template's CSS gives a ``pre`` in an output the prose font). A table's caption (its title,
``display.titled``) is a bold line above its GitHub table. Rendering reads only the notebook and
nbconvert's local templates, so one notebook gives the same bytes every time and nothing is
fetched (the HTML names require.js and MathJax CDN URLs, which only a browser loads). Every
file is written atomically; images a previous render left behind are removed. Raw HTML from
the notebook reaches neither file unless GitHub would keep it (``sanitize``): no script, no
frame, no ``javascript:`` link.
"""

from __future__ import annotations

import base64
import mimetypes
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import nbformat
from nbconvert import HTMLExporter, MarkdownExporter

from ...errors import InvestigationError
from ...formats.files import write_atomic
from ...formats.markdown import GITHUB_LIMIT, escape, github_length
from .. import paths
from .sanitize import sanitized

# pandas puts a <style scoped> block before each HTML table; GitHub's markdown view drops the
# tag but prints the CSS inside it as text, so the markdown leaves it out.
STYLE_BLOCK = re.compile(r"<style scoped>.*?</style>\n?", re.DOTALL)
IMAGE = re.compile(r'!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)(?:\s+"[^"]*")?\)')
LINK = re.compile(r'\]\((?P<src>[^)\s]+)(?:\s+"[^"]*")?\)|\b(?:href|src)="(?P<attr>[^"]*)"')
HTML_IMAGE = re.compile(r'(<img\b[^>]*?\bsrc=")(?P<src>[^"]+)(")')
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
CODE_SPAN = re.compile(r"(`+).*?\1")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# The lab template sets ``.jp-OutputArea-output pre`` to inherit the output's (prose) font; put
# code back in the code font, after the template's CSS so that it wins.
CODE_FONT = (
    '<style type="text/css">/* approval-compaction: code in the code font */\n'
    ".jp-OutputArea-output pre, .jp-OutputArea-output code, .jp-RenderedHTMLCommon pre,\n"
    ".jp-RenderedHTMLCommon code { font-family: var(--jp-code-font-family); }\n</style>\n"
)


class RenderError(InvestigationError):
    """A notebook whose render cannot be shared as it is: too long for one comment, a relative
    link, an image it names that is not there, or a ``<details>`` left empty."""


@dataclass(frozen=True)
class Page:
    """One notebook rendered in memory: the markdown, the HTML, the images to write beside them
    (by path under the folder) and every file a reader attaches (by path as shown)."""

    stem: str
    markdown: str
    html: str
    images: dict[str, bytes]
    attachments: tuple[str, ...]


@dataclass(frozen=True)
class Rendered:
    """The files written for one notebook, and the files to attach when pasting it."""

    html: Path
    markdown: Path
    images: tuple[Path, ...]
    attachments: tuple[str, ...] = ()

    @property
    def paths(self) -> list[Path]:
        return [self.html, self.markdown, *self.images]


def images_folder(stem: str) -> str:
    return f"{stem}_files"


def foreign_entries(folder: Path) -> list[str]:
    """What ``folder`` holds that is not a rendered page: render's pages are ``STEM.md`` and
    ``STEM.html`` side by side, with their images in ``STEM_files/``. Anything else (or a page
    without its pair) marks a folder that is not render's own."""
    if not folder.is_dir():
        return []
    entries = {entry.name: entry for entry in folder.iterdir()}
    stems = {
        name[: -len(".md")]
        for name in entries
        if name.endswith(".md") and f"{name[: -len('.md')]}.html" in entries
    }
    ours = {f"{stem}{end}" for stem in stems for end in (".md", ".html")}
    ours |= {
        images_folder(stem) for stem in stems if entries.get(images_folder(stem), folder).is_dir()
    }
    return sorted(name for name in entries if name not in ours)


def check_folder(folder: Path, force: bool = False) -> None:
    """Refuse, in one line, a ``--folder`` that is a file, or one holding files render did not
    write (unless ``force``): render replaces its pages there, and writes nowhere else."""
    if folder.exists() and not folder.is_dir():
        raise RenderError(f"--folder {folder} is a file, not a folder")
    found = foreign_entries(folder)
    if found and not force:
        names = ", ".join(found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3 else "")
        raise RenderError(
            f"--folder {folder} holds files render did not write ({names}): choose an empty "
            "folder, or pass --force to write there anyway"
        )


def read_notebook(path: Path) -> Any:
    """The notebook at ``path``, or a one-line ``RenderError`` for a file that is not one."""
    try:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)  # a JSON file that only looks like one fails in the exporter
        return nb
    except Exception as error:  # nbformat raises many kinds: not JSON, not a notebook, bad bytes
        said = " ".join(str(error).split())[:200] or type(error).__name__
        raise RenderError(f"{path} is not a Jupyter notebook ({said})") from None


def shown(path: Path, base: Path | None = None) -> str:
    """A file as a reader finds it: relative to the checkout, else to ``base``, else its name."""
    resolved = path.resolve()
    for root in (paths.ROOT, base.resolve() if base is not None else None):
        if root is not None and resolved.is_relative_to(root):
            return resolved.relative_to(root).as_posix()
    return path.name


def relative(src: str) -> bool:
    """Whether a link target is a path (which a comment cannot resolve), not a URL or anchor."""
    return bool(src) and not src.startswith("#") and not SCHEME.match(src)


def attach_note(file: str) -> str:
    """What stands in a comment where a figure was, in plain words that read the same whether
    or not the person posting it attaches the file."""
    return (
        f"**Figure:** the image `{file}`, written beside this page; it is shown here only when "
        "attached to the comment."
    )


def _outside_fences(text: str) -> Iterator[tuple[str, bool]]:
    """Each line of the markdown (newline kept), and whether it is prose: outside fenced code."""
    fence: str | None = None
    for line in text.splitlines(keepends=True):
        opened = FENCE.match(line)
        if fence is None and opened:
            fence = opened.group(1)[0] * len(opened.group(1))
            yield line, False
        elif fence is not None:
            fence = None if line.strip().startswith(fence) else fence
            yield line, False
        else:
            yield line, True


def prose_lines(text: str) -> Iterator[str]:
    """The markdown's lines outside fenced code blocks, with inline code spans removed."""
    for line, prose in _outside_fences(text):
        if prose:
            yield CODE_SPAN.sub("", line.rstrip("\n"))


def relative_links(text: str, own: Collection[str] = ()) -> list[str]:
    """Every link target in the markdown's prose that is a relative path, but the page's
    ``own`` figures (written beside it)."""
    found = []
    for line in prose_lines(text):
        for match in LINK.finditer(line):
            target = match.group("src") or match.group("attr") or ""
            if relative(target) and target not in own:
                found.append(target)
    return found


def own_figures(text: str, stem: str) -> list[str]:
    """The figures a rendered page links beside it (``STEM_files/...``), in order."""
    folder = f"{images_folder(stem)}/"
    return [m.group("src") for m in IMAGE.finditer(text) if m.group("src").startswith(folder)]


def _attachments_in_place(
    text: str, resolve: Callable[[str], str], own: Collection[str] = ()
) -> tuple[str, list[str]]:
    """The markdown with each relatively linked image replaced by its attach note, but the
    page's ``own`` figures, which stay linked under the alt text ``figure``; and the files to
    attach when it is pasted (``resolve``: the file a link names, as a reader finds it)."""
    attached: list[str] = []

    def note(match: re.Match[str]) -> str:
        if not relative(match.group("src")):
            return match.group(0)
        attached.append(resolve(match.group("src")))
        if match.group("src") in own:
            return f"![figure]({match.group('src')})"
        return attach_note(attached[-1])

    out = [IMAGE.sub(note, line) if prose else line for line, prose in _outside_fences(text)]
    return "".join(out), attached


def as_comment(page: str, stem: str, folder: Path) -> str:
    """A rendered page as a paste-ready comment: each figure it links beside it replaced by the
    note naming the file to attach (``folder``: where the page was written)."""
    own = set(own_figures(page, stem))

    def note(match: re.Match[str]) -> str:
        src = match.group("src")
        return attach_note(shown(folder / src, folder)) if src in own else match.group(0)

    out = [IMAGE.sub(note, line) if prose else line for line, prose in _outside_fences(page)]
    return "".join(out)


class _DetailsCheck(HTMLParser):
    """Counts ``<details>`` elements that hold nothing beside their ``<summary>``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[bool] = []  # per open <details>: has it content beside its summary?
        self.in_summary = 0
        self.empty = 0
        self.count = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "details":
            self.count += 1
            if self.open:
                self.open[-1] = True
            self.open.append(False)
        elif tag == "summary":
            self.in_summary += 1
        elif self.open and not self.in_summary:
            self.open[-1] = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "details" and self.open:
            self.empty += not self.open.pop()
        elif tag == "summary" and self.in_summary:
            self.in_summary -= 1

    def handle_data(self, data: str) -> None:
        if self.open and not self.in_summary and data.strip():
            self.open[-1] = True


def details_counts(html: str) -> tuple[int, int]:
    """How many ``<details>`` the HTML has, and how many of them are empty."""
    check = _DetailsCheck()
    check.feed(html)
    check.close()
    return check.count, check.empty + len(check.open)


def embed_local_images(html: str, folder: Path) -> str:
    """Each ``<img>`` whose source is a path under ``folder``, as a data URL."""

    def embedded(match: re.Match[str]) -> str:
        src = match.group("src")
        if not relative(src):
            return match.group(0)
        image = folder / src
        if not image.is_file():
            raise RenderError(f"the notebook links an image that is not there: {shown(image)}")
        kind = mimetypes.guess_type(image.name)[0] or "application/octet-stream"
        data = base64.b64encode(image.read_bytes()).decode()
        return f"{match.group(1)}data:{kind};base64,{data}{match.group(3)}"

    return HTML_IMAGE.sub(embedded, html)


def to_html(nb: Any, stem: str, folder: Path) -> str:
    """The notebook as one HTML page, titled with its name, images embedded, code in the code
    font, every ``<details>`` whole.

    ``folder`` is the notebook's own, where images linked from markdown cells are found.
    """
    exporter = HTMLExporter(embed_images=False)  # jupyter/nbconvert#2131: see the module
    resources = {"metadata": {"name": stem, "path": str(folder)}}
    text, _ = exporter.from_notebook_node(nb, resources=resources)
    page = embed_local_images(str(text), folder)
    return page.replace("</head>", CODE_FONT + "</head>", 1)


# pandas writes a frame as an HTML table (``<table border="1" class="dataframe">``, a Styler's
# ``<table id="T_...">`` after a ``<style>`` block). GitHub shows the HTML, but as a wall of
# tags in the comment's source and with none of the CSS; the markdown writes each as a GitHub
# table instead, its header rows joined per column, spanning cells repeated.
HTML_TABLE = re.compile(r"<table\b.*?</table>", re.DOTALL)
ANY_STYLE = re.compile(r"<style\b[^>]*>.*?</style>\n?", re.DOTALL)
BLANK_LINES = re.compile(r"\n\s*\n(\s*\n)+")


class _Grid(HTMLParser):
    """The cells of one HTML table, header rows and body rows, with their spans, and its
    caption (the title ``display.titled`` gives it)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[tuple[bool, list[tuple[str, int, int]]]] = []
        self.caption: list[str] = []
        self.labelled = False  # a body row opens with a <th>: the frame's index is shown
        self._cell: list[str] | None = None
        self._spans = (1, 1)
        self._head = False
        self._in_caption = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "caption":
            self._in_caption = True
        elif tag == "thead":
            self._head = True
        elif tag == "tr":
            self.rows.append((self._head, []))
        elif tag in ("th", "td"):
            if tag == "th" and not self._head and self.rows and not self.rows[-1][1]:
                self.labelled = True
            found = dict(attrs)
            self._cell = []
            self._spans = (int(found.get("rowspan") or 1), int(found.get("colspan") or 1))
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "caption":
            self._in_caption = False
        elif tag == "thead":
            self._head = False
        elif tag in ("th", "td") and self._cell is not None and self.rows:
            self.rows[-1][1].append(("".join(self._cell).strip(), *self._spans))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._in_caption:
            self.caption.append(data)
        elif self._cell is not None:
            self._cell.append(data)


def _filled(rows: list[list[tuple[str, int, int]]]) -> list[list[str]]:
    """Rows of cell texts with every row and column span repeated into the cells it covers."""
    grid: dict[tuple[int, int], str] = {}
    for r, cells in enumerate(rows):
        c = 0
        for text, down, across in cells:
            while (r, c) in grid:
                c += 1
            for dr in range(down):
                for dc in range(across):
                    grid[(r + dr, c + dc)] = text
            c += across
    width = max((c for _, c in grid), default=-1) + 1
    return [[grid.get((r, c), "") for c in range(width)] for r in range(len(rows))]


def html_table_markdown(table: str) -> str:
    """One HTML table as a GitHub table: its caption as a bold line above it, the header rows
    joined per column (``level / level``), the index's name heading its column, every cell
    escaped."""
    parser = _Grid()
    parser.feed(table)
    head = [cells for is_head, cells in parser.rows if is_head]
    body = [cells for is_head, cells in parser.rows if not is_head]
    if not head and body:
        head, body = body[:1], body[1:]
    grid = _filled([*head, *body])
    header_rows, body_rows = grid[: len(head)], grid[len(head) :]
    width = len(grid[0]) if grid else 0
    header = [
        " / ".join(dict.fromkeys(row[c] for row in header_rows if row[c])) for c in range(width)
    ]
    if parser.labelled and len(header_rows) > 1 and header_rows[-1][0]:  # the index's name
        header[0] = header_rows[-1][0]
    lines = ["| " + " | ".join(escape(h) for h in header) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(escape(cell) for cell in row) + " |" for row in body_rows]
    title = " ".join("".join(parser.caption).split())
    return (f"**{escape(title)}**\n\n" if title else "") + "\n".join(lines)


def github_tables(html: str) -> str:
    """An HTML output with each table written as a GitHub table (blank lines around it, so it
    renders inside a ``<details>`` too) and its style blocks left out."""
    text = ANY_STYLE.sub("", html).strip()
    if text.startswith("<div>") and text.endswith("</div>"):  # pandas' wrapper of one frame
        text = text.removeprefix("<div>").removesuffix("</div>")
    text = HTML_TABLE.sub(lambda m: "\n\n" + html_table_markdown(m.group(0)) + "\n\n", text)
    return BLANK_LINES.sub("\n\n", text)


def with_github_tables(nb: Any) -> Any:
    """A copy of the notebook whose HTML outputs holding a table are markdown instead."""
    copy = nbformat.from_dict(nb)
    for cell in copy.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            html = data.get("text/html")
            if html is None:
                continue
            text = "".join(html) if isinstance(html, list) else str(html)
            if "<table" not in text:
                continue
            del data["text/html"]
            data["text/markdown"] = github_tables(text).strip() + "\n"
    return copy


def to_markdown(nb: Any, stem: str) -> tuple[str, dict[str, bytes]]:
    """The notebook as markdown, and its output images keyed by the path the markdown links."""
    resources = {
        "metadata": {"name": stem},
        "unique_key": stem,
        "output_files_dir": images_folder(stem),
    }
    text, written = MarkdownExporter().from_notebook_node(
        with_github_tables(nb), resources=resources
    )
    images = {str(name): bytes(data) for name, data in written["outputs"].items()}
    return STYLE_BLOCK.sub("", str(text)), images


LAB_ONLY = "lab-only"  # a cell's tag: it runs in JupyterLab (a widget), and no page shows it


def for_pages(nb: Any) -> Any:
    """A copy of the notebook without its cells tagged ``lab-only``: a widget, which a page can
    show only as a line saying it is not there."""
    copy = nbformat.from_dict(nb)
    copy.cells = [c for c in copy.cells if LAB_ONLY not in c.get("metadata", {}).get("tags", [])]
    return copy


def render_page(path: Path, folder: Path, limit: int = GITHUB_LIMIT) -> Page:
    """The notebook rendered in memory, checked: within ``limit`` as a comment, no relative
    link but its own figures, every ``<details>`` holding something."""
    nb = for_pages(sanitized(read_notebook(path)))  # only what GitHub keeps, in both files
    stem = path.stem
    raw, images = to_markdown(nb, stem)

    def resolve(src: str) -> str:
        # An output image is written under ``folder``; one a markdown cell links stays beside
        # the notebook, and must be there to be attached.
        if src in images:
            return shown(folder / src, folder)
        found = path.parent / src
        if not found.is_file():
            raise RenderError(f"{path.name} links an image that is not there: {shown(found)}")
        return shown(found, path.parent)

    markdown, attachments = _attachments_in_place(raw, resolve, images)
    where = shown(folder / f"{stem}.md")
    links = relative_links(markdown, images)
    if links:
        raise RenderError(f"{where} would link {links[0]} by a relative path")
    length = github_length(as_comment(markdown, stem, folder))
    if length > limit:
        raise RenderError(
            f"{where} would be {length:,} characters as GitHub counts them, over one comment's "
            f"{limit:,}: shorten {path.name}'s outputs"
        )
    html = to_html(nb, stem, path.parent)
    empty = details_counts(html)[1]
    if empty:
        raise RenderError(f"{shown(folder / f'{stem}.html')} has {empty} empty <details>")
    return Page(stem, markdown, html, images, tuple(attachments))


def write_page(page: Page, folder: Path) -> Rendered:
    """Write ``STEM.html``, ``STEM.md`` and its images under ``folder``; drop stale images."""
    image_paths = tuple(folder / name for name in sorted(page.images))
    for name in sorted(page.images):
        write_atomic(folder / name, page.images[name])
    stale = folder / images_folder(page.stem)
    for old in sorted(stale.glob("*")) if stale.is_dir() else []:
        if old not in image_paths and old.is_file():
            old.unlink()
    if stale.is_dir() and not any(stale.iterdir()):
        stale.rmdir()
    write_atomic(folder / f"{page.stem}.md", page.markdown)
    write_atomic(folder / f"{page.stem}.html", page.html)
    return Rendered(
        folder / f"{page.stem}.html", folder / f"{page.stem}.md", image_paths, page.attachments
    )


def render_all(
    notebooks: Sequence[Path], folder: Path, limit: int = GITHUB_LIMIT
) -> list[Rendered]:
    """Render every notebook, and write them only when all pass their checks: a refusal leaves
    every file as it was."""
    pages = [render_page(path, folder, limit) for path in notebooks]
    return [write_page(page, folder) for page in pages]


def render_notebook(path: Path, folder: Path, limit: int = GITHUB_LIMIT) -> Rendered:
    """Write ``STEM.html``, ``STEM.md`` and its images under ``folder``."""
    return render_all([path], folder, limit)[0]
