"""Transport: an ``AsyncOpenAI`` client whose HTTP goes to the stand-in's ASGI app in-process.

``ASGITransport`` calls the app directly, so no socket is opened; the ``openai`` client above it
is the real one (request building, status checks, error classes, SSE parsing). The transport
comes from the HTTP library that the installed ``openai`` is built on: ``httpx2`` for openai 3,
``httpx`` before it; a release environment may hold both. ``status_error`` builds, with the same
client code, the exception a refused request raises, for a fake that answers in process.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import openai
from openai import AsyncOpenAI

from .rules import ApiError

BASE_URL = "http://stand-in/v1"
API_KEY = "stand-in"


def http_library() -> ModuleType:
    """The module the ``openai`` client sends with (``httpx2`` or ``httpx``)."""
    base = importlib.import_module("openai._base_client")
    found = getattr(base, "httpx2", None) or getattr(base, "httpx", None)
    if isinstance(found, ModuleType):
        return found
    return importlib.import_module("httpx")


def openai_client(app: Any, base_url: str = BASE_URL) -> AsyncOpenAI:
    """A real ``AsyncOpenAI`` client on an in-process ASGI transport to ``app``."""
    library = http_library()
    http_client = library.AsyncClient(transport=library.ASGITransport(app=app))
    return AsyncOpenAI(base_url=base_url, api_key=API_KEY, http_client=http_client)


_ERRORS: list[AsyncOpenAI] = []  # one client whose error classes build every refusal


def status_error(error: ApiError, path: str) -> openai.APIStatusError:
    """The exception the installed ``openai`` client raises when the API answers ``path`` with
    ``error``: the same class, text and ``body`` as over HTTP (``openai.BadRequestError`` for a
    400), built by the client's own code from a response carrying the error's body."""
    library = http_library()
    url = BASE_URL + path.removeprefix("/v1")
    response = library.Response(
        error.status, json=error.body(), request=library.Request("POST", url)
    )
    if not _ERRORS:
        _ERRORS.append(AsyncOpenAI(base_url=BASE_URL, api_key=API_KEY))
    built: openai.APIStatusError = _ERRORS[0]._make_status_error_from_response(response)
    return built
