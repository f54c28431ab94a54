"""Hardening (issue 33): hostile input and damaged stores, measured.

Prints the figures of ``docs/reliability.md``:

- **bad arguments**, per command: each bad value run through the command line in-process (the
  cases issue 33 found, and seeded variants of each); a *traceback* is an exception that escapes
  ``main`` or a refusal that is not one ``error:`` line with exit 2;
- **writes on unsound stores**: copies of a SQLite store, each with one page zeroed so that
  ``quick_check`` fails, given to ``doctor repair --apply`` and ``doctor restore``; a write is a
  copy whose bytes changed or a backup that appeared;
- **rows lost by restore**: a store repaired, then turns appended through the SDK's own
  ``SQLiteSession``, then ``doctor restore``: appended rows no longer there;
- **serve under load**: ``serve`` in its own process on 127.0.0.1, sent eight 39 MB requests
  one after another, its peak resident memory (``VmHWM``) and its memory after; then
  compactions of 40,000 calls (and their outputs) while a small request is sent every 20 ms,
  the worst latency of the small requests; then idle and slow connections, and clients that
  leave mid-body: how many connections the server has not closed after its head timeout, and
  how many tracebacks its console shows.

``python benchmarks/hardening.py`` runs it all (about a minute); every server it starts listens
on 127.0.0.1 and every loop is bounded.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import httpx

from approval_compaction.cli import main
from approval_compaction.doctor import backup as backups
from approval_compaction.doctor.repair import apply
from approval_compaction.doctor.restore import restore
from approval_compaction.lab.stores.synthetic import app_session, close_app_session, generate
from approval_compaction.wire.server import HEAD_SECONDS

HOST = "127.0.0.1"
SEED = 33
VARIANTS = 6  # seeded variants of each case the issue found
LARGE_BYTES = 39 * 1024 * 1024
LARGE_REQUESTS = 8
COMPACTION_CALLS = 40_000
COMPACTION_ROUNDS = 5  # compactions one after another, the small requests sent meanwhile
IDLE_CONNECTIONS = 120  # connections that send nothing
SLOW_CONNECTIONS = 60  # connections that send part of a request head, then nothing
GONE_MID_BODY = 50  # clients that send a head and part of the body, then leave


@dataclass(frozen=True)
class Tried:
    """One command's bad arguments: how many were tried, and how many ended in a traceback."""

    command: str
    tried: int
    tracebacks: int


def run(argv: list[str]) -> bool:
    """Whether ``argv`` is refused as it should be: one ``error:`` line, exit 2."""
    err = io.StringIO()
    try:
        with redirect_stdout(io.StringIO()), redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 1
    except Exception:  # a traceback: what this benchmark counts
        return False
    lines = err.getvalue().splitlines()
    return code == 2 and len(lines) == 1 and lines[0].startswith("error: ")


def word(rng: random.Random) -> str:
    return "".join(rng.choice("abcxyz") for _ in range(rng.randint(1, 8)))


