"""Headlines: each notebook's answer line carries the values of the committed records."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from approval_compaction.lab import paths
from approval_compaction.lab.findings import headlines
from approval_compaction.lab.findings.load import Findings, load_findings
from approval_compaction.lab.findings.tables import advice, keep_where
from approval_compaction.lab.findings.verdict import BUG, CONTRACT, of
from approval_compaction.lab.plugins import plugins


@pytest.fixture(scope="module")
def found(committed: Findings) -> Findings:
    return committed


def _markdown(stem: str) -> str:
    """A notebook's markdown cells, joined: where an answer's moved paragraphs now live."""
    cells = json.loads((Path("notebooks") / f"{stem}.ipynb").read_text())["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_headlines_cover_every_notebook_by_its_number() -> None:
    """Every notebook's answer is a headline's, or its SDK folder's (``lab.plugins``)."""
    numbers = sorted(p.name[:2] for p in Path("notebooks").glob("[0-9][0-9]-*.ipynb"))
    theirs = {plugin.notebook for plugin in plugins()}
    assert sorted(headlines.HEADLINES) == [n for n in numbers if n not in theirs]
    assert theirs <= set(numbers)


def test_headlines_matrix_answer_is_the_pinned_records_count_and_choice(found: Findings) -> None:
    assert found.pinned is not None
    said = headlines.violation_matrix(found)
    assert f"{found.pinned.violating} of {found.pinned.cases} cases" in said
    # r16: the choice in the page's notation ("compaction `on`"), not the filter's `compaction=on`
    choice, _, value = found.pinned.violating_choice.partition("=")
    assert f"exactly those with {choice} `{value}`:" in said and "=" not in said.split("\n")[0]


def test_headlines_wire_answer_quotes_each_modes_refusal(found: Findings) -> None:
    """Each refusal's text, with the call id left to the reader's own: issue 51, 01's answer named
    `pending-c1` while its first output printed `call_standin_1`."""
    said = headlines.the_wire(found)
    assert "pending-c1" not in said
    # r14: the answer names the public reports that show each refusal (the table quotes the
    # messages), and the compaction request no report judges, on which `input` mode's clean
    # pause rests
    answer = said.split("**What to do.**")[0]
    for report in ("#2317", "vscode#320060", "continue#10092"):
        assert report in answer
    assert "#2322" not in answer and "#2343" not in answer  # they show no status
    # r22: the consequence for `input` mode belongs to the answer, not only the body
    # r24: "no report" read against row 3's openai/codex#5385: "for certain", and row 3 named
    assert "No report shows for certain the real API's answer to a compaction request" in answer
    # r25: the row named, not counted
    assert "(`input` mode's at the pause, the rules table's `open_function_call_in_compaction" in (
        answer
    )
    assert "refuses it, `input` mode too raises at the pause." in answer
    # r18: the orphan-output rule is the stand-in's on `/v1/responses` (its sources name no
    # endpoint), for a function call's output: the first screen said "a request" of any kind
    # r21: the endpoint's choice is said under the rules table, where row 1 shows it
    assert "and a model request holding a function call's orphan output" in answer
    body = " ".join(_markdown("09-the-wire").split())
    # r22: why row 1 is judged and row 3 not: row 1's are model requests, on the model endpoint
    # r24: "a chat's" was unclear: the clients named
    # r25: the row named, not counted
    assert "`orphan_function_call_output`'s reports come from chat clients (GitHub Copilot in" in (
        body
    )
    # r24: "No" covered only the model request's body: the compaction body is said unchecked
    assert "Is the fault made in the HTTP body? Not in the model request's:" in answer
    assert "(the compaction request's body unchecked)" in answer
    # r25: the prediction (a request carrying no items, only an id) is answered in its words
    assert "a compaction request naming only a response (no items) whose" in answer
    # r15: 09 does not show where each refusal is met (its "met at the next turn in `input`
    # mode" left out *auto, store=False*): it points to 05's table, which shows it per mode
    assert "met at the" not in answer
    assert "Notebook 05's first table shows in which mode each refusal is met." in body
    # r20: "the last three rows are what no public report shows with both the endpoint and the
    # API's answer" implied row 1's reports name the endpoint
    assert "with both the endpoint and the API's answer" not in body
    # r15: scoped to what ran where: the stand-in over HTTP, the conversion on the pinned
    # release; the reports show a 400 on an orphan output without naming the endpoint
    # r16: "the SDK's conversion" was used before its section said what it is: the answer names
    # `OpenAIResponsesModel` and what it does; "hand-off" (an Agents SDK word for something
    # else) is gone, and the orphan output, not "the call", is what passes unchanged
    opening = "**Answer** (the stand-in over HTTP; the SDK's `OpenAIResponsesModel` "
    assert answer.startswith(opening)
    # r18: the stand-in's choice said; r19: "Those two reports" followed three, and "refuses two
    # requests" denied the body's third rule: two of the requests this bug sends
    # r21: "these requests" covered the body's third rule, which no request openai-agents sends
    # meets: the two are scoped to the rules table
    assert "Of the requests openai-agents sends, the stand-in refuses two" in answer
    assert "Of these requests" not in answer
    assert "hand-off" not in said and "The SDK's conversion adds no fault" not in answer
    assert "unchanged, its orphan output among them" in answer
    # r16: the message the reports show is quoted where they are named, by their full names
    assert '"No tool call found for function call output with call_id" and an id' in answer
    assert "microsoft/vscode#320060, continuedev/continue#10092" in answer


def test_headlines_after_the_fix_leads_with_the_bug_a_fresh_session_meets(found: Findings) -> None:
    """Issue 61: notebook 10 opened with *poisoned*, a store an older release wrote (a
    maintainer answers "repair your data"). Its answer names the bugs a session meets with no
    old data, then what the SDK documents; the poisoned store is left to the notebook's table
    (r9: 10 is the page pasted into the SDK's thread, leading with the newest release's bug).
    r5: in plain words, without the situations' names (each would pull its glossary terms into
    the first screen)."""
    from approval_compaction.lab.findings.liveness import SITUATION_WORDS
    from approval_compaction.lab.releases.later_turns_patch import DOCUMENTED_LIMIT

    assert found.fixed_in is not None
    said = headlines.after_the_fix(found)
    answer = said.split("**What to do.**")[0]
    first, documented = answer.split(f" mode {headlines.DOCUMENTED_STOPS}")
    record = of(found.verdicts, found.fixed_in)
    fresh = [v for v in record.of_kind(BUG) if v.situation != "poisoned"]
    assert fresh and all(
        f"For {SITUATION_WORDS[v.situation]}, yes: {headlines.NONE_COMPACTS} in "
        f"{headlines._modes(v.modes)} mode" in first
        for v in fresh
    )
    # r15: "for good" outran the table (a request answered late compacts again)
    assert "for good" not in answer and "while the request stays unanswered" in first
    assert "ten later questions over HTTP" in answer.split("\n\n")[0]
    # r17: the table's scope (responses stored, the stand-in's compaction answer); r18: "`auto`
    # with responses stored" read as one mode, and "compacting after every turn" as a result
    assert "in each compaction mode, responses stored, the stand-in answering compaction" in answer
    assert "compacting after every turn" not in answer and "`auto` with responses" not in answer
    assert "poisoned" not in answer and "orphan output" not in answer
    modes = sorted({m for v in record.of_kind(CONTRACT) for m in v.modes})
    assert modes and first.endswith(f"In {headlines._modes(modes)}")
    # r15: the docstring's "complete coverage" was unexplained; the answer says it plainly
    assert f"as the SDK documents ({headlines.DOCUMENTED_WORDS})" in documented
    assert DOCUMENTED_LIMIT not in answer
    assert not any(f"*{v.situation}*" in answer for v in record.liveness)


def test_headlines_after_the_fix_says_what_to_do_in_the_one_vocabulary(found: Findings) -> None:
    """Issue 61 (r4, r9): the action names the test and the patch (r9: "names no path"), in the
    order a maintainer uses them. r14: the page's own action first (the maintainers it is pasted
    to), by their paths in the repository; teams get one pointer, not ``short_action``."""
    said = headlines.after_the_fix(found)
    answer, action = said.split("**What to do.**")
    test, patch = (
        p.relative_to(paths.ROOT) for p in (paths.LIVENESS_MCP_TEST, paths.LIVENESS_PATCH)
    )
    # r24: where the test goes in the SDK's suite, and which of the patch's files it tests
    assert action.index(
        f"copy the self-contained test `{test}` into the SDK's `tests/memory/` (it fails on "
        f"{found.fixed_in})"
    ) < action.index(f"apply `{patch}` (the test then passes)")
    assert action.strip().startswith("SDK maintainers:")
    # r16: teams get the README keep table's clause (06's cut table title said no action), and
    # the stores the patch leaves stopped are on the first screen
    assert "Teams using openai-agents: after upgrading, keep the workaround (" in action
    # r18: the README keep table's doctor line was left out of the teams' advice
    # r22: "affected" and the doctor were undefined on 10 (no page term): in plain words
    assert action.rstrip().endswith(
        "(notebook 06 tests it). Stores an older release wrote: notebook 07 checks and repairs "
        "them."
    )
    # r16: "Yes" is scoped to the stuck situations; a function call's approval keeps compacting
    assert "For a hosted MCP approval request nobody answers, yes:" in answer
    # r18: "there" read as the modes or the session: the modes are named
    said_modes = "A function call's approval nobody answers keeps compacting in `input` and `auto`"
    assert said_modes in answer and "compacting there" not in answer
    assert headlines.short_action(found) not in said
    assert "wherever an approval can go unanswered" not in action


