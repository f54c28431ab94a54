"""A line of the installed google-adk as a permalink into adk-python at the release's tag."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from approval_compaction.adk.packages import pinned
from approval_compaction.adk.source import line_in, permalink
from approval_compaction.lab.releases.driven import SourceLineError


def _site(folder: Path, text: str) -> Path:
    module = folder / "google" / "adk" / "apps" / "compaction.py"
    module.parent.mkdir(parents=True)
    module.write_text(text)
    return folder


def test_line_in_is_the_first_line_holding_the_text(tmp_path: Path) -> None:
    site = _site(tmp_path, "import os\n\ndef run():\n  run_once()\n")
    assert line_in(site, "apps/compaction.py", "run", "2.13.0") == 3
    assert line_in(site, "apps/compaction.py", "import os", "2.13.0") == 1


def test_line_in_text_the_module_does_not_hold_is_one_line(tmp_path: Path) -> None:
    site = _site(tmp_path, "import os\n")
    with pytest.raises(
        SourceLineError, match=r"^'nothing' is not in google/adk/apps/compaction.py 2.13.0$"
    ):
        line_in(site, "apps/compaction.py", "nothing", "2.13.0")


@pytest.mark.slow
@pytest.mark.releases
def test_permalink_points_into_adk_python_at_the_pinned_tag() -> None:
    link = permalink("apps/compaction.py", "async def _summarize_events_with_trace(")
    found = re.fullmatch(
        r"https://github.com/google/adk-python/blob/v(\S+)/src/google/adk/apps/compaction.py"
        r"#L(\d+)",
        link,
    )
    assert found is not None, link
    assert found.group(1) == pinned() and int(found.group(2)) > 1
