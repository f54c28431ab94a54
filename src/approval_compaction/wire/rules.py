"""Rules: the checks the stand-in applies to a request, each with the public sources of its text.

The stand-in enforces only behaviour whose status and error body someone has published from
the real Responses API or its Chat Completions endpoint (``RULES``); each source is cited for
what it shows (``Source.shows``: the status, the message, the ``param`` and ``code``, the
endpoint, where it shows them). A check,
or a part of an answer, that no public source shows is listed as such (``UNKNOWN``), so the
table (``docs/wire.md``, notebook 09) says what is unknown.

The pairing rules read the request's effective input: the chain of stored responses named by
``previous_response_id`` (their input and output), then the request's own ``input``. At
``/v1/responses`` an output without its call is reported before a call without its output;
within each, the first in input order. At ``/v1/responses/compact`` only the form a public
report shows is checked: a ``previous_response_id`` whose chain holds a function call without
its output. What the compaction endpoint does with such a call in a request's ``input``, or
with an output without its call, nobody has published. ``check_pairing`` is the API's rule, so it
is narrower than the judge's (``analysis.pairing``, every pair the SDK writes): function calls
and their outputs only, the first problem worded as the API words it. At
``/v1/chat/completions`` (``check_chat_pairing``) the pairs are an assistant message's
``tool_calls`` and the ``tool`` messages that must follow it.

``CompactRules`` names the two ways the stand-in and the scripted model's compaction client
answer ``/v1/responses/compact``: ``faithful`` (the default) applies these rules there;
``lenient`` accepts any input, as this project's first stand-in did, so that the original
report's results stay reproducible by name.

What a compaction the rules accept is answered with is an ``Answer``, sourced as a rule is
(``COMPACTION_OUTPUT``): the user messages, then one compaction item, as the ``openai`` clients'
own type documentation says (``keeps_users``, the default). ``summary_only``, the compaction
item alone, is the shape of some test fakes; no public source shows the endpoint answering so,
and the stand-in answers so only when asked by that name (``CompactShape``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

CompactRules = Literal["faithful", "lenient"]  # how /v1/responses/compact is answered
CompactShape = Literal["keeps_users", "summary_only"]  # what an accepted compaction answers
KEEPS_USERS: CompactShape = "keeps_users"  # the user messages, then one compaction item
SUMMARY_ONLY: CompactShape = "summary_only"  # the compaction item alone (a labelled variant)
COMPACT_SHAPES: tuple[CompactShape, ...] = (KEEPS_USERS, SUMMARY_ONLY)
RESPONSES = "/v1/responses"
COMPACT = "/v1/responses/compact"
CHAT = "/v1/chat/completions"  # Chat Completions: a ``messages`` list, paired by ``tool_call_id``
FAITHFUL: CompactRules = "faithful"
LENIENT: CompactRules = "lenient"


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
class Source:
    """A public report cited for a rule, and what of the API's answer it shows: the status,
    the message, the ``param`` and ``code``, and the endpoint, each only where the report
    shows it."""

    url: str
    shows: str

    @property
    def label(self) -> str:
        """``owner/repo#N`` for a GitHub issue or pull request URL, else the URL."""
        parts = self.url.removeprefix("https://github.com/").split("/")
        if self.url.startswith("https://github.com/") and len(parts) == 4:
            return f"{parts[0]}/{parts[1]}#{parts[3]}"
        return self.url

    def cited(self) -> str:
        """``[owner/repo#N](url): what it shows`` (Markdown)."""
        return f"[{self.label}]({self.url}): {self.shows}"


@dataclass(frozen=True)
class Rule:
    """One enforced check: what it rejects, where, with which answer, and who published it."""

    name: str
    rejects: str
    endpoints: tuple[str, ...]
    status: int
    example: str
    sources: tuple[Source, ...]


