"""Views: the mechanism as GitHub-safe text and small frames.

``excerpt`` quotes only a function's marked lines, with their real line numbers (``▶`` flags a
marked line, ``…`` a gap) and each mark's reason, and links the whole function, and each marked
line, at the release's tag on GitHub (``permalink``), so a notebook rendered for an issue thread
stays short and every line it quotes can be read in place;
``source_diff`` shows the same function in two releases as a unified diff numbered by file line;
``trace_frame`` and ``stage_frame`` show the traced run, ``boundary_frame`` it across both
boundaries with what the ownership gate saw; ``check_block`` finds the block the pairing check
runs under (``findings.mechanism`` states the finding from it); ``anatomy_frame`` shows the
fix taken apart by experiment (``anatomy``). Every view returns
markdown text or a frame; the notebook wraps text in ``IPython.display.Markdown``.

``kinds_frame`` is the fix's anatomy per approval kind (``data/fix-anatomy.json``): a row per
kind, its cases, its minimal fix, what the function kind's fix alone does for it, the hunks
whose revert brings its bug back; a kind a release cannot make says why (``absent``).
"""

from __future__ import annotations

import difflib
import re
import textwrap
from collections.abc import Mapping, Sequence

import pandas as pd

from ...formats.markdown import code, escape, fence
from ...study.capture import STAGES
from ..releases.probe import IMPORT_FAILED
from .anatomy import BUG, FIXED, Anatomy, HunkRecord, KindAnatomy, Outcome, ranges
from .catalogue import CATALOGUE, MOVED_CHECK, Function, Mark, Step, entry
from .permalink import permalink
from .record import MechanismError, load_record
from .source import PRESENT, Extract, enclosing, mark_lines, numbered
from .trace import Trace

FLAG, GAP = "▶", "…"
CALLED, NOT_CALLED = "called", "·"
CONTEXT = 0  # lines quoted on each side of a marked line: only the marked lines


def _gutter(number: int, text: str, flagged: bool, width: int) -> str:
    return f"{number:>{width}} {FLAG if flagged else ' '} {text}"


def last_line(extract: Extract) -> int:
    """The number of the function's last line in the release's file."""
    return extract.first_line + len(extract.source.splitlines()) - 1


def shown_lines(extract: Extract, marked: set[int], context: int = CONTEXT) -> list[int]:
    """The line numbers an excerpt quotes: each marked line and ``context`` lines around it."""
    keep = {n for m in marked for n in range(m - context, m + context + 1)}
    return sorted(n for n in keep if extract.first_line <= n <= last_line(extract))


def marks_found(extract: Extract, function: Function) -> dict[Mark, list[int]]:
    return {mark: mark_lines(extract, mark) for mark in function.marks}


def _line_links(extract: Extract, version: str, lines: Sequence[int]) -> str:
    links = [f"[{n}]({permalink(version, extract.path, n)})" for n in lines]
    return ", ".join(links) or "none"


def excerpt(extract: Extract, function: Function, release_name: str, context: int = CONTEXT) -> str:
    """The function's marked lines (and ``context`` lines around each), their reasons, and a
    permalink to the whole function at the release's tag."""
    if extract.status != PRESENT:
        return f"**{code(function.qualname)}** ({release_name}): absent in {release_name}."
    first, last = extract.first_line, last_line(extract)
    whole = permalink(release_name, extract.path, first, last)
    title = (
        f"**{code(function.qualname)}** ({release_name}, "
        f"[{code(extract.path)} lines {first}–{last}]({whole})): "
    )
    found = marks_found(extract, function)
    marked = {n for lines in found.values() for n in lines}
    text = dict(numbered(extract))
    shown = shown_lines(extract, marked, context)
    width = len(str(max(shown, default=first)))
    quoted = textwrap.dedent("\n".join(text[n] for n in shown)).splitlines()
    body: list[str] = []
    previous = None
    for number, line in zip(shown, quoted, strict=True):
        if previous is not None and number != previous + 1:
            body.append(f"{'':>{width}}   {GAP}")
        body.append(_gutter(number, line, number in marked, width))
        previous = number
    reasons = [
        f"- {FLAG} line{'s' if len(lines) > 1 else ''} {_line_links(extract, release_name, lines)}:"
        f" {escape(mark.reason)}"
        for mark, lines in found.items()
    ]
    parts = [title + escape(function.role)]
    if body:
        parts.append(fence("\n".join(body), "text"))
    return "\n\n".join([*parts, "\n".join(reasons)])


