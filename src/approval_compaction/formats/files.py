"""Files: atomic writes, so a failed run leaves the previous results in place.

``write_atomic`` replaces one file in one step. ``write_all_atomic`` writes a set of files that
belong together (a results JSON and its CSV): every one is written to a temporary file first,
and only when all are written are they renamed over the old ones, so a failure while writing
leaves the whole set as it was.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path


def _staged(path: Path, content: str | bytes) -> Path:
    """The content in a temporary file beside ``path``, with ``path``'s mode."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = content.encode() if isinstance(content, str) else content
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temp, mode)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return Path(temp)


def write_all_atomic(contents: Mapping[Path, str | bytes]) -> None:
    """Write every file to a temporary file, then rename each over its target."""
    staged: dict[Path, Path] = {}
    try:
        for path, content in contents.items():
            staged[path] = _staged(path, content)
        for path, temp in staged.items():
            os.replace(temp, path)
    finally:
        for temp in staged.values():
            temp.unlink(missing_ok=True)


def write_atomic(path: Path, content: str | bytes) -> None:
    """Write to a temporary file beside ``path`` and rename it over ``path`` in one step."""
    write_all_atomic({path: content})