def test_headlines_after_the_fix_says_what_retiring_costs(found: Findings) -> None:
    """Issue 61 (r7, r9): "retires" was undefined; then the action said the workaround retires
    the request without saying what retiring costs (a late answer stored as text, notebook 06).
    r14: 10's action no longer names the workaround (notebook 06 does, which defines it); the
    glossary's meaning still says what retiring costs."""
    from approval_compaction.lab.share.glossary import BY_NAME

    action = headlines.after_the_fix(found).split("**What to do.**")[1]
    assert "heals" not in action and "nobody will answer" not in action
    # r16: teams get the README keep table's clause, which names the workaround (its terms
    # block defines it, with what retiring costs); the action itself does not say "retire"
    assert "retire" not in action
    assert action.count("workaround") == 1 and "keep the workaround (" in action
    meaning = BY_NAME["workaround"].full
    assert "*retires* (removes) a call whose output never came" in meaning
    assert "a late answer to a retired call is stored as text" in meaning


def _cells(stem: str) -> list[dict[str, object]]:
    import json

    return list(json.loads((paths.ROOT / "notebooks" / f"{stem}.ipynb").read_text())["cells"])


def test_headlines_keep_the_workaround_states_its_costs_on_every_release(found: Findings) -> None:
    """Issue 61 (r4): 06 recommended the workaround on the affected releases without a caveat,
    while the SDK's own tests it makes fail there are the same three as on the fixing release.
    Each is now explained in the upstream-suite records, and the sentence names their causes."""
    from approval_compaction.lab.releases.upstream.results import load

    said = headlines.keep_workaround(found)
    assert "What it costs, wherever it runs" in said
    assert "past `max_rollback_items`" in said and "three more times" in said
    assert "not yet explained" not in said
    for release in ("0.23.1", found.fixed_in):
        worse = [c for c in load(release).changes if c.baseline == "passed" and not c.reason]
        assert worse == [], release
    documented = of(found.verdicts, found.fixed_in).of_kind(CONTRACT)
    assert documented and "after any call nobody answers in `previous_response_id` mode" in said


def test_headlines_upgrade_answer_follows_the_record(found: Findings) -> None:
    """The doctor's second answer says "heals" only when the record's next turn is accepted."""
    assert found.upgrade is not None
    assert "does not heal" in headlines.am_i_affected(found)
    healed = replace(found.upgrade, poisoned=found.upgrade.repaired)
    assert "2. Upgrading heals" in headlines.am_i_affected(replace(found, upgrade=healed))
    said = headlines.am_i_affected(found)
    # r20: the first screen points to section 2, whose title gives the modes and the stores
    # r22: the poisoned store was made in `input` mode, which the answer now says
    # r24: section 2's stores were made with a hook, not the question's defaults: said so
    healed_not = "2. Upgrading does not heal a stored session (section 2, its stores not made"
    assert f"{healed_not} with the defaults): on 0.24.0 the next turn of a store poisoned" in said
    assert "of a store poisoned in `input` mode is refused" in said
    # r17: the question asks about the defaults, whose store (a refused pause's) stays stuck
    assert found.upgrade.pause_failed is not None
    assert f"a store whose pause was refused stays {found.upgrade.pause_failed.stored_after}." in (
        said
    )
    # r18: that store's pause was asked by the hook, not under the defaults: not said so
    assert "under the defaults" not in said
    # r19: the stuck store's sentence stacked two relative clauses; section 1 defines the count
    assert "A store a refused pause left" not in said and "user messages aside" not in said
    # r15: "(section 2, scripted model)" mislabelled the next turn, which runs over HTTP; r16:
    # the first screen says only that (section 2 says how the stores were made), so the terms
    # block above it need not define the scripted model
    assert "scripted model" not in said


def test_headlines_keep_the_workaround_says_one_thing_where_it_is_said(found: Findings) -> None:
    """Issue 61: 06 said keep the workaround after upgrading, 05 and 09 said upgrade or wrap
    until then; one sentence now, with what the fixing release alone stops compacting after (01,
    05 and 09 now name notebook 06 for it instead of repeating it)."""
    said = headlines.keep_workaround(found)
    stuck = [v for v in of(found.verdicts, found.fixed_in).of_kind(BUG) if v.state == "stuck"]
    assert stuck and f"Keep it on {found.fixed_in}" in said
    assert all(headlines.SITUATION_WORDS[v.situation] in said for v in stuck)
    assert said not in headlines.walkthrough(found) and "notebook 06" in headlines.walkthrough(
        found
    )
    # r13: 06 says the rule in full in its own short words: the same scoped keep sentence
    # (``_keep_after``) and the costs the notebook shows (a late answer as text, restore tests)
    keep = headlines._keep_after(found).replace("*", "")  # r14: no hand-set italics
    answer = headlines.workaround(found)
    assert f"{keep[0].upper()}{keep[1:]}; drop it elsewhere (" in answer
    # r12 round: the first screen points to the costs; 06's suite section says them, once
    assert "Its costs: a late answer" in answer
    # r23: "extra reads" understated the second cost the suite section shows (three attempts);
    # r24: what is retried is the restore, and the same error is still raised
    assert "up to three tries to put the history back, then the same error" in answer
    # r24: "removed calls" before any block said what removes them
    assert "a call it removed after a later question" in answer
    assert "## Gains and costs" in " ".join(
        "".join(c["source"])
        for c in json.loads((paths.ROOT / "notebooks" / "06-workaround.ipynb").read_text())["cells"]
    )
    cells = json.loads((paths.ROOT / "notebooks" / "06-workaround.ipynb").read_text())
    prose = " ".join(" ".join("".join(c["source"]).split()) for c in cells["cells"])
    assert "a late answer to a call it retired is stored as text" in prose
    # r18: the second cost as what the session does, not only as the tests it fails
    assert "tries to put the history back up to three times, then raises the same error" in prose
    assert "the two SDK tests of a failed write to the store count that read" in prose


def test_headlines_workaround_keeps_and_drops_it_by_mode_and_kind(found: Findings) -> None:
    """r11: 06's answer said keep the workaround on the fixing release "if an approval can go
    unanswered", its closing said drop it "if late answers must stay paired". One rule now: keep
    it where the fixing release alone stops compacting (hosted MCP in every mode, any call in the
    documented mode), drop it in the other modes without hosted MCP tools."""
    said = headlines.workaround(found).split("**What to do.**")[1]
    record = of(found.verdicts, found.fixed_in).liveness
    documented = {m for v in record if v.kind == CONTRACT and v.state == "stuck" for m in v.modes}
    assert documented == {"previous_response_id"}
    keep, drop = said.split("; drop it elsewhere")
    assert f"Keep it on {found.fixed_in} where {found.fixed_in} without it stops compacting" in keep
    assert "`previous_response_id`" in keep and "`previous_response_id`" not in drop
    assert "hosted MCP approval request nobody answers, in every mode" in keep
    # r12 round: the drop advice is the rest of the modes and calls, in two words; the answer
    # says why (two costs, where it gains nothing) and the body's suite section names them
    assert drop.startswith(" (the last table and notebook 10: it gains nothing there).")
    assert "if an approval can go unanswered" not in said


def test_headlines_releases_action_speaks_of_what_05_shows(found: Findings) -> None:
    """Issue 61 (r4): 05's "What to do" was the shared paragraph, speaking of the SDK's own tests,
    which 05 never shows. r14: every page's action was the teams' paragraph, not following from
    the page's finding; 05's is its own: upgrade to the first release where no case breaks an
    invariant, and on the releases 05 finds losing the call, the workaround and the doctor,
    each a pointer (where to keep it after upgrading is 06's, not restated)."""
    assert found.releases is not None
    hit = [e for e in found.releases.eras if e.affected]
    span = f"{hit[0].span.partition('..')[0]}..{hit[-1].span.rpartition('..')[2]}"
    action = headlines.releases(found).split("**What to do.**")[1]
    assert action.startswith(f" Upgrade to {found.fixed_in}.")
    # r15: "until then" read as "drop it after upgrading": 06 says where to keep it; r20: the
    # shared keep clause, restated here, read as sparing `previous_response_id` from the MCP
    # case, and the span it advised outran the releases the workaround ran on: 06 says both
    assert (
        "Until then follow notebook 06 (the workaround, the releases it ran on, where to keep"
        in (action)
    )
    assert headlines.short_action(found).removeprefix("**What to do.** ") not in action
    assert "notebook 07 (sessions an affected release stored)" in action
    assert f"on {span}" not in action and "unanswered" not in action
    # r15: a maintainers' line, from the change 05 finds storing the orphan output; r16: it made
    # the break visible in `input` mode, it did not move a failure users met; r12 round: the
    # check's cause is the body's (its journey section), the action the sweep either side
    stored = [e for e in hit if e.orphan_stored != "never"]
    first = stored[0].span.partition("..")[0]
    # r22: "0.22.1's change" on the first screen before the body said what changed: the change
    # is named where it is used, as what a user of `input` mode meets
    assert stored != hit and f"does for {first}, where `input` mode starts failing the next" in (
        action
    )
    assert "(the section *The pending call's journey* says why)" in action
    assert "SDK's own tests" not in action and "moved the failure" not in action
    # r20: 0.23.1's twin era is no change a user meets: the answer no longer spends a sentence
    answer = headlines.releases(found).split("**What to do.**")[0]
    assert "*The next question after the refused pause*" not in answer


