"""Writer: appends through the SDK's session class to sessions in turn until told to stop."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from approval_compaction.testing.writer import append_until


def test_append_until_writes_in_turn_and_stops_when_the_file_appears(tmp_path: Path) -> None:
    from agents import SQLiteSession

    store, stop = tmp_path / "app.db", tmp_path / "stop"
    timer = threading.Timer(0.5, stop.touch)
    timer.start()
    count = asyncio.run(append_until(str(store), stop, 3, None))
    timer.join()
    assert count >= 1

    async def read(sid: str) -> list[str]:
        session = SQLiteSession(sid, str(store))
        items = await session.get_items()
        session.close()
        return [str(item["content"]) for item in items]  # type: ignore[typeddict-item]

    found = {f"session-{i:06d}": asyncio.run(read(f"session-{i:06d}")) for i in range(3)}
    written = sorted((c for contents in found.values() for c in contents),
                     key=lambda c: int(c.removeprefix("app-")))  # fmt: skip
    assert written == [f"app-{n}" for n in range(count)]
    assert found["session-000000"][0] == "app-0"
    if count >= 2:
        assert found["session-000001"][0] == "app-1"