@dataclass(frozen=True)
class Unknown:
    """A check whose real answer no public source shows: the stand-in does not enforce it."""

    name: str
    what: str
    endpoints: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class Answer:
    """What an endpoint answers a request its rules accept: the shape the stand-in answers with
    by default, the public sources that document it, and the variant it answers with only by
    name (with why it is not the default)."""

    name: str
    endpoints: tuple[str, ...]
    shape: CompactShape
    says: str  # the shape in words
    sources: tuple[Source, ...]
    variant: CompactShape
    variant_says: str


def _gh(path: str, shows: str) -> Source:
    return Source(f"https://github.com/{path}", shows)


BODY_INPUT = "the body (message, `invalid_request_error`, `param: input`, `code: null`)"
ORPHAN_OUTPUT = Rule(
    "orphan_function_call_output",
    "a `function_call_output` whose `call_id` has no `function_call` before it (in `input`, "
    "after the `previous_response_id` chain)",
    (RESPONSES,),
    400,
    "No tool call found for function call output with call_id <id>.",
    (
        _gh(
            "microsoft/vscode/issues/320060",
            f"400 and {BODY_INPUT}, through GitHub Copilot; the endpoint not named",
        ),
        _gh(
            "continuedev/continue/issues/10092",
            f"status code 400 and {BODY_INPUT}, provider openai; the endpoint not named",
        ),
    ),
)
OPEN_CALL = Rule(
    "open_function_call",
    "a `function_call` whose `call_id` has no `function_call_output` after it (in `input`, "
    "after the `previous_response_id` chain)",
    (RESPONSES,),
    400,
    "No tool output found for function call <id>.",
    (
        _gh(
            "openai/openai-agents-python/issues/673",
            f"400 and {BODY_INPUT}, from the SDK's `Runner.run` with `previous_response_id` "
            "(its Responses model)",
        ),
        _gh(
            "openai/openai-agents-python/issues/1061",
            f"400 and {BODY_INPUT}, from a `previous_response_id` run whose log names "
            "`/v1/responses`",
        ),
        _gh(
            "letta-ai/letta-code/issues/291",
            f"400 and {BODY_INPUT}, relayed as a bad request to OpenAI; the endpoint not named",
        ),
        _gh(
            "openai/codex/issues/620",
            "400 and the message's start, in its title (Codex CLI 0.1.2504221401); no body",
        ),
        _gh(
            "gptme/gptme/issues/650",
            f"{BODY_INPUT.removeprefix('the ')} as OpenAI's raw answer relayed by OpenRouter, "
            "with code 400; the endpoint not named",
        ),
    ),
)
OPEN_CALL_COMPACT = Rule(
    "open_function_call_in_compacted_chain",
    "a `previous_response_id` whose stored chain holds a `function_call` with no "
    "`function_call_output` after it",
    (COMPACT,),
    400,
    "No tool output found for function call <id>.",
    (
        _gh(
            "openai/openai-agents-python/issues/2317",
            "400, `invalid_request_error` and the message, raised by `client.responses.compact()` "
            "given such a `previous_response_id`; no `param` or `code`",
        ),
        _gh(
            "openai/openai-agents-python/pull/2322",
            "the SDK change made for #2317: it skips compaction while a turn has local tool "
            "outputs (outputs the runner made, not yet in the chain); a call waiting for "
            "approval has no output yet, so the change never covered it (0.23.1 still meets "
            "this refusal at the pause); no status or body",
        ),
        _gh(
            "openai/openai-agents-python/issues/2343",
            "a maintainer's account that compacting by `previous_response_id` before the local "
            "tool outputs are in the chain could fail; no status or body",
        ),
    ),
)
UNKNOWN_PREVIOUS = Rule(
    "previous_response_not_found",
    "a `previous_response_id` the server does not hold (one created with `store: false` is "
    "never held)",
    (RESPONSES, COMPACT),
    400,
    "Previous response with id '<id>' not found.",
    (
        _gh(
            "Soju06/codex-lb/issues/853",
            "`status: 400` and the body (message, `invalid_request_error`, "
            "`param: previous_response_id`, `code: previous_response_not_found`), Codex CLI "
            "through the codex-lb proxy; the endpoint not named",
        ),
        _gh(
            "openai/openai-agents-python/issues/2333",
            "an agent created with `ModelSettings(store=False)` whose compaction session "
            "names its last response: an error saying the response id does not exist; no "
            "status or body quoted",
        ),
    ),
)
MALFORMED_JSON = Rule(
    "malformed_json",
    "a body that is not a JSON object",
    (RESPONSES, COMPACT),
    400,
    "We could not parse the JSON body of your request. (HINT: ...)",
    (
        _gh(
            "microsoft/graphrag/issues/2286",
            "`Error code: 400` and the body (the whole message, `invalid_request_error`, "
            "`param: None`, `code: None`), through litellm's OpenAI client; the endpoint not "
            "named",
        ),
        _gh(
            "ChatGPTNextWeb/NextChat/issues/4064",
            "the body (the whole message, `invalid_request_error`, `param: null`, "
            "`code: null`), February 2024; no status, the endpoint not named",
        ),
    ),
)
UNKNOWN_URL = Rule(
    "invalid_url",
    "a method and path the API does not serve",
    ("any other",),
    404,
    "Invalid URL (POST /v1/<path>)",
    (
        _gh(
            "harry0703/MoneyPrinterTurbo/issues/57",
            "`Error code: 404` and the body (`Invalid URL (POST "
            "/v1/chat/completions/chat/completions)`, `invalid_request_error`, `param: None`, "
            "`code: None`), a base URL given twice",
        ),
        _gh(
            "microsoft/TaskWeaver/issues/11",
            "`Error code: 404` and the body (`Invalid URL (POST /chat/completions)`, "
            "`invalid_request_error`, `param: None`, `code: None`), `https://api.openai.com/` "
            "without `/v1`",
        ),
    ),
)
# The words both `openai` clients' type documentation gives `CompactedResponse.output`.
COMPACTED_OUTPUT_DOC = (
    "The compacted list of output items. This is a list of all user messages, followed by a "
    "single compaction item."
)
COMPACTION_OUTPUT = Answer(
    "compaction_output",
    (COMPACT,),
    KEEPS_USERS,
    "200: all user messages of the chain and the input, then one `compaction` item",
    (
        _gh(
            "openai/openai-node/blob/v7.59.0/src/resources/responses/responses.ts",
            "`CompactedResponse.output` (the `openai` npm package 7.59.0): "
            f'"{COMPACTED_OUTPUT_DOC}"',
        ),
        _gh(
            "openai/openai-python/blob/v3.57.0/src/openai/types/responses/compacted_response.py",
            "`CompactedResponse.output` (the `openai` PyPI package 3.57.0), the same words",
        ),
        _gh(
            "openai/openai-agents-js/pull/760",
            "a real answer of that shape: each user message as an output item (an `id`, typed "
            "`message`, `status: completed`, `input_text` parts), then one encrypted item",
        ),
    ),
    SUMMARY_ONLY,
    "the `compaction` item alone, only by name (`--compact-shape summary_only`): the shape of "
    "test fakes (this project's pending-call test for openai-agents-js among them); no public "
    "source shows the endpoint doing it",
)
# Chat Completions pairs an assistant message's `tool_calls` with the `tool` messages after it.
ORPHAN_TOOL_MESSAGE = Rule(
    "orphan_tool_message",
    "a `tool` message whose `tool_call_id` answers no `tool_calls` of the assistant message "
    "it follows (directly, or after that message's other `tool` answers)",
    (CHAT,),
    400,
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
    "with 'tool_calls'.",
    (
        _gh(
            "smarter-sh/smarter/issues/264",
            "`Error code: 400` and the body (the message, `invalid_request_error`, "
            "`param: messages.[4].role`, `code: None`) from `openai.chat.completions.create`",
        ),
        _gh(
            "miurla/morphic/issues/136",
            "the body (the message, `invalid_request_error`, `param: messages.[3].role`, "
            "`code: null`), gpt-4-turbo; no status",
        ),
    ),
)
OPEN_TOOL_CALLS = Rule(
    "open_tool_calls",
    "an assistant message with `tool_calls` not followed, before any other message, by a "
    "`tool` message for each `tool_call_id`",
    (CHAT,),
    400,
    "An assistant message with 'tool_calls' must be followed by tool messages responding to "
    "each 'tool_call_id'. The following tool_call_ids did not have response messages: <ids>",
    (
        _gh(
            "router-for-me/CLIProxyAPI/issues/2798",
            "the body (the message with one id, `invalid_request_error`, "
            "`param: messages.[6].role`, `code: null`); no status",
        ),
        _gh(
            "langchain-ai/deepagentsjs/pull/171",
            "400 and the message with one id, raised through LangChain.js's OpenAI model when "
            "a rejected parallel call was left without its tool message",
        ),
        _gh(
            "BerriAI/litellm/issues/10083",
            "the message with one id, relayed by litellm as `BadRequestError: OpenAIException`",
        ),
        _gh(
            "langchain-ai/langchain/pull/34195",
            "a langchain maintainer's test against the providers: OpenAI answers a bad request "
            "when a tool call is followed by anything but its tool message",
        ),
    ),
)
RULES: tuple[Rule, ...] = (
    ORPHAN_OUTPUT,
    OPEN_CALL,
    OPEN_CALL_COMPACT,
    UNKNOWN_PREVIOUS,
    MALFORMED_JSON,
    UNKNOWN_URL,
    ORPHAN_TOOL_MESSAGE,
    OPEN_TOOL_CALLS,
)
UNKNOWN: tuple[Unknown, ...] = (
    Unknown(
        "open_function_call_in_compaction_input",
        "a `function_call` without its `function_call_output` in the compaction request's `input`",
        (COMPACT,),
        "no public report of the compaction endpoint's answer; openai/codex#5385 (codex-cli "
        "0.47.0, October 2025) shows a 400 body with `param: input` for Codex's `/compact` "
        "command without naming the endpoint it called, two months before the SDKs first "
        "used the compaction endpoint (openai/openai-agents-js#760, December 2025)",
    ),
    Unknown(
        "orphan_function_call_output_in_compaction",
        "a `function_call_output` without its `function_call`, in `input` or the chain",
        (COMPACT,),
        "no public report of the compaction endpoint's answer",
    ),
    Unknown(
        "param_of_the_compaction_refusal",
        "the `param` and `code` of `open_function_call_in_compacted_chain`'s 400",
        (COMPACT,),
        "openai/openai-agents-python#2317 shows the status, type and message only; the "
        "stand-in answers `param: input` and `code: null`, as `/v1/responses` does",
    ),
    Unknown(
        "generic_errors_at_compaction",
        "`previous_response_not_found` and `malformed_json` at the compaction endpoint",
        (COMPACT,),
        "their sources show other endpoints; the stand-in answers the compaction endpoint as "
        "`/v1/responses`",
    ),
    Unknown(
        "other_call_kinds",
        "a custom tool, computer, shell, apply_patch, local shell, tool search or program call "
        "without its output, and an `mcp_approval_request` without its response (one the "
        "workaround never sends from 0.22.1, and sends once before it)",
        (RESPONSES, COMPACT),
        "no public report with the API's status and body (diegosouzapw/OmniRoute#8946 quotes "
        "`No tool output found for custom tool call <id>.` through a third-party router, "
        "without a body)",
    ),
    Unknown(
        "param_of_the_open_tool_calls_refusal",
        "which message the `param` of `open_tool_calls`' 400 names, and which of the two "
        "Chat Completions refusals comes first when a request breaks both",
        (CHAT,),
        "router-for-me/CLIProxyAPI#2798 shows `messages.[6].role` without its request; the "
        "stand-in names the assistant message and reports the first problem in message order",
    ),
    Unknown(
        "compaction_output_summary_only",
        "an accepted compaction answered with the `compaction` item alone, without the user "
        "messages",
        (COMPACT,),
        "no public source shows `responses.compact` answering so (its type documentation says "
        "the opposite); some test fakes do, so the stand-in answers so by name "
        "(`summary_only`), never by default",
    ),
)