def test_headlines_04_and_06_give_their_own_actions(found: Findings) -> None:
    """r14: 04, 05 and 06 ended on one identical teams' paragraph that 04's finding does not
    lead to. 04 now gives the SDK maintainers' rule its body states and the cases a test of a
    fix needs, pointing teams to 06; 06 gives its rule in full and names the doctor."""
    assert found.fixed_in is not None
    action = headlines.short_action(found)
    matrix = headlines.violation_matrix(found).split("**What to do.**")[1]
    assert action not in headlines.violation_matrix(found)
    # r15: the action names where to fix and why a test needs both boundaries, citing the 06
    # table that splits compactions by boundary (it cited 06's first table, which does not)
    assert f"as {found.fixed_in} does (notebook 03)" in matrix
    assert "all sixteen cases, state kept in memory and carried as JSON both, with `python -m" in (
        matrix
    )
    # r12 round: why both boundaries is the body's, once, citing 06's table by its title
    cells = json.loads((paths.ROOT / "notebooks" / "06-workaround.ipynb").read_text())
    shown = json.dumps([c.get("outputs", []) for c in cells["cells"]])
    assert "**Compactions per case with compaction on, by boundary" in shown
    page = json.loads((paths.ROOT / "notebooks" / "04-violation-matrix.ipynb").read_text())
    prose = " ".join(" ".join("".join(c["source"]).split()) for c in page["cells"])
    # r25: "they" had no subject and the section cited showed 0.23.1: its last paragraph
    why = f"(why both: on {found.fixed_in} the two differ: *Which choices change anything*, "
    assert why + "its last paragraph)" in matrix
    # r24: the decision changes what is stored and sent (the body's table): not "nothing"
    assert "change nothing" not in headlines.violation_matrix(found)
    assert "do not change which invariants break" in headlines.violation_matrix(found)
    # r22: "with a fix ... compact at different stages" named no fix the table shows: 0.24.0
    assert "on 0.24.0 a state kept in memory compacts at the resume and one carried" in prose
    assert "*Compactions per case with compaction on, by boundary*" in prose
    # r16: the teams' part was a bare pointer; it names the upgrade, then points to 06 and 07
    assert matrix.endswith(
        f"Teams: upgrade to {found.fixed_in}; notebook 06 says what to do before and after it, "
        "notebook 07 with sessions already stored."
    )
    rule = headlines.workaround(found).split("**What to do.**")[1]
    assert rule.startswith(f" Upgrade to {found.fixed_in}")
    # r24: the README's limit of the workaround before 0.22.1, said where 06 advises it
    assert "Before 0.22.1 it still sends an unanswered hosted MCP approval request once" in rule
    assert "older releases send it once" in (paths.ROOT / "README.md").read_text()
    assert "already stored: notebook 07." in rule
    # r19: the advice on the older releases says where the workaround was run in full
    assert found.fixed is not None
    # r15/r17: the workaround's evidence before the pinned release is the regression test alone;
    # r20: "run in full" was never defined: the action says which test, and where it is shown
    pinned = ", ".join(found.fixed.releases)
    # r25: "the README's regression test" named 150 lines before 06 says what it is
    assert f"(before {pinned} only the four `json` cases of *The regression test across" in rule
    # r20: "retire it as the workaround does" named not the late answer it costs: the patch
    assert "SDK maintainers: notebook 10's patch fixes" in rule and "workaround.py" not in rule
    answer = headlines.workaround(found).split("**What to do.**")[0]
    # r16: the workaround was advised in every mode, shown in `input` mode only: the answer
    # names 06's over-HTTP table, which shows no request refused with it in any mode (r18: the
    # cell's own assert gave the answer before the table: the table's rows are read here)
    # r22: "those cases ... in each compaction mode" outran the table: its cases and rows named
    assert f"Over HTTP on {pinned}, with it, each request of those 8 cases is answered" in answer
    assert "in each mode (`auto`: `store` unset)." in answer
    cell = next(c for c in cells["cells"] if "refused_by_mode" in "".join(c["source"]))
    table = "".join(t for o in cell["outputs"] for t in o.get("data", {}).get("text/markdown", []))
    modes = ("| input |", "| auto |", "| previous_response_id |")
    rows = [r for r in table.splitlines() if r.startswith(modes)]
    assert len(rows) == 3 and all(r.endswith("| none |") for r in rows)
    assert "checks" not in answer  # r15: the doctor's word; the answer counts invariants


def test_headlines_matrix_answer_names_each_broken_invariant(found: Findings) -> None:
    """r9: 04 asked which invariants break and its answer named none. r13: the answer says how
    many of those a case's own turns judge break, and points to the table under the figure,
    which names each with its meaning and the cases breaking it (notebook 04's own cell)."""
    import json

    from approval_compaction.analysis.properties import DEFINITIONS

    assert found.pinned is not None
    said = headlines.violation_matrix(found)
    broken = [i.invariant for i in found.pinned.invariants if i.violated]
    assert broken and f"{len(broken)} invariants break" in said
    assert f"({len(broken)} invariants break; the matrix below marks them)" in said
    cells = json.loads((paths.ROOT / "notebooks" / "04-violation-matrix.ipynb").read_text())
    shown = "".join(
        t
        for c in cells["cells"]
        for o in c.get("outputs", [])
        for t in o.get("data", {}).get("text/markdown", [])
    )
    meaning = {i.name: i.meaning for i in DEFINITIONS}
    # r18: the table's count of cases breaking each repeated the matrix: its order says it now
    rows = [r for r in shown.splitlines() if r.startswith("| ") and r.count("|") == 3]
    listed = [r.split(" | ")[0].removeprefix("| ") for r in rows][1:]  # the header left out
    assert set(listed[: len(broken)]) == set(broken) and "cases breaking it" not in shown
    assert all(f"| {n} | {meaning[n]} |" in shown for n in broken)


def test_headlines_releases_answer_says_auto_with_its_store_setting(found: Findings) -> None:
    """r9: 05 said "in `auto` mode the pause fails" without the store setting that decides it,
    and "no request is refused ... and the next turn fails" in one clause."""
    said = headlines.releases(found)
    assert "`auto` mode with responses stored and in" in said  # r15: read as one mode
    assert "responses are kept" not in said  # r21: the glossary's name for the setting
    # r20: what a user meets, not what the stand-in refuses, each in its own clause
    assert "the pause fails: nothing to approve. In `input` mode" in said
    assert "the stand-in refuses nothing" not in said


def test_headlines_exploration_answers_its_question_with_only_what_its_tables_show(
    found: Findings,
) -> None:
    """Issue 61 (r7): 08's answer went past its question (two paragraphs on 0.24.0's liveness,
    the search's method), and placed the hosted MCP stall in modes and on kinds its own tables
    do not show; it now opens with the question's answer and keeps liveness to one sentence
    whose kinds and modes are its tables' rows. (r4: it no longer names a mode for the MCP
    stall at all, so it cannot contradict the sweep's modes in 05, 06 and 10.)"""
    said = headlines.exploration(found)
    answer = said.split("**What to do.**")[0]
    # r5: the question asks whether the other kinds lose their call too: yes, scoped
    assert answer.startswith("**Answer** (openai-agents 0.23.1 and 0.24.0, ")
    # r18: the refused pause is scoped to the release the search kept it on
    assert "On 0.23.1 in `previous_response_id` mode, a function tool's pause is refused" in answer
    # r16: "Yes, on 0.23.1" was broader than the evidence, in `input` mode only
    assert "scripted model). Yes, on 0.23.1 in `input` mode: " in answer
    assert "shrunk" not in answer and "The search's rows show" not in answer
    # r5: one paragraph, and no liveness claim the body's tables carry (r4's MCP stall modes)
    # r17: at most 80 words a paragraph: the answer's three findings each in its own paragraph
    # r18: four, with the refusal and `auto` mode's paragraph apart from the stand-in's; r21:
    # the first screen's answer short (two paragraphs), its details in the body
    assert answer.count("\n\n") == 2 and "compacts again" not in answer
    assert "(a bug, in " not in said
    # r13: a reader on `auto` mode learnt nothing; r14: "no break filed in `auto`" read as
    # `auto` being safe; r15: "`auto` sends what one of these two sends" was on no table of 08:
    # the answer says why `auto` has no row and points to the table that shows it
    assert "filed no break" not in answer and "sends what one of these two" not in answer
    # r17: "row" and "filed" were used before the body defined them, and the pointer to the
    # minimal counterexamples section hid that the table is notebook 05's: plain words, 05 named
    # r18: "this page's tables show nothing of `auto`" denied the coverage table's `auto` row
    # r20: "it drew few `auto` mode conversations" was half the reason: the filing rule is the
    # other half, which *The minimal counterexamples* says beside 05's pointer
    # r21: "kept no conversation" left a default-mode reader guessing: the answer says this page
    # does not answer for `auto`
    # r25: "the searches drew its conversations, none shows a break" read as "auto is safe"
    assert "This page does not answer for `auto` mode, the default (*The minimal" in answer
    assert "show nothing of" not in answer
    body = " ".join(_markdown("08-exploration").split())
    assert "`auto` mode has no row: a pair it breaks may be filed first in another mode" in body
    assert " row" not in answer and "filed" not in answer
    # r25: the `auto` breaks that table shows are over HTTP: each half scoped
    assert (
        "otebook 05's first table shows it (`input` mode, scripted model), and `auto` mode's"
        in _markdown("08-exploration")
    )
    # r15: *the search* is said before it is used, and the hosted MCP request's missing row is
    # not "a gap" left to guess; 0.24.0's own break is in the answer
    assert "a *search* (" in answer and "the search" not in answer.split("a *search* (")[0]
    assert "a gap in the search" not in answer
    assert (
        # r22: "compaction stops" was undefined: the glossary's *stops compacting*
        "; after a hosted MCP approval request left unanswered, later turns do not compact (`input`"
        in (answer)
    )
    # r18: not by a title naming "the patch" before What to do says which
    assert "the patch" not in answer
    # r16: "the API refuses" is in *orphan output*'s meaning, and 09 shows the stand-in judges
    # only function calls: the other kinds' outputs are "stored without its call", unjudged
    assert "stored as an orphan output" not in answer
    # r17: "judged only for a function tool" misread the table, whose invariant judges every
    # kind: what holds only for a function tool is the stand-in's refusal (r21: in the body,
    # with the compaction endpoint's unjudged answer `input` mode's clean pause rests on: 09)
    assert "judged only for" not in answer
    # r22: the stand-in judges requests, not what is stored; the unjudged answer `input` mode's
    # clean pause rests on is the answer's proviso (a flat "Yes" read as settled)
    assert "The stand-in refuses a model request's orphan output only if a function tool's" in body
    assert "if the real endpoint accepts that compaction (notebook 09)." in (answer)
    # r20: 08 "cannot say" of the hosted MCP response, which 12's four cases show stored alone
    assert "cannot say" not in answer
    # r25: the parenthesis read as a riddle: it says what this search missed and 12 shows
    assert "(this search stored no hosted MCP approval request's answer alone: notebook 12" in (
        answer
    )
    assert "those that break a rule of the study's kept" not in answer
    # r15: a maintainer's action (the patch's path), then the teams', scoped to the release the
    # workaround was searched on, with 06's rule for keeping it
    action = said.split("**What to do.**")[1]
    # r16: which release line the advice is for (0.24.0 already keeps every kind's call out)
    # r18: "keep a call out of compaction" read as a compaction that still runs, against 07's
    # "0.24.0 does not compact there": the fix holds compaction back
    # r24: "before 0.24.0" aimed at releases already out: a patch release
    assert action.startswith(" SDK maintainers: in a patch release before 0.24.0, hold compaction")
    # r20: copying 0.24.0 copies its stop after an unanswered hosted MCP request (03's warning)
    # r23: the action for 0.24.0 itself was only implied: it says to apply the patch there
    # r25: "on 0.24.0 too" read as "on earlier releases too"
    assert "and on 0.24.0, apply `tests/sdk_regression/patches/0.24.0-compaction-liveness" in (
        action
    )
    assert "one-round" not in action  # r25: *round* is defined below the first screen
    # r24: the patch's modes said (notebook 10's table)
    assert "later turns compact again in `input` and `auto` mode after an unanswered hosted" in (
        action
    )
    assert "Teams: wrap the session in the workaround" in action
    # r22: "broke nothing" outran the page's "a `holds` cell is no proof": what it searched
    # r23: the search the body calls no proof was the action's evidence: it cites none
    assert "found nothing broken" not in action and "2000 conversations" not in action
    assert "notebook 06 says where to keep it after upgrading" in action
    assert "Upgrade to" not in action


