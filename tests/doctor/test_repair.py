"""Repair: a dry run writes nothing; --apply backs up, heals, verifies, and restore undoes it.

Every test runs on each backend of ``conftest.BACKENDS``: a SQLite file, PostgreSQL, MariaDB and
Redis, plain and encrypted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from approval_compaction.doctor import backup as backups
from approval_compaction.doctor.repair import PREFIX, apply, dry_run, healed_message
from approval_compaction.doctor.restore import restore
from approval_compaction.doctor.scan import scan_store, verdict_counts
from approval_compaction.doctor.stores import StoredSession, opened
from approval_compaction.lab.stores.synthetic import app_session, close_app_session

MakeStore = Callable[..., str]


def snapshot(text: str) -> dict[str, StoredSession]:
    async def read() -> dict[str, StoredSession]:
        async with opened(text) as store:
            return {s.session_id: s async for s in store.sessions()}

    return asyncio.run(read())


def rows(session: StoredSession) -> list[tuple[int, str]]:
    return [(r.id, r.data) for r in session.rows]


def test_dry_run_shows_each_change_and_writes_nothing(make_store: MakeStore) -> None:
    text = make_store(count=6)
    before = snapshot(text)
    result = asyncio.run(dry_run(text))
    assert [o.session_id for o in result.outcomes] == ["session-000001", "session-000004"]
    change = result.outcomes[0].changes[0]
    assert change.before["type"] == "function_call_output"
    assert change.after == healed_message(change.before)
    assert snapshot(text) == before


def test_apply_heals_and_restore_puts_back_item_by_item(
    make_store: MakeStore, tmp_path: Path
) -> None:
    text = make_store(count=9)
    original = snapshot(text)
    result = asyncio.run(apply(text, tmp_path / "backup.jsonl"))
    assert result.count("repaired") == 3 and len(result.outcomes) == 3
    repaired = snapshot(text)
    assert verdict_counts(asyncio.run(scan_store(text))) == {
        "healthy": 6, "poisoned": 0, "stuck": 0, "pending": 3,
    }  # fmt: skip
    _, saved = backups.read(tmp_path / "backup.jsonl")
    assert {s.session_id for s in saved} == {o.session_id for o in result.outcomes}
    for backed in saved:
        now = repaired[backed.session_id]
        assert [r.id for r in now.rows] == [r.id for r in backed.rows]  # no row added or moved
        for old, new in zip(backed.rows, now.rows, strict=True):
            if old.data == new.data:
                continue
            assert now.codec.decode(now.session_id, old.data)["type"] == "function_call_output"
            healed = now.codec.decode(now.session_id, new.data)
            assert healed["content"].startswith(PREFIX)
            assert now.codec.encrypted == (PREFIX not in new.data)  # encrypted again
        assert rows(original[backed.session_id]) == [(r.id, r.data) for r in backed.rows]
    untouched = set(original) - {s.session_id for s in saved}
    assert all(rows(original[sid]) == rows(repaired[sid]) for sid in untouched)
    outcome = asyncio.run(restore(tmp_path / "backup.jsonl"))
    assert {r.status for r in outcome} == {"restored"}
    restored = snapshot(text)
    assert {sid: rows(s) for sid, s in restored.items()} == {
        sid: rows(s) for sid, s in original.items()
    }


def test_repair_is_idempotent(make_store: MakeStore, tmp_path: Path) -> None:
    text = make_store(count=6)
    asyncio.run(apply(text, tmp_path / "first.jsonl"))
    healed = snapshot(text)
    again = asyncio.run(apply(text, tmp_path / "second.jsonl"))
    assert again.outcomes == () and again.backup is None
    assert not (tmp_path / "second.jsonl").exists()
    assert snapshot(text) == healed


async def _append(text: str, session_id: str, item: dict[str, object], key: str | None) -> None:
    """Append one item the way the application does: through its SDK session class."""
    session = app_session(text, session_id, key)
    try:
        await session.add_items([item])
    finally:
        await close_app_session(session)


def test_rows_appended_after_the_scan_are_kept_and_the_session_repaired(
    make_store: MakeStore, tmp_path: Path, store_key: str | None
) -> None:
    text = make_store(count=6)
    late = {"role": "user", "content": "late"}

    async def concurrent_writer(session_id: str) -> None:
        if session_id == "session-000004":
            await _append(text, session_id, late, store_key)

    result = asyncio.run(apply(text, tmp_path / "b.jsonl", before_write=concurrent_writer))
    assert {o.session_id: o.status for o in result.outcomes} == {
        "session-000001": "repaired", "session-000004": "repaired",
    }  # fmt: skip
    changed = snapshot(text)["session-000004"]
    items, _ = changed.items()
    assert items[-1] == late
    assert any(str(item.get("content")).startswith(PREFIX) for item in items)


def test_a_session_whose_rows_to_rewrite_changed_is_left_alone(
    make_store: MakeStore, tmp_path: Path, store_key: str | None
) -> None:
    text = make_store(count=6)
    orphan = {"type": "function_call_output", "call_id": "late-call", "output": "late"}

    async def concurrent_writer(session_id: str) -> None:
        if session_id == "session-000004":  # a new orphan output, which the backup does not hold
            await _append(text, session_id, orphan, store_key)

    result = asyncio.run(apply(text, tmp_path / "b.jsonl", before_write=concurrent_writer))
    status = {o.session_id: o.status for o in result.outcomes}
    assert status == {"session-000001": "repaired", "session-000004": "changed since scan"}
    changed = snapshot(text)["session-000004"]
    assert changed.items()[0][-1] == orphan
    assert all(PREFIX not in str(item) for item in changed.items()[0])


def test_an_injected_failure_leaves_each_session_untouched_or_repaired(
    make_store: MakeStore, tmp_path: Path
) -> None:
    text = make_store(count=15)  # five poisoned sessions
    original = snapshot(text)
    seen: list[str] = []

    def fail_on_third(session_id: str) -> None:
        seen.append(session_id)
        if len(seen) == 3:
            raise RuntimeError("injected failure inside the third session's transaction")

    with pytest.raises(RuntimeError, match="injected"):
        asyncio.run(apply(text, tmp_path / "first.jsonl", fail_after=fail_on_third))
    after = snapshot(text)
    changed = sorted(sid for sid in original if rows(original[sid]) != rows(after[sid]))
    assert changed == seen[:2]  # the third rolled back; the rest never started
    result = asyncio.run(apply(text, tmp_path / "second.jsonl"))
    assert result.count("repaired") == 3
    assert verdict_counts(asyncio.run(scan_store(text)))["poisoned"] == 0
    asyncio.run(restore(tmp_path / "second.jsonl"))
    asyncio.run(restore(tmp_path / "first.jsonl"))
    assert {s: rows(v) for s, v in snapshot(text).items()} == {
        s: rows(v) for s, v in original.items()
    }


MCP_REQUEST = {"type": "mcp_approval_request", "id": "mcpr-1", "name": "lookup",
               "arguments": "{}", "server_label": "synthetic-mcp"}  # fmt: skip
ABANDONED_MCP = [
    {"role": "user", "content": "look it up"},
    MCP_REQUEST,
    {"role": "user", "content": "something else"},
    {"type": "message", "role": "assistant", "content": "an answer"},
]


def test_an_abandoned_mcp_request_is_stuck_repaired_and_restored(
    request: pytest.FixtureRequest, tmp_path: Path, backend: str, store_key: str | None
) -> None:
    """A hosted MCP approval request nobody answered, a user message after it: the scan names
    it as the item that pins the session (0.24.0 never compacts it again), the database's own
    query lists the session stuck, the repair rewrites the request as text, and restore puts
    the request back."""
    from approval_compaction.doctor import indb
    from approval_compaction.lab.stores import synthetic

    from .conftest import new_store

    text = new_store(request, tmp_path, backend.removeprefix("encrypted-"))
    asyncio.run(synthetic.write_sessions(text, [("mcp-abandoned", ABANDONED_MCP)], key=store_key))
    original = snapshot(text)
    (report,) = asyncio.run(scan_store(text))
    assert report.verdict == "stuck" and report.open_calls == ("mcpr-1",)
    assert "MCP approval request mcpr-1" in report.note
    if backend in ("sqlite", "postgresql", "mariadb"):

        async def listed() -> list[indb.Found]:
            async with opened(text) as store:
                return await indb.find(store)

        assert asyncio.run(listed()) == [indb.Found("mcp-abandoned", None, "stuck", 0, 1)]
    (planned,) = asyncio.run(dry_run(text)).outcomes
    (change,) = planned.changes
    assert change.before == MCP_REQUEST and change.position == 1
    said = "The MCP approval request mcpr-1 (synthetic-mcp lookup {}) was never answered."
    assert change.after["content"] == PREFIX + said
    assert asyncio.run(apply(text, tmp_path / "backup.jsonl")).count("repaired") == 1
    (healed,) = asyncio.run(scan_store(text))
    assert healed.verdict == "healthy" and healed.items == len(ABANDONED_MCP)
    assert {r.status for r in asyncio.run(restore(tmp_path / "backup.jsonl"))} == {"restored"}
    assert {sid: rows(s) for sid, s in snapshot(text).items()} == {
        sid: rows(s) for sid, s in original.items()
    }


def test_restore_keeps_a_turn_appended_since_the_backup_and_exact_removes_it(
    make_store: MakeStore, tmp_path: Path, store_key: str | None
) -> None:
    """Regression for issue 33: repair, the application appends a turn, restore: the turn was
    gone and the output said only "(2 removed)"."""
    text = make_store(count=6)
    before = snapshot(text)
    asyncio.run(apply(text, tmp_path / "b.jsonl"))
    late = {"role": "user", "content": "appended after the repair"}
    asyncio.run(_append(text, "session-000001", late, store_key))
    grown = snapshot(text)["session-000001"]
    results = {r.session_id: r for r in asyncio.run(restore(tmp_path / "b.jsonl"))}
    assert results["session-000001"].status == "restored"
    assert results["session-000001"].kept == (grown.rows[-1].id,)
    after = snapshot(text)["session-000001"]
    assert rows(after) == rows(before["session-000001"]) + [rows(grown)[-1]]
    assert after.items()[0][-1] == late
    exact = {r.session_id: r for r in asyncio.run(restore(tmp_path / "b.jsonl", exact=True))}
    assert (exact["session-000001"].deleted, exact["session-000001"].kept) == (1, ())
    assert snapshot(text) == before


@pytest.mark.enable_socket
@pytest.mark.servers
def test_a_session_row_locked_on_postgresql_stops_the_repair_after_the_stated_wait(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 42: a session another transaction holds FOR UPDATE waited without bound (or ended
    in a driver's traceback); now the wait is stores.LOCK_WAIT and the stop is one line."""
    from sqlalchemy import text as sql
    from sqlalchemy.ext.asyncio import create_async_engine

    from approval_compaction.doctor import stores
    from approval_compaction.lab.stores.synthetic import generate

    from .conftest import new_store

    monkeypatch.setattr(stores, "LOCK_WAIT", 0.5)
    store = new_store(request, tmp_path, "postgresql")
    asyncio.run(generate(store, 3, 6))  # session-000001 is poisoned

    async def while_locked() -> None:
        engine = create_async_engine(store)
        try:
            async with engine.begin() as conn:  # the application, mid-transaction
                await conn.execute(
                    sql("SELECT 1 FROM agent_sessions WHERE session_id = 'session-000001' "
                        "FOR UPDATE")
                )  # fmt: skip
                await apply(store, tmp_path / "b.jsonl")
        finally:
            await engine.dispose()

    with pytest.raises(stores.StoreLocked) as stop:
        asyncio.run(while_locked())
    assert "waited 0.5 s for the write lock of session session-000001" in str(stop.value)
    assert "no session repaired before it" in str(stop.value)
