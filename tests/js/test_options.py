"""The JS folder's options on ``doctor check`` and its words for ``doctor items``."""

from __future__ import annotations

import argparse

from approval_compaction.js import options


def parsed(*argv: str) -> argparse.Namespace:
    check = argparse.ArgumentParser()
    options.declare(check)
    return check.parse_args(list(argv))


def test_options_js_takes_a_folder_the_current_one_by_default() -> None:
    assert parsed("--js").js == "."
    assert parsed("--js", "app").js == "app"
    assert options.asked(parsed("--js")) and not options.asked(parsed())


def test_options_export_names_the_package_a_team_exports_from() -> None:
    assert options.EXPORT.package == "@openai/agents"
    assert options.EXPORT.getter == "getItems() in JS"
