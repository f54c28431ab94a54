"""A pytest plugin for ``benchmarks/fast_tier.py``: the CPU seconds of each test and of collection.

Loaded with ``-p cpu_per_test`` (``benchmarks/`` on ``PYTHONPATH``). Each test's setup, call and
teardown are timed in CPU seconds (user + system) of this process and of the processes it started
and waited for, so a loaded machine does not inflate them as it does pytest's wall ``--durations``.
Writes ``{"collection": s, "tests": {nodeid: s}}`` as JSON to the path in ``CPU_PER_TEST``.
"""

from __future__ import annotations

import json
import os
import resource
from collections import Counter
from collections.abc import Generator

import pytest

TESTS: Counter[str] = Counter()
COLLECTION: dict[str, float] = {}


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def pytest_sessionstart(session: pytest.Session) -> None:
    COLLECTION["start"] = cpu()


def pytest_collection_finish(session: pytest.Session) -> None:
    COLLECTION["collection"] = cpu() - COLLECTION["start"]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    start = cpu()
    try:
        return (yield)
    finally:
        TESTS[item.nodeid] += cpu() - start


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = os.environ.get("CPU_PER_TEST")
    if path:
        record = {"collection": COLLECTION.get("collection", 0.0), "tests": dict(TESTS)}
        with open(path, "w") as out:
            json.dump(record, out)
