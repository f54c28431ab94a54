"""The suite runs offline: sockets are blocked and no provider key is set."""

from __future__ import annotations

import os
import socket

import pytest
from pytest_socket import SocketBlockedError


def test_network_sockets_are_blocked() -> None:
    with pytest.raises(SocketBlockedError):
        socket.create_connection(("127.0.0.1", 9), timeout=1)


def test_network_no_provider_key_is_visible() -> None:
    assert "OPENAI_API_KEY" not in os.environ
