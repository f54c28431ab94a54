"""Sanitize: what ``render`` copies from a notebook is only what GitHub would keep.

A rendered notebook is pasted into a comment or attached as a page, and viewers other than
GitHub show raw HTML as it is. So every piece of notebook HTML (raw HTML in a markdown cell or a
``text/markdown`` output, a ``text/html`` output) passes one allowlist, GitHub's own
(``SanitizationFilter`` of github/html-pipeline). An element it keeps is kept with the
attributes it keeps; ``<script>`` and ``<style>`` are dropped with what they hold, and a
comment only when a browser could end it elsewhere; any other tag (``<iframe>``, ``<object>``,
``<form>`` ...) is escaped, so it reads as text. A link or image whose URL has another scheme
than http, https or mailto (a ``javascript:`` or ``data:`` link) loses the URL, in HTML and in
markdown links alike. Outputs that run code in a browser (``application/javascript``, an SVG
with a script or a handler) are left out. Fenced code and inline code spans of markdown are
code, shown as text: left as they are.

The allowlist is applied tag by tag rather than by an HTML sanitizer such as bleach (installed
with nbconvert): a sanitizer parses a fragment as a whole document and closes a ``<details>``
at the fragment's end, while a notebook's markdown opens one in one block and closes it in
another.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import nbformat

# github/html-pipeline's SanitizationFilter: the elements and attributes github.com keeps.
TAGS = frozenset(
    "h1 h2 h3 h4 h5 h6 h7 h8 br b i strong em a pre code img tt div ins del sup sub p ol ul "
    "table thead tbody tfoot blockquote dl dt dd kbd q samp var hr ruby rt rp li tr td th s "
    "strike summary details caption figure figcaption abbr bdo cite dfn mark small span time "
    "wbr picture source".split()
)
ATTRIBUTES = frozenset(
    "abbr accept accept-charset accesskey action align alt aria-describedby aria-hidden "
    "aria-label aria-labelledby axis border cellpadding cellspacing char charoff charset "
    "checked clear cols colspan color compact coords datetime dir disabled enctype for frame "
    "headers height hreflang hspace ismap label lang maxlength media method multiple name "
    "nohref noshade nowrap open progress prompt readonly rel rev role rows rowspan rules "
    "scope selected shape size span start summary tabindex target title type usemap valign "
    "value vspace width itemprop".split()
)
TAG_ATTRIBUTES = {
    "a": frozenset({"href"}),
    "img": frozenset({"src", "longdesc"}),
    "div": frozenset({"itemscope", "itemtype"}),
    "blockquote": frozenset({"cite"}),
    "del": frozenset({"cite"}),
    "ins": frozenset({"cite"}),
    "q": frozenset({"cite"}),
}
URL_ATTRIBUTES = frozenset({"href", "src", "longdesc", "cite", "itemtype"})
SCHEMES = frozenset({"http", "https", "mailto"})
RUNNABLE = ("application/javascript", "text/javascript")

DROPPED = re.compile(r"<(script|style)\b[^>]*>.*?(?:</\1\s*>|$)", re.S | re.I)
# A comment shows nothing, and the page markers of the notebooks are comments: one a browser
# ends where it ends here (no ``--`` inside, no ``>`` first) is kept, any other is dropped.
COMMENT = re.compile(r"<!--(?P<inner>.*?)(?:-->|$)", re.S)
TOKEN = re.compile(
    r"<(?P<autolink>[A-Za-z][A-Za-z0-9+.-]*:[^\s<>]*)>"
    r"|<(?P<close>/?)(?P<name>[A-Za-z][A-Za-z0-9-]*)"
    r"(?P<attrs>(?:[^>\"']|\"[^\"]*\"|'[^']*')*)>"
    r"|<",
    re.S,
)
ATTRIBUTE = re.compile(
    r"(?P<name>[^\s\"'>/=]+)(?:\s*=\s*(?:\"(?P<dq>[^\"]*)\"|'(?P<sq>[^']*)'|(?P<bare>[^\s>]+)))?"
)
SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
MARKDOWN_LINK = re.compile(r"(?P<bang>!?)\[(?P<text>[^\]\n]*)\]\((?P<target>[^)\n]*)\)")
REFERENCE = re.compile(r"^(?P<lead> {0,3}\[[^\]\n]+\]:\s*)(?P<target>\S+)", re.M)
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:(?!\n[ \t]*\n).)*?\1", re.S)  # within one paragraph
PARAGRAPH = re.compile(r"(\n[ \t]*\n)")  # kept by split: the text joins back as it was
SVG_ACTIVE = re.compile(r"<script|<foreignobject|\son\w+\s*=|javascript:", re.I)


def safe_url(url: str) -> bool:
    """Whether a link's URL is one GitHub keeps: relative, an anchor, or http, https, mailto."""
    plain = re.sub(r"[\x00-\x20]", "", html.unescape(url))
    found = SCHEME.match(plain)
    return found is None or found.group(1).lower() in SCHEMES


