"""The smallest reproduction: a new message sent to a thread that HumanInTheLoopMiddleware
interrupted leaves the reviewed tool call without its ToolMessage in the next model request.

Run it with langchain installed (no key, no network): it prints the message types the model is
sent after the new message and the tool call ids nothing answers, and exits 1 while one is left.
OpenAI answers such a request with 400 ("An assistant message with 'tool_calls' must be followed
by tool messages responding to each 'tool_call_id'", or at /v1/responses "No tool output found
for function call ...").
"""

import sys

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

SENT = []


class Model(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self

    def _generate(self, messages, *args, **kwargs):
        SENT.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


@tool
def delete_record(record: str) -> str:
    """Delete a record."""
    return f"deleted {record}"


call = {"name": "delete_record", "args": {"record": "r-1"}, "id": "call-1"}
replies = iter([AIMessage(content="", tool_calls=[call]), AIMessage(content="It is noon.")])
agent = create_agent(
    model=Model(messages=replies),
    tools=[delete_record],
    middleware=[HumanInTheLoopMiddleware(interrupt_on={"delete_record": True})],
    checkpointer=InMemorySaver(),
)
config = {"configurable": {"thread_id": "1"}}
agent.invoke({"messages": [{"role": "user", "content": "Delete r-1."}]}, config)
agent.invoke({"messages": [{"role": "user", "content": "Never mind. What time is it?"}]}, config)
answered = {m.tool_call_id for m in SENT[-1] if isinstance(m, ToolMessage)}
unanswered = [
    c["id"]
    for m in SENT[-1]
    if isinstance(m, AIMessage)
    for c in m.tool_calls
    if c["id"] not in answered
]
print("sent:", [m.type for m in SENT[-1]])
print("unanswered tool calls:", unanswered)
sys.exit(1 if unanswered else 0)
