"""Compact scaling: `/v1/responses/compact` latency against `/v1/responses` at 10k, 100k, 1M items.

The stand-in served by uvicorn on 127.0.0.1 (``wire.server.running``) is posted one body per
size and shape, once to each endpoint, over one connection (an ``httpx`` client, not the SDK,
so the figures are the server's and the transfer's, not the ``openai`` client's parsing):

- ``conversation``: user and assistant messages in turn (the compaction endpoint answers with
  every user message, so its reply grows with the input);
- ``tool calls``: function calls, each followed by its output;
- ``chain``: the tool calls stored by one ``/v1/responses`` request, then compacted by
  ``previous_response_id`` with an empty ``input`` (the rule the compaction endpoint enforces
  reads the stored chain).

Prints the seconds of each request and microseconds per item: a check linear in the items
keeps the per-item figure flat from 10k to 1M. ``--sizes 10000,100000`` measures fewer.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable

import httpx

from approval_compaction.wire.server import running

SIZES = (10_000, 100_000, 1_000_000)
Items = list[dict[str, object]]


def conversation(n: int) -> Items:
    return [
        {"role": "user", "content": f"question {i // 2}"}
        if i % 2 == 0
        else {"role": "assistant", "content": f"answer {i // 2}"}
        for i in range(n)
    ]


def tool_calls(n: int) -> Items:
    """Calls and outputs with only the fields the rules read: 1M of them fit the stand-in's
    64 MiB body limit."""
    return [
        {"type": "function_call" if i % 2 == 0 else "function_call_output", "call_id": str(i // 2)}
        for i in range(n)
    ]


def post(client: httpx.Client, path: str, body: dict[str, object]) -> tuple[float, int]:
    content = json.dumps(body).encode()
    start = time.perf_counter()
    reply = client.post(path, content=content, headers={"content-type": "application/json"})
    return time.perf_counter() - start, reply.status_code


def line(shape: str, n: int, endpoint: str, seconds: float, status: int) -> None:
    per_item = seconds / n * 1e6
    print(f"  {shape:<12} {n:>9,} items  {endpoint:<22} {status}  {seconds:7.2f} s  "
          f"{per_item:5.2f} us/item", flush=True)  # fmt: skip


def measure(sizes: tuple[int, ...]) -> None:
    shapes: dict[str, Callable[[int], Items]] = {
        "conversation": conversation,
        "tool calls": tool_calls,
    }
    with running() as server, httpx.Client(base_url=server.base_url, timeout=600) as client:
        post(client, "/responses/compact", {"model": "m", "input": conversation(100)})  # warm
        for n in sizes:
            for shape, make in shapes.items():
                body = {"model": "m", "input": make(n)}
                for endpoint in ("/responses", "/responses/compact"):
                    line(shape, n, endpoint, *post(client, endpoint, body))
            stored = {"model": "m", "input": tool_calls(n)}
            _, status = post(client, "/responses", stored)
            assert status == 200, status
            chain_body = {"model": "m", "previous_response_id": _last_id(server), "input": []}
            line("chain", n, "/responses/compact", *post(client, "/responses/compact", chain_body))
    print(f"  load average while measured: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def _last_id(server: object) -> str:
    responses = server.standin.responses  # type: ignore[attr-defined]
    return next(reversed(responses))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(n) for n in SIZES))
    sizes = tuple(int(n) for n in parser.parse_args().sizes.split(","))
    print("compaction endpoint against /v1/responses, the real server on 127.0.0.1:")
    measure(sizes)


if __name__ == "__main__":
    main()
