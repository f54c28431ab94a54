"""Rules: the checks the stand-in applies to a request, each with the public source of its text.

The stand-in enforces only behaviour whose status and error body someone has published from
the real Responses API; a check whose real behaviour is unknown is not enforced. Each rule
names the endpoints it applies to: nothing public shows what ``/v1/responses/compact`` does
with an unpaired input, so the pairing rules apply to ``/v1/responses`` only.

The pairing rules read the request's effective input: the chain of stored responses named by
``previous_response_id`` (their input and output), then the request's own ``input``. An output
without its call is reported before a call without its output; within each, the first in input
order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

RESPONSES = "/v1/responses"
COMPACT = "/v1/responses/compact"


@dataclass(frozen=True)
class ApiError:
    """An error as the API answers it: an HTTP status and the ``error`` object of the body."""

    status: int
    message: str
    type: str = "invalid_request_error"
    param: str | None = None
    code: str | None = None

    def body(self) -> dict[str, Any]:
        """The JSON body: ``{"error": {"message", "type", "param", "code"}}``."""
        return {
            "error": {
                "message": self.message,
                "type": self.type,
                "param": self.param,
                "code": self.code,
            }
        }


@dataclass(frozen=True)
class Rule:
    """One enforced check: what it rejects, where, with which answer, and who published it."""

    name: str
    rejects: str
    endpoints: tuple[str, ...]
    status: int
    example: str
    sources: tuple[str, ...]


ORPHAN_OUTPUT = Rule(
    "orphan_function_call_output",
    "a `function_call_output` whose `call_id` has no `function_call` before it",
    (RESPONSES,),
    400,
    "No tool call found for function call output with call_id <id>.",
    (
        "https://github.com/microsoft/vscode/issues/320060",
        "https://github.com/continuedev/continue/issues/10092",
    ),
)
OPEN_CALL = Rule(
    "open_function_call",
    "a `function_call` whose `call_id` has no `function_call_output` after it",
    (RESPONSES,),
    400,
    "No tool output found for function call <id>.",
    (
        "https://github.com/openai/openai-agents-python/issues/673",
        "https://github.com/letta-ai/letta-code/issues/291",
    ),
)
UNKNOWN_PREVIOUS = Rule(
    "previous_response_not_found",
    "a `previous_response_id` the server does not hold",
    (RESPONSES, COMPACT),
    400,
    "Previous response with id '<id>' not found.",
    (
        "https://github.com/maximhq/bifrost/issues/2441",
        "https://github.com/Soju06/codex-lb/pull/1817",
    ),
)
MALFORMED_JSON = Rule(
    "malformed_json",
    "a body that is not a JSON object",
    (RESPONSES, COMPACT),
    400,
    "We could not parse the JSON body of your request. (HINT: ...)",
    (
        "https://github.com/ChatGPTNextWeb/NextChat/issues/4064",
        "https://github.com/microsoft/graphrag/issues/2286",
    ),
)
UNKNOWN_URL = Rule(
    "invalid_url",
    "a method and path the API does not serve",
    ("any other",),
    404,
    "Invalid URL (POST /v1/<path>)",
    (
        "https://github.com/harry0703/MoneyPrinterTurbo/issues/57",
        "https://github.com/microsoft/TaskWeaver/issues/11",
    ),
)
RULES: tuple[Rule, ...] = (ORPHAN_OUTPUT, OPEN_CALL, UNKNOWN_PREVIOUS, MALFORMED_JSON, UNKNOWN_URL)

_JSON_HINT = (
    "We could not parse the JSON body of your request. (HINT: This likely means you aren't "
    "using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was "
    "sent was not valid JSON. If you have trouble figuring out how to fix this, please contact "
    "us through our help center at help.openai.com.)"
)


def malformed_json() -> ApiError:
    return ApiError(400, _JSON_HINT)


def invalid_url(method: str, path: str) -> ApiError:
    return ApiError(404, f"Invalid URL ({method} {path})")


def previous_not_found(response_id: str) -> ApiError:
    return ApiError(
        400,
        f"Previous response with id '{response_id}' not found.",
        param="previous_response_id",
        code="previous_response_not_found",
    )


def orphan_output(call_id: str) -> ApiError:
    return ApiError(
        400, f"No tool call found for function call output with call_id {call_id}.", param="input"
    )


def open_call(call_id: str) -> ApiError:
    return ApiError(400, f"No tool output found for function call {call_id}.", param="input")


def check_pairing(items: Sequence[Any]) -> ApiError | None:
    """The first pairing problem of an effective input, as the API words it; None when paired."""
    calls: dict[str, int] = {}
    for item in items:
        if not isinstance(item, dict):
            continue
        kind, call_id = item.get("type"), str(item.get("call_id"))
        if kind == "function_call":
            calls[call_id] = calls.get(call_id, 0) + 1
        elif kind == "function_call_output":
            if not calls.get(call_id):
                return orphan_output(call_id)
            calls[call_id] -= 1
    open_ids = [call_id for call_id, count in calls.items() if count]
    return open_call(open_ids[0]) if open_ids else None
