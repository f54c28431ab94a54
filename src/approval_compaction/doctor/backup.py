"""Backup: every row of every session a repair will touch, written before the first write.

The file is JSON lines, streamed so that its size, not the memory, grows with the sessions: a
header naming the store, one line per session (its fingerprint and each row's id, value exactly
as stored, its type too (``values``), and ``created_at``; for an ``AdvancedSQLiteSession`` file
also its ``message_structure`` rows), and a footer with the session count and a SHA-256 of all
the lines before it. It is written beside its final name, flushed to disk and, only when
complete, linked under that name: the link fails when the name exists, so a name is claimed once
and never replaced (two runs given one ``--backup`` cannot both keep it: the second stops before
it writes the store). A write that fails (a full disk) leaves no temporary file behind. Reading
checks the header, every line and the footer before it yields anything, so a truncated or edited
backup is a one-line ``BackupError`` and restores nothing; each session read back is the
``StoredSession`` that was written, its fingerprint checked again.
"""

from __future__ import annotations

import binascii
import contextlib
import errno
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from ..errors import InvestigationError
from .stores import DiskFull, Row, StoredSession, StructureRow
from .values import from_json, to_json

FORMAT = "approval-compaction-doctor-backup"
VERSION = 3
READABLE = (1, 2, 3)  # version 1 had no structure rows; before 3 every value was text


class BackupError(InvestigationError):
    """A backup that cannot be written, or read back whole."""


class BackupFull(BackupError, DiskFull):
    """The disk filled while the backup was written: nothing written to the store (exit 5)."""


def failed(doing: str, error: OSError) -> BackupError:
    """A failed write of the backup, in one line: before the store is written, always."""
    said = f"{doing}: {error.strerror or error}; nothing written to the store"
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return BackupFull(said)
    return BackupError(said)


@dataclass(frozen=True)
class BackupHeader:
    """Which store the backup came from: its kind, and its name (a URL without password)."""

    store: str
    kind: str
    sessions: int
    identity: str | None = None  # which store (``Store.identity``); None in older backups


class BackupWriter:
    """Write a backup line by line; it appears under its name only once ``close`` completes."""

    def __init__(self, path: Path, store: str, kind: str, identity: str | None = None) -> None:
        if path.exists():
            raise BackupError(f"backup {path} already exists: choose another --backup file")
        if not path.parent.is_dir():
            raise BackupError(f"no folder {path.parent} for the backup")
        self.path, self.count = path, 0
        self._digest = hashlib.sha256()
        try:
            fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        except OSError as error:  # a folder that takes no files (/proc/self), read-only, full
            raise failed(f"cannot write the backup in {path.parent}", error) from None
        self._temp = Path(temp)
        self._handle = os.fdopen(fd, "w", encoding="utf-8")
        header = {"format": FORMAT, "version": VERSION, "store": store, "kind": kind}
        try:
            self._line(header | ({"identity": identity} if identity is not None else {}))
        except BackupError:
            self.abandon()
            raise

    def _line(self, value: dict[str, Any]) -> None:
        text = json.dumps(value, ensure_ascii=False) + "\n"
        self._digest.update(text.encode())
        try:
            self._handle.write(text)
        except OSError as error:  # a full disk: the store is not written (the caller abandons)
            raise failed(f"cannot write the backup {self.path}", error) from None

    def add(self, session: StoredSession) -> None:
        rows = [[r.id, to_json(r.data), to_json(r.created_at)] for r in session.rows]
        line: dict[str, Any] = {"session_id": session.session_id}
        line |= {"fingerprint": session.fingerprint, "rows": rows}
        if session.structure is not None:
            line["structure"] = [entry.as_list() for entry in session.structure]
        self._line(line)
        self.count += 1

    def close(self) -> Path:
        """Write the footer, flush to disk and claim the final name (never over a file)."""
        footer = {"end": True, "sessions": self.count, "sha256": self._digest.hexdigest()}
        try:
            self._handle.write(json.dumps(footer) + "\n")
            self._handle.flush()
            os.fsync(self._handle.fileno())
            self._handle.close()
            claim(self._temp, self.path)
        except FileExistsError:
            self.abandon()
            raise BackupError(
                f"backup {self.path} was created by another run meanwhile: nothing written to "
                "the store; choose another --backup file"
            ) from None
        except OSError as error:  # a full disk at the flush, a folder that refuses links
            self.abandon()
            raise failed(f"cannot write the backup {self.path}", error) from None
        self._temp.unlink(missing_ok=True)
        return self.path

    def abandon(self) -> None:
        with contextlib.suppress(OSError):  # closing flushes: on a full disk that fails too
            self._handle.close()
        self._temp.unlink(missing_ok=True)

    def __enter__(self) -> BackupWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if kind is not None:
            self.abandon()


