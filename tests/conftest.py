"""Shared fixtures: no real model client, no network, and the SDK under study; the test tiers.

Tests come in two tiers. A test marked with one of ``COSTS`` (it executes notebooks, runs in a
release's environment, starts a server, drives the browser, or starts interpreters of its own)
is also marked ``slow``; ``pytest`` alone deselects ``slow`` (``addopts`` in pyproject.toml),
so it runs the in-process tier that ``make test`` runs, and ``make test-all`` runs both.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from needs import require

from approval_compaction.js.harness import installed

if TYPE_CHECKING:
    from approval_compaction.lab.findings.load import Findings

COSTS = ("notebooks", "releases", "servers", "browser", "subprocess")
# The throwaway servers (tests/doctor/conftest.py): a test that asks for one starts it.
SERVER_FIXTURES = {"postgres_server", "mariadb_server", "redis_server"}


@pytest.hookimpl(tryfirst=True)  # before pytest's own -m selection reads the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.servers)
        if any(item.get_closest_marker(cost) for cost in COSTS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def no_real_provider(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Forbid real model clients: no API key, and a base URL that goes nowhere."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/blocked")
    yield


@pytest.fixture(scope="session")
def committed() -> Findings:
    """What the committed data says (``load_findings()`` over ``data/``), read once for the
    session: no test writes ``data/`` and the record is frozen; each read costs most of a second."""
    from approval_compaction.lab.findings.load import load_findings

    return load_findings()


@pytest.fixture
def node_harness() -> None:
    """Node.js and the pinned @openai/agents (``npm ci``), which the JS driver runs on: a skip
    (a failure under CI) without them."""
    if shutil.which("node") is None:
        require("node is not installed: `make setup` installs Debian's nodejs", "JS harness")
    if not installed():
        require("the JS harness's packages are missing: `make setup` runs npm ci", "JS harness")