def _numbered_hunks(old: Extract, new: Extract, context: int) -> list[str]:
    a, b = old.source.splitlines(), new.source.splitlines()
    lines: list[str] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        start_a = old.first_line + i1 if a else 0
        start_b = new.first_line + j1 if b else 0
        lines.append(f"@@ -{start_a},{i2 - i1} +{start_b},{j2 - j1} @@")
        for tag, s1, e1, s2, e2 in group:
            if tag == "equal":
                lines += [" " + line for line in a[s1:e1]]
                continue
            lines += ["-" + line for line in a[s1:e1]]
            lines += ["+" + line for line in b[s2:e2]]
    return lines


def _changed(hunks: Sequence[str]) -> int:
    """How many lines a diff's hunks remove or add."""
    return sum(1 for line in hunks if line[:1] in "+-" and not line.startswith("@@"))


def source_diff(qualname: str, old: str, new: str, context: int = 3) -> str:
    """The recorded function in release ``old`` against release ``new``: a unified diff whose
    hunk headers carry file line numbers; a release without the function is an empty side."""
    record = load_record()
    before, after = (record.release(v).functions[qualname] for v in (old, new))
    headers = [
        f"--- {old}/{before.path or '(absent)'}",
        f"+++ {new}/{after.path or '(absent)'}",
    ]
    hunks = _numbered_hunks(before, after, context)
    summary = f"{code(qualname)}, {old} → {new}: "
    if not hunks:
        return summary + "unchanged."
    changed = _changed(hunks)
    return summary + f"{changed} lines changed.\n\n" + fence("\n".join(headers + hunks), "diff")


def presence_frame(versions: Sequence[str]) -> pd.DataFrame:
    """Each catalogued function: in which recorded releases it exists, with its first line."""
    record, rows = load_record(), {}
    for function in CATALOGUE:
        cells = {}
        for version in versions:
            found = record.release(version).functions[function.qualname]
            cells[version] = f"line {found.first_line}" if found.status == PRESENT else "absent"
        rows[function.qualname] = {"step": function.step, **cells}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("function")


def trace_frame(trace: Trace, named: Sequence[str] = ()) -> pd.DataFrame:
    """Each catalogued function against each stage of the traced run: called or not; for the
    functions in ``named``, who called it (``by prepare_input_with_session``), so a check that
    runs at a stage only for another step's caller does not read as run by its own step."""

    def cell(qualname: str, stage: str) -> str:
        if stage not in trace.calls.get(qualname, ()):
            return NOT_CALLED
        if qualname not in named:
            return CALLED
        callers = trace.callers.get(qualname, {}).get(stage, ())
        return f"by {', '.join(c.rsplit('.', 1)[-1] for c in callers)}" if callers else CALLED

    rows = {
        f.qualname: {"step": f.step} | {s: cell(f.qualname, s) for s in STAGES} for f in CATALOGUE
    }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("function")


def _warnings(warnings: Sequence[str]) -> str:
    """A stage's warnings without their logger names, on one line."""
    return " | ".join(w.split(": ", 1)[-1] for w in warnings) or "—"


def user_saw(outcome: str) -> str:
    """What a stage's caller met, whole and short: ``ok``, or the exception's class and the
    API's own message (``BadRequestError 400: No tool call found ...``), never cut."""
    kind, _, detail = outcome.partition(" - ")
    found = re.search(r"'message': '((?:[^'\\]|\\.)*)'", detail)
    if not found:
        return outcome
    name, _, code = kind.partition(": Error code: ")
    return f"{name.rsplit('.', 1)[-1]} {code}: {found.group(1)}".replace("  ", " ")


def stage_frame(trace: Trace) -> pd.DataFrame:
    """What each stage of the traced run did: compaction requests, stored items, outcome."""
    rows = {
        s.name: {
            "compaction requests": s.compaction_requests,
            "stored after": ", ".join(s.stored),
            "user saw": user_saw(s.outcome),
            "warnings": _warnings(s.warnings),
        }
        for s in trace.stages
    }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("stage")