_JSON_HINT = (
    "We could not parse the JSON body of your request. (HINT: This likely means you aren't "
    "using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was "
    "sent was not valid JSON. If you have trouble figuring out how to fix this, please contact "
    "us through our help center at help.openai.com.)"
)


def malformed_json() -> ApiError:
    return ApiError(400, _JSON_HINT)


# The stand-in's own limits, not the API's rules (no public source shows the API's): what it
# answers a body it will not read whole, and one nested deeper than it parses.
def too_large(limit: int) -> ApiError:
    return ApiError(413, f"The request body is larger than the stand-in's limit of {limit} bytes.")


def too_deep(limit: int) -> ApiError:
    return ApiError(
        400, f"The JSON body is nested deeper than the stand-in's limit of {limit} levels."
    )


def too_slow(seconds: float) -> ApiError:
    return ApiError(408, f"The request body did not arrive within {seconds:g} seconds.")


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


@dataclass(frozen=True)
class OrphanAnswer:
    """What the API answers a request whose input holds an output of one kind without its
    call, as far as public sources show it: the status (None: not shown), the message with
    ``<id>`` for the call id (None: not shown), the error's ``type``, the sources; with none,
    why it is unknown. Only the function form is enforced by the stand-in (``ORPHAN_OUTPUT``);
    the doctor names each kind's answer from here."""

    output_type: str
    status: int | None
    message: str | None
    error_type: str | None = None
    sources: tuple[Source, ...] = ()
    unknown: str = ""

    def text(self, call_id: str) -> str | None:
        return None if self.message is None else self.message.replace("<id>", call_id)


