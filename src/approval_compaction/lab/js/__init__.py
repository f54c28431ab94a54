"""The JavaScript study: the same scenario on ``@openai/agents``, judged by the same invariants.

``items`` maps the JS SDK's items to the wire's shapes and reads the harness's captures into
``CaseRun`` records; ``packages`` installs releases with npm; ``harness`` runs the Node harness
against the stand-in; ``sweep`` runs every release that has the compaction session. Its tables
are ``findings.js``; its commands ``share.js``.
"""
