"""The JavaScript driver: the study's scenario on ``@openai/agents``, in the study's capture format.

``harness.mjs`` is the one Node driver (ESM, the SDK's public API, over HTTP to the stand-in): it
drives and records, and judges nothing. ``harness`` runs it on the ``@openai/agents`` installed in
any folder (the project's pinned one, a release's, or a team's own ``node_modules``) and reads
what it wrote; ``items`` maps the JS SDK's item protocol (``function_call_result``, ``callId``)
to the wire's shapes, in this one place, both ways. It is part of the core, shipped in the wheel
(``harness.mjs`` as package data), so the doctor runs it for a team (``doctor check --js``,
``doctor items``); the lab's JS study (``lab.js``) sweeps releases with it.
"""