def bad_arguments(folder: Path, store: Path) -> dict[str, list[list[str]]]:
    """Each command's bad arguments: the issue's cases, then seeded variants."""
    rng = random.Random(SEED)
    garbage = folder / "garbage.db"
    garbage.write_bytes(b"not a database" * 50)
    not_notebook = folder / "not-a-notebook.ipynb"
    not_notebook.write_text('{"cells": 3}')
    binary = folder / "binary.ipynb"
    binary.write_bytes(bytes(range(256)))
    not_backup = folder / "not-a-backup.jsonl"
    not_backup.write_text('{"format": "something else"}\n')
    urls = [
        "postgresql+asyncpg://[::1",
        "postgresql+asyncpg://u@h:abc/db",
        "mysql+asyncmy://u:p@[::1/db",
        "redis://[::1",
        "redis://host/abc",
        str(folder / "absent.db"),
        str(garbage),
    ]
    for _ in range(VARIANTS):
        urls += [
            f"postgresql+asyncpg://u@h:{word(rng)}/db",
            f"mysql+asyncmy://u:p@[{word(rng)}/db",
            f"redis://h:{rng.randint(65536, 10**8)}/0",
            f"redis://h/{word(rng)}",
            f"zz{word(rng)}://x/db",
        ]
    ttls = ["0", "-5", "abc", *(str(-rng.randint(1, 10**6)) for _ in range(VARIANTS))]
    scan = [["doctor", "scan", u] for u in urls] + [
        ["doctor", "scan", str(store), "--ttl", t] for t in ttls
    ]
    backups = ["/proc/self/x.jsonl", str(folder / "no-folder" / "b.jsonl"), str(store)]
    backups += [f"/proc/self/{word(rng)}.jsonl" for _ in range(VARIANTS)]
    repair = [["doctor", "repair", u, "--apply"] for u in urls] + [
        ["doctor", "repair", str(store), "--apply", "--backup", b] for b in backups
    ]
    restore = [["doctor", "restore", str(p)] for p in (not_backup, garbage, folder / "none")]
    restore += [["doctor", "restore", str(not_backup), "--store", u] for u in urls[:5]]
    ports = ["99999", "-1", "abc", "65536"]
    ports += [str(rng.choice([-1, 1]) * rng.randint(65536, 10**9)) for _ in range(VARIANTS)]
    notebooks = [not_notebook, binary, folder / "none.ipynb", folder]
    existing = ["--output", str(store)]
    return {
        "doctor items": bad_exports(folder, rng),
        "doctor scan": scan,
        "doctor repair": repair,
        "doctor restore": restore,
        "doctor sql": [["doctor", "sql", "--dialect", word(rng)] for _ in range(VARIANTS)],
        "serve": [["serve", f"--port={p}"] for p in ports],
        "share": [["share", str(n), "--folder", str(folder / "out")] for n in notebooks]
        + [["share", "notebooks/01-walkthrough.ipynb", *existing]]
        + [["share", "--case", f"{word(rng)}/a/b/c", *existing] for _ in range(VARIANTS)],
        "render": [["render", str(n), "--folder", str(folder / "out")] for n in notebooks]
        + [
            ["render", "notebooks/01-walkthrough.ipynb", "--folder", d]
            for d in ("/etc", str(store))
        ],
        "report": [["report", *existing]]
        + [
            ["report", "--case", word(rng), "--output", str(folder / "r.md")]
            for _ in range(VARIANTS)
        ],
    }


def bad_exports(folder: Path, rng: random.Random) -> list[list[str]]:
    """``doctor items`` given what issue 57 tried: bytes that are not UTF-8, a FIFO, a ``--sdk``
    the items contradict, ``--output --force`` on what is not a regular file; and JSON's edges
    (NaN, a trailing comma, a list of lists nested 100,000 deep), with seeded variants."""
    js = [
        {"type": "function_call_result", "callId": "gone", "output": {"type": "text", "text": "x"}}
    ]
    export = folder / "export.json"
    export.write_text(json.dumps(js))
    fifo = folder / "export.fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    link = folder / "null-link"
    if not link.is_symlink():
        link.symlink_to("/dev/null")
    texts = [b'[{"content": "caf\xe9"}]', b"[NaN]", b'[{"a": 1},]', b"[" * 100_000 + b"]" * 100_000]
    texts += [b'[{"a": "' + bytes([rng.randint(0x80, 0xFF)]) + b'"}]' for _ in range(VARIANTS)]
    cases = []
    for number, text in enumerate(texts):
        bad = folder / f"bad-{number}.json"
        bad.write_bytes(text)
        cases.append(["doctor", "items", str(bad)])
    cases += [["doctor", "items", str(fifo)], ["doctor", "items", str(export), "--sdk", "python"]]
    cases += [["doctor", "items", str(export), "--output", str(t), "--force"] for t in (fifo, link)]
    return cases


def arguments(folder: Path, store: Path) -> list[Tried]:
    found = []
    for command, cases in bad_arguments(folder, store).items():
        found.append(Tried(command, len(cases), sum(not run(argv) for argv in cases)))
    return found


def quick_check_fails(path: Path) -> bool:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        try:
            return [r[0] for r in conn.execute("PRAGMA quick_check")] != ["ok"]
        except sqlite3.DatabaseError:
            return True


def damaged_copies(source: Path, folder: Path) -> Iterator[Path]:
    """A copy of ``source`` per page whose zeroing makes ``quick_check`` fail."""
    pages = source.stat().st_size // 4096
    for page in range(1, pages):
        target = folder / f"damaged-{page}.db"
        shutil.copy(source, target)
        with target.open("r+b") as handle:
            handle.seek(page * 4096)
            handle.write(bytes(4096))
        if quick_check_fails(target):
            yield target
        else:
            target.unlink()


def unsound_writes(folder: Path, store: Path, backup: Path) -> tuple[int, int]:
    """(damaged stores tried, those written to) by repair --apply and restore."""
    tried = written = 0
    for bad in damaged_copies(store, folder):
        before = bad.read_bytes()
        out = folder / f"{bad.stem}.jsonl"
        run(["doctor", "repair", str(bad), "--apply", "--backup", str(out)])
        run(["doctor", "restore", str(backup), "--store", str(bad), "--force"])
        tried += 1
        written += bad.read_bytes() != before or out.exists()
    return tried, written


