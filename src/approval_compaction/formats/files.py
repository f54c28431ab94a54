"""Files: atomic writes, so a failed run leaves the previous results in place.

``write_atomic`` replaces one file in one step. ``write_all_atomic`` writes a set of files that
belong together (a results JSON and its CSV): every one is written to a temporary file first,
and only when all are written are they renamed over the old ones, so a failure while writing
leaves the whole set as it was.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from ..errors import InvestigationError


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


class FileExists(InvestigationError, FileExistsError):
    """A file that a write without ``replace`` found already there (nothing was replaced)."""


def write_all_atomic(contents: Mapping[Path, str | bytes], replace: bool = True) -> None:
    """Write every file to a temporary file, then rename each over its target. Without
    ``replace``, each is linked into place instead, which fails (``FileExists``) on a file
    that exists, even one that appeared a moment before: nothing is ever replaced."""
    staged: dict[Path, Path] = {}
    try:
        for path, content in contents.items():
            staged[path] = _staged(path, content)
        for path, temp in staged.items():
            if replace:
                os.replace(temp, path)
                continue
            try:
                os.link(temp, path)
            except FileExistsError:
                raise FileExists(f"{path} already exists: pass --force to replace it") from None
    finally:
        for temp in staged.values():
            temp.unlink(missing_ok=True)


def write_atomic(path: Path, content: str | bytes, replace: bool = True) -> None:
    """Write to a temporary file beside ``path`` and rename it over ``path`` in one step
    (without ``replace``: link it there, refusing a file that exists)."""
    write_all_atomic({path: content}, replace)


def write_or_print(text: str, output: str | None) -> None:
    """A command's text to the file ``output`` names (atomically), or to standard output."""
    if output:
        write_atomic(Path(output), text)
    else:
        sys.stdout.write(text)