UNKNOWN_ORPHAN = "no public source shows what the API answers it"
ORPHAN_ANSWERS: dict[str, OrphanAnswer] = {
    "function_call_output": OrphanAnswer(
        "function_call_output",
        ORPHAN_OUTPUT.status,
        ORPHAN_OUTPUT.example,
        "invalid_request_error",
        ORPHAN_OUTPUT.sources,
    ),
    "shell_call_output": OrphanAnswer(
        "shell_call_output",
        None,
        "No tool call found for shell call output with call_id <id>.",
        "invalid_request_error",
        (
            _gh(
                "vercel/ai/issues/18134",
                "the message and `type: invalid_request_error`, a follow-up Responses request "
                "(`store: false`) through the AI SDK; no status, `param` or endpoint",
            ),
        ),
    ),
}


def orphan_answer(output_type: str) -> OrphanAnswer:
    """What the API answers an output of ``output_type`` without its call (``ORPHAN_ANSWERS``;
    a kind no public source shows, computer, apply_patch and custom tool outputs, local shell,
    tool search and program outputs, an MCP approval response: unknown)."""
    found = ORPHAN_ANSWERS.get(output_type)
    return found or OrphanAnswer(output_type, None, None, unknown=UNKNOWN_ORPHAN)


def check_pairing(items: Sequence[Any]) -> ApiError | None:
    """The first pairing problem of an effective input at ``/v1/responses``, as the API words
    it; None when paired. Narrower than the judge's ``analysis.pairing`` on purpose: function
    calls and outputs only, the pairs public reports show the API refusing."""
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


