"""Every generated block of the README and the docs/ pages is what the committed data says."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from approval_compaction.analysis.invariants import DEFINITIONS
from approval_compaction.analysis.liveness import LIVENESS
from approval_compaction.cli import parser
from approval_compaction.formats.markdown import GITHUB_LIMIT, github_length
from approval_compaction.formats.records import read_records
from approval_compaction.js.harness import WORKAROUND
from approval_compaction.lab import paths
from approval_compaction.lab.findings.load import Findings, load_findings
from approval_compaction.lab.share import glossary
from approval_compaction.lab.share.glossary import BY_NAME, TERMS, table
from approval_compaction.lab.share.readme import (
    END,
    INVARIANTS_END,
    INVARIANTS_START,
    README_WORDS,
    START,
    MissingFindingsError,
    ReadmeMarkersError,
    answers_block,
    blocks,
    commands_block,
    markers,
    pages,
    update,
    with_block,
    words_block,
)

README = paths.ROOT / "README.md"


def _first_lines(count: int) -> str:
    return "\n".join(README.read_text().splitlines()[:count])


@pytest.fixture(scope="module")
def page_blocks() -> dict[str, list[tuple[str, str, str]]]:
    """Every page's blocks as the committed data writes them, by page name (written once for
    the module: each page's blocks take most of a second)."""
    return {page.name: blocks(text=page.read_text(), parser=parser()) for page in pages()}


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_readme_every_block_of_every_page_matches_committed_data(
    page: Path, page_blocks: dict[str, list[tuple[str, str, str]]]
) -> None:
    text = page.read_text()
    for start, end, block in page_blocks[page.name]:
        assert with_block(text, block, start, end) == text, f"{page.name} {start} is stale"


def test_readme_pages_hold_every_block_once(
    page_blocks: dict[str, list[tuple[str, str, str]]],
) -> None:
    """Each block lives on one page: the answers and notebooks on the front page, the
    reference tables on their docs pages."""
    where = {start: name for name, found in page_blocks.items() for start, _, _ in found}
    assert where == {
        markers("answers")[0]: "README.md",
        markers("notebooks")[0]: "README.md",
        markers("store")[0]: "README.md",
        markers("liveness")[0]: "README.md",
        markers("adk")[0]: "README.md",
        markers("doctor")[0]: "doctor.md",
        markers("upstream-suite")[0]: "workaround.md",
        markers("rules")[0]: "wire.md",
        markers("invariants")[0]: "invariants.md",
        markers("commands")[0]: "cli.md",
        markers("adk-changes")[0]: "adk.md",
        markers("langchain")[0]: "README.md",  # the LangChain folder's (lab.plugins)
        markers("words")[0]: "README.md",  # the glossary's (readme.words_block)
        markers("langchain-changes")[0]: "langchain.md",
    }


def test_readme_answers_come_after_the_quick_paths_within_185_lines(committed: Findings) -> None:
    """A maintainer's five minutes: the answer in words, then the words the tables use (issue 51:
    each defined before its first use; issue 61: every glossary term, one line each), then the
    affected releases, both error texts, the fix, what it still gets wrong, and the
    reproduction's line."""
    head = _first_lines(185)  # the quick paths take the first 76, the words table 45
    found = committed
    assert found.releases is not None and found.fixed_in is not None
    assert END in head
    for error in found.errors_met:
        assert error.api_message in head
    assert f"| {found.fixed_in} |" in head
    assert "stops compacting" in head
    assert "uv run --no-project" in head


def test_readme_first_sixty_lines_give_each_sdks_lines_to_paste_check_and_heal() -> None:
    """Issue 60: the first 60 lines had lost the workaround line and `doctor scan` when the
    words table moved above the answers; a team's lines come first now, for each SDK."""
    head = _first_lines(60)
    for line in ("defer_compaction_while_pending(", "doctor check", "doctor scan", "--apply"):
        assert line in head
    for line in ("deferCompactionWhilePending(", "doctor check --js", "doctor items", "--output"):
        assert line in head


JS_PROVEN = re.compile(
    r"\*\*In JavaScript\*\*, with \[`(?P<file>[^`]+)`\]\((?P=file)\) no case of any mode "
    r"breaks an invariant on `@openai/agents` (?P<proven>[^(]+) \(`(?P<data>[^`]+)`\)"
)


def readme_js_workaround() -> dict[str, str]:
    """The README's JS workaround: the file the quick path copies, its two lines (the import and
    the wrap), and where the answers say it is proven."""
    from approval_compaction.formats.markdown import fenced_blocks, section

    text = README.read_text()
    found = JS_PROVEN.search(text)
    assert found is not None, "the README's JS workaround line is not where its test reads it"
    quick = section(text, "## Your first five minutes")
    typed = next(body for info, body in fenced_blocks(quick) if info == "ts")
    use = next(line for line in typed.splitlines() if "workaround.mjs" in line)
    wrap = next(line for line in typed.splitlines() if line.startswith("const session"))
    return found.groupdict() | {"use": use, "wrap": wrap}


