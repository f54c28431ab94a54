"""Wire: the SDK's own Responses model and compaction call, over HTTP, against a local stand-in.

``rules`` holds the input checks the stand-in enforces, each with its public source;
``standin`` answers requests like the Responses API (framework-free); ``app`` serves it as a
Starlette ASGI app; ``transport`` builds an ``AsyncOpenAI`` client on an in-process
``httpx.ASGITransport``; ``server`` runs the app on a real port with uvicorn (``python -m
approval_compaction serve``). It imports nothing of the study nor of an SDK's folder: a driver
puts a conversation on it (the Python SDK's through its ``wiring``).
"""
