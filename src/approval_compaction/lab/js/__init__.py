"""The JavaScript study: the same scenario on ``@openai/agents``, judged by the same invariants.

``items`` maps the JS SDK's items to the wire's shapes and reads the harness's captures into
``CaseRun`` records; ``packages`` installs releases with npm; ``harness`` runs the Node harness
against the stand-in; ``sweep`` runs every release that has the compaction session; ``stall``
runs a plain conversation on each, for the session that stops compacting after its first
compaction, and ``fakes`` reads which answer the SDK's own tests give ``responses.compact``.
Its tables are ``findings.js`` and ``findings.stall``; its commands ``share.js``.
"""