def test_readme_js_workaround_names_the_modules_exports_and_where_its_sweep_proves_it() -> None:
    """A JS team's two lines import what js/workaround.mjs exports, from the file the line
    links, and the releases are those on which the workaround's sweep broke no invariant."""
    from approval_compaction.js.finding import js_workaround
    from approval_compaction.lab.releases.driven import SweepRecord

    said = readme_js_workaround()
    module = paths.ROOT / said["file"]
    assert module == WORKAROUND and module.is_file()
    exported = set(
        re.findall(r"^export (?:async )?(?:function|class|const) (\w+)", module.read_text(), re.M)
    )
    imported = re.fullmatch(r"import \{ ([\w, ]+) \} from '\./workaround\.mjs';", said["use"])
    assert imported is not None
    names = [name.strip() for name in imported.group(1).split(",")]
    assert names and set(names) <= exported
    assert said["wrap"].startswith(
        f"const session = {names[0]}(new OpenAIResponsesCompactionSession("
    )
    assert f"cp approval-compaction/{said['file']} " in README.read_text()
    rows = read_records(paths.ROOT / said["data"], SweepRecord)
    proven = js_workaround(rows)
    assert said["proven"].split(", ") == proven.ranges()
    assert all(v in proven.proven for v in ("0.4.1", "0.20.0"))


def test_readme_and_every_docs_page_fit_their_limits() -> None:
    """The README within 30,500 characters: 25,000 before issue 60 put a team's three quick
    paths (about 3,300) first and cut the sections they repeated; 27,000 before its words table
    listed every glossary term (issue 61, r15: about 1,800) and the answers said which record
    holds which runs (r16); 29,500 before the meanings said what their sources show and where
    they hold (r18: *compaction mode*'s partial snapshots, *orphan output*'s function tools)."""
    assert len(README.read_text()) <= 30_500
    for page in pages():
        assert github_length(page.read_text()) <= GITHUB_LIMIT, page.name


def test_readme_fix_table_shows_the_fixing_release_without_violations(committed: Findings) -> None:
    from approval_compaction.lab.findings.tables import fix_frame

    found = committed
    assert fix_frame(found).loc[found.fixed_in, "cases violating an invariant"] == 0


def test_readme_answers_need_every_result_file(tmp_path: Path) -> None:
    with pytest.raises(MissingFindingsError, match="every result file"):
        answers_block(load_findings(tmp_path), tmp_path)


def test_readme_commands_table_lists_every_command_of_the_parser() -> None:
    names = re.findall(r"^\| `([\w-]+)` \|", commands_block(parser()), re.M)
    choices = parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert names == list(choices)