def test_headlines_without_the_data_is_a_headline_error(tmp_path: Path) -> None:
    empty = load_findings(tmp_path)
    for number in ("01", "04", "05", "07", "10"):
        with pytest.raises(headlines.HeadlineError):
            headlines.HEADLINES[number](empty)


def test_headlines_exploration_makes_no_liveness_claim_its_tables_carry(
    found: Findings,
) -> None:
    """Issue 61: 08's answer said compaction stops "after any kind" in previous_response_id mode
    on 0.24.0, while its own rows for that search showed no hosted MCP approval there; (r7) it
    then named exactly the kinds each search's rows show. (r5) The answer leaves liveness to the
    body's tables (and the shared action), so it names no kind compaction stops after."""
    answer = headlines.exploration(found).split("**What to do.**")[0]
    assert "stop for good" not in answer and "after any kind" not in answer
    assert "nobody answers" not in answer and "as the SDK documents" not in answer
    # r18: the first screen left out the `previous_response_id` rows; r21: the first screen is
    # the question's answer, and the body's table marks those rows `documented`
    assert "documented" not in answer
    assert "| documented |" in (paths.DATA / "rendered" / "08-exploration.md").read_text()


def test_headlines_am_i_affected_action_is_ordered_upgrade_scan_repair(found: Findings) -> None:
    """Issue 61 (r4): 07's action read "then upgrade, or until you can pass the session ..."."""
    action = headlines.am_i_affected(found).split("**What to do.**")[1]
    steps = [line for line in action.splitlines() if line[:2] in ("1.", "2.", "3.", "4.")]
    assert [s[:2] for s in steps] == ["1.", "2.", "3."]  # r20: the check and upgrade one step
    # r17: the page's reader is the SDK maintainer: a step for them first
    assert steps[0].startswith("1. SDK maintainers: ") and "doctor/repair.py" in steps[0]
    # r18: rewriting a stuck call on load is what section 3's late answer shows poisoning; r20:
    # "only where no saved run state can still answer it" was a condition an SDK cannot check:
    # the SDK rewrites orphan outputs and leaves a stuck call alone
    # r21: the repair rewrites a stuck call too: the step says the SDK should not
    # r22: "when 0.24.0 loads it" placed the change in a shipped release, and the late answer
    # is shown on one release with the defaults: the step says both
    assert "in a release after 0.24.0, rewrite their orphan outputs on load" in steps[0]
    # r23: "leave a stuck call" read against the workaround, which retires one: both are said
    # r24: "retire" was undefined on 07 and "it" ambiguous: the wrapper's removal said in plain
    # words, the evidence scoped to its release, and the repair's own rewrite joined to step 3
    # r25: "it ... them" had no referent and "wrapper" no meaning on 07: the step names the
    # stuck call, when the doctor rewrites it, and why, with no wrapper aside
    assert "Leave a stuck call (a call without its output) in place on load" in steps[0]
    assert "retire" not in steps[0] and "wrapper" not in steps[0]
    assert "rewrites one only after the team resumed its saved run state (step 3)" in steps[0]
    assert "(section 3's last table, 0.23.1, the SDK's defaults)" in steps[0]
    assert " them" not in steps[0]
    assert "reads a poisoned or stuck store as it is" not in steps[0]
    # r14: the title asks "am I affected": the teams' first step is the command that answers it
    # r20: "section 1 runs it" while section 1 calls the function: the same check
    assert (
        "`python -m approval_compaction doctor check` (which pause positions of your set-up fail;"
        " section 1 runs the same check)" in (steps[1])
    )
    assert steps[1].index("doctor check") < steps[1].index(f"upgrade to {found.fixed_in}")
    # r19: the workaround's name pulled its long meaning onto the first screen: 06 names it
    assert "workaround" not in action and "notebook 06 says what to wrap" in steps[1]
    # r20: "discard the run states" went against section 3's late-answer table, where a stuck
    # session resumed late without a repair is healthy: resume it before the repair, not after
    assert "discard" not in action
    # r21: only a stuck session whose approval was left unanswered has a run state to resume
    assert steps[2].startswith("3. Run `doctor scan STORE --all` (each stored session's diagnosis)")
    assert "; where a stuck session's approval" in steps[2]
    assert steps[2].index("before the repair, not after") < steps[2].index("repair STORE --all")
    assert "repair again" not in steps[2]


def test_headlines_am_i_affected_warns_that_a_late_answer_after_a_repair_poisons(
    found: Findings,
) -> None:
    """Issue 61 (r9): 07 said a stuck session's call would never be answered and told teams to
    repair it, while an application may answer it late; a late answer to a call the repair
    rewrote is stored without it (``openai_agents.late``): the answer and the action say so."""
    said = headlines.am_i_affected(found)
    answers, action = said.split("**What to do.**")
    # r14: the session was not poisoned before the late answer: not "poisoned again"
    assert "resumed after the repair poisons the session" in answers
    # r18: "run state" was never defined, though the key instruction depends on it
    assert "a *run state* (the paused run an application saves) resumed" in answers
    assert "again" not in answers
    # r15: the first screen's action left the late answer to section 3, and a reader following
    # it could poison their sessions: the action names it, and section 3 points back to it
    assert "its run state saved, resume that state before the repair, not after" in action
    assert "Hence What to do's third step" in " ".join(_markdown("07-am-i-affected").split())
    assert "never be answered" not in said
    # r16: one counting unit (pause positions, section 1's), no undefined "test session"
    assert "pause positions 0 to" in answers and "tries" not in said and "test session" not in said


