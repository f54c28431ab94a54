"""Needs: what a test asks for that the machine may not have, and the one guard for it.

A missing server, browser, sdist or release environment skips its test with the reason and the
command that provides it; under CI (``CI=true``) it fails instead, because ``make test-all``
builds or installs every one of them first and a skip there would hide a missing step. A guard
never raises anything but pytest's skip or fail.
"""

from __future__ import annotations

import os

import pytest

from approval_compaction.lab.releases import environments


def require(reason: str | None, what: str) -> None:
    """Skip (or, under CI, fail) with ``reason`` when it is not ``None``."""
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run the {what} tests: {reason}")
    pytest.skip(reason)


def release(version: str) -> environments.Environment:
    """The release's cached environment, made by ``make envs`` (which ``make test-all`` runs)."""
    env = environments.cached_environment(version)
    if not env.ready():
        reason = f"no environment for openai-agents {version}: `make envs` makes it"
        require(reason, f"openai-agents {version}")
    return env
