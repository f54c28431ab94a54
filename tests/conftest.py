"""Shared fixtures: no real model client, no network, and the SDK under study."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def no_real_provider(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Forbid real model clients: no API key, and a base URL that goes nowhere."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/blocked")
    yield