def test_headlines_stored_vs_sent_action_keeps_the_workaround_where_the_fix_stops(
    found: Findings,
) -> None:
    """Issue 61 (r6): 02's action said only "Upgrade to 0.24.0" while its answer had
    `previous_response_id` mode stop compacting on 0.24.0 too: it says what the README and 06
    say. Round 5: that is the one short action every openai-agents page shares. r14: the
    action follows from 02's own finding: the mode that stops compacting, whose session the
    doctor's repair frees, and 06's wrapper for new ones (where to keep it is 06's)."""
    said = headlines.stored_vs_sent(found)
    action = said.split("**What to do.**")[1]
    # r15: the maintainers get the change to make (the wait 0.24.0 added), not a pointer; the
    # teams' clause is the shared one (where to keep the workaround after upgrading, 06's rule),
    # then the doctor's repair for the mode that sends no compaction request
    maintainers, teams = action.split("\n\nTeams: ")
    # r20: "automatic compaction" (a two-line meaning) said in plain words on 02's first screen
    assert maintainers.startswith(f" SDK maintainers: {headlines.AFTER_A_TURN} {headlines.WAIT}")
    # r22: "as 0.24.0's `_run_compaction_locked` does" named a private function unexplained and
    # read as the whole fix (03 names hunks 1 and 3 too): part of the fix, 03 for the rest
    assert f"part of {found.fixed_in}'s fix (notebook 03 shows its lines, and what else" in (
        maintainers
    )
    # r25: "add a check" read against 03's "move the call": the function named with what it is
    assert "`_run_compaction_locked`, the compaction the session runs after each turn" in said
    assert "add a check" not in said
    # r22: 05's table *Cases breaking an invariant* coined *invariant* (and *case*) on the
    # first screen for a claim the page does not judge: cut. The fix does not end the stop in
    # `previous_response_id` mode after a call nobody answers: 02 says so, with 10's table
    assert "Cases breaking an invariant" not in said and "invariant" not in said
    assert (
        f"On {found.fixed_in} too, `previous_response_id` mode compacts none of ten later "
        "questions while a call nobody answers stays stored (notebook 10's table "
        f"*{headlines.TABLE_10}*)" in maintainers
    )
    # r23: that stop was a fact without an action: the maintainers are told it is the mode's
    # documented stop the fix keeps, and what frees such a session
    # r25: "nothing to change for it" read against the README's patch: the documented rule
    # scoped to the release whose docstring the page shows, and the stops 10's patch ends named
    assert "so the fix keeps that stop; notebook 10's patch lets `input` and `auto` mode" in (
        " ".join(maintainers.split())
    )
    # r24: "(below)" pointed to nothing showing the session compact again: cut; the action for
    # the stop said, and the section named as this page's (it read as a table title)
    assert "leaves the store (below)" not in maintainers
    assert "docstring, this page's section *What compaction does next*)" in maintainers
    assert "nothing to change for it" not in maintainers
    # r24: the action copied 01's without this page's finding: what it does for the pause
    assert "The pause then sends no compaction request to refuse (notebook 01's last table" in (
        maintainers
    )
    # r20: the shared action (five lines, four coined words) put 02's action past line 40: the
    # upgrade, and 06 named for the workaround before and after it (r15: kept after upgrading)
    assert teams.startswith(
        f"upgrade to {found.fixed_in}; notebook 06 says what to wrap the session in until then, "
        "and where to keep it after."
    )
    # r18: the repair named for one mode left the other's session unexplained; r19: and read as
    # `auto` needing none, rewritten into nothing said: both modes keep the call, 07's note
    # r20: 07 shows that rewrite on a session it generated, not on a refused pause's store
    assert teams.endswith(
        "After a refused pause, the session keeps that call in both modes (this page's last "
        "table): "
        "notebook 07 shows the repair that rewrites such a call as a note that it was never "
        "answered."
    )
    # r18: "carrying no open call" read against 01's table, which shows 0.24.0 storing one
    assert "carrying no open call" not in maintainers
    # r17: the hosted MCP wait was not 02's lesson and read as circular: it is 03's alone
    assert "hosted MCP" not in said
    assert "wrapper" not in action  # r15: a word 02 never defined


def test_headlines_the_wire_action_keeps_the_workaround_after_the_upgrade(found: Findings) -> None:
    """Issue 61 (r6): 09's "Upgrade to 0.24.0 (notebook 05); before it, the workaround (notebook
    06)" read as dropping the workaround after upgrading, against 06 and the README."""
    action = headlines.the_wire(found).split("**What to do.**")[1]
    assert "before it, the workaround" not in action
    # r14: 09's own action first (the SDK maintainers': the fault is in what the session stores,
    # and `input` mode's compaction is unjudged), then one pointer for teams to 06 and 07,
    # which say where to keep the workaround
    assert action.startswith(" SDK maintainers: fix what the session stores and compacts")
    # r20: "learn whether the real endpoint refuses" said no how; "notebooks 06 and 07" no what
    assert "send its compaction request once to the real endpoint" in action
    # r22: a pointer alone was no action: teams look for the rules table's two 400 texts
    # r24: the first screen quoted one of the two: both quoted where the action says them
    assert 'Teams: search your logs for "No tool call found for function call output with' in (
        action
    )
    assert '"No tool output found for function call" (the rules table\'s *answer* column)' in (
        action
    )
    assert action.endswith(
        "notebook 06 (new sessions) and notebook 07 (stored ones) say what to do then."
    )


def test_headlines_walkthrough_says_how_often_the_default_trigger_meets_the_bug(
    found: Findings,
) -> None:
    """Issue 61 (r6): 01's first screen presented the study's hook that always says yes as how
    the SDK behaves; with its default trigger only a few pause positions meet the bug. Round 5:
    the answer scopes itself to the hook, and the page's setup says the default trigger meets
    the pause only now and then, pointing to notebook 07's count (the numbers are 07's)."""
    said = headlines.walkthrough(found)
    # r20: the hook in plain words (its two-line meaning off 01's first screen); the scope stays
    # r21: "compacting after every turn" read as a result (01's resume skips it): the request
    assert "the session asked to compact after every turn" in said.split("\n\n")[0]
    pinned = [c for c in found.exposure if c.release == headlines._pinned(found)]
    assert pinned and all(len(c.affected_at) < len(c.rows) for c in pinned)
    setup = _markdown("01-walkthrough")
    # r17: "now and then" was no measure: 07's count; r19: that count (07's `auto` mode, "this
    # page's `input` mode is not run there") was an aside coining two words and read against the
    # README's `input` count: the setup says only that some pauses meet the threshold, and where
    flat = " ".join(setup.split())
    assert "without a hook the SDK compacts at its own threshold, which only some pauses" in flat
    assert "meet: notebook 07)" in flat and "pause position" not in flat
    assert said.index("**Answer.**") < said.index("**What to do.**")


def test_headlines_am_i_affected_says_refused_not_rejected(found: Findings) -> None:
    """Issue 61 (r7): the collection's word for an HTTP 400 is *refused*; 07's answer said the
    poisoned store's next turn "is rejected", the doctor's table word, beside "a refused
    pause" in the same sentence."""
    assert found.upgrade is not None and found.upgrade.poisoned.next_turn == "rejected"
    said = headlines.am_i_affected(found)
    # r22: the poisoned store is section 2's, made in `input` mode: the answer says so
    assert f"on {found.upgrade.newest} the next turn of a store poisoned in `input` mode is " in (
        said
    )
    assert "mode is refused" in said
    assert "rejected" not in said
    # r14: nor the doctor's "accepted" for a turn the stand-in answered (r20: the repaired
    # copy's answered turn is section 2's table, off the first screen)
    assert "accepted" not in said


def test_headlines_am_i_affected_says_what_the_user_meets_at_the_struck_positions(
    found: Findings,
) -> None:
    """Issue 61 (r5, r7): 07's first answer counted the pause positions where the bug is met
    without saying what the user meets there; in `auto` mode it is the pause refused."""
    assert found.affected is not None
    pinned = found.affected[0]
    hit = [r for r in pinned.rows if r.affected]
    assert hit and all(r.at_pause.startswith("HTTP 400") for r in hit)
    said = headlines.am_i_affected(found)
    assert f"{pinned.release}'s pause is refused at {len(hit)} of the" in said


def test_headlines_walkthrough_says_which_run_tries_each_mode(found: Findings) -> None:
    """Issue 61 (r7): 01 said of the pause positions in `auto`, `input` and
    `previous_response_id` modes "(notebook 07 runs them)", while 07 runs `auto` only; the
    doctor's check runs each mode (data/doctor-check-modes.json). Round 5: 01 names no mode's
    positions; it points to 07 for the count only."""
    said = headlines.walkthrough(found) + _markdown("01-walkthrough")
    pinned = {c.config.mode for c in found.exposure if c.release == headlines._pinned(found)}
    assert pinned >= {"auto", "input", "previous_response_id"}
    assert "notebook 07 runs them" not in said
    # r17: 07's count is named, scoped to the one mode 07 runs (`auto`), and only once
    flat = " ".join(said.split())
    assert "pause positions" not in flat and "in `auto` mode;" not in flat  # r19: no count here


def test_headlines_stored_vs_sent_names_the_partial_compaction_auto_makes(
    found: Findings,
) -> None:
    """Issue 61 (r7): 02 said `auto` mode compacts "that turn's question and answer only",
    which reads against `auto` sending the response's id: the SDK compacts a partial history
    in `input` mode, as its class docstring says, and makes none in explicit
    `previous_response_id` mode. Round 5: the answer says which mode compacts at the next
    question; the page's body names the partial compaction and quotes both docstrings."""
    import inspect

    from agents.memory.openai_responses_compaction_session import (
        OpenAIResponsesCompactionSession,
    )

    from approval_compaction.lab.releases.later_turns_patch import DOCUMENTED_LIMIT

    assert headlines.PARTIAL_INPUT in " ".join(
        inspect.getdoc(OpenAIResponsesCompactionSession).split()  # type: ignore[union-attr]
    )
    said = headlines.stored_vs_sent(found)
    assert "on that turn's question and answer only" not in said
    # r14: "compacts around" was never defined; the answer says whether compaction goes on.
    # r15: "after the call" was vague, and "stops" claimed more turns than the page runs: the
    # answer says what the page shows (the partial compaction; no request) and the SDK's rule
    # r16: "replaces only what was stored after the call" read against the next question kept;
    # "documents that it sends none" claimed more than the SDK's coverage rule, which it now is
    # r19: "reads only the items stored after the call, and its summary replaces the model's
    # reply among them" was hard to parse: what it reads is named, and what the summary replaces
    # r20: the first screen says which mode compacts at that question; what the partial
    # compaction reads and replaces, and the SDK's documented rule, are the body's alone
    # r24: the glossary's `auto` sends the id; its condition came 40 lines below the answer:
    # the answer states it in its own words
    assert "That question compacts in `auto` mode, sending as items only what was stored" in said
    assert "(`auto` sends the response's id only if the request that made it carried" in said
    assert "sends no compaction request in `previous_response_id` mode" in said
    # r18: "does compaction go on?" answered for later questions too, in each mode; r19: "nor
    # will it" restated the SDK's documented rule, which the answer gives, as a run's finding
    assert "nor will it while the call stays stored" not in said
    assert "documents that it sends none" not in said
    assert "stops" not in said
    body = " ".join(_markdown("02-stored-vs-sent").split())
    assert "the partial compaction's summary replaced the model's reply `next answer`" in body
    assert "The first question and the open call stay because the compaction never read" in body
    # r20: the question asks about the one next question the page runs, not "goes on"
    assert "does compaction go on" not in body and "does the session compact after it?" in body
    # r18: the partial compaction is said before the table showing `auto` send items, not after
    assert "so the comparison stops there, and the compaction is *partial*" in body
    assert body.index("compaction is *partial*") < body.index(
        "The first table counts the compaction"
    )
    assert f"`{headlines.PARTIAL_INPUT}`" in body and f"`{DOCUMENTED_LIMIT}`" in body
    assert "In `previous_response_id` mode no compaction request is made" in body
    assert "stops compacting" not in body


