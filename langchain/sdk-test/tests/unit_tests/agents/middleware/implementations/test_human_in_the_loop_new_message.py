"""A new message on a thread interrupted for review leaves the reviewed tool call unanswered."""

from collections.abc import Sequence
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware, SummarizationMiddleware
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver


class _ScriptedModel(BaseChatModel):
    """Answers with the scripted messages in turn, then plain text; records each request."""

    script: list[AIMessage]
    requests: list[list[BaseMessage]] = []

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> "_ScriptedModel":
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.requests.append(list(messages))
        reply = self.script.pop(0) if self.script else AIMessage(content="Done.")
        return ChatResult(generations=[ChatGeneration(message=reply)])


@tool
def delete_record(record: str) -> str:
    """Delete a record."""
    return f"deleted {record}"


@tool
def read_record(record: str) -> str:
    """Read a record."""
    return f"read {record}"


DELETE = {"name": "delete_record", "args": {"record": "r-1"}, "id": "call-1"}
READ = {"name": "read_record", "args": {"record": "r-1"}, "id": "call-2"}


def _unanswered(messages: Sequence[BaseMessage]) -> list[str]:
    """Tool call ids not answered by the tool messages right after their AI message."""
    missing = []
    for index, message in enumerate(messages):
        if not isinstance(message, AIMessage):
            continue
        after = []
        for later in messages[index + 1 :]:
            if not isinstance(later, ToolMessage):
                break
            after.append(later.tool_call_id)
        missing += [call["id"] for call in message.tool_calls if call["id"] not in after]
    return missing


def _summarization(keep: int) -> SummarizationMiddleware:
    return SummarizationMiddleware(
        model=_ScriptedModel(script=[], requests=[]),
        trigger=("messages", 2),
        keep=("messages", keep),
    )


@pytest.mark.parametrize(
    ("middleware", "calls"),
    [
        pytest.param(lambda: [], [DELETE], id="hitl-only"),
        pytest.param(lambda: [_summarization(2)], [DELETE], id="summarization-keep-2"),
        pytest.param(lambda: [], [DELETE, READ], id="with-an-unreviewed-call"),
    ],
)
def test_new_message_while_interrupted_answers_the_reviewed_call(
    middleware: Any, calls: list[dict[str, Any]]
) -> None:
    """A message sent instead of a decision must not leave the reviewed call unanswered.

    The new input starts a new run, so the interrupt is dropped and the `AIMessage` keeps its
    tool calls (the reviewed one, and any waiting with it) with no `ToolMessage`: OpenAI
    refuses the next request ("An assistant message with 'tool_calls' must be followed by tool
    messages ..."), and `SummarizationMiddleware` keeps the call at the cut or summarizes it
    unanswered.
    """
    model = _ScriptedModel(script=[AIMessage(content="", tool_calls=calls)], requests=[])
    agent = create_agent(
        model=model,
        tools=[delete_record, read_record],
        middleware=[*middleware(), HumanInTheLoopMiddleware(interrupt_on={"delete_record": True})],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "1"}}

    paused = agent.invoke({"messages": [HumanMessage("Delete r-1.")]}, config)
    assert "__interrupt__" in paused

    agent.invoke({"messages": [HumanMessage("Never mind, what time is it?")]}, config)

    assert _unanswered(model.requests[-1]) == []
    assert _unanswered(agent.get_state(config).values["messages"]) == []