class _Calls:
    """Function calls in input order and how many of each id outputs have answered (an output
    answers the earliest unanswered call of its id). Fed in parts (the chain, then the input),
    each item read once; it allocates no container per call, so a request of a million items
    makes no work for the garbage collector beyond its own lists."""

    def __init__(self) -> None:
        self.ids: list[str] = []  # each call's id, in input order
        self.ordinals: list[int] = []  # each call's place among the calls of its id
        self.calls: dict[str, int] = {}  # calls of each id so far
        self.answered: dict[str, int] = {}  # of them, how many an output answered

    def feed(self, items: Sequence[Any]) -> None:
        for item in items:
            if not isinstance(item, dict):
                continue
            kind = item.get("type")
            if kind == "function_call":
                call_id = str(item.get("call_id"))
                made = self.calls.get(call_id, 0)
                self.calls[call_id] = made + 1
                self.ids.append(call_id)
                self.ordinals.append(made)
            elif kind == "function_call_output":
                call_id = str(item.get("call_id"))
                done = self.answered.get(call_id, 0)
                if done < self.calls.get(call_id, 0):
                    self.answered[call_id] = done + 1

    def open_ids(self) -> list[str]:
        """The ids of the calls no output has answered so far, in input order."""
        answered = self.answered
        return [c for c, k in zip(self.ids, self.ordinals, strict=True) if k >= answered.get(c, 0)]