def test_headlines_inside_the_sdk_says_which_release_the_liveness_patch_applies_to(
    found: Findings,
) -> None:
    """Issue 61 (r7): 03's "Backport it together with notebook 10's patch" left "it" ambiguous,
    and 10 offers that patch against the fixing release only. Round 5 (r13): 03 leaves the
    patch to 10 and ties no hosted MCP cost to the moved call."""
    said = headlines.inside_the_sdk(found)
    assert "Backport it together" not in said
    assert paths.LIVENESS_PATCH.name not in said and "inherits the same cost" not in said
    # r14: the move fixes a function tool's approval only; 12 names the MCP check it needs.
    # r15: the check's wait was named without its cure: 10 is named for both
    # r16: "(function tools)" was cryptic: the kinds the move covers are named (12's table)
    # r17: which change to backport, and that it is enough for those kinds, is 12's table's
    # r20: the backport named as 12's hunk, with what it moves and where
    # r21: hunk 2 alone left hosted MCP unfixed on the first screen: hunks 1 to 3, hunk 2's move
    # r24: "hunks 1 to 3" were 12's numbers: the move said in plain words, 12's hunks as 12's
    assert "notebook 12's hunk 2)" in said and "(its hunks 1 and 3)" not in said
    # r25: hunk 1 was never placed, hunk 4 never judged: each said, in the file they change
    assert "its hunk 3, a check in `_run_compaction_locked`" in said
    assert "and hunk 1, that check's import (its hunk 4 is not needed)" in said
    # r22: "the `if` it sat in" was ambiguous (0.24.0's check sits in `if is_automatic:`)
    # r24: "the check leaves the branch only a compaction of part of the history takes" was hard
    # to parse: the move said as what to do
    # r25: "an older release line" against a page showing 0.23.1's code only: scoped to it
    assert (
        "move the call to `drop_orphan_function_calls` out of the partial-snapshot branch into "
        "the `if is_automatic:` block" in said
    )
    assert "make the change this page's excerpts show" in said and "older release" not in said
    assert "the `if` it sat in" not in said
    # r18: the backport's evidence scoped to what 12's table ran (0.23.1, `input` mode, scripted
    # model), in the table's own words (no case breaking an invariant), the untried modes said
    assert "hunk alone leaving no case" not in said
    # r19: "the custom, shell and apply_patch tools'" undefined, "no run here" unclear, and one
    # hunk or three, 10's patch or not, muddled: the other kinds as the table's, its one mode
    # named, the MCP hunks as an addition, 10's patch as an action with its condition
    # r20: "nor for the other tool kinds it lists" included hosted MCP, which the table shows
    # broken with hunk 2 alone: the column named, hosted MCP excepted with its own minimal fix
    assert "nor for the other tool kinds it lists" not in said and "apply_patch" not in said
    assert "*Each kind of approval: its minimal fix in hunks* (run on 0.23.1, `input` mode)" in said
    # r23: "it lists fixed but" was hard to parse: the one kind left unfixed, named
    assert "the one kind of call that move leaves unfixed, a hosted MCP approval request" in said
    # r24: 10's stop and patch, which 03 does not show, a pointer only
    assert "what the fix then leaves uncompacted, and its patch" in said
    assert "take it too" not in said
    # r22: hunks 1 and 3 were names the first screen never explained: what each is, and the
    # answer says what they do (0.24.0's account of the fix was hunk 2's alone)
    # r23: the answer's hosted MCP return had no evidence on 03: said as hunk 3's, in the action
    # r24: hunks 1 and 3, 10's stop and 10's patch filled three paragraphs of a first screen this
    # page shows none of: 12's table and 10 named for them, the stop still said (r21: a reader
    # acting on the first screen shipped it unwarned)
    assert "keeping every case" not in said
    assert "notebook 12's table *Each kind of approval: its minimal fix in hunks*" in said.replace(
        "Notebook 12's table", "notebook 12's table"
    )
    body = " ".join(_markdown("03-inside-the-sdk").split())
    assert "With them (as in" not in body
    assert "this wait holds compaction back" not in said
    assert "Notebook 10's patch (it keeps such a request stored" not in said
    assert "With all three" not in said
    # r17: the endpoint's answer is the stand-in's, as the README says (r20: the body's, by the
    # trace it scopes; the answer scopes itself to the stand-in)
    assert "over HTTP to the stand-in" in said.split("\n\n")[0]
    # r23: scoped to the request holding the pending call, as the README's caveat is
    assert "no public source shows the real compaction endpoint's answer to a request" in body
    # r20: the gate as the record shows it: the resumed run holds no generation; r21: no repr,
    # no count no table shows
    # r24: "the record shows" a generation no table showed: the gate's lines are printed
    # r25: a doubled label and a Python `None`: the gate's lines without either, and why the
    # resumed run holds none (it starts from the paused state), with the SDK's own log line
    assert (
        "resume: run holds none" in (paths.DATA / "rendered" / "03-inside-the-sdk.md").read_text()
    )
    assert "The resumed run starts from the paused state, not from a read of the session" in body
    assert "(`None`" not in body and "count is 5" not in body
    assert "moved the generation on" not in body
    # r20: "waits" against the excerpt's "skips": it returns without compacting
    assert "which then returns without compacting while the latest model exchange" in said


def test_headlines_appendix_names_the_cause_of_the_next_turn_failing_from_its_first_release(
    found: Findings,
) -> None:
    """Issue 61 (r7): 12's first screen asked why the next turn failed only from 0.22.1 and
    answered with the symptom ("from there the resume no longer compacts"); it names the cause,
    the gate 0.22.1 added, and the boundaries whose resume the mechanism record shows holding no
    generation. r10: what made the generation stale (the pause's own compaction) is said, now
    (r5) in the body's section on the gate; the answer is one sentence, before the action."""
    import json

    from approval_compaction.lab.mechanism.record import load_record

    said = headlines.appendix(found).split("**What to do.**")[0]
    assert "the resume no longer compacts" not in said
    # r14: "gate" was defined only in the body; the answer says what the check asks
    cause = "From 0.22.1 the next turn fails: a check it added (does this run own the session?)"
    assert f"{cause} skips the resume's compaction" in said
    traces = load_record().release("0.22.1").traces
    held_none = [
        b
        for b, t in traces.items()
        if any(e.startswith(headlines.HOLDS_NONE) for e in t.generations.get("resume", ()))
    ]
    assert held_none  # the cause is said only where a trace shows the resume holding none
    assert headlines.SCOPE_12 in said.split("\n\n")[0]  # r11: scoped; r13: the trace's HTTP too
    assert "over HTTP" in headlines.SCOPE_12
    stem = "12-appendix-the-fix-taken-apart"
    cells = json.loads((paths.ROOT / "notebooks" / f"{stem}.ipynb").read_text())["cells"]
    body = " ".join("".join(c["source"]) for c in cells[1:] if c["cell_type"] == "markdown")
    body = " ".join(body.split())
    # r18: the count explanation is scoped to the cases the page does not trace; r19: its "if"
    # was a guess where the README reports a result; r20: the record traces the memory case too
    # (its resume holds None as well, against notebook 03's "moved on"): the page shows both
    assert "not traced here" not in body and "`run/approve/on/memory`" in body
    assert all(
        any(e.startswith(headlines.HOLDS_NONE) for e in t.generations["resume"])
        for release in ("0.22.1", "0.23.1")
        for t in load_record().release(release).traces.values()
    )
    assert "would skip" not in body and "under the warning" not in body  # r19: code not shown
    assert "the resume's compaction is skipped" in body


def test_headlines_am_i_affected_keeps_the_workaround_as_the_readme_says(found: Findings) -> None:
    """Issue 61 (r7): 07's action made the workaround temporary ("until you can, pass the
    session ...") against the README, 06, 09 and 10 (keep it on the fixing release where an
    approval can go unanswered); it now says their words (``keep_workaround``)."""
    action = headlines.am_i_affected(found).split("**What to do.**")[1]
    assert "until you can" not in action
    # r14: 07 names the workaround, and that 06 says where to keep it after the upgrade (a reader
    # of 07 alone dropped it on upgrading)
    # r19: the workaround's name pulled its long meaning onto the first screen: 06 names it,
    # and the step still says it is kept after the upgrade
    assert f"upgrade to {found.fixed_in}; notebook 06 says what to wrap the session in until" in (
        action
    )
    assert "then, and where to keep it after." in action


