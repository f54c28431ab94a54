"""The ADK folder's options on ``doctor check``: ``--adk`` and its ``--kind``."""

from __future__ import annotations

import argparse

from approval_compaction.adk import options


def parsed(*argv: str) -> argparse.Namespace:
    check = argparse.ArgumentParser()
    options.declare(check)
    return check.parse_args(list(argv))


def test_options_adk_is_asked_by_its_flag_in_every_kind_by_default() -> None:
    assert options.asked(parsed("--adk")) and not options.asked(parsed())
    assert parsed("--adk").kind == "every"
    assert parsed("--adk", "--kind", "window-1").kind == "window-1"
    assert not hasattr(options, "EXPORT")  # the doctor reads no ADK export
