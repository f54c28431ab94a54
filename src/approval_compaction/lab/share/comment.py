"""Comment: one notebook, or one case, as a paste-ready GitHub comment, with the files to attach.

``share NOTEBOOK`` renders the notebook as ``render`` does (into ``data/rendered/`` by default)
and gives its markdown as a comment (``render.as_comment``): within one comment's limit, each
figure the page links beside it replaced by a note that names the PNG to attach.
``share --case CASE`` runs that one case, as a label (``run/approve/on/json``) or a filter
that selects exactly one, and gives its report (``share.report``): the finding, the reproduce
line, the case's verdicts and its evidence; with ``--output`` its heatmap is
written beside it to attach. ``share --NAME [WHICH]`` gives a report of the SDK whose plugin
shares one (``lab.plugins.sharing``), built from ``data/`` as its folder's report command builds
it, with the files to attach it names. The comment goes to ``--output`` or
stdout; the files to attach are listed after it (on stderr when the comment is on stdout), so a
paste never carries them.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from ...errors import InvestigationError
from ...formats.files import write_atomic
from ...formats.markdown import GITHUB_LIMIT, github_length
from ...study.scenario import FIELD_NAMES, Case, all_cases, select_cases
from .. import paths
from ..plugins import plugin, sharing
from .render import as_comment, check_folder, render_notebook
from .report import case_report, heatmap_path, shown_path, write_report

# How many ways ``share`` takes, in words (a notebook, a case, and each SDK's reports).
COUNTS = {3: "three", 4: "four", 5: "five"}


class ShareError(InvestigationError):
    """A share request that names no notebook or case, or a case filter that is not one case."""


@dataclass(frozen=True)
class Comment:
    """A paste-ready comment and the files (as a reader finds them) to attach to it."""

    text: str
    attachments: tuple[str, ...]

    @property
    def length(self) -> int:
        return github_length(self.text)


def case_filter(case: str) -> str:
    """A case as a filter: a label ``run/approve/on/json`` becomes one; a filter stays."""
    if "=" in case or "/" not in case:
        return case
    values = case.split("/")
    if len(values) != len(FIELD_NAMES):
        raise ShareError(
            f"case {case!r} is not a label: expected {'/'.join(FIELD_NAMES)}, e.g. "
            f"{all_cases()[0].label}"
        )
    return ",".join(f"{name}={value}" for name, value in zip(FIELD_NAMES, values, strict=True))


def one_case(case: str) -> tuple[str, Case]:
    """The filter for ``case`` and the one case it selects (a filter for several is refused)."""
    spec = case_filter(case)
    selected = select_cases(spec)
    if len(selected) != 1:
        names = ", ".join(c.label for c in selected[:3]) + (" ..." if len(selected) > 3 else "")
        raise ShareError(
            f"--case shows one case; {case!r} selects {len(selected)}"
            + (f" ({names})" if selected else "")
            + f": name each of {', '.join(FIELD_NAMES)}, e.g. {all_cases()[0].label}"
        )
    return spec, selected[0]


def notebook_comment(notebook: Path, folder: Path = paths.DATA_FILES.rendered) -> Comment:
    """The notebook rendered into ``folder``; its markdown is the comment."""

    if not notebook.is_file():
        raise ShareError(f"no notebook at {notebook}")
    rendered = render_notebook(notebook, folder)
    page = rendered.markdown.read_text()
    return Comment(as_comment(page, notebook.stem, folder), rendered.attachments)


def case_comment(case: str, output: Path | None, replace: bool = True) -> Comment:
    """The report for one case, made as ``report --case`` makes it (the heatmap is written beside
    ``output`` when one is given)."""

    spec, chosen = one_case(case)
    report = case_report([chosen], spec, output)
    if output is None:
        return Comment(report.text, ())
    write_report(report, output, replace)
    attach = (shown_path(heatmap_path(output)),) if report.heatmap is not None else ()
    return Comment(report.text, attach)


def sdk_comment(name: str, which: str, folder: Path = paths.DATA) -> Comment:
    """A report of the SDK registered as ``name`` (``share --NAME``), from its files in
    ``folder`` as its plugin builds it (``SdkPlugin.comment``), with its files to attach."""
    write = plugin(name).comment
    if write is None:
        raise ShareError(f"the {name} plugin gives no report to share")
    text, attach = write(folder, which)
    return Comment(text, tuple(shown_path(path) for path in attach))


def check_output(output: Path, force: bool, with_heatmap: bool = False) -> None:
    """Refuse, in one line, an ``--output`` that is a folder, or a file (or, for a report, the
    heatmap beside it) that exists, unless ``force``: a write never replaces a file unasked."""
    if output.is_dir():
        raise ShareError(f"--output {output} is a folder, not a file")
    if force:
        return
    for path in (output, heatmap_path(output)) if with_heatmap else (output,):
        if path.exists() or path.is_symlink():
            raise ShareError(f"{path} already exists: pass --force to replace it")


def attach_lines(comment: Comment) -> list[str]:
    """What to attach, one file a line, and how."""
    if not comment.attachments:
        return ["attach: nothing"]
    how = "drag each from the clone into the comment box: GitHub uploads it and inserts its link"
    return [f"attach ({how}):", *(f"  {file}" for file in comment.attachments)]


def command(args: argparse.Namespace) -> int:
    """``share NOTEBOOK``, ``share --case CASE`` or ``share --NAME``: the comment, then what to
    attach."""
    output = Path(args.output) if args.output else None
    names = [sdk.name for sdk, _ in sharing()]
    asked = [name for name in names if getattr(args, name, None)]
    if [bool(args.notebook), bool(args.case), *map(bool, asked)].count(True) != 1:
        choices = ["a notebook", "--case CASE", *(f"--{name}" for name in names)]
        count = COUNTS.get(len(choices), str(len(choices)))
        raise ShareError(
            f"share takes {', '.join(choices[:-1])} or {choices[-1]} (one of the {count})"
        )
    if output is not None:
        check_output(output, getattr(args, "force", False), with_heatmap=bool(args.case))
    if args.notebook:
        check_folder(Path(args.folder), getattr(args, "force", False))
    if args.case:
        comment = case_comment(args.case, output, getattr(args, "force", False))
    elif asked:
        comment = sdk_comment(asked[0], str(getattr(args, asked[0])))
        if output is not None:
            write_atomic(output, comment.text, replace=getattr(args, "force", False))
    else:
        comment = notebook_comment(Path(args.notebook), Path(args.folder))
        if output is not None:
            write_atomic(output, comment.text, replace=getattr(args, "force", False))
    if comment.length > GITHUB_LIMIT:  # render and report keep to it; this says so if not
        raise ShareError(f"the comment is {comment.length:,} characters, over {GITHUB_LIMIT:,}")
    lines = [f"{comment.length:,} of {GITHUB_LIMIT:,} characters as GitHub counts them"]
    lines += attach_lines(comment)
    if output is None:
        sys.stdout.write(comment.text)
        print("\n".join(lines), file=sys.stderr)
    else:
        print("\n".join([f"wrote {output}", *lines]))
    return 0