def restore_losses(folder: Path, exact: bool = False) -> tuple[int, int]:
    """(rows appended after a repair, those a restore lost); ``exact`` (``--exact``, asked to
    remove them) shows the count can be other than 0."""
    store = folder / f"appended-{exact}.db"
    asyncio.run(generate(str(store), 30, 12))
    backup = folder / f"appended-{exact}.jsonl"
    asyncio.run(apply(str(store), backup))
    appended: list[tuple[str, str]] = []

    async def append() -> None:
        for saved in backups.sessions(backup):  # the sessions a restore puts back
            session = app_session(str(store), saved.session_id)
            try:
                for turn in range(3):
                    text = f"turn {turn} appended after the repair"
                    await session.add_items([{"role": "user", "content": text}])
                    appended.append((saved.session_id, text))
            finally:
                await close_app_session(session)

    asyncio.run(append())
    asyncio.run(restore(backup, exact=exact))  # what `doctor restore BACKUP` runs
    with sqlite3.connect(store) as conn:
        rows = set(conn.execute("SELECT session_id, message_data FROM agent_messages"))
    lost = sum((sid, json.dumps({"role": "user", "content": t})) not in rows for sid, t in appended)
    return len(appended), lost


class Serve:
    """``python -m approval_compaction serve --port 0`` in its own process, on 127.0.0.1."""

    def __enter__(self) -> Serve:
        argv = [sys.executable, "-m", "approval_compaction", "serve", "--host", HOST, "--port", "0"]
        pipe = subprocess.PIPE
        self.process = subprocess.Popen(argv, stdout=pipe, stderr=pipe, text=True)
        assert self.process.stdout is not None and self.process.stderr is not None
        first = self.process.stdout.readline()  # "Responses API stand-in on http://...:N/v1"
        self.base = first.split(" on ", 1)[1].split()[0]
        self.port = int(self.base.rsplit(":", 1)[1].split("/")[0])
        self.console: list[str] = []  # what uvicorn writes to stderr
        threading.Thread(target=self.process.stdout.read, daemon=True).start()  # drain the log
        threading.Thread(target=self._console, daemon=True).start()
        return self

    def _console(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.console.append(line)

    def memory(self, field: str) -> int:
        """``VmHWM`` (peak) or ``VmRSS`` (now) of the server, in bytes."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
        raise LookupError(field)

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def still_open(conn: socket.socket) -> bool:
    """Whether the server has not closed the connection (no end of file to read)."""
    conn.setblocking(False)
    try:
        return conn.recv(1) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def connections() -> tuple[int, int, int, int]:
    """(idle and slow connections opened, those still open after the server's head timeout,
    clients that left mid-body, "Exception in ASGI application" lines on the console)."""
    with Serve() as server:
        address = (HOST, server.port)
        idle = [socket.create_connection(address) for _ in range(IDLE_CONNECTIONS)]
        slow = [socket.create_connection(address) for _ in range(SLOW_CONNECTIONS)]
        for conn in slow:
            conn.sendall(b"POST /v1/responses HTTP/1.1\r\nHo")  # and never the rest
        for _ in range(GONE_MID_BODY):
            with socket.create_connection(address) as conn:
                conn.sendall(
                    b"POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Length: 9000\r\n\r\n{"
                )
        time.sleep(HEAD_SECONDS + 3)
        left = sum(still_open(conn) for conn in idle + slow)
        for conn in idle + slow:
            conn.close()
        time.sleep(0.5)
        tracebacks = sum("Exception in ASGI application" in line for line in server.console)
    return len(idle) + len(slow), left, GONE_MID_BODY, tracebacks


def large_body() -> bytes:
    text = "x" * 1000
    count = LARGE_BYTES // (len(text) + 40)
    body = json.dumps({"model": "m", "input": [{"role": "user", "content": text}] * count})
    return body.encode()


def serve_memory() -> tuple[int, int, int, list[int]]:
    """(RSS at start, peak RSS, RSS after, statuses) for eight 39 MB requests."""
    body = large_body()
    with Serve() as server, httpx.Client(base_url=server.base, timeout=120) as client:
        start = server.memory("VmRSS")
        statuses = [client.post("/responses", content=body).status_code for _ in range(8)]
        return start, server.memory("VmHWM"), server.memory("VmRSS"), statuses


def compaction_latency() -> tuple[float, float, int, int]:
    """(seconds the slowest of five 40,000-call compactions took, the worst latency of the
    small requests sent meanwhile, how many were sent, the compactions' worst status)."""
    calls = [
        {"type": "function_call", "call_id": f"c{n}", "name": "f", "arguments": "{}"}
        for n in range(COMPACTION_CALLS)
    ]
    outputs = [{"type": "function_call_output", "call_id": f"c{n}", "output": "x"}
               for n in range(COMPACTION_CALLS)]  # fmt: skip
    body = json.dumps({"model": "m", "input": [*calls, *outputs]}).encode()
    with Serve() as server:
        done = threading.Event()
        big: dict[str, float] = {}

        def compact() -> None:
            with httpx.Client(base_url=server.base, timeout=120) as client:
                for _ in range(COMPACTION_ROUNDS):
                    started = time.perf_counter()
                    answer = client.post("/responses/compact", content=body)
                    big["seconds"] = max(big.get("seconds", 0.0), time.perf_counter() - started)
                    big["status"] = max(big.get("status", 0), answer.status_code)
            done.set()

        latencies: list[float] = []
        with httpx.Client(base_url=server.base, timeout=120) as client:
            client.post("/responses", json={"input": "warm"})
            worker = threading.Thread(target=compact)
            worker.start()
            deadline = time.monotonic() + 120
            while not done.is_set() and time.monotonic() < deadline:
                started = time.perf_counter()
                client.post("/responses", json={"input": "small"})
                latencies.append(time.perf_counter() - started)
                time.sleep(0.02)
            worker.join(120)
    return big.get("seconds", -1.0), max(latencies), len(latencies), int(big.get("status", 0))


def timed(what: str, step: Callable[[], object]) -> object:
    started = time.perf_counter()
    value = step()
    print(f"  ({what}: {time.perf_counter() - started:.1f} s)", file=sys.stderr, flush=True)
    return value


def main_figures() -> None:
    with tempfile.TemporaryDirectory(prefix="hardening-") as name:
        folder = Path(name)
        store = folder / "store.db"
        asyncio.run(generate(str(store), 25, 40))
        sound = folder / "sound.db"
        shutil.copy(store, sound)
        backup = folder / "sound.jsonl"
        asyncio.run(apply(str(sound), backup))
        tried = timed("bad arguments", lambda: arguments(folder, store))
        unsound = timed("damaged stores", lambda: unsound_writes(folder, store, backup))
        losses = timed("restore after appends", lambda: restore_losses(folder))
        removed = timed("restore --exact", lambda: restore_losses(folder, exact=True))
    memory = timed("serve memory", serve_memory)
    latency = timed("compaction latency", compaction_latency)
    held = timed("idle, slow and abandoned connections", connections)

    print("| command | bad arguments tried | tracebacks |")
    print("| --- | ---: | ---: |")
    assert isinstance(tried, list)
    for row in tried:
        print(f"| `{row.command}` | {row.tried} | {row.tracebacks} |")
    print(f"| all | {sum(r.tried for r in tried)} | {sum(r.tracebacks for r in tried)} |")
    print()
    assert isinstance(unsound, tuple) and isinstance(losses, tuple)
    assert isinstance(memory, tuple) and isinstance(latency, tuple)
    start, peak, after, statuses = memory
    seconds, worst, small, status = latency
    mb = 1024 * 1024
    print("| measure | value |")
    print("| --- | ---: |")
    print(f"| damaged SQLite stores given to repair --apply and restore | {unsound[0]} |")
    print(f"| writes on them | {unsound[1]} |")
    print(f"| rows appended to repaired sessions, then restore | {losses[0]} |")
    print(f"| rows lost by restore | {losses[1]} |")
    assert isinstance(removed, tuple)
    print(f"| rows removed by restore --exact (asked to) | {removed[1]} |")
    print(f"| serve RSS at start | {start / mb:.0f} MB |")
    print(f"| serve peak RSS, eight 39 MB requests (statuses {sorted(set(statuses))}) "
          f"| {peak / mb:.0f} MB |")  # fmt: skip
    print(f"| serve RSS after them | {after / mb:.0f} MB |")
    print(f"| slowest of {COMPACTION_ROUNDS} compactions of 40,000 calls (status {status}) "
          f"| {seconds:.2f} s |")  # fmt: skip
    print(f"| worst latency of a small request meanwhile ({small} sent) | {worst * 1000:.0f} ms |")
    assert isinstance(held, tuple)
    opened, left, gone, tracebacks = held
    print(f"| idle and slow connections opened to serve | {opened} |")
    print(f"| still open {HEAD_SECONDS + 3:g} s later | {left} |")
    print(
        f"| clients gone mid-body: tracebacks on serve's console ({gone} clients) | {tracebacks} |"
    )


if __name__ == "__main__":
    main_figures()