CHECK = "drop_orphan_function_calls("  # the pairing check, as _run_compaction_locked calls it


def callers_frame(traces: Mapping[str, Trace], qualname: str) -> pd.DataFrame:
    """Who called one function at each stage, in each of several releases' traced runs."""
    rows = {
        version: {s: ", ".join(trace.callers[qualname].get(s, ())) or NOT_CALLED for s in STAGES}
        for version, trace in traces.items()
    }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("release")


def check_block(extract: Extract, version: str) -> tuple[int, str]:
    """Where ``_run_compaction_locked``'s pairing check sits in its extract from a release: the
    header of the block it runs under, as line number and text."""
    locked = entry("_run_compaction_locked")
    mark = next(m for m in locked.marks if m.text == CHECK)
    lines = mark_lines(extract, mark)
    if not lines:
        raise MechanismError(f"{version}: {locked.qualname} has no {CHECK}")
    return enclosing(extract, lines[0])


def moved_check(version: str, context: int = 1) -> str:
    """The block the pairing check moved into, quoted from a recorded release's
    ``_run_compaction_locked`` (``catalogue.MOVED_CHECK``), with a line around each mark."""
    extract = load_record().release(version).functions[MOVED_CHECK.qualname]
    return excerpt(extract, MOVED_CHECK, version, context)


def step_excerpts(
    step: Step, extracts: dict[str, Extract], version: str, only: Sequence[str] = ()
) -> str:
    """Every catalogued function of one step, as excerpts from the given extracts (``only``:
    just the functions with those qualified names, so a notebook quotes what its lesson needs)."""
    return "\n\n---\n\n".join(
        excerpt(extracts[f.qualname], f, version)
        for f in CATALOGUE
        if f.step == step and (not only or f.qualname in only)
    )


def change_frame(old: str, new: str) -> pd.DataFrame:
    """Each catalogued function between two recorded releases: absent, unchanged, or the
    number of lines the diff changes."""
    record = load_record()
    rows = {}
    for function in CATALOGUE:
        before = record.release(old).functions[function.qualname]
        after = record.release(new).functions[function.qualname]
        changed = _changed(_numbered_hunks(before, after, 0))
        if before.status == after.status == "absent":
            word = "absent in both"
        elif after.status == "absent":
            word = f"absent in {new}"
        elif before.status == "absent":
            word = f"new in {new}"
        else:
            word = f"{changed} lines changed" if changed else "unchanged"
        rows[function.qualname] = {"step": function.step, f"{old} → {new}": word}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("function")


def era_stages(versions: Sequence[str]) -> pd.DataFrame:
    """The traced run in several recorded releases: each stage's compaction requests and the
    lines the SDK logged, side by side."""
    record = load_record()
    columns: dict[str, dict[str, object]] = {}
    for version in versions:
        stages = record.release(version).trace.stages
        columns[f"{version} compaction requests"] = {s.name: s.compaction_requests for s in stages}
        columns[f"{version} user saw"] = {s.name: user_saw(s.outcome) for s in stages}
        # r16: "warning" held the log of a refused request too, not only warnings
        columns[f"{version} SDK log"] = {s.name: _warnings(s.warnings) for s in stages}
    return pd.DataFrame(columns).rename_axis("stage")


def boundary_frame(versions: Sequence[str]) -> pd.DataFrame:
    """The report's case across each boundary, in several recorded releases: per stage the
    compaction requests, what the ownership gate saw at each append and compaction (the
    generation the run read at, or holds, against the session's), and the warning logged."""
    record = load_record()
    rows = {}
    for version in versions:
        for boundary, trace in record.release(version).traces.items():
            for stage in trace.stages:
                rows[(version, boundary, stage.name)] = {
                    "compaction requests": stage.compaction_requests,
                    "the ownership gate saw": "; ".join(trace.generations.get(stage.name, ()))
                    or NOT_CALLED,
                    "warnings": _warnings(stage.warnings),
                }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    return frame.rename_axis(["release", "boundary", "stage"])


def outcome_kind(found: Outcome) -> str:
    """An experiment's outcome in a few words, without why a run did not run."""
    if found.verdict == FIXED:
        return "every case holds"
    if found.verdict == BUG:
        return f"bug: {len(found.cases)} cases violate {len(found.violated)} invariants"
    return "does not run"


