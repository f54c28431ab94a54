"""The browser driver's selectors and its Chromium lookup (the driving itself: tests/lab)."""

from __future__ import annotations

import shutil

from approval_compaction.study.capture import STAGES
from approval_compaction.testing import browser


def test_chromium_path_is_the_first_chromium_on_path() -> None:
    found = [shutil.which(name) for name in browser.CHROMIUM_NAMES]
    assert browser.chromium_path() == next((p for p in found if p), None)


def test_stage_button_names_the_stepper_toggle_of_each_stage() -> None:
    buttons = [browser.stage_button(stage) for stage in STAGES]
    assert buttons[0] == ".ac-stepper .widget-toggle-button[data-value='pause']"
    assert len(set(buttons)) == len(STAGES)


def test_chromium_runs_headless_offline_and_without_a_sandbox() -> None:
    assert {"--no-sandbox", "--disable-background-networking"} <= set(browser.CHROMIUM_FLAGS)