def _attributes(tag: str, text: str) -> str:
    kept = []
    allowed = ATTRIBUTES | TAG_ATTRIBUTES.get(tag, frozenset())
    for match in ATTRIBUTE.finditer(text):
        name = match.group("name").lower()
        value = next((v for v in match.group("dq", "sq", "bare") if v is not None), None)
        if name not in allowed or (name in URL_ATTRIBUTES and not safe_url(value or "")):
            continue
        kept.append(name if value is None else f'{name}="{html.escape(html.unescape(value))}"')
    return "".join(f" {attribute}" for attribute in kept)


def _token(match: re.Match[str]) -> str:
    if match.group("autolink") is not None:
        return match.group(0) if safe_url(match.group("autolink")) else html.escape(match.group(0))
    name = (match.group("name") or "").lower()
    if name not in TAGS:
        return html.escape(match.group(0), quote=False)
    if match.group("close"):
        return f"</{name}>"
    closed = " /" if match.group("attrs").rstrip().endswith("/") else ""
    return f"<{name}{_attributes(name, match.group('attrs').rstrip().rstrip('/'))}{closed}>"


def _comment(match: re.Match[str]) -> str:
    inner = match.group("inner")
    plain = match.group(0).endswith("-->") and "--" not in inner and not inner.startswith(">")
    return match.group(0) if plain else ""


def clean_html(text: str) -> str:
    """HTML with only what GitHub keeps: scripts and styles dropped, other tags escaped,
    unsafe attributes and URLs left out; a comment is kept where it cannot end early."""
    kept: list[str] = []
    last = 0
    text = DROPPED.sub("", text)
    for comment in COMMENT.finditer(text):
        kept += [TOKEN.sub(_token, text[last : comment.start()]), _comment(comment)]
        last = comment.end()
    return "".join([*kept, TOKEN.sub(_token, text[last:])])


def _link(match: re.Match[str]) -> str:
    target = match.group("target").strip().removeprefix("<")
    if safe_url(target.split()[0] if target.split() else ""):
        return match.group(0)
    return match.group("text")  # the link's words, without where it led


def _reference(match: re.Match[str]) -> str:
    target = match.group("target").removeprefix("<")
    return match.group(0) if safe_url(target) else match.group("lead") + "#"


def _prose(text: str) -> str:
    """Markdown prose: its HTML cleaned and its unsafe links unlinked, code spans untouched. A
    paragraph that opens with a tag is an HTML block, raw to the end of the paragraph (its
    backticks are no code span): it is cleaned whole, as a code span is never let across a
    blank line."""
    parts = []
    for paragraph in PARAGRAPH.split(text):
        if paragraph.lstrip().startswith("<"):
            parts.append(_prose_only(paragraph))
            continue
        last = 0
        for span in CODE_SPAN.finditer(paragraph):
            parts += [_prose_only(paragraph[last : span.start()]), span.group(0)]
            last = span.end()
        parts.append(_prose_only(paragraph[last:]))
    return "".join(parts)


def _prose_only(text: str) -> str:
    return REFERENCE.sub(_reference, MARKDOWN_LINK.sub(_link, clean_html(text)))


def _blocks(text: str) -> Iterator[tuple[str, bool]]:
    """The markdown in runs of lines, each with whether it is prose (outside fenced code)."""
    fence: str | None = None
    run: list[str] = []
    for line in text.splitlines(keepends=True):
        found = FENCE.match(line)
        opens = fence is None and found is not None
        closes = fence is not None and found is not None and found.group(1).startswith(fence)
        if opens or closes:
            if run:
                yield "".join(run), fence is None
            run = []
            yield line, False
            fence = found.group(1)[0] * len(found.group(1)) if opens and found else None
            continue
        run.append(line)
    if run:
        yield "".join(run), fence is None


def clean_markdown(text: str) -> str:
    """Markdown with only what GitHub keeps, its fenced code and code spans as they were."""
    return "".join(_prose(block) if prose else block for block, prose in _blocks(text))


def _source(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def sanitized(nb: Any) -> Any:
    """A copy of the notebook whose markdown cells and outputs hold only what GitHub keeps."""
    copy = nbformat.from_dict(nb)
    for cell in copy.cells:
        if cell.cell_type == "markdown":
            cell.source = clean_markdown(_source(cell.source))
        elif cell.cell_type == "raw":
            cell.source = html.escape(_source(cell.source), quote=False)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            for kind in RUNNABLE:
                data.pop(kind, None)
            if "image/svg+xml" in data and SVG_ACTIVE.search(_source(data["image/svg+xml"])):
                del data["image/svg+xml"]
            if "text/html" in data:
                data["text/html"] = clean_html(_source(data["text/html"]))
            if "text/markdown" in data:
                data["text/markdown"] = clean_markdown(_source(data["text/markdown"]))
    return copy
