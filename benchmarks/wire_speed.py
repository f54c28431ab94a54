"""Wire speed: a case over HTTP against the same case on the scripted model, and the real server.

1. In-process: one case on the ``responses`` model (the SDK's ``OpenAIResponsesModel`` and a real
   ``AsyncOpenAI`` client on ``ASGITransport`` to the stand-in) against the same case on the
   ``scripted`` model, interleaved in one process. Prints the median per-case time of each and
   their ratio (target: at most 2).
2. The real server: the stand-in served by uvicorn on 127.0.0.1 (a free port). A bounded load
   loop replays the three request bodies of a 3-turn case (compaction off, so every turn is
   answered, as captured from an in-process run) over one keep-alive connection; then the whole
   harness drives cases over the socket, one at a time and several at once (SDK, SQLite and
   client included). Prints requests per second for each.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time

from approval_compaction.openai_agents.harness import run_case, run_case_async
from approval_compaction.openai_agents.wiring import (
    Backend,
    remote_backend,
    responses_backend,
    scripted_backend,
)
from approval_compaction.study.scenario import Case, all_cases
from approval_compaction.study.words import Mode
from approval_compaction.wire.server import running
from approval_compaction.wire.transport import http_library

ROUNDS = 5
LOAD_CASES = 20  # per loop: each loop is bounded by count, not by time
REPLAY_CASES = 200
CONCURRENCY = 4


def per_case_seconds(backend: Backend, mode: Mode = "input") -> float:
    cases = all_cases()
    start = time.perf_counter()
    for case in cases:
        run_case(case, backend=backend, mode=mode)
    return (time.perf_counter() - start) / len(cases)


def in_process(mode: Mode = "input") -> None:
    """Both models in one compaction mode (the study's ``input``; ``auto``, the SDK's default,
    where the compaction endpoint refuses the pause and the case goes on to the next turn)."""
    per_case_seconds(scripted_backend, mode), per_case_seconds(responses_backend, mode)  # warm
    scripted, wire = [], []
    for _ in range(ROUNDS):
        scripted.append(per_case_seconds(scripted_backend, mode))
        wire.append(per_case_seconds(responses_backend, mode))
    a, b = statistics.median(scripted), statistics.median(wire)
    print(
        f"in-process, per case, compaction_mode={mode}: {len(all_cases())} cases x {ROUNDS} rounds"
    )
    print(f"  scripted model:        {a * 1000:.1f} ms (median)")
    print(f"  responses over ASGI:   {b * 1000:.1f} ms (median)")
    print(f"  ratio responses/scripted: {b / a:.2f} (target <= 2)")


async def load(base_url: str, cases: int, concurrency: int) -> float:
    backend = remote_backend(base_url)
    case = Case(compaction="off")
    limit = asyncio.Semaphore(concurrency)

    async def one() -> None:
        async with limit:
            run = await run_case_async(case, capture=False, backend=backend)
            if run.error is not None:
                raise RuntimeError(run.error)

    start = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(cases)))
    return time.perf_counter() - start


def case_bodies() -> list[dict[str, object]]:
    """The request bodies of one 3-turn case, in order, as the SDK sent them."""
    run = run_case(Case(compaction="off"), backend=responses_backend)
    return [r["body"] for stage in run.stages for r in stage.http_requests]


def replay(
    base_url: str, bodies: list[dict[str, object]], cases: int
) -> tuple[int, int, float, float]:
    """Post the bodies ``cases`` times over one connection: requests, errors, wall and CPU s.

    The CPU time is this process's (client and server thread together), so requests per CPU
    second does not depend on how busy the machine's other processes keep its cores."""
    library = http_library()
    with library.Client(base_url=base_url, timeout=30) as client:
        start, cpu = time.perf_counter(), time.process_time()
        statuses = [
            client.post("/responses", json=body).status_code
            for _ in range(cases)
            for body in bodies
        ]
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return len(statuses), sum(s != 200 for s in statuses), seconds, cpu


def real_server() -> None:
    bodies = case_bodies()
    with running() as server:
        replay(server.base_url, bodies, 5)  # warm up
        requests, bad, seconds, cpu = replay(server.base_url, bodies, REPLAY_CASES)
        print(f"real server on 127.0.0.1, a 3-turn case is {len(bodies)} requests:")
        print(
            f"  replayed bodies, {REPLAY_CASES} cases: {requests} requests ({bad} errors) in "
            f"{seconds:.2f} s = {requests / seconds:.0f} requests/s; "
            f"{requests / cpu:.0f} requests per CPU second (client and server)"
        )
        print(f"  load average while measured: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        asyncio.run(load(server.base_url, 4, 1))  # warm up
        for concurrency in (1, CONCURRENCY):
            before = len(server.standin.log)
            seconds = asyncio.run(load(server.base_url, LOAD_CASES, concurrency))
            requests = len(server.standin.log) - before
            bad = sum(e.status != 200 for e in server.standin.log[before:])
            print(
                f"  whole harness, {LOAD_CASES} cases, {concurrency} at a time: "
                f"{requests} requests ({bad} errors) in {seconds:.2f} s = "
                f"{requests / seconds:.1f} requests/s, {LOAD_CASES / seconds:.1f} cases/s"
            )


def main() -> None:
    in_process()
    in_process("auto")
    real_server()


if __name__ == "__main__":
    main()
