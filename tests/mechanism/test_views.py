"""The views flag marked lines at their file line numbers and diff with file line numbers."""

from __future__ import annotations

import re
from dataclasses import replace

from approval_compaction.lab.mechanism.anatomy import BUG, FIXED, load_anatomy
from approval_compaction.lab.mechanism.catalogue import ERA, NEWEST, PINNED, entry
from approval_compaction.lab.mechanism.permalink import permalink
from approval_compaction.lab.mechanism.record import recorded_extract, recorded_release
from approval_compaction.lab.mechanism.source import ABSENT, Extract, mark_lines, numbered
from approval_compaction.lab.mechanism.views import (
    FLAG,
    GAP,
    change_frame,
    check_block,
    excerpt,
    function_fix_column,
    kinds_frame,
    outcome_kind,
    source_diff,
    trace_frame,
)

LOCKED = entry("_run_compaction_locked")


def test_views_excerpt_flags_each_marked_line_with_its_number() -> None:
    found = recorded_extract(PINNED, LOCKED.qualname)
    text = excerpt(found, LOCKED, PINNED)
    flagged = {int(n) for n in re.findall(rf"^ *(\d+) {FLAG} ", text, re.M)}
    expected = {n for mark in LOCKED.marks for n in mark_lines(found, mark)}
    assert expected and expected <= flagged
    assert GAP in text


def test_views_excerpt_quotes_only_the_marked_lines_and_links_the_function_at_the_tag() -> None:
    """A listing of the whole function made notebook 03 too long for one comment (issue 23)."""
    found = recorded_extract(PINNED, LOCKED.qualname)
    text = excerpt(found, LOCKED, PINNED)
    quoted = {int(n) for n in re.findall(r"^ *(\d+) ", text, re.M)}
    assert quoted == {n for mark in LOCKED.marks for n in mark_lines(found, mark)}
    assert "<details>" not in text
    last = found.first_line + len(found.source.splitlines()) - 1
    whole = permalink(PINNED, found.path, found.first_line, last)
    assert f"]({whole})" in text and f"/blob/v{PINNED}/src/agents/" in whole
    lines = dict(numbered(found))
    for number in quoted:  # each quoted line is the file's, at its number, and linked
        assert lines[number].strip() in text
        assert f"[{number}]({permalink(PINNED, found.path, number)})" in text


def test_views_excerpt_of_an_absent_function_says_so() -> None:
    absent = Extract(status=ABSENT, path="", first_line=0, source="")
    assert excerpt(absent, LOCKED, "0.22.0").endswith("absent in 0.22.0.")


def test_views_diff_hunks_carry_file_line_numbers() -> None:
    text = source_diff(LOCKED.qualname, PINNED, NEWEST)
    old, new = (recorded_extract(v, LOCKED.qualname) for v in (PINNED, NEWEST))
    first = re.search(r"^@@ -(\d+),\d+ \+(\d+),\d+ @@", text, re.M)
    assert first is not None and "```diff" in text
    a, b = int(first.group(1)), int(first.group(2))
    assert old.first_line < a < old.first_line + len(old.source.splitlines())
    assert new.first_line < b < new.first_line + len(new.source.splitlines())
    assert "+            if (" in text  # the check, no longer nested in the snapshot branch


def test_views_change_frame_finds_the_function_the_fix_changed_and_the_gate_0_22_1_added() -> None:
    fix = change_frame(PINNED, NEWEST)[f"{PINNED} → {NEWEST}"]
    assert fix[LOCKED.qualname].endswith("lines changed")
    era = change_frame(*ERA)[f"{ERA[0]} → {ERA[1]}"]
    assert era["OpenAIResponsesCompactionSession._run_compaction"] == f"new in {ERA[1]}"


def test_views_check_block_is_the_block_the_pairing_check_runs_under() -> None:
    pinned = check_block(recorded_extract(PINNED, LOCKED.qualname), PINNED)
    assert pinned[1] == "if snapshot is not None and (not complete or suffix_start > 0):"
    assert check_block(recorded_extract(NEWEST, LOCKED.qualname), NEWEST)[1] == "if is_automatic:"


def test_views_trace_frame_marks_calls_per_stage() -> None:
    frame = trace_frame(recorded_release(PINNED).trace)
    assert frame.loc[LOCKED.qualname, "pause"] == "called"
    assert frame.loc[LOCKED.qualname, "resume"] == "·"


def test_views_trace_frame_names_the_pairing_checks_caller_at_the_pause() -> None:
    """Issue 61: the check's row said `called` at the pause while the answer said compaction
    skips it; named, its cell says who called it, and in 0.23.1 that is not compaction."""
    check = "drop_orphan_function_calls"
    old = trace_frame(recorded_release(PINNED).trace, [check])
    assert old.loc[check, "pause"] == "by prepare_input_with_session"
    assert old.loc[LOCKED.qualname, "pause"] == "called"  # a function not named says called
    new = trace_frame(recorded_release(NEWEST).trace, [check])
    assert "_run_compaction_locked" in new.loc[check, "pause"]