def test_headlines_am_i_affected_counts_and_names_the_struck_pause_positions(
    found: Findings,
) -> None:
    """Issue 61 (r12): 07's first answer named the struck positions ("9 and 19"), giving away the
    prediction section 1 asks before its table; it now counts them and points to that table.
    (r22) The one prediction is now in the first cell and asks "at which pauses": the answer
    names them beside the count, with the rule, the table still section 1's."""
    assert found.affected is not None
    pinned = found.affected[0]
    assert len(pinned.affected_at) >= 2
    said = headlines.am_i_affected(found).split("**What to do.**")[0]
    *most, last = pinned.affected_at
    assert f"({', '.join(map(str, most))} and {last}, section 1)" in said
    # r14: "fails at 2 of 21" read as a rate: the answer says which runs, and the rule
    # r15: a row is a sequence of runner calls, not the README's *run*; and the threshold was
    # used before section 1 gave it: the rule in plain words; r16: tries, pause positions and
    # plain turns were one quantity under three names: the answer counts pause positions
    assert f"at {len(pinned.affected_at)} of the {len(pinned.rows)} pause positions" in said
    assert " runs " not in said and "threshold" not in said
    # r17: "makes the SDK compact" was inexact (the compaction is refused): the request is sent
    # r18: the first screen left "at which pauses" to section 1: it gives the rule, not the list
    # r20: the count behind the rule is section 1's, off the first screen
    assert "section 1): where the pausing turn sends a compaction request" in said


def test_headlines_01_to_03_say_the_one_action_in_the_words_61_set(found: Findings) -> None:
    """Issue 61 (r9): 01's action stopped at `doctor scan`; 02 said `auto` is refused at the pause
    without "while responses are stored"; 03's action said "on a branch of the SDK" and "carry
    its change along with a backported move", leaving who and which release to guess. Round 5:
    each says the one short action (``short_action``), 03 its maintainer's line after it.
    r14: every reader found that action not following from the page; each now gives its own
    (01 and 03 the SDK maintainer's first), the team's as a pointer to 06 and 07."""
    said = (headlines.walkthrough, headlines.stored_vs_sent, headlines.inside_the_sdk)
    walk, sent, inside = (f(found) for f in said)
    action = headlines.short_action(found)
    assert all(action not in page for page in (walk, sent, inside))
    for page in (walk, sent, inside):
        assert page.split("**What to do.**")[1].startswith(" SDK maintainers: ")
    assert "notebook 06" in walk and "notebook 07" in walk
    # r15: 01's "upgrade; until then, see notebook 06 for the wrapper" read as dropping the
    # workaround after upgrading; r20: the shared clause (five lines, four coined words) put the
    # action past line 40: 01 and 02 name the upgrade, and 06 for before it and after it
    keep = "notebook 06 says what to wrap the session in until then, and where to keep it after"
    for page in (walk, sent):
        assert f"Teams: upgrade to {found.fixed_in}; {keep}" in page
    # r21: "nothing here changes your steps" against the MCP stop the page names: 06 says where
    for page in (walk, sent, inside):
        assert f"Teams: upgrade to {found.fixed_in}; {keep}" in page
    assert "nothing here changes your steps" not in inside
    assert "wrapper" not in walk
    # r20: the prediction and the question name `input` mode (the default `auto` fails at the
    # pause); the answer points to 02 for the defaults, scoped to responses stored
    first = _markdown("01-walkthrough").partition("<!-- answer:start -->")[0]
    # r24: the question used "`input` mode" before its term block: said in plain words there
    flat_first = " ".join(first.split())
    assert "*Predict:* in `input` mode" in first
    assert "When it sends the stored items to compact (`input` mode), what happens" in flat_first
    # r25: "the mode whose pause 0.23.1 refuses" read as `auto` alone: both modes named
    assert (
        "In `auto` mode with responses stored (both the defaults) and in `previous_response_id` "
        "mode, the pause itself is" in walk
    )
    # r18/r19: the releases before the pinned one, named from the sweep, are the body's (r20:
    # the first screen ran to line 49), with the releases whose `input` mode loses both quietly
    assert found.releases is not None
    quiet = [
        s.span
        for s in found.releases.stories
        if s.mode == "input"
        and s.severity
        == ("the stand-in refuses no request: compaction requests carry the open call")
    ]
    body = " ".join(_markdown("01-walkthrough").split())
    # r21: they were notebook 05's lesson under 0.24.0's heading: cut from 01, said by 05 alone
    assert quiet and f"on {', '.join(quiet)} the resume's compaction" not in body
    assert "0.22.1..0.23.1 fail as this page's run does" not in body
    assert "refuses no request" not in walk
    # r24: a reader on those releases met no warning on the first screen: named, with 05's table
    # r25: those releases read as unaffected: affected, without an error; the releases that
    # meet this page's refusal named
    assert f"{headlines._quiet_input(found)} are affected too, without an error" in walk
    assert "Releases 0.22.1..0.23.1 meet this refusal" in walk
    # r24: 01 repeated 03's ownership gate and pointed to 03 for a generation 03 did not show:
    # one clause here, 03 prints the gate's lines
    assert "*ownership gate*" not in body and "*generation*" not in body
    # r25: "notebook 03 shows why" where 03 gave another reason: the log line's reason said
    # here, 03 quotes the line
    assert "the SDK's reason for skipping the compaction at the resume" in body
    assert "Session history changed after this run" in " ".join(
        _markdown("03-inside-the-sdk").split()
    )
    assert "whose effect this page's last table shows" in walk
    # r16: that table's title named "the patch" undefined; 01 says what 10 shows, and each of
    # 01-03 says "make ... wait" (01's "compact nothing" claimed more)
    assert "the patch misses" not in walk and "compact nothing" not in walk
    # r17: the MCP wait is 03's alone; 01 scopes "no error" to the stand-in, as the README does
    assert "hosted MCP" not in walk and "with no error" not in walk
    # r25: said on the first screen, where the answer rests on it (cut from the body)
    assert "no public source shows the real endpoint's answer: notebook 09" in walk
    assert "over HTTP to the stand-in" in sent.split("\n\n")[0]
    assert (
        "the session asked to compact after every turn, responses stored" in sent.split("\n\n")[0]
    )
    # r21: the stopped compaction's consequence said where the mode stops
    # r24: a general rule on one release: scoped to the release run
    assert f"nor can it on {headlines._pinned(found)} while that call stays stored" in sent
    assert "in 16 of 16 runs" not in sent and "the README's answers" not in sent
    assert "On a branch of the SDK" not in inside and "carry its change along" not in inside
    assert f"on {headlines._pinned(found)}, make the change this page's excerpts show" in inside


def test_headlines_appendix_names_each_hunk_of_the_mcp_fix_by_what_it_is(found: Findings) -> None:
    """Issue 61 (r9): "needs hunks 1 and 3 instead (0.24.0's own check ..., and its import)" left
    the reader to guess which hunk was which; each is named with what its patch holds. r14: the
    action is the page's own, the backport for maintainers (r14: "as well" read as hunk 2 plus 1
    and 3; the kinds table gives the hosted MCP fix as 1, 3), then one pointer for teams."""
    said = headlines.appendix(found)
    answer, action = said.split("**What to do.**")
    # r18: "pairing" is the README's *pairing check* (hunk 2's); hunk 3's check is said apart
    assert "hunk 3 (0.24.0's check that each request has its response)" in answer
    # r20: plain words on the first screen (each term there adds a line to its terms block)
    assert "hunk 2, which moves the check that each call has its output to where every " in answer
    # r18: the other kinds' four cases scoped on the first screen
    # r22: "custom tool" was explained only in the body: said as a kind of tool first
    kinds = "a function tool's approval (all sixteen ways through a pause) and the SDK's other "
    assert (
        kinds + "tools that ask for approval (shell, apply_patch and custom, whose input is "
        "free-form text: four ways each)" in (answer)
    )
    assert "needs two others: hunk 3" in answer
    assert "and hunk 1 (that check's import)." in answer
    assert "quoted below" not in said  # the excerpt is notebook 03's, not repeated in 12
    assert "instead" not in said  # r10: against 03's "also"; a fix for every kind needs both
    assert "as well" not in said
    # r15: "a release before 0.24.0" outran the page (0.23.1, `input` mode), and the MCP check's
    # cost (notebook 10) was only in the body; teams' pointer says what 06 adds to the upgrade
    # r16: the hosted MCP hunks' decision said (with 10's patch), the untried modes named
    # r17: "they" (hunks or patch?) and a combination no run tried; each part says where it ran
    # r20: the untried default mode named with the step that tries it; r22: and
    # `previous_response_id`, where 0.23.1 fails otherwise (the default's name left to the terms)
    assert (
        " SDK maintainers backporting the fix to 0.23.1: take hunk 2 (run here in `input` "
        "mode only: first run *Try this* for `auto`, the default); "
        "where hosted MCP "
        "approval requests run, also "
        "hunks 1 and 3, and notebook 10's patch: on 0.24.0 hunk 3's check stops compaction "
        "after a request nobody answers (notebook 10's table" in action
    )
    # r18: the lift scoped to what notebook 10's table shows (its title names the store and
    # modes); r19: what to do about the stop hunk 3 brings
    # r21: "its test" had no referent; the untried default mode said as a limit (r21's worst)
    assert "the patch is untried on 0.23.1: run notebook 10's test." in action
    assert "Each hunk's patch is in `data/fix-anatomy.json`." in action
    assert "a release before" not in action
    assert (
        f"**{headlines.TABLE_10} ("
        in (paths.ROOT / "data/rendered/10-after-the-fix.md").read_text()
    )  # r16: the full title, not a cut one
    # r17: the teams' clause was off-topic for an appendix about hunks: a pointer to 06 only
    assert action.rstrip().endswith(
        "Teams using openai-agents: this appendix changes nothing for you; notebook 06 says what "
        "to do."
    )
    # r15: the second question (any other change?) is answered on the first screen, r16: for
    # the kind whose fix it is (hosted MCP's is hunks 1 and 3)
    # r17: one name for the outcome, the tables' "holds"; r18: defined where first used, and
    # the reverts said without "whose revert ran" (a word the body defines)
    # r22: "every change but hunk 2 reverted" said again what the kinds table's column shows:
    # the Answer says that column's finding (0.23.1 with hunk 2 alone)
    assert (
        "On 0.23.1 with hunk 2 alone, these approvals *hold* (break no invariant);"
        # r24: no undefined "revert"; r25: scoped to a function tool's, the hunks that run
        " on 0.24.0 a function tool's holds with any other runnable hunk undone." in (answer)
    )
    assert "With every change but" not in answer
    assert "whose revert ran" not in answer
    assert headlines.short_action(found) not in said