def claim(temp: Path, path: Path) -> None:
    """Give the complete file ``temp`` the name ``path``, failing (``FileExistsError``) when the
    name exists: a hard link, or where the file system has none an exclusive create and copy."""
    try:
        os.link(temp, path)
        return
    except FileExistsError:
        raise
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
            raise
    with temp.open("rb") as source, path.open("xb") as target:  # "x": O_EXCL
        try:
            shutil.copyfileobj(source, target)
            target.flush()
            os.fsync(target.fileno())
        except OSError:
            path.unlink(missing_ok=True)  # the name was this run's: no half copy stays
            raise


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    try:
        with path.open(encoding="utf-8") as handle:
            yield from enumerate(handle, start=1)
    except FileNotFoundError:
        raise BackupError(f"no backup at {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise BackupError(f"backup {path} cannot be read: {error}") from None


def _parse(path: Path, number: int, line: str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        raise BackupError(f"backup {path} is corrupt or truncated at line {number}") from None
    if not isinstance(value, dict):
        raise BackupError(f"backup {path} line {number} is not a JSON object")
    return value


def check(path: Path) -> BackupHeader:
    """Read the whole backup once: a ``BackupError`` unless it is complete and unchanged."""
    digest = hashlib.sha256()
    header: dict[str, Any] | None = None
    footer: dict[str, Any] | None = None
    count = 0
    for number, line in _lines(path):
        if footer is not None:
            raise BackupError(f"backup {path} has lines after its end (line {number})")
        value = _parse(path, number, line)
        if not line.endswith("\n"):
            raise BackupError(f"backup {path} is truncated at line {number}")
        if header is None:
            if value.get("format") != FORMAT or value.get("version") not in READABLE:
                raise BackupError(f"{path} is not a doctor backup (version {VERSION})")
            header = value
        elif value.get("end") is True:
            footer = value
            continue
        else:
            if not isinstance(value.get("session_id"), str) or not isinstance(
                value.get("rows"), list
            ):
                raise BackupError(f"backup {path} line {number} is not a session")
            count += 1
        digest.update(line.encode())
    if header is None:
        raise BackupError(f"backup {path} is empty")
    if footer is None:
        raise BackupError(f"backup {path} is truncated: it has no end line")
    if footer.get("sessions") != count or footer.get("sha256") != digest.hexdigest():
        raise BackupError(f"backup {path} does not match its checksum: it was changed")
    identity = header.get("identity")
    return BackupHeader(str(header.get("store")), str(header.get("kind")), count,
                        None if identity is None else str(identity))  # fmt: skip


def sessions(path: Path) -> Iterator[StoredSession]:
    """The sessions of a backup that ``check`` has accepted, one at a time, each as it was
    read (its rows' ids, texts exactly as stored and creation times; its structure rows)."""
    for number, line in _lines(path):
        value = _parse(path, number, line)
        if "session_id" not in value:
            continue
        try:
            rows = tuple(Row(int(i), from_json(d), from_json(c)) for i, d, c in value["rows"])
            structure = None
            if "structure" in value:
                structure = tuple(StructureRow(*entry) for entry in value["structure"])
        except (TypeError, ValueError, binascii.Error):
            raise BackupError(f"backup {path} line {number} has a malformed row") from None
        session = StoredSession(value["session_id"], rows, structure)
        if session.fingerprint != value.get("fingerprint"):
            raise BackupError(f"backup {path} line {number} does not match its fingerprint")
        yield session


def read(path: Path) -> tuple[BackupHeader, list[StoredSession]]:
    """A checked backup, whole (for tests and small backups)."""
    header = check(path)
    return header, list(sessions(path))
