"""Notebook 01 in JupyterLab, in Debian's headless Chromium, used as a person would.

The test starts JupyterLab itself (a free port on 127.0.0.1, a token, every Jupyter folder in a
temporary one, and a copy of the notebook, so nothing in the checkout changes) and stops it, and
the browser, also when a step fails. It runs all cells from the menu, then clicks through the
stepper's stages. Without chromium it skips, except under CI (``CI=true``), where it must run.
``LAB_SCREENSHOT=1`` also writes the README's screenshot, ``data/lab-stepper.png``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import needs
import pytest
from playwright.sync_api import Browser, Page

from approval_compaction.formats.files import write_atomic
from approval_compaction.lab.share.lab import NOTEBOOK, LabServer, start_lab
from approval_compaction.openai_agents.harness import run_case
from approval_compaction.openai_agents.widget import sections
from approval_compaction.openai_agents.wiring import backend_for
from approval_compaction.study.capture import STAGES, CaseRun
from approval_compaction.study.scenario import Case
from approval_compaction.testing import browser

pytestmark = [
    pytest.mark.browser,
    pytest.mark.enable_socket,
    pytest.mark.allow_hosts(["127.0.0.1"]),  # loopback only: the server this test starts
    pytest.mark.timeout(600),
]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT = ROOT / "data" / "lab-stepper.png"
SETTINGS = {
    # Every cell in the page (not only those scrolled into view), and no news or update toast.
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension:notification": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}
# Clicked in this order so that each click changes the stage shown (pause is shown first).
CLICKS = ("round_trip", "resume", "pause", "next_turn")


@pytest.fixture(scope="module")
def executable() -> str:
    path = browser.chromium_path()
    if path is None:
        needs.require("Debian's chromium is not installed (apt-get install -y chromium)", "browser")
    assert path is not None
    return path


@pytest.fixture(scope="module")
def lab(executable: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    root, home = tmp_path_factory.mktemp("root"), tmp_path_factory.mktemp("home")
    shutil.copy(ROOT / NOTEBOOK, root)
    server = start_lab(root, home, settings=SETTINGS)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def chromium(executable: str) -> Iterator[Browser]:
    with browser.chromium(executable) as opened:
        yield opened


@pytest.fixture(scope="module")
def page(chromium: Browser, lab: LabServer) -> Page:
    opened = browser.open_notebook(chromium, lab.page(Path(NOTEBOOK).name))
    browser.run_all(opened)
    return opened


def shown_run(page: Page) -> CaseRun:
    """The case and model the stepper names in its message, run here to compute what it must
    show (``run/approve/on/json on openai-agents X, model responses, ...``)."""
    message = browser.stepper_message(page)
    label = message.split(" ")[0]
    model = message.split(", model ")[1].split(",")[0]
    case = Case(*label.split("/"))  # type: ignore[arg-type]
    return run_case(case, backend=backend_for(model))  # type: ignore[arg-type]


def test_lab_run_all_cells_shows_no_error(page: Page) -> None:
    cells = browser.outcomes(page)
    assert cells, "no code cell in the page"
    assert [c.index for c in cells if not c.prompt[1:-2].isdigit()] == []
    assert [(c.index, c.errors) for c in cells if c.errors] == []
    page.locator(browser.STEPPER).wait_for(state="visible")  # the widget view, drawn after


def test_lab_stepper_each_stage_shows_its_tables(page: Page) -> None:
    run = shown_run(page)
    assert set(CLICKS) == set(STAGES)
    for stage in CLICKS:
        browser.click_stage(page, stage)
        expected = {s.key: len(s.frame) for s in sections(run, stage)}
        assert browser.section_rows(page) == expected, stage
        assert browser.stepper_message(page).startswith(run.case.label)
    if os.environ.get("LAB_SCREENSHOT") == "1":
        write_atomic(SCREENSHOT, browser.screenshot(page))


def test_lab_stepper_runs_a_new_case_with_the_workaround(page: Page) -> None:
    start = shown_run(page).case
    browser.choose(page, "workaround", "defer_compaction_while_pending")
    assert browser.stepper_message(page).endswith("every invariant holds")
    browser.choose(page, "decision", "reject")
    message = browser.stepper_message(page)
    rejected = Case(**{**start.as_dict(), "decision": "reject"})  # type: ignore[arg-type]
    assert message.startswith(f"{rejected.label} on openai-agents")
    assert "workaround defer_compaction_while_pending" in message
    assert message.endswith("every invariant holds")
    assert browser.section_rows(page)["stored"] > 0