def test_stop_new_sessions_names_the_releases_the_findings_hold(found: Findings) -> None:
    """How a team stops new openai-agents sessions breaking is computed from the findings (the
    fixing release, the affected span): another fixing release changes it, none drops the
    upgrade; the same action is notebook 15's."""
    assert found.fixed_in and found.releases
    hit = [e for e in found.releases.eras if e.affected]
    first, last = hit[0].span.partition("..")[0], hit[-1].span.rpartition("..")[2]
    stop = headlines.stop_new_sessions(found)
    assert stop.startswith(f"notebook 06: upgrade to {found.fixed_in}; until then, on {first}.")
    assert f"..{last}, pass the session to" in stop and stop.endswith(headlines._stops_after(found))
    moved = headlines.stop_new_sessions(replace(found, fixed_in="9.9.9"))
    assert (
        "upgrade to 9.9.9" in moved and "keep it on 9.9.9 if an approval can go unanswered" in moved
    )
    none = headlines.stop_new_sessions(replace(found, fixed_in=None))
    assert "upgrade" not in none and none.endswith("`defer_compaction_while_pending`")
    # r14: 15's action is its own (the setting, then the doctor's repair), not this one
    assert f"\n\n{headlines.OWN_ACTION_15}\n\nNew sessions:" in headlines.your_session(found)


def test_headlines_after_the_fix_scopes_the_patch_to_the_stores_it_helps(found: Findings) -> None:
    """Issue 61 (r11): "Apply the patch ... the test then passes" left out that on a store that
    cannot replace part of its history an unanswered request still stops compaction. r15: the
    action named three stores the page never ran; it names the one it ran, and the mode the
    patch leaves stopped; the docstring's stores are the body's."""
    action = headlines.after_the_fix(found).split("**What to do.**")[1]
    # r16: maintainers of other stores were not warned; r18: the docstring's words left the
    # patch's limit implicit; r19: said once, plainly, the code line left to the body
    # r22: read from the diff, not a run: said so where the limit is said
    # r23: "stores that cannot replace part of a history" was defined only in the body: the
    # action says which stores the page ran, and that the rest is read from the diff
    # r24: which stores stay stopped was left to the body: the first screen names them
    said = "Stores other than `SQLiteSession`: this page did not run them; by the diff (section "
    assert said in action and "leaves every other store stopped." in action
    assert f"docstring says can replace part of a history ({headlines.PARTIAL_STORE_NAMES})" in (
        action
    )
    assert "suffix_start" not in action
    assert "if snapshot is None and suffix_start > 0:" in paths.LIVENESS_PATCH.read_text()
    # r18: "still compacts none" had no subject: what it compacts none after is said
    assert (
        "this page's `SQLiteSession` compacts all ten questions after an unanswered hosted MCP "
        "approval request in `input` and `auto` mode" in action
    )
    assert f"`previous_response_id` mode it still stops as {found.fixed_in} does" in action
    # r19: the second file was said untested while the page dropped the poisoned rows that test
    # it: the table keeps them, and the action no longer says it is untested; r20: the action
    # says what the second file does (the first screen never did)
    assert "untested" not in action
    # r24: the paragraph's own scope (an older store, not the Answer's fresh one), said before
    # what it does; "upstream" (undefined) said as the SDK's tests
    assert (
        "The patch's second file is for a store an older release wrote holding an output "
        "whose call is gone: it leaves that output out of the model's input, so that store is "
        "answered again in every mode, but compacts none of ten questions in "
        "`previous_response_id` mode (the table's last two rows; no test of the "
        "SDK's covers that file)." in action
    )  # r21: the poisoned `previous_response_id` row, on the first screen; r23: its test named
    cells = json.loads((paths.ROOT / "notebooks/10-after-the-fix.ipynb").read_text())["cells"]
    code = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert 'drop(index="poisoned"' not in code
    patch = paths.LIVENESS_PATCH.read_text()
    assert "Native SQLite, async SQLite, and" in patch and "SQLAlchemy (SQLite" in patch
    assert "Other stores require complete coverage" in patch


def test_headlines_01_to_03_say_the_workaround_and_the_patch_within_their_scope(
    found: Findings,
) -> None:
    """Issue 61 (r11): 02 counted "16 of the 16 next questions ... (the 8 cases with compaction
    on, in each mode)" where the pause raises, so the decision and the boundary never vary; 01
    and 02 said the workaround keeps "the session" compacting, and 03 said the liveness patch
    does, against 10 and 15 (a poisoned `previous_response_id` store stops compacting). Round 5:
    the workaround's rule is the glossary's and 06's, the patch 10's: none of 01-03 restates
    them; r12's "latest model exchange" stays 03's wording of 0.24.0's wait."""
    answers = (headlines.walkthrough, headlines.stored_vs_sent, headlines.inside_the_sdk)
    walk, sent, inside = (f(found) for f in answers)
    assert "next questions the sweep asked" not in sent and "the 8 cases" not in sent
    for said in (walk, sent, inside):
        assert "so the session keeps compacting" not in said
        assert "while a call has no output" not in said  # r12: the latest model exchange
        assert "proposed patch" not in said  # 10's
    assert "while the latest model exchange holds a call without its output" in inside


def test_headlines_stored_vs_sent_scopes_the_repair_by_mode(found: Findings) -> None:
    """r12: 02 called a store with an open call *stuck* and said upgrading does not free it,
    beside its own "in `auto` mode compaction goes on"; r13 still read "stuck" beside "no repair
    is needed" as a contradiction. Round 5: 02's answer names no diagnosis and no repair; its
    body sends only the `previous_response_id` store, whose compaction stops, to the repair."""
    said = headlines.stored_vs_sent(found)
    assert "stuck" not in said and "no repair is needed" not in said
    assert "Upgrading does not free a store already left with an open call" not in said
    # r19: "in `auto` mode ... answered and compacted; in `previous_response_id` mode ...
    # `repair --apply` rewrites it" left open whether `auto` stores need the doctor, and into
    # what: the open call stays in both modes (the page's last table), rewritten as 07's note
    assert "keeps that call in both modes (this page's last table)" in said
    assert "notebook 07 shows the repair that rewrites such a call as a note that it was" in said
    # r20: 07 repairs a session it generates, not a refused pause's store: 02 says so
    assert "runs `doctor scan` and `doctor repair` on a store left" not in _markdown(
        "02-stored-vs-sent"
    )
    # r19: the answer's rule was said three times in the page: the body says it once
    body = " ".join(_markdown("02-stored-vs-sent").split())
    assert body.count("In `previous_response_id` mode no compaction request is made") == 1
    assert "no request is made while the open call stays stored" not in body


def test_headlines_matrix_maintainer_rule_says_what_to_do_with_a_call_never_answered(
    found: Findings,
) -> None:
    """r12: 04's rule for maintainers was the wait alone, 0.24.0's rule, which 06 and the README
    show never compacting again after some calls nobody answers; it now says to retire such a
    call or compact around it."""
    import json

    # r15: the body's rule repeated the first screen and stated what 04 does not show (dead
    # calls are 06's and 10's); 04 now states no rule for them at all, and its action points
    # to the code (notebook 03) and to the table showing where a fix compacts (notebook 06)
    cells = json.loads((paths.ROOT / "notebooks" / "04-violation-matrix.ipynb").read_text())
    prose = " ".join(" ".join("".join(c["source"]).split()) for c in cells["cells"])
    assert "**For SDK maintainers.**" not in prose and "dead call" not in prose
    said = headlines.violation_matrix(found)
    assert "wait for it for good" not in said and "notebook 03" in said
    # r23: "change when the session compacts" named no rule, and "2 of 21 points" no unit: the
    # action states the rule, the count is in the README's and 07's unit
    assert "compact no history that holds a call still waiting for its output" in said
    assert "by itself: notebook 07's section 1" in said and " points " not in said


def test_headlines_short_action_is_upgrade_workaround_scoped_then_doctor(found: Findings) -> None:
    """Issue 61: every page ends its answer with the one short action; where to keep the
    workaround is the liveness sweep's scoped rule, not "wherever an approval can go
    unanswered"; without a fixing release there is nothing to upgrade to."""
    said = headlines.short_action(found)
    assert said.startswith(f"**What to do.** Upgrade to {found.fixed_in}.")
    # r14: pages restated 06's keep rule they do not show; they point to 06 for it. r15: the
    # bare pointer read as "drop it on upgrading"; r16: "drop it unless an approval can go
    # unanswered" disagreed with the README's keep table. The clause is that table's, per mode.
    fixed = of(found.verdicts, found.fixed_in)
    where = keep_where(fixed)
    for what, modes in where.items():
        assert (
            f"where {what} can go unanswered ({' and '.join(f'`{m}`' for m in modes)} mode)" in said
        )
        for mode in modes:  # the README's keep table says the same in each of those modes
            assert f"keep it where {what} can go unanswered" in advice(fixed, mode)
    assert where and "keep it only where" in said and "(notebook 06 tests it)" in said
    never_stops = replace(found, verdicts=())
    dropped = headlines.short_action(never_stops)
    assert "Drop it after upgrading" in dropped and "keep it" not in dropped
    assert headlines._keep_after(found) not in said
    assert said.index("notebook 06") < said.index("with the doctor (notebook 07)")
    unfixed = headlines.short_action(replace(found, fixed_in=None))
    assert "Upgrade" not in unfixed and "defer_compaction_while_pending" in unfixed