def test_views_moved_check_quotes_the_is_automatic_block_of_the_newest_release() -> None:
    from approval_compaction.lab.mechanism.views import moved_check

    text = moved_check(NEWEST)
    header, check = (
        re.search(rf"(\d+) ▶ *{re.escape(t)}", text)
        for t in (
            "if is_automatic:",
            "drop_orphan_function_calls(",
        )
    )
    assert header and check and int(header.group(1)) < int(check.group(1))
    assert f"/blob/v{NEWEST}/" in text and "▶ line" in text


def test_views_moved_check_quotes_the_check_at_the_level_of_the_partial_branch() -> None:
    """Issue 61 (r11): the excerpt quoted `drop_orphan_function_calls(` without the `if (` it is
    the condition of, so it read one level deeper than the partial-snapshot branch, as if still
    inside it. The check's own `if` is quoted at that branch's indentation."""
    from approval_compaction.lab.mechanism.views import moved_check

    quoted = moved_check(NEWEST, context=0).split("```text\n")[1].split("```")[0]
    indent = {
        what: len(m.group(1))
        for what, m in (
            (w, re.search(rf"^\d+ ▶( *){re.escape(t)}", quoted, re.M))
            for w, t in (
                ("partial", "if snapshot is not None and (not complete"),
                ("check if", "if ("),
                ("check", "drop_orphan_function_calls("),
            )
        )
        if m
    }
    assert indent["check if"] == indent["partial"] < indent["check"]


def test_views_boundary_frame_shows_each_release_boundary_and_stage() -> None:
    from approval_compaction.lab.mechanism.views import boundary_frame

    frame = boundary_frame([PINNED, NEWEST])
    assert {(r, b) for r, b, _ in frame.index} == {
        (v, b) for v in (PINNED, NEWEST) for b in ("json", "memory")
    }
    resume = frame.loc[(PINNED, "memory", "resume")]
    assert "append: run read at" in resume["the ownership gate saw"]
    assert "Skipped compaction" in resume["warnings"]


def test_views_anatomy_frame_and_what_is_not_the_fix() -> None:
    from approval_compaction.lab.mechanism.anatomy import FIXED, load_anatomy
    from approval_compaction.lab.mechanism.views import anatomy_frame, not_the_fix

    found = load_anatomy()
    frame = anatomy_frame(found)
    assert list(frame.index) == [h.name for h in found.hunks]
    assert set(frame.index[frame["in the minimal fix"] == "yes"]) == set(found.minimal_fix)
    others = not_the_fix(found)
    assert others and not set(others) & set(found.minimal_fix)
    by_name = {h.name: h for h in found.hunks}
    assert all(FIXED in (by_name[n].reverted.verdict, by_name[n].reverted_together.verdict)
               for n in others)  # fmt: skip


def test_views_notebook_account_every_other_change_to_the_compaction_session_is_not_the_fix() -> (
    None
):
    """Notebook 03 says the compaction session's other hunks (the hosted-MCP check, the atomic
    replacement) change no verdict, and the fix is one hunk of that file."""
    from approval_compaction.lab.mechanism.anatomy import load_anatomy
    from approval_compaction.lab.mechanism.views import not_the_fix

    found = load_anatomy()
    session = [h.name for h in found.hunks if h.path.endswith("compaction_session.py")]
    assert len(found.minimal_fix) == 1 and found.minimal_fix[0] in session
    assert "items.py#3" in not_the_fix(found)  # the order of resumed tool outputs
    order = next(h for h in found.hunks if h.name == "items.py#3")
    assert "def order_current_turn_tool_outputs" in order.patch
    assert sorted(set(session) - set(found.minimal_fix)) == sorted(
        n for n in not_the_fix(found) if n in session
    )


def _numbers(cells: list[str]) -> list[int]:
    """The hunk numbers a column of ``1-3, 7`` cells lists."""
    found = []
    for cell in cells:
        for part in cell.split(", "):
            first, _, last = part.partition("-")
            found.extend(range(int(first), int(last or first) + 1))
    return sorted(found)


def test_views_hunks_and_modules_by_outcome_count_every_one_once() -> None:
    from approval_compaction.lab.mechanism.anatomy import load_anatomy
    from approval_compaction.lab.mechanism.views import (
        hunks_by_outcome,
        modules_by_outcome,
        not_the_fix,
    )

    found = load_anatomy()
    by = hunks_by_outcome(found)
    assert _numbers(list(by["hunks"])) == list(range(1, len(found.hunks) + 1))
    in_fix = [i for i, h in enumerate(found.hunks, start=1) if h.in_minimal_fix]
    assert _numbers(list(by.xs("yes", level="in the minimal fix")["hunks"])) == in_fix
    assert not [key for keys in by.index for key in keys if "(" in key]  # kinds, not reasons
    unjudged = by.xs("does not run, even widened", level=f"reverted from {found.new}")
    assert _numbers(list(unjudged["hunks"])) == [
        found.numbers[h.name]
        for h in found.hunks
        if h.reverted.verdict not in (FIXED, BUG)
        and h.reverted_together.verdict not in (FIXED, BUG)
    ]
    rest = hunks_by_outcome(found, not_the_fix(found))
    assert len(_numbers(list(rest["hunks"]))) == len(not_the_fix(found))
    assert "yes" not in set(rest.index.get_level_values("in the minimal fix"))
    modules = modules_by_outcome(found)
    assert modules["modules"].sum() == len(found.modules)
    assert modules["hunks"].sum() == sum(m.hunks for m in found.modules)
    assert not [key for keys in modules.index for key in keys if "(" in key]


