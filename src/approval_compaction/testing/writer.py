"""Writer: an application appending to a store while the doctor repairs it (the live-store test).

``python -m approval_compaction.testing.writer STORE STOP SESSIONS`` appends one user message at
a time, through the SDK's own session class, to sessions ``session-000000`` ... in turn, until
the file STOP exists; it prints ``ready`` after its first append and, at the end, how many
appends it made. Each message's content is ``app-<n>``, so a test can find every one of them.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from ..lab.stores.synthetic import app_sessions, close_app_sessions


async def append_until(text: str, stop: Path, sessions: int, key: str | None) -> int:
    opened = app_sessions(text, [f"session-{i:06d}" for i in range(sessions)], key)
    count = 0
    try:
        while not stop.exists():
            session = opened[count % sessions]
            await session.add_items([{"role": "user", "content": f"app-{count}"}])
            count += 1
            if count == 1:
                print("ready", flush=True)
    finally:
        await close_app_sessions(opened)
    return count


def main() -> None:
    text, stop, sessions = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    key = os.environ.get("SESSION_ENCRYPTION_KEY") or None
    print(asyncio.run(append_until(text, stop, sessions, key)), flush=True)


if __name__ == "__main__":
    main()
