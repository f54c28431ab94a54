"""Browser: notebook 01 in JupyterLab, driven as a person would, in Debian's headless Chromium.

Playwright for Python is only the driver: the browser is the system's ``chromium`` (no browser
download is possible here), started with ``executable_path``. These steps open a notebook, run
all its cells from the menu, read what the cells show (errors included), click the stepper's
stage buttons and time how long each click takes to show the stage's tables. The browser test
asserts on them and ``benchmarks/stepper_latency.py`` prints their timings.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from playwright.sync_api import Browser, Page, sync_playwright

from ..study.capture import StageName

CHROMIUM_NAMES = ("chromium", "chromium-browser")
# As root and offline: no sandbox, no GPU, and none of Chromium's own background traffic.
CHROMIUM_FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
VIEWPORT = {"width": 1400, "height": 1000}
STEP_TIMEOUT_MS = 30_000
START_TIMEOUT_MS = 120_000
RUN_ALL_TIMEOUT_MS = 240_000
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
ERROR_MIME = "application/vnd.jupyter.stderr"


def chromium_path() -> str | None:
    """The system's Chromium, or None when it is not installed."""
    return next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)


@contextmanager
def chromium(executable: str) -> Iterator[Browser]:
    """A headless Chromium from ``executable``, closed (with its driver) on the way out."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable,
            headless=True,
            args=list(CHROMIUM_FLAGS),
            timeout=STEP_TIMEOUT_MS,
        )
        try:
            yield browser
        finally:
            browser.close()


# JupyterLab started with ``--LabApp.expose_app_in_browser`` (``start_lab`` does) is
# ``window.jupyterapp``: the notebook panel shown, its kernel and its output renderers.
_NOTEBOOK_READY = """(mimeTypes) => {
    const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    const kernel = panel && panel.sessionContext && panel.sessionContext.session
        && panel.sessionContext.session.kernel;
    return Boolean(kernel && kernel.status === 'idle' && panel.content
        && mimeTypes.every(m => panel.content.rendermime.mimeTypes.includes(m)));
}"""
_RUN_ALL = """async (timeout) => {
    const commands = window.jupyterapp.commands;
    await commands.execute('notebook:clear-all-cell-outputs');
    const late = new Promise((_, reject) => setTimeout(
        () => reject(new Error(`Run All Cells took over ${timeout} ms`)), timeout));
    return await Promise.race([commands.execute('notebook:run-all-cells'), late]);
}"""


def open_notebook(browser: Browser, url: str, mime_types: Sequence[str] = (WIDGET_VIEW,)) -> Page:
    """A page with the notebook open, its kernel idle, and renderers for ``mime_types`` (the
    widget manager registers its renderer only once the kernel is ready)."""
    page = browser.new_page(viewport=VIEWPORT)  # type: ignore[arg-type]  # a ViewportSize dict
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(url)
    page.wait_for_function(_NOTEBOOK_READY, arg=list(mime_types), timeout=START_TIMEOUT_MS)
    return page


def run_all(page: Page) -> float:
    """Clear every output, then Run All Cells; the seconds until the last cell ran (or until
    the first that failed: ``outcomes`` tells which)."""
    start = time.perf_counter()
    page.evaluate(_RUN_ALL, RUN_ALL_TIMEOUT_MS)
    return time.perf_counter() - start


@dataclass(frozen=True)
class CellOutcome:
    """What one code cell shows after running: its prompt, errors, and output count."""

    index: int
    prompt: str
    errors: list[str]
    outputs: int


def outcomes(page: Page) -> list[CellOutcome]:
    """Every code cell's prompt and the text of any error or stderr output it shows."""
    found = []
    for index, cell in enumerate(page.locator(".jp-CodeCell").all()):
        errors = cell.locator(f".jp-OutputArea-output[data-mime-type='{ERROR_MIME}']")
        found.append(
            CellOutcome(
                index=index,
                prompt=cell.locator(".jp-InputPrompt").inner_text().strip(),
                errors=[text.strip()[:300] for text in errors.all_inner_texts()],
                outputs=cell.locator(".jp-OutputArea-output").count(),
            )
        )
    return found


STEPPER = ".ac-stepper"


def stage_button(name: StageName) -> str:
    """The selector of a stage's toggle button in the stepper."""
    return f"{STEPPER} .widget-toggle-button[data-value='{name}']"


# Stamps the click on the button and the moment the stage's page is in the tables, in the page's
# own clock, so the figure is the browser's: click, kernel round trip, and the new tables drawn.
_WATCH_STAGE = """([button, tables, name]) => {
    const watch = {clicked: null, shown: null};
    window.__stepperWatch = watch;
    button.addEventListener('click', () => { watch.clicked = performance.now(); }, {once: true});
    const shown = () => tables.querySelector(`.ac-stage[data-stage="${name}"]`);
    const observer = new MutationObserver(() => {
        if (watch.clicked !== null && shown()) {
            watch.shown = performance.now();
            observer.disconnect();
        }
    });
    observer.observe(tables, {childList: true, subtree: true, characterData: true});
}"""


def click_stage(page: Page, name: StageName) -> float:
    """Click a stage's button; seconds from the click until the stage's tables are shown."""
    button = page.locator(stage_button(name))
    button.scroll_into_view_if_needed()
    tables = page.locator(f"{STEPPER} .ac-stepper-tables")
    page.evaluate(_WATCH_STAGE, [button.element_handle(), tables.element_handle(), name])
    button.click()
    page.wait_for_function("() => window.__stepperWatch.shown !== null")
    watch = page.evaluate("() => window.__stepperWatch")
    return float(watch["shown"] - watch["clicked"]) / 1000


def section_rows(page: Page) -> dict[str, int]:
    """Rows in each table the stepper shows now, counted in the page (0 for an empty note)."""
    rows = {}
    for section in page.locator(f"{STEPPER} .ac-section").all():
        key = str(section.get_attribute("data-section"))
        rows[key] = section.locator("table tbody tr").count()
    return rows


def stepper_message(page: Page) -> str:
    return page.locator(f"{STEPPER} .ac-stepper-message").inner_text().strip()


def choose(page: Page, control: str, value: str) -> None:
    """Pick ``value`` in the stepper's control labelled ``control`` (a dropdown or toggle
    buttons); wait until the stepper's message line changes."""
    before = stepper_message(page)
    label = control.replace("_", " ")
    widget = page.locator(f"{STEPPER} :is(.widget-dropdown, .widget-toggle-buttons)").filter(
        has=page.locator(f"label:text-is('{label}')")
    )
    select = widget.locator("select")
    if select.count():
        select.select_option(value)
    else:
        widget.locator(f".widget-toggle-button[data-value='{value}']").click()
    page.wait_for_function(
        """([element, before]) => element.innerText.trim() !== before""",
        arg=[page.locator(f"{STEPPER} .ac-stepper-message").element_handle(), before],
    )


def screenshot(page: Page) -> bytes:
    """The page as PNG with the file browser folded away and the stepper at the top."""
    page.evaluate(
        """() => window.jupyterapp.shell.leftCollapsed
            || window.jupyterapp.commands.execute('application:toggle-left-area')"""
    )
    page.locator(STEPPER).evaluate("element => element.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)  # let the layout settle after the sidebar folds
    return page.screenshot()
