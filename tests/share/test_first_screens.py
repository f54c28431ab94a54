"""First screens: the words a notebook's answer rests on are defined in that notebook, before
its answer (a reader reads one notebook alone)."""

from __future__ import annotations

import json

import pytest

from approval_compaction import paths

ANSWER = "<!-- answer:start -->"


def first_screen(stem: str) -> str:
    """The notebook's markdown before its answer, on one line."""
    cells = json.loads((paths.ROOT / "notebooks" / f"{stem}.ipynb").read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return " ".join(text.partition(ANSWER)[0].split())


@pytest.mark.parametrize(
    ("stem", "terms"),
    [
        (
            "10-after-the-fix",
            [
                "hosted MCP approval request",
                "compaction mode",
                "over HTTP",
                "stand-in",
            ],
        ),
        (
            "12-appendix-the-fix-taken-apart",
            ["scripted model", "hunk", "invariant", "hosted MCP approval request"],
        ),
        ("02-stored-vs-sent", ["over HTTP", "stand-in", "responses stored"]),  # r20: no hook
        (
            "03-inside-the-sdk",
            ["automatic compaction", "model exchange", "hosted MCP approval request"],
        ),
    ],
    ids=["10", "12", "02", "03"],
)
def test_first_screen_defines_the_words_its_answer_uses(stem: str, terms: list[str]) -> None:
    """Issue 61 (r6): 10 defined *compaction* only after its test; 12's answer used words
    (pairing check, partial history, automatic compaction, the kinds of tool) defined only in
    03 and 08."""
    screen = first_screen(stem)
    assert [t for t in terms if f"*{t}*" not in screen] == []


def test_appendix_answer_names_the_branch_by_the_term_12_defines() -> None:
    """12's computed answer said "partial history", a term defined nowhere; r5: its answer says
    what the fix moved in plain words (no branch's name, whose term the body would define)."""
    from approval_compaction.lab.findings.headlines import appendix
    from approval_compaction.lab.findings.load import load_findings

    answer = appendix(load_findings(paths.DATA))
    # r20: plain words (each term on the first screen adds a line to its terms block)
    assert "moves the check that each call has its output to where every compaction runs it" in (
        answer
    )
    assert "partial" not in answer.split("**What to do.**")[0]


def test_your_session_names_its_example_as_notebook_07s_store() -> None:
    """Issue 61 (r6): 15's default example repeated 07 as if it were its own finding; its answer
    names the example as 07's poisoned store (the same ``poison`` run), in one line, and (r13)
    the session id as the example's; the body's first section says so before its code."""
    from approval_compaction.lab.findings.headlines import your_session
    from approval_compaction.lab.findings.load import load_findings

    answer = your_session(load_findings(paths.DATA))
    # r20: in notebook 07's words (its *compacted pause*), the file and id as the code sets them
    assert answer.startswith(
        "**Answer** (the example: notebook 07's compacted pause store, session `case-session` of "
        "`examples/poisoned.db`, made on openai-agents "
    )
    assert "`case-session` (poisoned.db) is" not in answer  # named once, in the label
    # r21: what a compacted pause is, said where the reader is asked to predict (07's words)
    said = " ".join(_markdown("15-your-session").split())
    assert (
        "*compacted pause* store (compacted at an approval pause in `input` mode, then "
        "resumed)" in said
    )
    seven_md = _markdown("07-am-i-affected")
    assert "*compacted pause*" in seven_md and "case-session" not in seven_md
    # r17: the release that stored the session told from the one that ran it, and whether
    # upgrading alone lets it go on, by 07's table (poisoned refused on the fixing release too)
    from approval_compaction.lab.findings.headlines import NEXT_TURN_TABLE_07

    assert "; next question run here on " in answer
    said = f"(it does not repair a stored session: notebook 07's table *{NEXT_TURN_TABLE_07}*)"
    assert said in answer  # r18: one verb for the doctor's action (repair), not heal
    assert "heal" not in answer.split("**What to do.**")[0]
    # r18: why the next question ran on that release, and the other modes' sameness scoped
    assert ", the release this repository installs, `input` mode, over HTTP" in answer
    assert "answered as `input`" not in answer and "got the same HTTP status" in answer
    seven = (paths.DATA / "rendered" / "07-am-i-affected.md").read_text()
    assert f"**{NEXT_TURN_TABLE_07} (" in seven


def test_your_session_gives_its_own_action_on_a_poisoned_store() -> None:
    """Issue 61 (r7): 15 had no maintainer's action; r5 put notebook 10's patch in its body, which
    15 never runs (r14: "an unsupported aside"). r14: its action is its own: the setting its
    first code cell holds, then the doctor's repair for a poisoned session (notebook 07)."""
    from approval_compaction.lab.findings.headlines import (
        OWN_ACTION_15,
        REPAIR_TABLE_07,
        your_session,
    )
    from approval_compaction.lab.findings.load import load_findings

    found = load_findings(paths.DATA)
    said = your_session(found)
    assert f"\n\n{OWN_ACTION_15}\n\nNew sessions: upgrade to {found.fixed_in}" in said
    # r16: the README's precondition before the repair, the placeholders said, the export's way
    # back into a Python session; r18: new sessions a pointer to 06 (this page tests no
    # workaround), and the run state to discard a stuck session's, as 07 and the README say
    repair = OWN_ACTION_15.index("doctor repair")
    # r20: resumed before the repair, not discarded (07's late-answer table)
    stuck = "If the doctor calls it stuck, resume the paused run you saved to approve later"
    assert 0 < OWN_ACTION_15.index(stuck) < repair
    assert "before the repair, never after: resumed after it, it poisons the session" in (
        OWN_ACTION_15
    )
    readme = (paths.ROOT / "README.md").read_text().splitlines()
    assert all("stuck" in line for line in readme if "before the repair" in line)
    assert not any("discard" in line for line in readme)
    assert "`<store>`: the SQLite file's path or a database URL" in OWN_ACTION_15
    assert "`await session.clear_session()`, then `await session.add_items(" in OWN_ACTION_15
    # r22: a maintainers' line (15 had none): where the SDK side of a poisoned store is shown
    # r24: the patch's release, and its limit 10's poisoned rows show, said with the pointer
    assert said.rstrip().endswith(
        "notebook 06 says what to wrap the session in, before and after upgrading. SDK "
        f"maintainers: notebook 10's {found.fixed_in} patch lets such a store be answered; in "
        "`previous_response_id` mode it then compacts none of ten questions (its table's "
        "poisoned rows)."
    )
    # r24: whether the repair touches a call still awaiting its decision
    assert "it needs no repair (the repair leaves that call as it is)." in OWN_ACTION_15
    # r22: the id in the error text said where first read, the store's condition (09) with it
    answer = said.split("**What to do.**")[0]
    assert "for the paused call's orphan output (HTTP 400: " in answer
    assert "arises only if the real API compacts at the pause as the stand-in does" in answer
    assert "hosted MCP" not in said
    assert "Set `source` and `session_id` (first code cell)" in OWN_ACTION_15
    # r15: one session (not `--all`), the backup said, and the JSON export's command
    assert "doctor repair <store> --session-id <id> --apply` repairs a poisoned or stuck" in (
        OWN_ACTION_15
    )
    assert "--all" not in OWN_ACTION_15 and "the command backs the store up first" in OWN_ACTION_15
    assert "doctor items <export> --output repaired.json` repairs it" in OWN_ACTION_15
    seven = (paths.DATA / "rendered" / "07-am-i-affected.md").read_text()
    assert f"**{REPAIR_TABLE_07} (" in seven
    assert f"*{REPAIR_TABLE_07}*" in _markdown("15-your-session")  # r20: the body points to it
    assert "It is **poisoned**" in said  # the diagnosis the repair is for
    body = _markdown("15-your-session").partition("<!-- answer:end -->")[2]
    assert "notebook 10's patch" not in body
    code = json.loads((paths.ROOT / "notebooks" / "15-your-session.ipynb").read_text())["cells"]
    first = next("".join(c["source"]) for c in code if c["cell_type"] == "code")
    assert first.startswith("source = ") and "\nsession_id = " in first


def _markdown(stem: str) -> str:
    cells = json.loads((paths.ROOT / "notebooks" / f"{stem}.ipynb").read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_exploration_answer_scopes_the_lost_call_to_its_mode() -> None:
    """Issue 61 (r7): 08's answer said every kind loses its pending call on 0.23.1, while its
    own table shows the search's previous_response_id conversation refused at the pause
    instead: the answer names each mode, from the committed searches."""
    from approval_compaction.lab.findings.headlines import exploration
    from approval_compaction.lab.findings.load import load_findings

    answer = exploration(load_findings(paths.DATA))
    # r15: "drops the call" was shown only where the output was then stored alone: the answer
    # says what compaction_input_complete shows (the call taken while waiting), per mode
    assert "on 0.23.1 in `input` mode: a *search*" in answer
    # r21: "the call waiting for its output" in the first screen's fewer words
    assert "compaction at the pause taking the waiting call of every kind" in answer
    # r12: the hosted MCP request broke only compaction_input_complete in the search; the
    # answer no longer says it "loses its pending call" as the other kinds do (r14: nor that it
    # is spared; r15: "a gap in the search" left that open: it says what was not kept)
    # r19: "(no such conversation kept)" read as safe or as unsearched; r20: "this page cannot
    # say" against 12's four hosted MCP cases breaking `stored_history_paired`: 12 says it
    assert "cannot say" not in answer
    # r22: that parenthesis read as "see also": it says this search missed what 12 shows
    # r25: it says in plain words what this search missed and 12 shows
    assert " (this search stored no hosted MCP approval request's answer alone: notebook 12 " in (
        answer
    )
    # r14: the refusal is scoped to the kind the search shows refused, and `auto` mode is not
    # said to be spared (r15: nor said to break as another mode does, which 08 does not show)
    # r18: the refusal is scoped to the release that showed it
    assert "On 0.23.1 in `previous_response_id` mode, a function tool's pause is refused" in answer
    assert "does not answer for `auto` mode, the default" in answer
    assert "no break" not in answer.lower()
    # r25: "none shows a break" read as the default being safe: 07's refusals are pointed to
    assert "notebook 07 shows its pause refused on 0.23.1" in answer
    # r19: "it keeps each break once, in the first mode that showed it" was taken back by the
    # body (few `auto` conversations drawn); r20: the filing rule and the few draws are both
    # said in the body, where the tables they explain are
    assert "first mode that showed it" not in answer and "whatever its kind" not in answer
    body = " ".join(_markdown("08-exploration").split())
    assert "a pair it breaks may be filed first in another mode, and 0.23.1's search drew few" in (
        body
    )


def test_inside_the_sdk_defines_automatic_compaction_as_the_sdk_sets_it() -> None:
    """Issue 61 (r7): 03 defined automatic compaction as the one the hook says yes to, while
    the runner marks every compaction it asks for after a write as automatic and the hook (or
    the default trigger) decides afterwards; 01 and 07 compact with the default trigger. 03
    now says what the pinned release's code does. Round 5: the meaning is the glossary's, in
    03's first terms block; 03's body sets it against a `run_compaction()` call."""
    import inspect

    from agents.memory.openai_responses_compaction_session import (
        OpenAIResponsesCompactionSession,
    )
    from agents.run_internal import session_persistence

    from approval_compaction.lab.share.glossary import BY_NAME

    marks = inspect.getsource(session_persistence._apply_post_write_compaction)
    assert "_session_compaction_is_automatic = True" in marks
    assert "should_trigger_compaction" not in marks  # marked before any hook is asked
    decides = inspect.getsource(OpenAIResponsesCompactionSession._run_compaction_locked)
    assert decides.index("is_automatic =") < decides.index("self.should_trigger_compaction(")
    meaning = BY_NAME["automatic compaction"].meaning
    assert "after a turn (openai-agents: the session does)" in meaning  # r14's shorter meaning
    screen = first_screen("03-inside-the-sdk")
    assert " ".join(BY_NAME["automatic compaction"].line.split()) in screen
    # r25: the body's sentence repeated the 0.24.0 excerpt's note on `if is_automatic:`: cut,
    # the note (rendered from the committed record) sets it against `run_compaction()`
    rendered = (paths.DATA / "rendered" / "03-inside-the-sdk.md").read_text()
    assert "not a run_compaction() the application calls itself" in " ".join(rendered.split())
    assert "says yes; in the code, `is_automatic` is then true" not in screen