def outcome_word(found: Outcome) -> str:
    """An experiment's outcome in a few words, for a table cell (with why it did not run)."""
    if found.verdict in (FIXED, BUG):
        return outcome_kind(found)
    reason = found.reason.removeprefix(IMPORT_FAILED)
    return f"does not run ({reason[:60]}{'…' if len(reason) > 60 else ''})"


def group_names(names: Sequence[str], number: Mapping[str, int]) -> str:
    """A widened revert's other hunks in a few words: the path's by number (``3, 12-15``), the
    other modules' by file and number (``run_internal/run_loop.py#4,7-9``)."""
    ours = ranges([number[name] for name in names if name in number]).replace(",", ", ")
    others: dict[str, list[int]] = {}
    for name in names:
        if name not in number:
            path, _, hunk = name.partition("#")
            others.setdefault(path.removeprefix("agents/"), []).append(int(hunk))
    folded = [f"{path}#{ranges(hunks)}" for path, hunks in others.items()]
    return ", ".join([ours] * bool(ours) + folded)


def widened(together: Sequence[str], outcome: Outcome, number: Mapping[str, int]) -> str:
    """A widened revert's cell: what went with it and what it found (``—`` when not widened)."""
    if not together:
        return "—"
    return f"with {group_names(together, number)}: {outcome_word(outcome)}"