def test_readme_invariants_table_is_written_where_the_page_marks_it(tmp_path: Path) -> None:
    """Each invariant's one meaning, in the verdicts' order, between its markers."""
    page = tmp_path / "invariants.md"
    fresh = (paths.DOCS / "invariants.md").read_text()
    page.write_text(with_block(fresh, "", INVARIANTS_START, INVARIANTS_END))
    assert update(page)
    table = page.read_text().split(INVARIANTS_START, 1)[1].split(INVARIANTS_END, 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert rows == [f"| `{i.name}` | {i.meaning} |" for i in (*DEFINITIONS, *LIVENESS)]


def test_readme_update_rewrites_a_stale_block_and_nothing_else(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    fresh = README.read_text()
    readme.write_text(with_block(fresh, "stale"))
    assert update(readme) and readme.read_text() == fresh
    assert not update(readme)


def test_readme_block_replaces_only_between_markers() -> None:
    text = f"intro\n{START}\nold\n{END}\noutro\n"
    assert with_block(text, "new") == f"intro\n{START}\nnew\n{END}\noutro\n"


def test_readme_without_markers_is_one_line_error() -> None:
    with pytest.raises(ReadmeMarkersError, match="has no"):
        with_block("no markers here", "x")


PUBLISHED = (
    *pages(),  # the README and every page under docs/
    paths.DATA_FILES.report,
    paths.DATA_FILES.snippet,
    paths.DATA_FILES.upstream_liveness,
)


@pytest.mark.parametrize("page", PUBLISHED, ids=lambda p: p.name)
def test_readme_docs_and_comments_keep_every_paragraph_within_eighty_words(page: Path) -> None:
    from approval_compaction.formats.markdown import paragraphs

    long = [p[:60] for p in paragraphs(page.read_text()) if len(p.split()) > 80]
    assert long == []


REPRODUCE = re.compile(
    r"\*\*Reproduce\*\*.*?\[`(?P<file>[^`]+)`\]\((?P=file)\).*?run `(?P<line>uv run [^`]+)`"
    r"; on (?P<pinned>\S+) pytest ends with `(?P<pinned_says>[^`]+)`, and with "
    r"`openai-agents==(?P<fixed>[^`]+)` pytest ends with `(?P<fixed_says>[^`]+)`\."
)


def readme_reproduction() -> dict[str, str]:
    """The README's reproduction line: the file it names, its command, what each release says."""
    found = REPRODUCE.search(README.read_text())
    assert found is not None, "the README's **Reproduce** line is not where its test reads it"
    return found.groupdict()


def test_readme_reproduction_names_the_upstream_form_and_5340() -> None:
    said = readme_reproduction()
    assert paths.ROOT / said["file"] == paths.REGRESSION_TEST
    assert "approval_compaction" not in paths.REGRESSION_TEST.read_text()
    assert "https://github.com/openai/openai-agents-python/issues/5340" in README.read_text()


@pytest.mark.releases
@pytest.mark.parametrize("release", ["pinned", "fixed"])
def test_readme_reproduction_as_written_says_what_the_readme_says(
    release: str, tmp_path: Path
) -> None:
    """Regression (openai-agents #5340): the README's command, run as written in an empty folder
    holding only the file it names, fails on the pinned release and passes on the fixing one,
    with the last line the README promises. uv builds the environment (from its cache, else
    from PyPI)."""
    import os
    import shlex
    import subprocess
    import sys

    said = readme_reproduction()
    words = shlex.split(said["line"])
    if release == "fixed":
        words = [w.replace(f"=={said['pinned']}", f"=={said['fixed']}") for w in words]
    (tmp_path / Path(said["file"]).name).write_text((paths.ROOT / said["file"]).read_text())
    uv = Path(sys.executable).with_name("uv")  # the uv `make setup` installs, as `uv` on PATH
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    proc = subprocess.run(
        [str(uv), *words[1:]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-2000:]
    assert said[f"{release}_says"] in last, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert proc.returncode == (1 if release == "pinned" else 0), last


@pytest.mark.subprocess
@pytest.mark.usefixtures("node_harness")
def test_readme_js_workaround_lines_run_as_pasted(tmp_path: Path) -> None:
    """The README's TypeScript block, pasted beside a copy of js/workaround.mjs in a project
    that has the pinned @openai/agents, wraps a session that stores and reads (a key in the
    environment, as a team's has: the client is made, never called)."""
    import os
    import shutil
    import subprocess

    from approval_compaction.formats.markdown import fenced_blocks, section

    quick = section(README.read_text(), "## Your first five minutes")
    typed = next(body for info, body in fenced_blocks(quick) if info == "ts")
    shutil.copyfile(WORKAROUND, tmp_path / "workaround.mjs")
    (tmp_path / "node_modules").symlink_to(paths.ROOT / "node_modules")
    script = typed + "\n".join(
        [
            "await session.addItems([{ type: 'message', role: 'user', content: 'q' }]);",
            "console.log(JSON.stringify((await session.getItems()).map((item) => item.content)));",
        ]
    )
    (tmp_path / "app.mjs").write_text(script)
    env = os.environ | {"OPENAI_API_KEY": "unused-by-the-test"}
    done = subprocess.run(
        ["node", "app.mjs"], cwd=tmp_path, capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 0, done.stderr[-1000:]
    assert json.loads(done.stdout) == ["q"]


def test_readme_says_the_stand_in_answers_both_apis_it_serves() -> None:
    """Issue 61 (r7): the README called the stand-in one "of the Responses API" while notebook
    14 runs LangChain over Chat Completions against it; it serves both (``wire.rules``)."""
    from approval_compaction.wire.rules import CHAT

    intro = (paths.ROOT / "README.md").read_text().split("## ", 1)[0]
    assert CHAT == "/v1/chat/completions"
    assert "stand-in* of the OpenAI API (Responses API, Chat Completions) answers" in (
        " ".join(intro.split())
    )


def test_readme_error_texts_name_auto_store_false_where_its_runs_met_the_refusal(
    committed: Findings,
) -> None:
    """Issue 61 (r7): the README's error-text table gave Python's "No tool call found ..."
    refusal the modes "input" alone (the sweep runs with the store unset), while notebook 09 and
    the README's store table show `auto` with `ModelSettings(store=False)` meeting it."""
    unstored = [s for s in committed.stores if s.store == "false"]
    assert unstored and "No tool call found" in unstored[0].story.errors
    row = next(
        line
        for line in Path("README.md").read_text().splitlines()
        if line.startswith("| No tool call found") and "openai-agents" in line
    )
    assert f"input; auto, store=False on {unstored[0].story.span}" in row


def test_readme_error_table_names_each_call_id_its_rows_hold() -> None:
    """Issue 61 (r9): the error table said only "the call id is yours", while its rows hold two
    ids (the scripted cases' and one the stand-in made) and notebook 09 prints the stand-in's
    from the raw client: the title names both, and each is in a row."""
    from approval_compaction.lab.share.readme import STANDIN_CALL_ID
    from approval_compaction.openai_agents.harness import PENDING_CALL_ID

    lines = README.read_text().splitlines()
    title = next(line for line in lines if line.startswith("**The error texts"))
    rows = [line for line in lines if line.startswith("| No tool")]
    assert "`data/js-sweep.json`" in title
    for call_id in (PENDING_CALL_ID, STANDIN_CALL_ID):
        assert f"`{call_id}`" in title
        assert any(f"call {call_id}." in row or f"call_id {call_id}." in row for row in rows)


def test_readme_verdict_row_names_every_verdict_word_and_the_doctors_diagnosis() -> None:
    """Issue 61 (r9): the words table filed *never compacts* under *not affected*, left out the
    liveness bugs ADK and LangChain rows show (a late answer left unpaired), and used "verdict"
    for the doctor's word on a session too: each of the record's verdicts and each liveness
    state are named; the doctor's word on a session is never "verdict", and its *diagnosis*
    (the glossary's, the README's row wherever it uses the word) names the five."""
    from typing import get_args

    from approval_compaction.doctor.verdict import VerdictWord
    from approval_compaction.lab.findings.verdict import STATE_WORDS, VERDICTS

    text = README.read_text()
    row = next(line for line in text.splitlines() if line.startswith("| *verdict*"))
    assert all(f"*{word}*" in row for word in VERDICTS)
    assert all(word in row for word in STATE_WORDS.values())
    assert "doctor's verdict" not in " ".join(text.split())
    assert all(f"*{word}*" in BY_NAME["diagnosis"].full for word in get_args(VerdictWord))


def _words_rows(page: str) -> list[str]:
    start, end = markers("words")
    return page.split(start, 1)[1].split(end, 1)[0].strip().splitlines()


def test_readme_words_table_is_every_glossary_row_then_the_readmes_own() -> None:
    """Issue 61: the README's words table was written by hand, each word meaning a little else
    than in the notebooks' terms blocks: its rows are the glossary's, every term in the
    glossary's order (r15: the blocks say each word holds on every page, and two pages' blocks
    listed terms the README's table lacked), then the README's own rows."""
    lines = _words_rows(README.read_text())
    own = [f"| {names} | {meaning} |" for names, meaning in README_WORDS]
    assert lines[len(lines) - len(own) :] == own
    head = lines[: len(lines) - len(own)]
    assert head == table(TERMS).splitlines()
    names = [re.match(r"\| \*([^*]+)\* \|", line).group(1) for line in head[2:]]  # type: ignore[union-attr]
    assert names == [t.name for t in TERMS] and {"STORE", "responses stored"} <= set(names)


def test_readme_words_table_follows_the_glossary(monkeypatch: pytest.MonkeyPatch) -> None:
    """A changed meaning changes the row; a term taken out of the glossary leaves the table."""
    assert f"| *doctor* | {BY_NAME['doctor'].full} |" in words_block()
    changed = replace(BY_NAME["doctor"], meaning="a changed meaning.", more="", where=())
    swapped = tuple(changed if t.name == "doctor" else t for t in TERMS if t.name != "STORE")
    monkeypatch.setattr(glossary, "TERMS", swapped)
    rows = words_block()
    assert "| *doctor* | a changed meaning. |" in rows and "| *STORE* |" not in rows


def test_readme_error_texts_say_which_the_newest_release_meets_on_a_poisoned_store(
    committed: Findings,
) -> None:
    """Issue 61 (r24): the error table stops at 0.23.1 (the sweep's fresh stores) while notebook
    07 shows 0.24.0 refusing a store 0.23.1 poisoned with the same text: the README says so from
    the upgrade records, and says nothing once the newest release heals such a store."""
    upgrade = committed.upgrade
    assert upgrade is not None and not upgrade.heals
    answers = answers_block(committed)
    said = f'A store {upgrade.pinned} *poisoned* meets "No tool call found" on {upgrade.newest} too'
    assert said in answers
    healed = replace(upgrade, poisoned=upgrade.repaired)
    assert "*poisoned* meets" not in answers_block(replace(committed, upgrade=healed))