def test_views_kinds_frame_one_row_per_kind_naming_its_minimal_fix_by_number() -> None:
    found = load_anatomy()
    frame = kinds_frame(found)
    assert list(frame.index) == [kind.label for kind in found.kinds]
    for kind in found.kinds:
        row = frame.loc[kind.label]
        names = [str(found.numbers[name]) for name in kind.minimal_fix]
        assert row["minimal fix"].replace(" ", "").split(",") == names
        assert row[function_fix_column(found)] == outcome_kind(kind.with_function_fix)
        assert row["cases"] == len(kind.cases)
    assert "absent in" not in frame.columns  # every kind can be made: the column says nothing


def test_views_kinds_frame_a_widened_revert_names_the_fix_hunks_it_took() -> None:
    """A hunk that brings a kind's bug back only widened says which of the kind's own fix hunks
    its widening reverted with it, so a reader does not take it for a third part of the fix."""
    from approval_compaction.lab.mechanism.views import bug_back_words

    found = load_anatomy()
    widened_only = 0
    for kind in found.kinds:
        words = bug_back_words(found, kind)
        for name in kind.bug_back:
            number = found.numbers[name]
            alone = kind.reverted.get(name) == BUG
            assert (f"{number} (widened, it takes " in words) is not alone
            widened_only += not alone
    assert widened_only  # the recorded anatomy has one: hosted MCP's hunk 21 takes hunk 3


def test_views_kinds_frame_a_kind_a_release_cannot_make_says_why() -> None:
    found = load_anatomy()
    gone = replace(found.kinds[-1], absent={found.old: "AttributeError: no HostedMCPTool"})
    frame = kinds_frame(replace(found, kinds=(gone,)))
    assert frame.loc[gone.label, "absent in"] == f"{found.old}: AttributeError: no HostedMCPTool"


def test_views_user_saw_keeps_the_apis_message_whole() -> None:
    """A stage's exception is shown with the API's own message, not cut at its status code."""
    from approval_compaction.lab.mechanism.views import user_saw

    outcome = (
        "openai.BadRequestError: Error code: 400 - {'error': {'message': 'No tool call found"
        " for function call output with call_id c1.', 'type': 'invalid_request_error'}}"
    )
    assert user_saw(outcome) == (
        "BadRequestError 400: No tool call found for function call output with call_id c1."
    )
    assert user_saw("ok") == "ok"


def test_hunks_by_outcome_names_each_file_by_its_path_under_agents() -> None:
    """Issue 61 (r7): 12's hunk table said ``items.py`` for ``run_internal/items.py`` while its
    table of modules off the path lists ``items.py`` (``agents/items.py``), another module."""
    from approval_compaction import paths
    from approval_compaction.lab.mechanism.anatomy import load_anatomy
    from approval_compaction.lab.mechanism.views import hunks_by_outcome, modules_by_outcome

    an = load_anatomy(paths.data(paths.DATA).fix_anatomy)
    on_path = set(hunks_by_outcome(an).index.get_level_values("file"))
    assert "run_internal/items.py" in on_path and "items.py" not in on_path
    off_path = ", ".join(modules_by_outcome(an)["which"]).split(", ")
    assert not on_path & set(off_path)


def test_views_step_excerpts_only_quotes_the_functions_named() -> None:
    """Issue 61 (r9): 03 quoted the ownership gate under its `compact` step, an aside notebook 12
    covers; ``only`` keeps a step's excerpts to the functions the lesson needs."""
    from approval_compaction.lab.mechanism.views import step_excerpts

    extracts = recorded_release(PINNED).functions
    whole = step_excerpts("compact", extracts, PINNED)
    some = step_excerpts("compact", extracts, PINNED, only=[LOCKED.qualname])
    assert "_run_compaction`**" in whole and "_run_compaction`**" not in some
    assert f"**`{LOCKED.qualname}`**" in some and len(some) < len(whole)


def test_era_stages_names_its_counts_compaction_requests() -> None:
    """Issue 61 (r9): 12's traced-run table headed its count "requests" and showed 0 beside the
    API's 400 at the next turn; the count is of compaction requests, and its header says so."""
    from approval_compaction.lab.mechanism.views import era_stages

    frame = era_stages(["0.22.0", "0.22.1"])
    assert "0.22.1 compaction requests" in frame.columns
    assert "0.22.1 SDK log" in frame.columns  # r16: it holds a refused request's log, not a warning
    assert not [c for c in frame.columns if c.endswith(" requests") and "compaction" not in c]