def anatomy_frame(found: Anatomy) -> pd.DataFrame:
    """Each hunk of the diff on the bug's path: its number (as the search names sets), its
    lines, its first changed line, what reverting it from the newer release does (alone, and
    with the hunks that need it when it does not run alone: the path's by number, the other
    modules' by file), and whether the minimal fix holds it."""
    number = found.numbers
    rows = {}
    for hunk in found.hunks:
        rows[hunk.name] = {
            "n": number[hunk.name],
            "lines": hunk.span,
            "first changed line": hunk.first_line[:70],
            f"reverted alone from {found.new}": outcome_word(hunk.reverted),
            "reverted with what needs it": widened(hunk.together, hunk.reverted_together, number),
            "in the minimal fix": "yes" if hunk.in_minimal_fix else "",
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("hunk")


def modules_frame(found: Anatomy) -> pd.DataFrame:
    """The package's other changed modules (off the bug's path), each reverted whole from the
    newer release: its hunks, the outcome alone, and with what needs it when it does not run."""
    number = found.numbers
    rows = {}
    for module in found.modules:
        rows[module.path.removeprefix("agents/")] = {
            "hunks": module.hunks,
            f"reverted from {found.new}": outcome_word(module.reverted),
            "reverted with what needs it": widened(
                module.together, module.reverted_together, number
            ),
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("module")


def judged(hunk: HunkRecord) -> str:
    """What reverting a hunk from the newer release did: alone, or, when alone does not run,
    widened by the hunks that need it (``widened: every case holds``); ``does not run, even
    widened`` when neither ran, so the experiment cannot judge it alone."""
    if hunk.reverted.verdict in (FIXED, BUG):
        return outcome_kind(hunk.reverted)
    if hunk.reverted_together.verdict in (FIXED, BUG):
        return f"widened: {outcome_kind(hunk.reverted_together)}"
    return "does not run, even widened"


def hunks_by_outcome(found: Anatomy, names: Sequence[str] | None = None) -> pd.DataFrame:
    """The hunks (all, or those named) by file, what their revert did (``judged``) and whether
    the minimal fix holds them, each group's hunks by their numbers: the hunk table in one
    comment's room. A file is named by its path under ``agents/`` (``run_internal/items.py``,
    not ``items.py``, which is another module: ``modules_by_outcome`` names it so too)."""
    number = found.numbers
    chosen = [h for h in found.hunks if names is None or h.name in names]
    rows = pd.DataFrame(
        {
            "file": [h.path.removeprefix("agents/") for h in chosen],
            f"reverted from {found.new}": [judged(h) for h in chosen],
            "in the minimal fix": ["yes" if h.in_minimal_fix else "" for h in chosen],
            "n": [number[h.name] for h in chosen],
        }
    )
    keys = list(rows.columns[:-1])
    numbers = rows.groupby(keys, sort=False)["n"].agg(lambda n: ranges(list(n)).replace(",", ", "))
    return numbers.to_frame("hunks")


def modules_by_outcome(found: Anatomy) -> pd.DataFrame:
    """The other modules by outcome, reverted alone and with what needs them: how many
    modules, how many hunks they hold, and which modules (``agents/`` left out)."""
    rows = pd.DataFrame(
        {
            "reverted alone": [outcome_kind(m.reverted) for m in found.modules],
            "with what needs it": [
                outcome_kind(m.reverted_together) if m.together else "skipped: no module needs it"
                for m in found.modules
            ],
            "hunks": [m.hunks for m in found.modules],
            "which": [m.path.removeprefix("agents/") for m in found.modules],
        }
    )
    grouped = rows.groupby(["reverted alone", "with what needs it"], sort=False)
    return grouped.agg(
        modules=("hunks", "count"), hunks=("hunks", "sum"), which=("which", ", ".join)
    )


def changes_no_verdict(reverted: Outcome, together: Outcome) -> bool:
    """Whether a revert (alone, or widened by what it needs) ran and kept every case fixed."""
    return FIXED in (reverted.verdict, together.verdict)


def not_the_fix(found: Anatomy) -> list[str]:
    """The hunks shown to change no verdict: reverted from the newer release (alone, or with
    the hunks that need it), every case still holds."""
    return [
        h.name
        for h in found.hunks
        if not h.in_minimal_fix and changes_no_verdict(h.reverted, h.reverted_together)
    ]


def not_reverted(found: Anatomy) -> list[str]:
    """The hunks outside the fix whose revert did not run, alone or widened: the experiment
    cannot judge them one by one (the minimal fix and ``rest_reverted`` judge them together)."""
    return [
        h.name
        for h in found.hunks
        if not h.in_minimal_fix and not changes_no_verdict(h.reverted, h.reverted_together)
    ]


def _word(found: Outcome) -> str:
    return outcome_kind(found)


def kind_row(found: Anatomy, kind: KindAnatomy) -> dict[str, object]:
    """One kind's row."""
    number = found.numbers
    fix = group_names(kind.minimal_fix, number) or "none"
    return {
        "cases": len(kind.cases),
        "absent in": "; ".join(f"{v}: {why}" for v, why in kind.absent.items()) or "—",
        found.old: _word(kind.old_outcome),
        found.new: _word(kind.new_outcome),
        "minimal fix": fix,
        f"{found.old} + it": _word(kind.minimal_outcome),
        "1-minimal": "yes" if kind.one_minimal else "no",
        "sets ddmin tried": len(kind.search),
        function_fix_column(found): _word(kind.with_function_fix),
        f"reverted from {found.new}, bug back": bug_back_words(found, kind) or "none",
        f"{found.new} - all but its fix": _word(kind.rest_reverted),
    }


def function_fix_column(found: Anatomy) -> str:
    """The kinds table's column of the older release with the function tool's minimal fix alone,
    named by its hunks (r16: "the function fix" was defined only in a code comment)."""
    hunks = group_names(found.minimal_fix, found.numbers)
    return f"{found.old} + hunk{'s' if len(found.minimal_fix) > 1 else ''} {hunks} alone"


def bug_back_words(found: Anatomy, kind: KindAnatomy) -> str:
    """The hunks whose revert brings the kind's bug back, by number; one that does so only
    widened names the hunks of the kind's minimal fix its widening took with it
    (``21 (widened, it takes 3)``)."""
    number = found.numbers
    together = {h.name: h.together for h in found.hunks}
    words = []
    for name in kind.bug_back:
        taken = [n for n in together.get(name, ()) if n in kind.minimal_fix]
        alone = kind.reverted.get(name) == BUG
        words.append(
            f"{number[name]}"
            if alone or not taken
            else f"{number[name]} (widened, it takes {group_names(taken, number)})"
        )
    return ", ".join(words)


def kinds_frame(found: Anatomy) -> pd.DataFrame:
    """Every kind's row, indexed by the kind's name; a column that says nothing for any kind
    (every cell ``—``) is left out."""
    rows = {kind.label: kind_row(found, kind) for kind in found.kinds}
    frame = pd.DataFrame.from_dict(rows, orient="index").rename_axis("approval kind")
    return frame.loc[:, ~(frame == "—").all()]
