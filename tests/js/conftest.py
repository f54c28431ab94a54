"""The JS tests' one guard: Node and the harness's packages, or a skip (a failure under CI)."""

from __future__ import annotations

import shutil

import pytest
from needs import require

from approval_compaction.js.harness import installed


@pytest.fixture
def node_harness() -> None:
    """Node.js and the pinned @openai/agents (``npm ci``), which the harness runs on."""
    if shutil.which("node") is None:
        require("node is not installed: `make setup` installs Debian's nodejs", "JS harness")
    if not installed():
        require("the JS harness's packages are missing: `make setup` runs npm ci", "JS harness")
