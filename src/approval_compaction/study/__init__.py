"""Study: run conversations through the SDK's public API; capture what each stage stored and sent.

The shared words (``words``), the scenario's cases (``scenario``), the steps of a conversation
and the one driver that takes them (``driver``), with the agent's tools (``tools``), the model
wiring (``wiring``: the scripted model and its compaction client, or the SDK's own over HTTP)
and the worker process of the process boundary (``worker``); our scripted model (``model``),
the RunState JSON boundary (``state``), the sixteen cases as conversations (``harness``), the
liveness situations (``situations``) and the plain records they leave behind (``items``,
``capture``). Nothing here
imports pandas or matplotlib, so a release's probe can run it with only the SDK installed.
"""