def _open_call_ids(items: Sequence[Any]) -> list[str]:
    """The call ids of function calls no later output answers, in input order (an output
    answers the earliest unanswered call of its id). Linear: a request of 40,000 calls is
    checked in one pass, not 40,000 list searches."""
    calls = _Calls()
    calls.feed(items)
    return calls.open_ids()


def check_compaction(
    chain: Sequence[Any], input: Sequence[Any], rules: CompactRules = FAITHFUL
) -> ApiError | None:
    """What ``/v1/responses/compact`` answers a request's chain and ``input`` with: a function
    call of the ``previous_response_id`` chain that neither the chain nor the input answers
    (``faithful``); nothing else is known, so nothing else is checked. ``lenient`` checks
    nothing."""
    if rules == LENIENT:
        return None
    calls = _Calls()
    calls.feed(chain)
    in_chain = set(calls.open_ids())
    if not in_chain:  # every call of the chain is answered: the input cannot open one of them
        return None
    calls.feed(input)  # the chain is read once, and never copied
    found = next((call_id for call_id in calls.open_ids() if call_id in in_chain), None)
    return open_call(found) if found is not None else None


def orphan_tool_message(index: int) -> ApiError:
    return ApiError(400, ORPHAN_TOOL_MESSAGE.example, param=f"messages.[{index}].role")


def open_tool_calls(ids: Sequence[str], index: int) -> ApiError:
    said = OPEN_TOOL_CALLS.example.replace("<ids>", ", ".join(ids))
    return ApiError(400, said, param=f"messages.[{index}].role")


def check_chat_pairing(messages: Sequence[Any]) -> ApiError | None:
    """The first pairing problem of a Chat Completions ``messages`` list, in message order, as
    the API words it; None when paired: an assistant message's ``tool_calls`` must be answered
    by ``tool`` messages right after it, and a ``tool`` message must answer one of them."""
    waiting: list[str] = []  # the tool_call_ids the last assistant message still waits on
    asked = 0  # that assistant message's index
    for index, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        if role == "tool":
            answered = str(message.get("tool_call_id"))
            if answered not in waiting:
                return orphan_tool_message(index)
            waiting.remove(answered)
            continue
        if waiting:
            return open_tool_calls(waiting, asked)
        calls = message.get("tool_calls") if role == "assistant" else None
        if isinstance(calls, list) and calls:
            waiting = [str(c.get("id")) for c in calls if isinstance(c, dict)]
            asked = index
    return open_tool_calls(waiting, asked) if waiting else None
