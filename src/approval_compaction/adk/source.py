"""Source: a line of the installed ``google-adk`` as a permalink into adk-python at its tag.

The wheel ships the package's Python source as the repository keeps it under
``src/google/adk/`` (the same text: the sdist's ``src/`` is the repository's), so a line found
by a piece of its text in the release's environment is the same line at the release's tag.
"""

from __future__ import annotations

from pathlib import Path

from ..lab.releases.driven import SourceLineError
from .packages import pinned, release_environment

REPOSITORY = "https://github.com/google/adk-python"


def line_in(site: Path, module: str, needle: str, release: str) -> int:
    """The number of the first line of ``google/adk/<module>`` under ``site`` (a
    site-packages folder holding ``release``) holding ``needle``."""
    lines = (site / "google" / "adk" / module).read_text().splitlines()
    found = next((n for n, text in enumerate(lines, 1) if needle in text), None)
    if found is None:
        raise SourceLineError(f"{needle!r} is not in google/adk/{module} {release}")
    return found


def line(module: str, needle: str, version: str | None = None) -> int:
    """The number of the first line of ``google/adk/<module>`` holding ``needle``, in the
    release's environment."""
    release = version or pinned()
    site = next(release_environment(release).folder.glob("lib/python*/site-packages"))
    return line_in(site, module, needle, release)


def permalink(module: str, needle: str, version: str | None = None) -> str:
    """The line's permalink at the release's tag: ``.../blob/v2.13.0/src/google/adk/...``."""
    release = version or pinned()
    return f"{REPOSITORY}/blob/v{release}/src/google/adk/{module}#L{line(module, needle, release)}"
